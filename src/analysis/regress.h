/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_REGRESS_H
#define EBPFTOP_ANALYSIS_REGRESS_H

/*
 * The regression detector: per program, a baseline ns/run learnt over a
 * warm-up and kept as a rolling median, a noise band from the spread of
 * the same samples, and a flag raised when the cost per run stays above
 * both for a few consecutive refreshes. Pure: no I/O, no libbpf, no
 * curses. The method is described in ebpftop(8), REGRESSIONS.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/sample.h"

#define REGRESS_THRESHOLD_DEFAULT 30.0
#define REGRESS_THRESHOLD_MIN 1.0
#define REGRESS_THRESHOLD_MAX 1000.0
#define REGRESS_WINDOW_DEFAULT 3u
#define REGRESS_WINDOW_MIN 1u
#define REGRESS_WINDOW_MAX 100u

/* Baseline samples kept per program (the rolling median's window). */
#define REGRESS_HIST 12
/* Latest samples kept per program (the current value's median). */
#define REGRESS_RECENT 4
/* Regressions the event log remembers. */
#define REGRESS_EVENTS_MAX 64

struct regress_params {
	double threshold_pct;	/* flag at least this much above baseline */
	unsigned int window;	/* consecutive refreshes to flag and to clear */
	unsigned int warmup;	/* valid refreshes before the baseline counts */
	double noise_k;		/* and above baseline + k * spread */
	double min_runs;	/* fewer runs in a refresh: ignored */
	unsigned long keep_gone; /* refreshes a vanished program is remembered */
};

/* The defaults: 30 %, 3 refreshes, 5 to learn, 4 sigma, 100 runs, 300. */
void regress_params_default(struct regress_params *p);

/* What the detector says about one program at one refresh. */
struct prog_regression {
	bool active;		/* regression flagged */
	double baseline_ns;	/* NAN while learning */
	double current_ns;	/* median of the latest valid refreshes; NAN if none */
	double change_pct;	/* current against baseline; NAN if either is */
	double limit_ns;	/* a refresh above this counts toward a flag */
	double clear_ns;	/* flagged: clears with current_ns at or below
				 * this for window refreshes; NAN otherwise */
	double since;		/* unix time the regression began; NAN if not active */
};

/* One regression, from the refresh it began to the one it ended. */
struct regress_event {
	unsigned long serial;	/* 1, 2, ... in order of start */
	uint32_t id;		/* program id (the latest, after a reload) */
	char name[PROG_NAME_MAX]; /* "" if the program has none */
	char tag[PROG_TAG_LEN];
	double baseline_ns;
	double peak_ns;		/* highest current value while flagged */
	double peak_pct;
	double start;		/* unix time */
	double end;		/* unix time; NAN while still flagged */
	bool gone;		/* ended because the program went away */
};

struct regress;

/* 0 or -ENOMEM. @p NULL: defaults (out-of-range values are clamped). */
int regress__new(struct regress **out, const struct regress_params *p);
void regress__free(struct regress *r);

/* Start a refresh sampled at unix time @now. */
void regress__begin(struct regress *r, double now);

/*
 * One program at this refresh: @ns_per_run over @runs runs (NAN when there
 * is no value: stats off, first sample). @tag and @name identify it across
 * reloads. Fills @out; returns 0 or -ENOMEM (then @out says nothing).
 */
int regress__update(struct regress *r, uint32_t id, const char *tag,
		    const char *name, double ns_per_run, double runs,
		    struct prog_regression *out);
/* The same, with @tag and @name as prog_tag_key() and prog_name_key() give. */
int regress__update_keyed(struct regress *r, uint32_t id, uint64_t tag_key,
			  uint64_t name_key, const char *tag, const char *name,
			  double ns_per_run, double runs,
			  struct prog_regression *out);

/*
 * End the refresh: programs not updated since regress__begin() are gone;
 * they are remembered for a while so that a reload (the same tag and name
 * under a new id) keeps its baseline and its state.
 */
void regress__end(struct regress *r);

/* Number of programs tracked (those gone but remembered included). */
size_t regress__nr_tracked(const struct regress *r);

/* The event log, oldest first: @i from 0 to regress__nr_events() - 1. */
size_t regress__nr_events(const struct regress *r);
const struct regress_event *regress__event(const struct regress *r, size_t i);

/* The parameters in use. */
const struct regress_params *regress__params(const struct regress *r);

/* A change as the flag column shows it: "+240%" ("?" if NAN). Returns @buf. */
char *regress_fmt_change(char *buf, size_t len, double pct);

#endif
