/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_APP_H
#define EBPFTOP_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/snapshot.h"
#include "cli.h"

struct demo;
struct history;
struct insights;
struct exporter;
struct prof_session;
struct hot_session;
struct prog_table;
struct regress;
struct stats_ctl;

/* What one run of ebpftop owns: collection state and the latest snapshot. */
struct app {
	const struct ebpftop_opts *opts;
	struct prog_table *table;
	struct stats_ctl *stats;
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
	struct hot_session *hot; /* hot lines being sampled (key a, --hot), NULL if none */
	char hot_msg[256];	/* why hot lines ended or were refused; "" if nothing new */
	struct exporter *exporter; /* --listen, --prom-file; NULL without them */
};

/* Set by SIGINT, SIGTERM and SIGHUP; the loops check it. */
extern volatile sig_atomic_t app_quit;

/*
 * Set up collection and stats. Returns 0 or a negative errno; @msg gets a
 * one-line explanation for the user.
 */
int app_init(struct app *a, const struct ebpftop_opts *o, char *msg,
	     size_t msglen);
void app_fini(struct app *a);

/* Take a sample and rebuild a->snap (rows in id order). 0 or -errno. */
int app_sample(struct app *a);

/*
 * Profile program @id with the events of -e (key p, option -p): replaces
 * any profile running. 0, or a negative errno with the reason in @msg.
 * While it runs, a->snap.profile has its report; when the program goes
 * away it stops and a->prof_msg says why.
 */
int app_profile_start(struct app *a, uint32_t id, char *msg, size_t msglen);
/* Stop profiling: nothing of the profiler stays attached. */
void app_profile_stop(struct app *a);
bool app_profiling(const struct app *a);

/*
 * Sample program @id and attribute its time to source lines (key a,
 * --hot), with --sample-event and --sample-freq: replaces any running.
 * 0, or a negative errno with the reason in @msg; -ENODATA (no line
 * info) leaves it running with shares per subprogram only. While it
 * runs, a->snap.hot has its report; when the program goes away it stops
 * and a->hot_msg says why.
 */
int app_hot_start(struct app *a, uint32_t id, char *msg, size_t msglen);
/* Stop sampling: every perf event is closed. */
void app_hot_stop(struct app *a);
bool app_hot_active(const struct app *a);
/* Key w: the rolling window or cumulative counts; key o: the order of lines. */
void app_hot_set_window(struct app *a, bool cumulative);
void app_hot_set_order(struct app *a, bool source_order);

/* Toggle stats (key s); returns 0 or a negative errno (-EBUSY: not ours). */
int app_toggle_stats(struct app *a);

/* Current stats state, read now (the snapshot has it as of the sample). */
enum stats_state app_stats_state(struct app *a);

/* A map or a link of a program, ready to print in the details pane. */
struct app_map_ref {
	uint32_t id;
	char name[16];
	const char *type;	/* "hash", "array", ...; "?" if unknown */
};

struct app_link_ref {
	uint32_t id;
	char target[96];	/* "xdp on lo (ifindex 1)" */
};

struct app_prog_detail {
	uint32_t verified_insns;
	bool gpl;
	uint32_t nr_maps;
	struct app_map_ref *maps;
	uint32_t nr_links;
	struct app_link_ref *links;
};

/*
 * Fetch the maps, links and verifier facts of program @id for the details
 * pane (the UI does not talk to collect/ itself). 0 or -errno (-ENOENT:
 * the program is gone). Free with app_prog_detail_free().
 */
int app_prog_detail(uint32_t id, struct app_prog_detail *d);
void app_prog_detail_free(struct app_prog_detail *d);

/* Whether environment switch @name is on: set, non-empty and not "0". */
bool env_flag(const char *name);

/* Install signal handlers; @restore_terminal runs on fatal signals. */
void app_signals_init(void (*restore_terminal)(void));

/* Sleep until @deadline_ns (mono_now_ns() time) or a quit signal. */
void app_sleep_until(uint64_t deadline_ns);

#endif
