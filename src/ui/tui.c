// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/tui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "analysis/sort.h"
#include "app.h"
#include "ui/colors.h"
#include "ui/keymap.h"
#include "ui/layout.h"
#include "ui/screen.h"
#include "ui/term.h"
#include "util/clock.h"
#include "util/msg.h"

/* How long a message stays on the status line. */
#define MSG_NS (3ull * 1000000000ull)
#define KEY_ESC 27

/* What a key asks the loop to do besides redrawing. */
enum reaction {
	REACT_NONE = 0,
	REACT_QUIT = 1,
	REACT_SAMPLE = 2,	/* sample now, not at the next deadline */
};

void tui_emergency_restore(void)
{
	term_emergency_restore();
}

__attribute__((format(printf, 2, 3)))
static void set_msg(struct tui_state *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_until = mono_now_ns() + MSG_NS;
}

/* Filter and sort the snapshot's rows; the selection follows its program. */
static void rebuild_view(struct tui_state *t)
{
	if (rows_view(app__snapshot(t->app), t->filter, t->sort, &t->view,
		      &t->view_cap, &t->nview)) {
		set_msg(t, "out of memory: showing nothing");
		return;
	}
	t->sel = layout_follow(t->view, t->nview, t->sel_id, t->sel);
	/* With nothing shown, remember whom to select when rows return. */
	if (t->nview)
		t->sel_id = t->view[t->sel].s->id;
}

static void sample(struct tui_state *t)
{
	int err = app__sample(t->app);

	if (err)
		set_msg(t, "cannot sample BPF programs: %s", strerror(-err));
	t->stats = app__stats_state(t->app);
	/* The demo's counters, once per refresh rather than per redraw. */
	if (app__demo(t->app))
		t->demo_ok = !demo__counts(app__demo(t->app), t->demo_counts);
	rebuild_view(t);
}

/* Refetch maps and links for another program, or after a refresh. */
static void update_details(struct tui_state *t)
{
	if (!t->details || !t->nview)
		return;
	if (t->detail_id == t->sel_id && t->detail_seq == app__snapshot(t->app)->seq)
		return;
	app_prog_detail_free(&t->detail);
	t->detail_err = app_prog_detail(t->sel_id, &t->detail);
	t->detail_id = t->sel_id;
	t->detail_seq = app__snapshot(t->app)->seq;
}

static void move_sel(struct tui_state *t, long delta)
{
	long sel = (long)t->sel + delta;

	if (!t->nview)
		return;
	if (sel < 0)
		sel = 0;
	if (sel >= (long)t->nview)
		sel = (long)t->nview - 1;
	t->sel = (size_t)sel;
	t->sel_id = t->view[t->sel].s->id;
}

static void toggle_stats(struct tui_state *t)
{
	bool was_on = stats_state_on(t->stats);
	int err = app__toggle_stats(t->app);

	t->stats = app__stats_state(t->app);
	if (err == -EBUSY)
		set_msg(t, "stats are on system-wide (kernel.bpf_stats_enabled=1): not turning them off");
	else if (err)
		set_msg(t, "cannot turn stats %s: %s", was_on ? "off" : "on",
			strerror(-err));
	else
		set_msg(t, "run-time stats turned %s",
			stats_state_on(t->stats) ? "on" : "off");
}

static long page_rows(const struct tui_state *t)
{
	return t->page ? (long)t->page : 1;
}

/*
 * One function per action of the key table (ui/keymap.c binds the keys);
 * each returns what the loop must do besides redrawing.
 */
static enum reaction act_up(struct tui_state *t)
{
	move_sel(t, -1);
	return REACT_NONE;
}

static enum reaction act_down(struct tui_state *t)
{
	move_sel(t, 1);
	return REACT_NONE;
}

static enum reaction act_pgup(struct tui_state *t)
{
	move_sel(t, -page_rows(t));
	return REACT_NONE;
}

static enum reaction act_pgdn(struct tui_state *t)
{
	move_sel(t, page_rows(t));
	return REACT_NONE;
}

static enum reaction act_home(struct tui_state *t)
{
	move_sel(t, -(long)t->sel);
	return REACT_NONE;
}

static enum reaction act_end(struct tui_state *t)
{
	move_sel(t, (long)t->nview);
	return REACT_NONE;
}

static enum reaction act_details(struct tui_state *t)
{
	t->details = !t->details;
	t->detail_id = 0;	/* fetch afresh when it opens */
	return REACT_NONE;
}

/*
 * p: profile the selected program, or stop. A refusal stays in the pane
 * (the status line is too short for some reasons) until p again.
 */
static enum reaction act_profile(struct tui_state *t)
{
	struct app *a = t->app;
	char msg[256];

	if (app__profiling(a)) {
		app__profile_stop(a);
		set_msg(t, "profiling stopped: nothing of it stays attached");
		return REACT_NONE;
	}
	if (app__profile_msg(a)[0]) {
		app__profile_msg_clear(a);
		return REACT_NONE;
	}
	if (!t->nview) {
		set_msg(t, "no program selected to profile");
		return REACT_NONE;
	}
	set_msg(t, "attaching the profiler to program %u...", t->sel_id);
	screen_draw(t);
	/* A refusal stays in the profile pane too (app__profile_msg()). */
	if (app__profile_start(a, t->sel_id, msg, sizeof(msg))) {
		set_msg(t, "%s", msg);
	} else {
		set_msg(t, "profiling program %u (p stops)", t->sel_id);
	}
	return REACT_NONE;
}

/*
 * a: sample the selected program and show its hot lines, or stop. A
 * refusal stays in the pane until a again; a program without line info
 * is sampled all the same, per subprogram.
 */
static enum reaction act_hot(struct tui_state *t)
{
	struct app *a = t->app;
	char msg[256];
	int err;

	if (app__hot_active(a)) {
		app__hot_stop(a);
		app__hot_msg_clear(a);
		set_msg(t, "hot lines stopped: every sampling event is closed");
		return REACT_NONE;
	}
	if (app__hot_msg(a)[0]) {
		app__hot_msg_clear(a);
		return REACT_NONE;
	}
	if (!t->nview) {
		set_msg(t, "no program selected to sample");
		return REACT_NONE;
	}
	t->hot_source_order = false;
	t->hot_cumulative = false;
	err = app__hot_start(a, t->sel_id, msg, sizeof(msg));
	/* A refusal stays in the hot-lines pane too (app__hot_msg()). */
	if (err) {
		set_msg(t, "%s", msg);
	} else {
		set_msg(t, "sampling program %u: hot lines fill in within seconds (a stops)",
			t->sel_id);
	}
	return REACT_NONE;
}

static enum reaction act_hot_order(struct tui_state *t)
{
	struct app *a = t->app;

	if (!app__hot_active(a)) {
		set_msg(t, "o orders hot lines: open them first with a");
		return REACT_NONE;
	}
	t->hot_source_order = !t->hot_source_order;
	app__hot_set_order(a, t->hot_source_order);
	set_msg(t, "hot lines %s", t->hot_source_order ? "in source order" :
							 "hottest first");
	return REACT_NONE;
}

static enum reaction act_hot_window(struct tui_state *t)
{
	struct app *a = t->app;

	if (!app__hot_active(a)) {
		set_msg(t, "w switches the hot-lines window: open them first with a");
		return REACT_NONE;
	}
	t->hot_cumulative = !t->hot_cumulative;
	app__hot_set_window(a, t->hot_cumulative);
	set_msg(t, "hot lines: %s", t->hot_cumulative ? "cumulative since a" :
							"the last 5 s");
	return REACT_NONE;
}

static enum reaction act_stats(struct tui_state *t)
{
	toggle_stats(t);
	return REACT_NONE;
}

static enum reaction act_sort_prev(struct tui_state *t)
{
	t->sort = col_sort_step(t->sort, -1);
	rebuild_view(t);
	return REACT_NONE;
}

static enum reaction act_sort_next(struct tui_state *t)
{
	t->sort = col_sort_step(t->sort, 1);
	rebuild_view(t);
	return REACT_NONE;
}

static enum reaction act_filter(struct tui_state *t)
{
	t->editing = true;
	return REACT_NONE;
}

static enum reaction act_pause(struct tui_state *t)
{
	t->paused = !t->paused;
	/* Back from a pause, show fresh numbers at once. */
	return t->paused ? REACT_NONE : REACT_SAMPLE;
}

static enum reaction act_log(struct tui_state *t)
{
	t->log = true;
	return REACT_NONE;
}

/* R: "deploy the bad build", or roll it back (demo only). */
static enum reaction act_demo_regress(struct tui_state *t)
{
	struct demo *d = app__demo(t->app);
	bool on;
	int err;

	if (!d) {
		set_msg(t, "R works with --demo only");
		return REACT_NONE;
	}
	on = !demo__regressed(d);
	err = demo__set_regressed(d, on);
	if (err)
		set_msg(t, "cannot %s the regression: %s",
			on ? "land" : "revert", strerror(-err));
	else
		set_msg(t, "regression %s", on ? "landed" : "reverted");
	return REACT_NONE;
}

/* g: the details graph's window, 1, 5, 15 minutes and round again. */
static enum reaction act_graph_window(struct tui_state *t)
{
	t->graph_window = (t->graph_window + 1) % 3;
	set_msg(t, "graph window: %u min", t->graph_window == 0 ? 1u :
		t->graph_window == 1 ? 5u : 15u);
	return REACT_NONE;
}

static enum reaction act_help(struct tui_state *t)
{
	t->help = true;
	return REACT_NONE;
}

static enum reaction act_quit(struct tui_state *t)
{
	return REACT_QUIT;
}

static enum reaction (*const actions[ACT__MAX])(struct tui_state *t) = {
	[ACT_UP] = act_up,
	[ACT_DOWN] = act_down,
	[ACT_PGUP] = act_pgup,
	[ACT_PGDN] = act_pgdn,
	[ACT_HOME] = act_home,
	[ACT_END] = act_end,
	[ACT_DETAILS] = act_details,
	[ACT_PROFILE] = act_profile,
	[ACT_HOT] = act_hot,
	[ACT_HOT_ORDER] = act_hot_order,
	[ACT_HOT_WINDOW] = act_hot_window,
	[ACT_STATS] = act_stats,
	[ACT_SORT_PREV] = act_sort_prev,
	[ACT_SORT_NEXT] = act_sort_next,
	[ACT_FILTER] = act_filter,
	[ACT_PAUSE] = act_pause,
	[ACT_LOG] = act_log,
	[ACT_DEMO_REGRESS] = act_demo_regress,
	[ACT_GRAPH_WINDOW] = act_graph_window,
	[ACT_HELP] = act_help,
	[ACT_QUIT] = act_quit,
};

/* Drop the last character of @s (all its bytes, in the locale's encoding). */
static void drop_last_char(char *s)
{
	size_t n = strlen(s), i = 0, last = 0;
	mbstate_t st = { 0 };

	while (i < n) {
		size_t k = mbrlen(s + i, n - i, &st);

		if (k == (size_t)-1 || k == (size_t)-2 || !k) {
			/* Not a character here: a byte stands for itself. */
			memset(&st, 0, sizeof(st));
			k = 1;
		}
		last = i;
		i += k;
	}
	s[last] = '\0';
}

/*
 * The filter prompt: every key edits the text, which filters as typed.
 * @ch is a character when @fkey is false (any script: the filter is kept
 * in the locale's multibyte encoding), a curses KEY_ code otherwise.
 */
static void filter_key(struct tui_state *t, wint_t ch, bool fkey)
{
	size_t n = strlen(t->filter);
	char mb[MB_LEN_MAX];
	mbstate_t st = { 0 };
	size_t k;

	if (fkey) {
		if (ch == KEY_ENTER) {
			t->editing = false;
			return;
		}
		if (ch != KEY_BACKSPACE)
			return;
		ch = 127;
	}
	switch (ch) {
	case KEY_ESC:
		t->filter[0] = '\0';
		t->editing = false;
		break;
	case '\n':
	case '\r':
		t->editing = false;
		return;
	case 127:
	case '\b':
		if (!n)
			return;
		drop_last_char(t->filter);
		break;
	default:
		if (!iswprint(ch))
			return;
		k = wcrtomb(mb, (wchar_t)ch, &st);
		if (k == (size_t)-1 || n + k >= sizeof(t->filter))
			return;
		memcpy(t->filter + n, mb, k);
		t->filter[n + k] = '\0';
		break;
	}
	rebuild_view(t);
}

/* A key from get_wch(): a character, or a curses KEY_ code when @fkey. */
static enum reaction handle_key(struct tui_state *t, wint_t ch, bool fkey)
{
	enum key_action act;

	if (fkey && ch == KEY_RESIZE) {
		/* ncurses resized stdscr already; repaint every cell. */
		clearok(curscr, TRUE);
		return REACT_NONE;
	}
	if (t->help) {
		t->help = false;
		return REACT_NONE;
	}
	if (t->log) {
		t->log = false;
		return REACT_NONE;
	}
	if (t->editing) {
		filter_key(t, ch, fkey);
		return REACT_NONE;
	}
	/* The key table binds ASCII characters and KEY_ codes only. */
	if (!fkey && ch >= 0x80)
		return REACT_NONE;
	act = keymap_lookup((int)ch);
	if (act < 0 || act >= ACT__MAX || !actions[act])
		return REACT_NONE;
	return actions[act](t);
}

/* Milliseconds until the next refresh or message expiry; -1: none due. */
static int wait_ms(const struct tui_state *t, unsigned long long next)
{
	unsigned long long now = mono_now_ns(), until = ULLONG_MAX;

	if (!t->paused)
		until = next;
	if (t->msg[0] && t->msg_until < until)
		until = t->msg_until;
	if (until == ULLONG_MAX)
		return -1;
	if (until <= now)
		return 0;
	until = (until - now + 999999) / 1000000;
	return until > INT_MAX ? INT_MAX : (int)until;
}

static int run_loop(struct tui_state *t)
{
	const struct ebpftop_opts *o = app__opts(t->app);
	unsigned long long delay = (unsigned long long)(o->delay_s * 1e9);
	unsigned long long next = mono_now_ns();
	unsigned long refreshes = 0;
	bool dirty = true;

	while (!app_quit) {
		unsigned long long now = mono_now_ns();
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		wint_t wc;
		int ch, r;

		if (!t->paused && now >= next) {
			sample(t);
			refreshes++;
			dirty = true;
			next += delay;
			/* Fell behind (a slow sample, a stop): do not burst. */
			if (next <= now)
				next = now + delay;
		}
		if (t->msg[0] && now >= t->msg_until) {
			t->msg[0] = '\0';
			dirty = true;
		}
		if (dirty) {
			update_details(t);
			screen_draw(t);
			dirty = false;
		}
		if (o->iterations && refreshes >= o->iterations)
			return 0;
		/* Quit signals and SIGWINCH interrupt poll (no SA_RESTART). */
		r = poll(&pfd, 1, wait_ms(t, next));
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;	/* the terminal went away */
		while (!app_quit && (ch = get_wch(&wc)) != ERR) {
			enum reaction re = handle_key(t, wc, ch == KEY_CODE_YES);

			dirty = true;
			if (re & REACT_QUIT)
				return 0;
			if (re & REACT_SAMPLE)
				next = mono_now_ns();
		}
	}
	return 0;
}

int tui_run(struct app *a)
{
	struct tui_state t = { .app = a, .sort = app__opts(a)->sort };
	char msg[256];
	SCREEN *scr;
	int err;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "ebpftop: the full-screen view needs a terminal: use -b for text output\n");
		return -ENOTTY;
	}
	if (app__opts(a)->filter)
		snprintf(t.filter, sizeof(t.filter), "%s", app__opts(a)->filter);
	setlocale(LC_ALL, "");
	/* Numbers read the same as in batch output, whatever the locale. */
	setlocale(LC_NUMERIC, "C");
	t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	t.stats = app__stats_state(a);
	err = term_start(&scr, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "ebpftop: %s\n", msg);
		return err;
	}
	err = run_loop(&t);
	term_stop(scr);
	app_prog_detail_free(&t.detail);
	free(t.view);
	if (err)
		fprintf(stderr, "ebpftop: terminal input failed: %s\n",
			strerror(-err));
	return err;
}
