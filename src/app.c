// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "app.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "analysis/rates.h"
#include "analysis/regress.h"
#include "collect/prog_table.h"
#include "collect/stats.h"
#include "demo/demo.h"
#include "insights/history.h"
#include "insights/reader.h"
#include "hot/session.h"
#include "export/exporter.h"
#include "profiler/session.h"
#include "util/clock.h"
#include "util/msg.h"

/* What one run of ebpftop owns: collection state and the latest snapshot. */
struct app {
	const struct ebpftop_opts *opts;
	struct prog_table *table;
	struct stats_ctl *stats;
	enum stats_state stats_state;	/* as of the last sample */
	struct snapshot snap;
	size_t rows_cap;
	char kernel[65];
	unsigned int stats_toggles;	/* key s presses ... */
	unsigned int stats_toggles_seen; /* ... as of the last sample */
	struct demo *demo;	/* the --demo workload, NULL without it */
	struct regress *regress; /* the regression detector, from the first sample */
	struct prof_session *prof; /* the program being profiled, NULL if none */
	uint32_t prof_quiet_id;	/* the detector ignores this program ... */
	unsigned long prof_quiet_until; /* ... while profiled and until this refresh */
	char prof_msg[256];	/* why profiling ended or was refused; "" if nothing new */
	struct insights *insights; /* what each program is made of, read once */
	struct history *history; /* every program's recent refreshes */
	uint32_t *ids;		/* scratch: the ids of a sample */
	bool ins_synced;	/* insights hold the table's programs, in order */
	int online_fd;		/* /sys/devices/system/cpu/online, or -1 */
	bool online_failed;	/* it cannot be read: ask sysconf() */
	struct hot_session *hot; /* hot lines being sampled (key a, --hot), NULL if none */
	char hot_msg[256];	/* why hot lines ended or were refused; "" if nothing new */
	struct exporter *exporter; /* --listen, --prom-file; NULL without them */
};

volatile sig_atomic_t app_quit;

static void (*fatal_restore_terminal)(void);

static void on_quit(int sig)
{
	app_quit = 1;
}

static void on_fatal(int sig)
{
	stats_emergency_restore();
	if (fatal_restore_terminal)
		fatal_restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void app_signals_init(void (*restore_terminal)(void))
{
	static const int quit_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					  SIGABRT };
	struct sigaction sa = {};

	fatal_restore_terminal = restore_terminal;
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit;	/* no SA_RESTART: wake blocking calls */
	for (size_t i = 0; i < sizeof(quit_sigs) / sizeof(quit_sigs[0]); i++)
		sigaction(quit_sigs[i], &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaction(fatal_sigs[i], &sa, NULL);
	/* A closed pipe shows up as EPIPE on write, handled as a clean exit. */
	signal(SIGPIPE, SIG_IGN);
}

bool env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

void app_sleep_until(uint64_t deadline_ns)
{
	/* A quit signal ends the sleep early, as it should. */
	mono_sleep_until(deadline_ns, &app_quit);
}

/* Without room for them now, the next sync reads them itself. */
static void app_on_new_prog(void *ctx, struct prog_info_full *f)
{
	(void)insights__add(ctx, f);
}

static int app_init(struct app *a, const struct ebpftop_opts *o, char *msg,
		    size_t msglen)
{
	struct utsname u;
	__u32 id;
	int err;

	a->opts = o;
	a->online_fd = -1;
	if (!uname(&u))
		snprintf(a->kernel, sizeof(a->kernel), "%s", u.release);
	a->snap.kernel = a->kernel;
	/* One cheap call tells whether we may enumerate programs at all. */
	if (bpf_prog_get_next_id(0, &id) && errno != ENOENT) {
		err = -errno;
		if (err == -EPERM || err == -EACCES)
			snprintf(msg, msglen,
				 "not allowed to list BPF programs: run as root, or grant CAP_BPF and CAP_PERFMON plus CAP_SYS_ADMIN, which listing programs needs");
		else
			snprintf(msg, msglen, "cannot list BPF programs: %s",
				 strerror(-err));
		return err;
	}
	err = stats_ctl__new(&a->stats, !o->no_stats,
			     env_flag("EBPFTOP_STATS_SYSCTL"));
	if (err) {
		snprintf(msg, msglen, "cannot turn on BPF run-time stats: %s (use --no-stats to run without them)",
			 strerror(-err));
		return err;
	}
	err = prog_table__new(&a->table,
			      env_flag("EBPFTOP_NO_STATS_ITER") ? PROG_TABLE_STATS_NONE :
			      env_flag("EBPFTOP_STATS_ITER_PROBE") ? PROG_TABLE_STATS_PROBE :
								     PROG_TABLE_STATS_ANY,
			      !env_flag("EBPFTOP_NO_PROG_ITER"),
			      env_flag("EBPFTOP_NO_PID_ITER") ? PID_SCAN_PROC :
			      env_flag("EBPFTOP_PID_ITER_PROBE") ? PID_SCAN_PROBE :
								   PID_SCAN_ANY);
	if (err) {
		snprintf(msg, msglen, "cannot set up program collection: %s",
			 strerror(-err));
		stats_ctl__free(a->stats);
		a->stats = NULL;
		return err;
	}
	/*
	 * Insights of a new program come from the info the table reads of
	 * it: each program is opened and read once.
	 */
	a->insights = insights__new();
	if (a->insights)
		prog_table__on_new(a->table, app_on_new_prog, a->insights);
	if (o->demo) {
		struct demo_params dp = {
			.pps = o->demo_pps,
			.regress_after_s = o->demo_regress_after,
		};

		err = demo__new(&a->demo, &dp, msg, msglen);
		if (err) {
			insights__free(a->insights);
			a->insights = NULL;
			prog_table__free(a->table);
			stats_ctl__free(a->stats);
			a->table = NULL;
			a->stats = NULL;
			return err;
		}
	}
	return 0;
}

int app__new(struct app **out, const struct ebpftop_opts *o, char *msg,
	     size_t msglen)
{
	struct app *a = calloc(1, sizeof(*a));
	int err;

	*out = NULL;
	if (!a)
		return msg_fail(msg, msglen, -ENOMEM, "out of memory");
	err = app_init(a, o, msg, msglen);
	if (err) {
		free(a);
		return err;
	}
	*out = a;
	return 0;
}

void app__free(struct app *a)
{
	if (!a)
		return;
	/* The profiler first: its links hold the program it profiles. */
	app__profile_stop(a);
	app__hot_stop(a);
	/* The demo first: its program goes before collection stops. */
	demo__free(a->demo);
	prog_table__free(a->table);
	stats_ctl__free(a->stats);
	regress__free(a->regress);
	insights__free(a->insights);
	history__free(a->history);
	free(a->ids);
	free(a->snap.rows);
	if (a->online_fd >= 0)
		close(a->online_fd);
	free(a);
}

const struct snapshot *app__snapshot(const struct app *a)
{
	return &a->snap;
}

const struct ebpftop_opts *app__opts(const struct app *a)
{
	return a->opts;
}

struct demo *app__demo(const struct app *a)
{
	return a->demo;
}

const struct regress *app__regress(const struct app *a)
{
	return a->regress;
}

void app__set_exporter(struct app *a, struct exporter *e)
{
	a->exporter = e;
}

struct exporter *app__exporter(const struct app *a)
{
	return a->exporter;
}

const struct history *app__history(const struct app *a)
{
	return a->history;
}

const char *app__hot_msg(const struct app *a)
{
	return a->hot_msg;
}

void app__hot_msg_clear(struct app *a)
{
	a->hot_msg[0] = '\0';
}

const char *app__profile_msg(const struct app *a)
{
	return a->prof_msg;
}

void app__profile_msg_clear(struct app *a)
{
	a->prof_msg[0] = '\0';
}

/* The CPUs counted in a list such as "0-3,8\n"; 0 if it is not one. */
static unsigned int count_cpu_list(const char *p)
{
	unsigned long n = 0;

	while (*p && *p != '\n') {
		unsigned long lo, hi;
		char *end;

		if (*p < '0' || *p > '9')
			return 0;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return 0;
			hi = strtoul(p, &end, 10);
		}
		if (hi < lo || hi - lo >= 1u << 20)
			return 0;
		n += hi - lo + 1;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return 0;
	}
	return n < 1u << 20 ? (unsigned int)n : 0;
}

/*
 * Online CPUs, as sysconf(_SC_NPROCESSORS_ONLN) counts them: from the
 * same file, but kept open, read again at offset 0 at each refresh.
 */
static unsigned int online_cpus(struct app *a)
{
	unsigned int n = 0;
	char buf[1024];
	ssize_t r = -1;
	long v;

	if (a->online_fd < 0 && !a->online_failed) {
		a->online_fd = open("/sys/devices/system/cpu/online",
				    O_RDONLY | O_CLOEXEC);
		a->online_failed = a->online_fd < 0;
	}
	if (a->online_fd >= 0)
		r = pread(a->online_fd, buf, sizeof(buf) - 1, 0);
	if (r > 0) {
		buf[r] = '\0';
		n = count_cpu_list(buf);
	}
	if (n)
		return n;
	v = sysconf(_SC_NPROCESSORS_ONLN);
	return v > 0 ? (unsigned int)v : 0;
}

/* Program @id in the table (its samples are in id order), or NULL. */
static const struct prog_sample *table_find(const struct prog_table *t,
					    uint32_t id)
{
	size_t lo = 0, hi = prog_table__count(t);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct prog_sample *s = prog_table__sample(t, mid);

		if (s->id == id)
			return s;
		if (s->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Read the profiler after a sample; it ends when its program went away. */
static void profile_update(struct app *a)
{
	struct snapshot *s = &a->snap;

	if (!a->prof)
		return;
	if (prof_session__update(a->prof,
				 table_find(a->table, prof_session__id(a->prof)),
				 a->prof_msg, sizeof(a->prof_msg))) {
		prof_session__free(a->prof);
		a->prof = NULL;
		/* The next interval still has profiled runs in it. */
		a->prof_quiet_until = s->seq + 1;
	}
	s->profile = a->prof ? prof_session__report(a->prof) : NULL;
}

int app__profile_start(struct app *a, uint32_t id, char *msg, size_t msglen)
{
	int err;

	app__profile_stop(a);
	a->prof_msg[0] = '\0';
	err = prof_session__new(&a->prof, id, a->opts->events, msg, msglen);
	if (err)
		snprintf(a->prof_msg, sizeof(a->prof_msg), "%s", msg);
	if (a->prof)
		a->prof_quiet_id = id;
	a->snap.profile = a->prof ? prof_session__report(a->prof) : NULL;
	return err;
}

void app__profile_stop(struct app *a)
{
	/* The next interval still has profiled runs in it. */
	if (a->prof)
		a->prof_quiet_until = a->snap.seq + 1;
	prof_session__free(a->prof);
	a->prof = NULL;
	a->snap.profile = NULL;
}

bool app__profiling(const struct app *a)
{
	return a->prof != NULL;
}

/* Rebuild the hot-lines report; it ends when its program went away. */
static void hot_update(struct app *a)
{
	int ret;

	if (!a->hot)
		return;
	ret = hot_session_update(a->hot, a->hot_msg, sizeof(a->hot_msg));
	if (ret == 1) {
		hot_session_stop(a->hot);
		a->hot = NULL;
	} else if (ret < 0) {
		snprintf(a->hot_msg, sizeof(a->hot_msg),
			 "hot lines: cannot build the report: %s", strerror(-ret));
	}
	a->snap.hot = a->hot ? hot_session_report(a->hot) : NULL;
}

int app__hot_start(struct app *a, uint32_t id, char *msg, size_t msglen)
{
	struct hot_params p = {
		.id = id,
		.event = a->opts->sample_event,
		.freq_hz = a->opts->sample_freq,
	};
	int err;

	app__hot_stop(a);
	a->hot_msg[0] = '\0';
	err = hot_session_start(&a->hot, &p, msg, msglen);
	if (err)
		snprintf(a->hot_msg, sizeof(a->hot_msg), "%s", msg);
	a->snap.hot = a->hot ? hot_session_report(a->hot) : NULL;
	return err;
}

void app__hot_stop(struct app *a)
{
	hot_session_stop(a->hot);
	a->hot = NULL;
	a->snap.hot = NULL;
}

bool app__hot_active(const struct app *a)
{
	return a->hot != NULL;
}

void app__hot_set_window(struct app *a, bool cumulative)
{
	if (!a->hot)
		return;
	hot_session_set_cumulative(a->hot, cumulative);
	/* Show the other window now, not at the next refresh. */
	hot_update(a);
}

void app__hot_set_order(struct app *a, bool source_order)
{
	if (a->hot)
		hot_session_set_source_order(a->hot, source_order);
}

/* The regression detector, made at the first sample: 0 or -ENOMEM. */
static int regress_begin(struct app *a)
{
	if (!a->regress) {
		struct regress_params p;

		regress_params_default(&p);
		p.threshold_pct = a->opts->regress_threshold;
		p.window = a->opts->regress_window;
		if (regress__new(&a->regress, &p))
			return -ENOMEM;
	}
	regress__begin(a->regress, a->snap.time);
	return 0;
}

/* The regression detector's verdict on one row (after its rates). */
static int regress_row(struct app *a, struct prog_row *row)
{
	const struct snapshot *s = &a->snap;
	/*
	 * The profiler's trampoline runs inside the target's run_time_ns:
	 * that step up is ebpftop's, not a regression.
	 */
	bool quiet = row->s->id == a->prof_quiet_id &&
		     (a->prof || s->seq <= a->prof_quiet_until);

	if (!a->regress) {
		memset(&row->reg, 0, sizeof(row->reg));
		return -ENOMEM;
	}
	/* Runs in the interval: NAN on the first sample, then ignored. */
	return regress__update_keyed(a->regress, row->s->id, row->s->tag_key,
				     row->s->name_key, row->s->tag,
				     row->s->name,
				     quiet ? (double)NAN : row->r.ns_per_run,
				     row->r.runs_per_s * s->interval_s,
				     &row->reg) ? -ENOMEM : 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Insights of programs new since the last sample (read once, kept while
 * loaded). Sets *@in_order when insight i is row i's. 0 or -ENOMEM.
 */
static int insights_begin(struct app *a, bool synced, bool *in_order)
{
	struct snapshot *s = &a->snap;
	bool sorted = true;

	*in_order = false;
	if (!a->insights)
		a->insights = insights__new();
	if (!a->history)
		a->history = history__new();
	if (!a->insights || !a->history)
		return -ENOMEM;
	/*
	 * The steady state: the table's programs are the very ones the
	 * insights were last synced with.
	 */
	if (synced && prog_table__same(a->table) &&
	    insights__count(a->insights) == s->nr_rows) {
		*in_order = true;
		a->ins_synced = true;
		return 0;
	}
	if (s->nr_rows) {
		uint32_t *ids = realloc(a->ids, s->nr_rows * sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		a->ids = ids;
	}
	for (size_t i = 0; i < s->nr_rows; i++) {
		a->ids[i] = prog_table__sample(a->table, i)->id;
		/* The table gives them in order: then there is no sort. */
		sorted = sorted && (!i || a->ids[i - 1] < a->ids[i]);
	}
	if (!sorted)
		qsort(a->ids, s->nr_rows, sizeof(*a->ids), cmp_u32);
	if (insights__sync(a->insights, a->ids, s->nr_rows))
		return -ENOMEM;
	*in_order = sorted;
	a->ins_synced = sorted;
	return 0;
}

int app__sample(struct app *a)
{
	uint64_t t0 = mono_now_ns();
	enum stats_state stats_prev;
	bool counted, in_order, synced = a->ins_synced;
	struct snapshot *s = &a->snap;
	struct timespec wall;
	uint64_t t, pt, dt;
	size_t n;
	int err;

	a->ins_synced = false;
	demo__tick(a->demo);
	err = prog_table__refresh(a->table);
	if (err) {
		/* The rows may point into samples the failed refresh freed. */
		s->nr_rows = 0;
		return err;
	}
	clock_gettime(CLOCK_REALTIME, &wall);
	/*
	 * The kernel counts only while stats are on: an interval is
	 * measured only if they were on at both ends of it.
	 */
	stats_prev = a->stats_state;
	a->stats_state = stats_ctl__state(a->stats);
	s->stats_on = stats_state_on(a->stats_state);
	s->stats = stats_state_str(a->stats_state);
	counted = s->stats_on && stats_state_on(stats_prev) &&
		  a->stats_toggles == a->stats_toggles_seen;
	a->stats_toggles_seen = a->stats_toggles;
	n = prog_table__count(a->table);
	if (n > a->rows_cap) {
		struct prog_row *r = realloc(s->rows, n * sizeof(*r));

		if (!r) {
			s->nr_rows = 0;
			return -ENOMEM;
		}
		s->rows = r;
		a->rows_cap = n;
	}
	t = prog_table__time_ns(a->table);
	pt = prog_table__prev_time_ns(a->table);
	dt = pt ? t - pt : 0;
	s->time = (double)wall.tv_sec + (double)wall.tv_nsec / 1e9;
	s->interval_s = pt ? (double)(t - pt) / 1e9 : (double)NAN;
	s->ncpus = online_cpus(a);
	s->nr_rows = n;
	s->total_cpu_pct = pt && counted ? 0.0 : (double)NAN;
	s->seq++;
	profile_update(a);
	hot_update(a);
	if (regress_begin(a))
		err = -ENOMEM;
	if (insights_begin(a, synced, &in_order))
		err = -ENOMEM;
	if (a->history)
		history__begin(a->history, s->time);
	/*
	 * Then every analysis of a program at once, in one pass: at 10,000
	 * programs a refresh is bound by cache misses, and a second pass
	 * would take them again.
	 */
	for (size_t i = 0; i < n; i++) {
		struct prog_row *row = &s->rows[i];

		row->s = prog_table__sample(a->table, i);
		rates_compute(prog_table__prev(a->table, i), row->s, dt,
			      counted, &row->r);
		if (!isnan(row->r.cpu_pct))
			s->total_cpu_pct += row->r.cpu_pct;
		if (regress_row(a, row))
			err = -ENOMEM;
		if (!a->insights || !a->history) {
			row->ins = NULL;
			continue;
		}
		row->ins = in_order ? insights__at(a->insights, i, row->s->id) :
				      insights__find(a->insights, row->s->id);
		if (history__update(a->history, row->s->id, row->s->tag,
				    row->s->name, s->interval_s,
				    row->r.ns_per_run, row->r.runs_per_s,
				    row->reg.active))
			err = -ENOMEM;
	}
	if (a->regress)
		regress__end(a->regress);
	if (a->history)
		history__end(a->history);
	/* Exported only once complete: a scrape never sees half a refresh. */
	exporter__publish(a->exporter, s, (double)(mono_now_ns() - t0) / 1e9);
	return err;
}

int app__toggle_stats(struct app *a)
{
	/* Off and on again within one interval also loses runs. */
	a->stats_toggles++;
	return stats_ctl__toggle(a->stats);
}

enum stats_state app__stats_state(struct app *a)
{
	return stats_ctl__state(a->stats);
}

int app_prog_detail(uint32_t id, struct app_prog_detail *d)
{
	struct prog_detail pd;
	int err;

	memset(d, 0, sizeof(*d));
	err = prog_detail_fetch(id, &pd);
	if (err)
		return err;
	d->verified_insns = pd.verified_insns;
	d->gpl = pd.gpl;
	if (pd.nr_maps)
		d->maps = calloc(pd.nr_maps, sizeof(*d->maps));
	if (pd.nr_links)
		d->links = calloc(pd.nr_links, sizeof(*d->links));
	if ((pd.nr_maps && !d->maps) || (pd.nr_links && !d->links)) {
		prog_detail_free(&pd);
		app_prog_detail_free(d);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < pd.nr_maps; i++) {
		const char *type = libbpf_bpf_map_type_str(pd.maps[i].type);

		d->maps[i].id = pd.maps[i].id;
		snprintf(d->maps[i].name, sizeof(d->maps[i].name), "%s",
			 pd.maps[i].name);
		d->maps[i].type = type ? type : "?";
	}
	d->nr_maps = pd.nr_maps;
	for (uint32_t i = 0; i < pd.nr_links; i++) {
		d->links[i].id = pd.links[i].id;
		snprintf(d->links[i].target, sizeof(d->links[i].target), "%s",
			 pd.links[i].target);
	}
	d->nr_links = pd.nr_links;
	prog_detail_free(&pd);
	return 0;
}

void app_prog_detail_free(struct app_prog_detail *d)
{
	free(d->maps);
	free(d->links);
	memset(d, 0, sizeof(*d));
}
