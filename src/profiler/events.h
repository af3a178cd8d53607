/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Profiler events: presets and event strings resolved into perf_event_attr
 * with libpfm4 for the CPU ebpftop runs on (or the one LIBPFM_FORCE_PMU
 * names), plus a small raw table for what libpfm4 4.13 encodes wrong or
 * lacks.
 */
#ifndef EBPFTOP_PROFILER_EVENTS_H
#define EBPFTOP_PROFILER_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/perf_event.h>

#include "analysis/profile.h"

/* CPU families with their own event names (and Top-Down formula). */
enum pmu_family {
	FAM_GENERIC,	/* no core PMU we know: perf's generic events */
	FAM_SKL,
	FAM_ICL,
	FAM_SPR,
	FAM_ZEN4,
	FAM__MAX,
};

/* One resolved event. */
struct prof_event {
	char name[PROFILE_NAME_MAX];	/* as named: "cycles", "UOPS_ISSUED:ANY" */
	char source[256];		/* what encoded it: libpfm4's full name, "raw table", "generic" */
	struct perf_event_attr attr;	/* kernel-only (exclude_user) */
	enum prof_metric metric;
	enum td_role role;
};

/* What to open: at most PROFILE_MAX_EVENTS, no duplicates. */
struct event_set {
	size_t n;
	struct prof_event ev[PROFILE_MAX_EVENTS];
	enum td_model td;		/* TD_NONE unless every input is in the set */
	char td_note[96];		/* why there is no Top-Down */
	char pmu[32];			/* core PMU name, "perf" if none */
};

/* The events used when -e is not given. */
#define EVENTS_DEFAULT "default"

/*
 * Initialise libpfm4 once (later calls return the first result) and pick
 * the core PMU. 0, or a negative errno with a message.
 */
int events_init(char *msg, size_t len);

/* The core PMU libpfm4 encodes for ("perf" when it found none). */
const char *events_pmu_name(void);

/*
 * Resolve a comma-separated list of presets, named events and libpfm4
 * event strings into @set. 0, or -EINVAL with a one-line reason in @msg
 * (without the option name); -ELIBACC when an event needs libpfm4 and it
 * cannot be loaded (generic and software events need no libpfm4).
 */
int events_parse(const char *list, struct event_set *set, char *msg,
		 size_t len);

/*
 * --list-events: every preset and its events as resolved here, one event
 * per line "<preset> <event> type=<n> config=0x<hex>" (config1/config2
 * when non-zero), or one line saying why a preset does not resolve.
 * Returns 0, or a negative errno when libpfm4 cannot start (-ELIBACC: it
 * cannot be loaded).
 */
int events_list(FILE *f, char *msg, size_t len);

/* Pure helpers, exported for the tests. */
enum pmu_family events_family_of(const char *pmu_name);
enum td_model events_td_model(enum pmu_family f);
/* Whether AMD family/model is a Zen 4 (libpfm4 4.13 knows model 0x11 only). */
bool events_cpu_is_zen4(unsigned int family, unsigned int model);

#endif
