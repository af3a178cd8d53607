// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/profile_out.h"

#include <inttypes.h>
#include <math.h>

void profile_print_json(struct jw *w, const struct profile_report *r)
{
	if (!r) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	JW_FIELDS(w, JW_U("id", r->id), JW_U("runs", r->runs),
		  JW_U("partial_runs", r->partial_runs));
	jw_key(w, "events");
	jw_begin_array(w);
	for (size_t i = 0; i < r->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		const struct profile_event *e = &r->ev[i];

		JW_OBJECT(w, JW_S("name", e->name), JW_U("total", e->total),
			  JW_D("per_run", e->per_run),
			  JW_D("enabled_pct", e->enabled_pct));
	}
	jw_end_array(w);
	jw_key(w, "topdown");
	if (r->has_topdown)
		JW_OBJECT(w, JW_D("retiring", r->td.retiring),
			  JW_D("bad_speculation", r->td.bad_speculation),
			  JW_D("frontend_bound", r->td.frontend_bound),
			  JW_D("backend_bound", r->td.backend_bound));
	else
		jw_null(w);
	jw_double_field(w, "overhead_ns_per_run", r->overhead_ns_per_run);
	jw_end_object(w);
}

static void num(FILE *f, double v, int width)
{
	if (isnan(v))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.2f", width, v);
}

void profile_print_text(FILE *f, const struct profile_report *r)
{
	double v;

	if (!r)
		return;
	fprintf(f, "profile of program %" PRIu32 " %s: %" PRIu64 " runs, %" PRIu64 " partial",
		r->id, r->prog_name, r->runs, r->partial_runs);
	if (isnan(r->overhead_ns_per_run))
		fprintf(f, "; overhead %s\n", r->overhead_note[0] ?
						      r->overhead_note :
						      "not calibrated");
	else
		fprintf(f, "; profiler overhead %.1f ns/run\n",
			r->overhead_ns_per_run);
	fprintf(f, "  %-20s %14s %20s %9s %14s\n", "EVENT", "PER_RUN", "TOTAL",
		"ENABLED%", "PROFILER/RUN");
	for (size_t i = 0; i < r->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		const struct profile_event *e = &r->ev[i];

		fprintf(f, "  %-20s", e->name);
		num(f, e->per_run, 14);
		fprintf(f, " %20" PRIu64, e->total);
		num(f, e->enabled_pct, 9);
		num(f, e->baseline_per_run, 14);
		fputc('\n', f);
	}
	v = profile_ipc(r);
	if (!isnan(v))
		fprintf(f, "  IPC %.2f\n", v);
	v = profile_per_kinsn(r, PM_LLC_MISSES);
	if (!isnan(v))
		fprintf(f, "  LLC misses per 1,000 instructions %.3f\n", v);
	if (r->has_topdown)
		fprintf(f, "  Top-Down (%s): retiring %.1f%%, bad speculation %.1f%%, frontend bound %.1f%%, backend bound %.1f%%\n",
			td_model_name(r->td_model), 100.0 * r->td.retiring,
			100.0 * r->td.bad_speculation,
			100.0 * r->td.frontend_bound,
			100.0 * r->td.backend_bound);
	else if (r->topdown_note[0])
		fprintf(f, "  Top-Down: %s\n", r->topdown_note);
	fputc('\n', f);
}
