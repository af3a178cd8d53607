/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_PROFILER_EVENTS_IMPL_H
#define EBPFTOP_PROFILER_EVENTS_IMPL_H

/*
 * Private to the profiler's events: what events_init() (events_pmu.c)
 * found, read by the resolution in events.c.
 */

#include "profiler/events.h"

struct events_pfm {
	bool done;		/* events_init() ran */
	int err;		/* its result: 0 or a negative errno */
	char msg[160];		/* why libpfm4 did not start */
	char pmu[32];		/* core PMU name, "perf" if none */
	enum pmu_family fam;
};

/* Written by events_init() only. */
extern struct events_pfm events_pfm;

#endif
