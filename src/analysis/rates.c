// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/rates.h"

#include <math.h>

void rates_compute(const struct prog_sample *prev,
		   const struct prog_sample *cur, uint64_t dt_ns,
		   bool stats_on, struct prog_rates *r)
{
	uint64_t dcnt, dtime;

	r->ns_per_run = NAN;
	r->runs_per_s = NAN;
	r->cpu_pct = NAN;
	if (!prev || !dt_ns || !stats_on)
		return;
	/* Counters never go backwards for one program: treat it as a reset. */
	if (cur->run_cnt < prev->run_cnt || cur->run_time_ns < prev->run_time_ns)
		return;
	dcnt = sat_sub(cur->run_cnt, prev->run_cnt);
	dtime = sat_sub(cur->run_time_ns, prev->run_time_ns);
	r->runs_per_s = (double)dcnt * 1e9 / (double)dt_ns;
	r->cpu_pct = (double)dtime * 100.0 / (double)dt_ns;
	if (dcnt)
		r->ns_per_run = (double)dtime / (double)dcnt;
}
