/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_APP_H
#define EBPFTOP_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/snapshot.h"
#include "cli.h"
#include "collect/stats.h"

struct demo;
struct history;
struct insights;
struct exporter;
struct hot_session;
struct regress;

/*
 * What one run of ebpftop owns: collection, stats, the demo, the profiler,
 * the regression detector and the latest snapshot. main() and the UI see
 * it through these functions only.
 */
struct app;

/* Set by SIGINT, SIGTERM, SIGHUP and SIGQUIT; the loops check it. */
extern volatile sig_atomic_t app_quit;

/*
 * Set up collection and stats (and the demo with --demo). Returns 0 or a
 * negative errno; @msg gets a one-line explanation for the user.
 */
int app__new(struct app **out, const struct ebpftop_opts *o, char *msg,
	     size_t msglen);
/* Undo everything app__new() and the run set up; NULL is fine. */
void app__free(struct app *a);

/* Take a sample and rebuild the snapshot (rows in id order). 0 or -errno. */
int app__sample(struct app *a);

/* The latest snapshot; valid until the next app__sample(). */
const struct snapshot *app__snapshot(const struct app *a);
const struct ebpftop_opts *app__opts(const struct app *a);
/* The --demo workload, NULL without it. */
struct demo *app__demo(const struct app *a);
/* Every program's recent refreshes (the details pane's graphs). */
const struct history *app__history(const struct app *a);
/* The regression detector (its event log), NULL before the first sample. */
const struct regress *app__regress(const struct app *a);

/*
 * Where each complete sample is published (--listen, --prom-file); the
 * caller keeps ownership and frees it after app__free(). NULL: nowhere.
 */
void app__set_exporter(struct app *a, struct exporter *e);
struct exporter *app__exporter(const struct app *a);

/*
 * Profile program @id with the events of -e (key p, option -p): replaces
 * any profile running. 0, or a negative errno with the reason in @msg.
 * While it runs, the snapshot's profile has its report.
 */
int app__profile_start(struct app *a, uint32_t id, char *msg, size_t msglen);
/* Stop profiling: nothing of the profiler stays attached. */
void app__profile_stop(struct app *a);
bool app__profiling(const struct app *a);
/*
 * Why profiling was refused or ended (the program went away), until it is
 * read and cleared or profiling starts again; "" if nothing to say. The
 * app is the one owner of this message.
 */
const char *app__profile_msg(const struct app *a);
void app__profile_msg_clear(struct app *a);

/*
 * Sample program @id and attribute its time to source lines (key a,
 * --hot), with --sample-event and --sample-freq: replaces any running.
 * 0, or a negative errno with the reason in @msg; -ENODATA (no line
 * info) leaves it running with shares per subprogram only. While it
 * runs, the snapshot's hot has its report; when the program goes away
 * it stops and app__hot_msg() says why.
 */
int app__hot_start(struct app *a, uint32_t id, char *msg, size_t msglen);
/* Stop sampling: every perf event is closed. */
void app__hot_stop(struct app *a);
bool app__hot_active(const struct app *a);
/* Key w: the rolling window or cumulative counts; key o: the order of lines. */
void app__hot_set_window(struct app *a, bool cumulative);
void app__hot_set_order(struct app *a, bool source_order);
/*
 * Why hot lines were refused or ended, until cleared or started again;
 * "" if nothing to say. The app alone writes it.
 */
const char *app__hot_msg(const struct app *a);
void app__hot_msg_clear(struct app *a);

/* Toggle stats (key s); returns 0 or a negative errno (-EBUSY: not ours). */
int app__toggle_stats(struct app *a);

/* Current stats state, read now (the snapshot has it as of the sample). */
enum stats_state app__stats_state(struct app *a);

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
