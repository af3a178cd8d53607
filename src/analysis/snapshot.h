/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_SNAPSHOT_H
#define EBPFTOP_ANALYSIS_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/profile.h"
#include "analysis/rates.h"
#include "analysis/regress.h"
#include "analysis/sample.h"
#include "insights/insights.h"

struct hot_report;

/* One program in a refresh: its sample and what analysis made of it. */
struct prog_row {
	const struct prog_sample *s;
	struct prog_rates r;
	struct prog_regression reg;	/* the regression detector's verdict */
	const struct prog_insights *ins; /* read once per program; NULL if not */
};

/* Everything a presenter needs for one refresh. */
struct snapshot {
	double time;			/* unix time of the sample, seconds */
	double interval_s;		/* since the previous sample, NAN first */
	bool stats_on;			/* run-time stats were on at the sample */
	const char *stats;		/* and how: "on", "on (sysctl)", "off", ... */
	const char *kernel;		/* uname release */
	unsigned int ncpus;		/* online CPUs */
	size_t nr_rows;
	struct prog_row *rows;		/* every program, table order */
	double total_cpu_pct;		/* all programs, percent of one CPU */
	unsigned long seq;		/* refresh number, from 1 */
	const struct profile_report *profile; /* NULL when not profiling */
	const struct hot_report *hot;	/* NULL when no hot lines are sampled */
};

/* Share of all online CPUs taken by BPF programs, in percent (NAN if unknown). */
double snapshot_total_share(const struct snapshot *snap);

#endif
