/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_RATES_H
#define EBPFTOP_ANALYSIS_RATES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/sample.h"

/* Rates over one interval; NAN means "no value" (printed blank / null). */
struct prog_rates {
	double ns_per_run;
	double runs_per_s;
	double cpu_pct;		/* percent of one CPU */
};

/* a - b, or 0 when the counter went backwards. */
static inline uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Rates of @cur against @prev over @dt_ns. @prev NULL (first sample), a
 * zero interval, a counter that went backwards (the id now names another
 * program) or stats off give NAN. No runs in the interval gives 0 runs/s,
 * 0 % CPU and NAN ns/run.
 */
void rates_compute(const struct prog_sample *prev,
		   const struct prog_sample *cur, uint64_t dt_ns,
		   bool stats_on, struct prog_rates *r);

#endif
