// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/screen.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "analysis/regress.h"
#include "ui/colors.h"
#include "ui/keymap.h"
#include "ui/layout.h"
#include "ui/profile_pane.h"
#include "util/clock.h"

/* Widest cell we build; wider terminals get blank space past it. */
#define CELL_MAX 1024

/* Short names for the key bar; actions without one stay off the bar. */
static const char *const bar_labels[ACT__MAX] = {
	[ACT_DETAILS] = "Details",
	[ACT_PROFILE] = "Profile",
	[ACT_STATS] = "Stats",
	[ACT_SORT_PREV] = "Sort",
	[ACT_SORT_NEXT] = "Sort",
	[ACT_FILTER] = "Filter",
	[ACT_PAUSE] = "Pause",
	[ACT_LOG] = "Log",
	[ACT_DEMO_REGRESS] = "Regress",
	[ACT_HELP] = "Help",
	[ACT_QUIT] = "Quit",
};

static const char *bar_label(enum key_action a)
{
	return a >= 0 && a < ACT__MAX ? bar_labels[a] : NULL;
}

static const char *ellipsis(const struct tui_state *t)
{
	return t->utf8 ? "\xe2\x80\xa6" : "~";	/* U+2026 … */
}

static const char *sort_marker(const struct tui_state *t, enum col k)
{
	bool ascending = col_def(k)->ascending;

	/* U+25B2 ▲ and U+25BC ▼ */
	if (t->utf8)
		return ascending ? "\xe2\x96\xb2" : "\xe2\x96\xbc";
	return ascending ? "^" : "v";
}

/* Write @text in @w columns at (@y, @x), never past the right edge. */
static void put_text(int y, int x, int w, attr_t attr, const char *text,
		     bool right, const char *ell)
{
	char buf[CELL_MAX + 8];

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return;
	if (w > COLS - x)
		w = COLS - x;
	if (w <= 0)
		return;
	layout_fit(buf, sizeof(buf), text, w, right, ell);
	attrset(attr);
	mvaddstr(y, x, buf);
}

/* Paint @w columns of blank in @attr: the background of bars and rows. */
static void fill(int y, int x, int w, attr_t attr)
{
	put_text(y, x, w, attr, "", false, "~");
}

/* Write @text from *@x on, advancing *@x; returns false when out of room. */
static bool put_seg(int y, int *x, attr_t attr, const char *text,
		    const char *ell)
{
	int len = (int)layout_width(text);

	if (*x >= COLS)
		return false;
	put_text(y, *x, len, attr, text, false, ell);
	*x += len;
	return *x < COLS;
}

static void draw_header(const struct tui_state *t, int y)
{
	const struct snapshot *s = &t->app->snap;
	char line[CELL_MAX], pct[32];

	if (y < 0)
		return;
	if (isnan(snapshot_total_share(s)))
		snprintf(pct, sizeof(pct), "-");
	else
		snprintf(pct, sizeof(pct), "%.2f%%",
			 snapshot_total_share(s));
	/* Narrower screens get shorter forms; the kernel goes last. */
	for (int pass = 0; pass < 4; pass++) {
		const char *k = s->kernel ? s->kernel : "?";
		const char *st = stats_state_str(t->stats);

		if (pass == 0)
			snprintf(line, sizeof(line),
				 "ebpftop %s  kernel %s  stats: %s  programs: %zu (%zu shown)  BPF CPU: %s of %u CPUs",
				 PACKAGE_VERSION, k, st, s->nr_rows, t->nview,
				 pct, s->ncpus);
		else if (pass == 1)
			snprintf(line, sizeof(line),
				 "kernel %s  stats: %s  programs: %zu (%zu shown)  BPF CPU: %s of %u CPUs",
				 k, st, s->nr_rows, t->nview, pct, s->ncpus);
		else if (pass == 2)
			snprintf(line, sizeof(line),
				 "kernel %s  stats: %s  progs: %zu/%zu  cpu: %s/%u",
				 k, st, t->nview, s->nr_rows, pct, s->ncpus);
		else
			snprintf(line, sizeof(line),
				 "stats: %s  progs: %zu/%zu  cpu: %s/%u", st,
				 t->nview, s->nr_rows, pct, s->ncpus);
		if ((int)strlen(line) <= COLS)
			break;
	}
	put_text(y, 0, COLS, color(ROLE_HEADER), line, false, ellipsis(t));
}

/* The worst regression among the rows shown, and how many there are. */
static const struct prog_row *worst_regression(const struct tui_state *t,
					       size_t *count)
{
	const struct prog_row *worst = NULL;

	*count = 0;
	for (size_t i = 0; i < t->nview; i++) {
		const struct prog_row *r = &t->view[i];

		if (!r->reg.active)
			continue;
		(*count)++;
		if (!worst || r->reg.change_pct > worst->reg.change_pct)
			worst = r;
	}
	return worst;
}

static void fmt_clock(char *buf, size_t len, double unix_s)
{
	time_t tt = (time_t)unix_s;
	struct tm tm;

	snprintf(buf, len, "?");
	if (!isnan(unix_s) && localtime_r(&tt, &tm))
		strftime(buf, len, "%H:%M:%S", &tm);
}

/* "REGRESSION: name +240% ns/run (+2 more)", only while one is flagged. */
static void draw_banner(const struct tui_state *t, int y)
{
	const struct prog_row *w;
	char line[CELL_MAX], chg[32], more[32] = "", when[16];
	size_t k;

	if (y < 0)
		return;
	w = worst_regression(t, &k);
	if (!w)
		return;
	if (k > 1)
		snprintf(more, sizeof(more), " (+%zu more)", k - 1);
	fmt_clock(when, sizeof(when), w->reg.since);
	snprintf(line, sizeof(line),
		 "REGRESSION: %s %s ns/run%s  since %s: %.1f ns, baseline %.1f ns  (l: event log)",
		 display_name(w->s),
		 regress_fmt_change(chg, sizeof(chg), w->reg.change_pct), more,
		 when, w->reg.current_ns, w->reg.baseline_ns);
	fill(y, 0, COLS, color(ROLE_BANNER));
	put_text(y, 0, COLS, color(ROLE_BANNER), line, false, ellipsis(t));
}

/* The demo's class counters and its switch. */
static void draw_demo(const struct tui_state *t, int y)
{
	struct demo *d = t->app->demo;
	char line[CELL_MAX];
	size_t off;

	if (y < 0 || !d)
		return;
	off = (size_t)snprintf(line, sizeof(line), "demo: program %" PRIu32,
			       demo__prog_id(d));
	for (int c = 0; c < DEMO__CLASSES && off < sizeof(line); c++) {
		int n;

		if (t->demo_ok)
			n = snprintf(line + off, sizeof(line) - off,
				     "  %s %" PRIu64,
				     demo_class_name((enum demo_class)c),
				     t->demo_counts[c]);
		else
			n = snprintf(line + off, sizeof(line) - off, "  %s ?",
				     demo_class_name((enum demo_class)c));
		if (n < 0)
			break;
		off += (size_t)n;
	}
	if (off < sizeof(line))
		snprintf(line + off, sizeof(line) - off,
			 "  regressed: %s  (R lands/reverts)",
			 demo__regressed(d) ? "yes" : "no");
	put_text(y, 0, COLS, color(ROLE_STATUS), line, false, ellipsis(t));
}

/* The status line; returns the cursor column when the prompt is open. */
static int draw_status(const struct tui_state *t, int y,
		       unsigned long long now)
{
	const char *ell = ellipsis(t);
	char buf[TUI_FILTER_MAX + 64];
	int x = 0;

	if (y < 0)
		return -1;
	if (t->editing) {
		put_seg(y, &x, color(ROLE_MESSAGE),
			"filter (Enter keeps, Esc clears): ", ell);
		put_seg(y, &x, color(ROLE_STATUS), t->filter, ell);
		return x < COLS ? x : COLS - 1;
	}
	snprintf(buf, sizeof(buf), "sort: %s", col_sort_name(t->sort));
	if (!put_seg(y, &x, color(ROLE_STATUS), buf, ell))
		return -1;
	if (t->filter[0]) {
		snprintf(buf, sizeof(buf), "  filter: %s", t->filter);
		if (!put_seg(y, &x, color(ROLE_STATUS), buf, ell))
			return -1;
	}
	if (t->paused && !put_seg(y, &x, color(ROLE_MESSAGE), "  PAUSED", ell))
		return -1;
	if (t->msg[0] && now < t->msg_until) {
		if (!put_seg(y, &x, color(ROLE_STATUS), "  ", ell))
			return -1;
		put_seg(y, &x, color(ROLE_MESSAGE), t->msg, ell);
	}
	return -1;
}

/* The width each measured column would like: its widest cell. */
static void measure(const struct tui_state *t, int want[COL__MAX])
{
	char buf[512];

	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		const struct col_fmt fmt = { .utf8 = t->utf8, .width = d->max_w };

		want[c] = 0;
		if (!d->label || d->width != COL_MEASURED)
			continue;
		for (size_t i = 0; i < t->nview; i++) {
			int n = (int)layout_width(d->cell(buf, sizeof(buf),
							  &t->view[i], &fmt));

			if (n > want[c])
				want[c] = n;
		}
	}
}

/* The sort column's label with its marker on the inner side: "  CPU%▼". */
static void draw_sort_label(const struct tui_state *t, int y, int x, int w,
			    enum col c)
{
	const char *label = col_label(c);
	int len = (int)strlen(label);
	char buf[64];

	fill(y, x, w, color(ROLE_SORTCOL));
	if (w < len + 1 || x + w > COLS || w >= (int)sizeof(buf) - 8) {
		/* No room for the marker: the colour alone has to do. */
		put_text(y, x, w, color(ROLE_SORTCOL), label, col_right(c),
			 ellipsis(t));
		return;
	}
	snprintf(buf, sizeof(buf), "%*s%s%s", col_right(c) ? w - len - 1 : 0,
		 "", label, sort_marker(t, t->sort));
	attrset(color(ROLE_SORTCOL));
	mvaddstr(y, x, buf);
}

static void draw_colhdr(const struct tui_state *t, int y,
			const struct col_layout *cl)
{
	if (y < 0)
		return;
	fill(y, 0, COLS, color(ROLE_COLHDR));
	for (int c = 0; c < COL__MAX; c++) {
		if (!cl->shown[c])
			continue;
		if (c == (int)t->sort)
			draw_sort_label(t, y, cl->x[c], cl->w[c], c);
		else
			put_text(y, cl->x[c], cl->w[c], color(ROLE_COLHDR),
				 col_label(c), col_right(c), ellipsis(t));
	}
}

static void draw_row(const struct tui_state *t, int y,
		     const struct col_layout *cl, const struct prog_row *row,
		     bool selected)
{
	attr_t attr = color(selected ? ROLE_SELECTED :
			    row->reg.active ? ROLE_REGRESSED : ROLE_NORMAL);
	char buf[512];

	if (selected)
		fill(y, 0, COLS, attr);
	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		struct col_fmt fmt = { .utf8 = t->utf8, .width = cl->w[c] };
		const char *text;

		if (!cl->shown[c])
			continue;
		if (d->marker) {
			/* The marker is the flag without colour: ▲ or ^. */
			if (cl->w[c] > COLS - cl->x[c])
				fmt.width = COLS - cl->x[c];
			if (fmt.width <= 0)
				continue;
			text = d->cell(buf, sizeof(buf), row, &fmt);
			if (!*text)
				continue;
			attrset(color(ROLE_FLAG));
			mvaddstr(y, cl->x[c], text);
			continue;
		}
		text = d->cell(buf, sizeof(buf), row, &fmt);
		put_text(y, cl->x[c], cl->w[c], attr, text, col_right(c),
			 ellipsis(t));
	}
}

static void draw_table(struct tui_state *t, const struct screen_layout *l)
{
	int want[COL__MAX];
	struct col_layout cl;

	measure(t, want);
	layout_columns(COLS, want, t->sort, &cl);
	draw_colhdr(t, l->colhdr_y, &cl);
	t->page = l->rows_h > 0 ? (size_t)l->rows_h : 1;
	t->top = layout_scroll(t->top, t->sel, t->nview, t->page);
	if (l->rows_h <= 0)
		return;
	if (!t->nview) {
		char msg[TUI_FILTER_MAX + 32];
		int len, x;

		if (t->filter[0])
			snprintf(msg, sizeof(msg), "no program matches '%s'",
				 t->filter);
		else
			snprintf(msg, sizeof(msg), "no BPF programs loaded");
		len = (int)strlen(msg);
		x = len < COLS ? (COLS - len) / 2 : 0;
		put_text(l->rows_y + (l->rows_h - 1) / 2, x, len,
			 color(ROLE_EMPTY), msg, false, ellipsis(t));
		return;
	}
	for (int i = 0; i < l->rows_h && t->top + (size_t)i < t->nview; i++) {
		size_t r = t->top + (size_t)i;

		draw_row(t, l->rows_y + i, &cl, &t->view[r], r == t->sel);
	}
}

/* Where the details pane writes: lines y..end-1, values from column vx. */
struct pane {
	int y;
	int end;
	int vx;
	const char *ell;
};

/*
 * One "label  value" entry; long values wrap at spaces onto the following
 * lines, so the full name and every map stay readable.
 */
__attribute__((format(printf, 3, 4)))
static void pane_line(struct pane *p, const char *label, const char *fmt, ...)
{
	char text[2048];
	const char *s = text;
	int w = COLS - p->vx;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (p->y >= p->end)
		return;
	put_text(p->y, 1, p->vx - 1, color(ROLE_DETAILS_LABEL), label, false,
		 p->ell);
	if (w <= 0) {
		p->y++;
		return;
	}
	do {
		const char *start = s;
		char chunk[CELL_MAX];
		int n = (int)strlen(s);

		if (n > w) {
			/* Break after the last space that fits, if any. */
			int cut = w;

			while (cut > 1 && cut > w / 2 && s[cut - 1] != ' ')
				cut--;
			n = cut > 0 && s[cut - 1] == ' ' ? cut : w;
		}
		if (n >= (int)sizeof(chunk))
			n = (int)sizeof(chunk) - 1;
		memcpy(chunk, s, (size_t)n);
		chunk[n] = '\0';
		s += n;
		/* The last line that fits shows there was more. */
		if (*s && p->y + 1 == p->end)
			put_text(p->y, p->vx, w, color(ROLE_NORMAL), start,
				 false, p->ell);
		else
			put_text(p->y, p->vx, w, color(ROLE_NORMAL), chunk,
				 false, p->ell);
		p->y++;
	} while (*s && p->y < p->end);
}

/* "a, b, c" of a list into @buf. */
static void join_maps(char *buf, size_t len, const struct app_prog_detail *d)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < d->nr_maps && off < len; i++) {
		const struct app_map_ref *m = &d->maps[i];
		int n = snprintf(buf + off, len - off, "%s%" PRIu32 " %s (%s)",
				 i ? ", " : "", m->id,
				 m->name[0] ? m->name : "(unnamed)", m->type);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void join_links(char *buf, size_t len, const struct app_prog_detail *d)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < d->nr_links && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%" PRIu32 ": %s",
				 i ? ", " : "", d->links[i].id,
				 d->links[i].target);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static const struct prog_row *selected_row(const struct tui_state *t)
{
	if (t->nview && t->sel < t->nview && t->view[t->sel].s->id == t->sel_id)
		return &t->view[t->sel];
	return NULL;
}

/* "06:22:56-06:23:40 +935%" of one event into @buf; returns @buf. */
static char *fmt_event_span(char *buf, size_t len,
			    const struct regress_event *e)
{
	char a[16], b[16], chg[32];

	fmt_clock(a, sizeof(a), e->start);
	if (isnan(e->end))
		snprintf(b, sizeof(b), "now");
	else
		fmt_clock(b, sizeof(b), e->end);
	snprintf(buf, len, "%s-%s peak %s (baseline %.1f ns%s)", a, b,
		 regress_fmt_change(chg, sizeof(chg), e->peak_pct),
		 e->baseline_ns, e->gone ? ", program went away" : "");
	return buf;
}

/* What the detector knows of the program: baseline, now, its history. */
static void draw_details_regress(struct pane *p, const struct tui_state *t,
				 const struct prog_row *row)
{
	const struct prog_regression *g = &row->reg;
	const struct regress *r = t->app->regress;
	char buf[2048], chg[32], when[16], span[256];
	size_t off = 0, n = r ? regress__nr_events(r) : 0;

	if (g->active) {
		fmt_clock(when, sizeof(when), g->since);
		pane_line(p, "regress", "REGRESSED %s since %s: %.1f ns/run against a baseline of %.1f ns, clears at %.1f ns",
			  regress_fmt_change(chg, sizeof(chg), g->change_pct),
			  when, g->current_ns, g->baseline_ns, g->clear_ns);
	} else if (isnan(g->baseline_ns)) {
		pane_line(p, "regress",
			  "learning the baseline (refreshes with 100 runs or more count)");
	} else {
		pane_line(p, "regress",
			  "baseline %.1f ns/run, now %.1f ns (%s), flagged above %.1f ns",
			  g->baseline_ns, g->current_ns,
			  regress_fmt_change(chg, sizeof(chg), g->change_pct),
			  g->limit_ns);
	}
	/* Its regressions, newest first, across reloads (same tag and name). */
	buf[0] = '\0';
	for (size_t i = n; i-- > 0 && off < sizeof(buf);) {
		const struct regress_event *e = regress__event(r, i);
		int k;

		if (strcmp(e->tag, row->s->tag) || strcmp(e->name, row->s->name))
			continue;
		k = snprintf(buf + off, sizeof(buf) - off, "%s%s",
			     off ? "; " : "",
			     fmt_event_span(span, sizeof(span), e));
		if (k < 0)
			break;
		off += (size_t)k;
	}
	pane_line(p, "history", "%s", off ? buf : "no regression seen");
}

static void draw_details(const struct tui_state *t, int y, int h)
{
	const struct prog_row *row = selected_row(t);
	struct pane p = { .y = y + 1, .end = y + h, .vx = 11,
			  .ell = ellipsis(t) };
	const struct app_prog_detail *d = &t->detail;
	char title[128], when[64] = "?", buf[2048], rt[32];
	const struct prog_sample *s;
	struct timespec real, boot;

	if (y < 0 || h <= 0)
		return;
	if (!row) {
		fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
		put_text(y, 1, COLS - 1, color(ROLE_DETAILS_TITLE),
			 "no program selected (Enter closes)", false, p.ell);
		return;
	}
	s = row->s;
	snprintf(title, sizeof(title), "program %" PRIu32 " (Enter closes)",
		 s->id);
	fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
	put_text(y, 1, COLS - 1, color(ROLE_DETAILS_TITLE), title, false,
		 p.ell);
	if (p.vx >= COLS)
		p.vx = COLS / 2;

	if (s->load_time_ns && !clock_gettime(CLOCK_REALTIME, &real) &&
	    !clock_gettime(CLOCK_BOOTTIME, &boot)) {
		uint64_t bt = (uint64_t)boot.tv_sec * 1000000000u +
			      (uint64_t)boot.tv_nsec;
		double wall = layout_boot_to_wall(
			s->load_time_ns,
			(double)real.tv_sec + (double)real.tv_nsec / 1e9, bt);
		time_t tt = (time_t)wall;
		struct tm tm;

		if (localtime_r(&tt, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	}
	pane_line(&p, "name", "%s", display_name(s));
	if (s->btf_id)
		pane_line(&p, "id",
			  "%" PRIu32 "   type %s   tag %s   btf id %" PRIu32,
			  s->id, s->type_name ? s->type_name : "?", s->tag,
			  s->btf_id);
	else
		pane_line(&p, "id", "%" PRIu32 "   type %s   tag %s   no btf",
			  s->id, s->type_name ? s->type_name : "?", s->tag);
	pane_line(&p, "loaded", "%s by uid %" PRIu32, when, s->uid);
	if (t->detail_err)
		pane_line(&p, "size",
			  "xlated %" PRIu32 " B, jited %" PRIu32 " B",
			  s->xlated_len, s->jited_len);
	else
		pane_line(&p, "size",
			  "xlated %" PRIu32 " B, jited %" PRIu32 " B, %" PRIu32
			  " insns verified, gpl %s",
			  s->xlated_len, s->jited_len, d->verified_insns,
			  d->gpl ? "yes" : "no");
	pane_line(&p, "counters",
		  "run_cnt %" PRIu64 ", run_time %" PRIu64
		  " ns (%s), recursion misses %" PRIu64,
		  s->run_cnt, s->run_time_ns,
		  fmt_duration(rt, sizeof(rt), s->run_time_ns),
		  s->recursion_misses);
	draw_details_regress(&p, t, row);
	fmt_owners(buf, sizeof(buf), s);
	pane_line(&p, "owners", "%s",
		  buf[0] ? buf : "none (pinned or held by a link)");
	if (t->detail_err) {
		pane_line(&p, "maps", "cannot read maps and links: %s",
			  strerror(-t->detail_err));
		return;
	}
	join_maps(buf, sizeof(buf), d);
	pane_line(&p, "maps", "%s", d->nr_maps ? buf : "none");
	join_links(buf, sizeof(buf), d);
	pane_line(&p, "links", "%s", d->nr_links ? buf : "none");
}

/* Names of a binding's keys: "h/?/F1". */
static void key_names(char *buf, size_t len, const struct key_binding *b)
{
	size_t off = 0;

	buf[0] = '\0';
	/* Several codes can share one name (Enter is \n, \r and KEY_ENTER). */
	for (int k = 0; k < KEYMAP_MAX_KEYS && b->names[k] && off < len; k++) {
		int n = snprintf(buf + off, len - off, "%s%s", k ? "/" : "",
				 b->names[k]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void draw_help(const struct tui_state *t)
{
	const char *ell = ellipsis(t);
	char buf[CELL_MAX];
	int y = 0, kw = 0;

	snprintf(buf, sizeof(buf), "ebpftop %s: top for BPF programs. Keys:",
		 PACKAGE_VERSION);
	fill(y, 0, COLS, color(ROLE_HEADER));
	put_text(y++, 0, COLS, color(ROLE_HEADER), buf, false, ell);
	for (size_t i = 0; i < keymap_len; i++) {
		int n;

		key_names(buf, sizeof(buf), &keymap[i]);
		n = (int)strlen(buf);
		if (n > kw)
			kw = n;
	}
	y++;
	for (size_t i = 0; i < keymap_len && y < LINES - 1; i++, y++) {
		key_names(buf, sizeof(buf), &keymap[i]);
		put_text(y, 2, kw, color(ROLE_KEYBAR_KEY), buf, false, ell);
		put_text(y, 2 + kw + 2, COLS - kw - 4, color(ROLE_NORMAL),
			 keymap[i].help, false, ell);
	}
	y++;
	/* What the columns mean, from the column table. */
	for (int c = 0; c < COL__MAX && y < LINES - 1; c++) {
		if (col_def(c)->help)
			put_text(y++, 2, COLS - 2, color(ROLE_NORMAL),
				 col_def(c)->help, false, ell);
	}
	if (y < LINES - 1)
		put_text(y, 2, COLS - 2, color(ROLE_NORMAL),
			 "A blank rate has no value yet: first refresh, or stats off.",
			 false, ell);
	if (LINES > 1)
		put_text(LINES - 1, 0, COLS, color(ROLE_MESSAGE),
			 "press any key to close this help", false, ell);
}

/* The regression event log, newest first, over the whole screen. */
static void draw_log(const struct tui_state *t)
{
	const struct regress *r = t->app->regress;
	size_t n = r ? regress__nr_events(r) : 0;
	const char *ell = ellipsis(t);
	char buf[CELL_MAX];
	int y = 0;

	snprintf(buf, sizeof(buf),
		 "regression event log: %zu regression%s remembered (the last %d at most)",
		 n, n == 1 ? "" : "s", REGRESS_EVENTS_MAX);
	fill(y, 0, COLS, color(ROLE_HEADER));
	put_text(y++, 0, COLS, color(ROLE_HEADER), buf, false, ell);
	if (r) {
		const struct regress_params *p = regress__params(r);

		snprintf(buf, sizeof(buf),
			 "flagged: ns/run %.0f%% or more above baseline and above its noise, %u refreshes in a row",
			 p->threshold_pct, p->window);
		put_text(y++, 0, COLS, color(ROLE_STATUS), buf, false, ell);
	}
	y++;
	snprintf(buf, sizeof(buf), "%-8s  %-8s  %7s  %10s  %10s  %8s  %s",
		 "START", "END", "ID", "BASELINE", "PEAK", "CHANGE", "NAME");
	fill(y, 0, COLS, color(ROLE_COLHDR));
	put_text(y++, 0, COLS, color(ROLE_COLHDR), buf, false, ell);
	if (!n)
		put_text(y++, 0, COLS, color(ROLE_NORMAL),
			 "no regression flagged since ebpftop started", false,
			 ell);
	for (size_t i = n; i-- > 0 && y < LINES - 1; y++) {
		const struct regress_event *e = regress__event(r, i);
		char start[16], end[16], chg[32];
		struct prog_sample s;

		fmt_clock(start, sizeof(start), e->start);
		if (isnan(e->end))
			snprintf(end, sizeof(end), "ongoing");
		else if (e->gone)
			snprintf(end, sizeof(end), "gone");
		else
			fmt_clock(end, sizeof(end), e->end);
		memset(&s, 0, sizeof(s));
		snprintf(s.name, sizeof(s.name), "%s", e->name);
		snprintf(buf, sizeof(buf),
			 "%-8s  %-8s  %7" PRIu32 "  %7.1f ns  %7.1f ns  %8s  %s",
			 start, end, e->id, e->baseline_ns, e->peak_ns,
			 regress_fmt_change(chg, sizeof(chg), e->peak_pct),
			 display_name(&s));
		put_text(y, 0, COLS,
			 color(isnan(e->end) ? ROLE_REGRESSED : ROLE_NORMAL),
			 buf, false, ell);
	}
	if (LINES > 1)
		put_text(LINES - 1, 0, COLS, color(ROLE_MESSAGE),
			 "press any key to close the event log", false, ell);
}

static void draw_keybar(const struct tui_state *t, int y)
{
	int x = 0;

	if (y < 0)
		return;
	for (size_t i = 0; i < keymap_len; i++) {
		const struct key_binding *b = &keymap[i];
		const char *label = bar_label(b->action), *next;
		char keys[32] = "", text[40];
		int w;

		if (!label)
			continue;
		if (b->action == ACT_DEMO_REGRESS && !t->app->demo)
			continue;
		/* Neighbours with one label share an entry: "<>Sort". */
		while (i < keymap_len) {
			size_t n = strlen(keys);

			snprintf(keys + n, sizeof(keys) - n, "%s",
				 keymap[i].names[0]);
			next = i + 1 < keymap_len ?
				       bar_label(keymap[i + 1].action) : NULL;
			if (!next || strcmp(next, label))
				break;
			i++;
		}
		if (b->action == ACT_PAUSE && t->paused)
			label = "Resume";
		snprintf(text, sizeof(text), "%s ", label);
		w = (int)strlen(keys) + (int)strlen(text);
		if (x + w > COLS)
			break;
		put_text(y, x, (int)strlen(keys), color(ROLE_KEYBAR_KEY), keys,
			 false, "~");
		put_text(y, x + (int)strlen(keys), (int)strlen(text),
			 color(ROLE_KEYBAR_LABEL), text, false, "~");
		x += w;
	}
	if (x < COLS)
		fill(y, x, COLS - x, color(ROLE_KEYBAR_LABEL));
}

void screen_draw(struct tui_state *t)
{
	unsigned long long now = mono_now_ns();
	struct screen_layout l;
	int cursor_x, prof_y, prof_h;

	erase();
	if (t->help) {
		draw_help(t);
		curs_set(0);
		attrset(A_NORMAL);
		refresh();
		return;
	}
	if (t->log) {
		draw_log(t);
		curs_set(0);
		attrset(A_NORMAL);
		refresh();
		return;
	}
	{
		size_t nreg;

		worst_regression(t, &nreg);
		layout_screen_x(LINES, t->details, nreg > 0,
				t->app->demo != NULL, &l);
	}
	profile_pane_place(t->app, &l, &prof_y, &prof_h);
	draw_header(t, l.header_y);
	draw_banner(t, l.banner_y);
	draw_demo(t, l.demo_y);
	draw_table(t, &l);
	if (t->details)
		draw_details(t, l.details_y, l.details_h);
	profile_pane_draw(t->app, prof_y, prof_h, t->utf8);
	draw_keybar(t, l.keybar_y);
	/* Last, so the cursor can stay at the end of the filter prompt. */
	cursor_x = draw_status(t, l.status_y, now);
	attrset(A_NORMAL);
	if (cursor_x >= 0) {
		move(l.status_y, cursor_x);
		curs_set(1);
	} else {
		curs_set(0);
	}
	refresh();
}
