// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/profile.h"

#include <errno.h>
#include <math.h>

#define BIT(r) (1u << (r))

const char *td_model_name(enum td_model m)
{
	switch (m) {
	case TD_SKL:
		return "Skylake-class";
	case TD_ICL:
		return "Ice Lake";
	case TD_SPR:
		return "Sapphire Rapids";
	case TD_ZEN4:
		return "Zen 4";
	case TD_NONE:
	default:
		return "none";
	}
}

unsigned int topdown_needs(enum td_model m)
{
	switch (m) {
	case TD_SKL:
		return BIT(TDR_CYCLES) | BIT(TDR_UOPS_ISSUED) |
		       BIT(TDR_RETIRED) | BIT(TDR_FE_BUBBLES) |
		       BIT(TDR_RECOVERY);
	case TD_ICL:
		return BIT(TDR_SLOTS) | BIT(TDR_FE_BUBBLES) |
		       BIT(TDR_UOP_DROPPING) | BIT(TDR_BE_SLOTS) |
		       BIT(TDR_CLEARS) | BIT(TDR_RETIRED);
	case TD_SPR:
		return BIT(TDR_SLOTS) | BIT(TDR_FE_BUBBLES) |
		       BIT(TDR_UOP_DROPPING) | BIT(TDR_BE_SLOTS) |
		       BIT(TDR_RETIRED);
	case TD_ZEN4:
		return BIT(TDR_CYCLES) | BIT(TDR_RETIRED) |
		       BIT(TDR_FE_BUBBLES) | BIT(TDR_BE_SLOTS) |
		       BIT(TDR_DISPATCHED);
	case TD_NONE:
	default:
		return 0;
	}
}

static double clamp01(double v)
{
	if (!(v > 0.0))		/* also NAN */
		return 0.0;
	return v > 1.0 ? 1.0 : v;
}

int topdown_compute(enum td_model m, const double in[TDR__MAX],
		    struct topdown *out)
{
	unsigned int need = topdown_needs(m);
	double slots, fe, bad, ret, be;

	if (!need)
		return -EINVAL;
	for (int r = 0; r < TDR__MAX; r++) {
		if ((need & BIT(r)) && isnan(in[r]))
			return -EINVAL;
	}
	switch (m) {
	case TD_SKL:
		/* Intel TMA, Skylake: 4 slots per cycle, SMT-off form. */
		slots = 4.0 * in[TDR_CYCLES];
		if (!(slots > 0.0))
			return -EINVAL;
		fe = in[TDR_FE_BUBBLES] / slots;
		bad = (in[TDR_UOPS_ISSUED] - in[TDR_RETIRED] +
		       4.0 * in[TDR_RECOVERY]) / slots;
		ret = in[TDR_RETIRED] / slots;
		be = 1.0 - fe - bad - ret;
		break;
	case TD_ICL:
	case TD_SPR:
		/* Intel TMA fallback without PERF_METRICS. */
		slots = in[TDR_SLOTS];
		if (!(slots > 0.0))
			return -EINVAL;
		fe = (in[TDR_FE_BUBBLES] - in[TDR_UOP_DROPPING]) / slots;
		be = in[TDR_BE_SLOTS];
		if (m == TD_ICL)
			be += 5.0 * in[TDR_CLEARS];
		be /= slots;
		ret = in[TDR_RETIRED] / slots;
		bad = 1.0 - fe - be - ret;
		break;
	case TD_ZEN4:
		/* perf's amdzen4 pipeline metrics: 6 dispatch slots. */
		slots = 6.0 * in[TDR_CYCLES];
		if (!(slots > 0.0))
			return -EINVAL;
		fe = in[TDR_FE_BUBBLES] / slots;
		bad = (in[TDR_DISPATCHED] - in[TDR_RETIRED]) / slots;
		be = in[TDR_BE_SLOTS] / slots;
		ret = in[TDR_RETIRED] / slots;
		break;
	case TD_NONE:
	default:
		return -EINVAL;
	}
	out->retiring = clamp01(ret);
	out->bad_speculation = clamp01(bad);
	out->frontend_bound = clamp01(fe);
	out->backend_bound = clamp01(be);
	return 0;
}

void profile_report_fill(struct profile_report *r,
			 const struct profile_totals *t)
{
	uint64_t complete = t->runs > t->partial ? t->runs - t->partial : 0;
	double in[TDR__MAX];

	r->runs = t->runs;
	r->partial_runs = t->partial;
	r->read_errors = t->read_errors;
	r->unpaired = t->unpaired;
	for (int i = 0; i < TDR__MAX; i++)
		in[i] = (double)NAN;
	for (size_t i = 0; i < r->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		struct profile_event *e = &r->ev[i];

		e->total = t->counter[i];
		e->per_run = complete ? (double)t->counter[i] / (double)complete :
					(double)NAN;
		/* Never scaled: a multiplexed run is partial, not estimated. */
		e->enabled_pct = t->enabled[i] ?
					 100.0 * (double)t->running[i] /
						 (double)t->enabled[i] :
					 (double)NAN;
		if (e->role != TDR_NONE && complete)
			in[e->role] = (double)t->counter[i];
	}
	r->has_topdown = r->td_model != TD_NONE &&
			 !topdown_compute(r->td_model, in, &r->td);
}

int profile_find(const struct profile_report *r, enum prof_metric m)
{
	for (size_t i = 0; i < r->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		if (r->ev[i].metric == m)
			return (int)i;
	}
	return -1;
}

double profile_ipc(const struct profile_report *r)
{
	int c = profile_find(r, PM_CYCLES), n = profile_find(r, PM_INSTRUCTIONS);

	if (c < 0 || n < 0 || isnan(r->ev[c].per_run) || !r->ev[c].total)
		return (double)NAN;
	return (double)r->ev[n].total / (double)r->ev[c].total;
}

double profile_per_kinsn(const struct profile_report *r, enum prof_metric m)
{
	int e = profile_find(r, m), n = profile_find(r, PM_INSTRUCTIONS);

	if (e < 0 || n < 0 || isnan(r->ev[n].per_run) || !r->ev[n].total)
		return (double)NAN;
	return 1000.0 * (double)r->ev[e].total / (double)r->ev[n].total;
}
