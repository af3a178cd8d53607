// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profiler's arithmetic without a kernel: Top-Down level 1 on known
 * counter values, the per-run accounting the BPF program does (the same
 * code, from bpf/profiler.h), the report built from it, and the JSON
 * "profile" value.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "json_keys.h"

#include "analysis/profile.h"
#include "bpf/profiler.h"
#include "util/json_writer.h"
#include "output/profile_out.h"

#define EPS 1e-9

static void in_init(double in[TDR__MAX])
{
	for (int i = 0; i < TDR__MAX; i++)
		in[i] = (double)NAN;
}

static void assert_close(double got, double want)
{
	if (fabs(got - want) > EPS)
		fail_msg("got %.12f, want %.12f", got, want);
}

static void test_topdown_skl(void **state)
{
	struct topdown td;
	double in[TDR__MAX];

	in_init(in);
	in[TDR_CYCLES] = 1000;		/* 4000 slots */
	in[TDR_FE_BUBBLES] = 800;
	in[TDR_UOPS_ISSUED] = 2200;
	in[TDR_RETIRED] = 2000;
	in[TDR_RECOVERY] = 25;
	assert_int_equal(topdown_compute(TD_SKL, in, &td), 0);
	assert_close(td.frontend_bound, 0.2);
	assert_close(td.bad_speculation, (2200.0 - 2000 + 4 * 25) / 4000);
	assert_close(td.retiring, 0.5);
	assert_close(td.backend_bound, 1.0 - 0.2 - 0.075 - 0.5);
	/* The four add up to one. */
	assert_close(td.frontend_bound + td.bad_speculation + td.retiring +
			     td.backend_bound, 1.0);

	/* A missing input or no cycles: no answer. */
	in[TDR_RECOVERY] = (double)NAN;
	assert_int_equal(topdown_compute(TD_SKL, in, &td), -EINVAL);
	in[TDR_RECOVERY] = 25;
	in[TDR_CYCLES] = 0;
	assert_int_equal(topdown_compute(TD_SKL, in, &td), -EINVAL);
}

static void test_topdown_icl_spr(void **state)
{
	struct topdown td;
	double in[TDR__MAX];

	in_init(in);
	in[TDR_SLOTS] = 10000;
	in[TDR_FE_BUBBLES] = 2500;
	in[TDR_UOP_DROPPING] = 500;
	in[TDR_BE_SLOTS] = 2500;
	in[TDR_CLEARS] = 100;
	in[TDR_RETIRED] = 4000;
	assert_int_equal(topdown_compute(TD_ICL, in, &td), 0);
	assert_close(td.frontend_bound, 0.2);		/* (2500-500)/10000 */
	assert_close(td.backend_bound, 0.3);		/* (2500+5*100)/10000 */
	assert_close(td.retiring, 0.4);
	assert_close(td.bad_speculation, 0.1);		/* the rest */

	/* SPR: no machine-clears term, width in the slots already. */
	assert_int_equal(topdown_compute(TD_SPR, in, &td), 0);
	assert_close(td.backend_bound, 0.25);
	assert_close(td.bad_speculation, 0.15);

	/* ICL needs CLEARS_COUNT, SPR does not. */
	in[TDR_CLEARS] = (double)NAN;
	assert_int_equal(topdown_compute(TD_ICL, in, &td), -EINVAL);
	assert_int_equal(topdown_compute(TD_SPR, in, &td), 0);

	/* Bad speculation never goes below zero. */
	in[TDR_RETIRED] = 9000;
	assert_int_equal(topdown_compute(TD_SPR, in, &td), 0);
	assert_close(td.bad_speculation, 0.0);
}

static void test_topdown_zen4(void **state)
{
	struct topdown td;
	double in[TDR__MAX];

	in_init(in);
	in[TDR_CYCLES] = 1000;		/* 6 dispatch slots a cycle */
	in[TDR_FE_BUBBLES] = 600;
	in[TDR_DISPATCHED] = 3300;
	in[TDR_RETIRED] = 3000;
	in[TDR_BE_SLOTS] = 1800;
	assert_int_equal(topdown_compute(TD_ZEN4, in, &td), 0);
	assert_close(td.frontend_bound, 0.1);
	assert_close(td.bad_speculation, 0.05);
	assert_close(td.backend_bound, 0.3);
	assert_close(td.retiring, 0.5);

	/* Counts over short windows can overshoot: clamped to 0..1. */
	in[TDR_RETIRED] = 7000;
	assert_int_equal(topdown_compute(TD_ZEN4, in, &td), 0);
	assert_close(td.retiring, 1.0);
	assert_close(td.bad_speculation, 0.0);

	assert_int_equal(topdown_compute(TD_NONE, in, &td), -EINVAL);
	assert_int_equal(topdown_needs(TD_NONE), 0);
}

/* ---- per-run accounting (bpf/profiler.h) ---------------------------------- */

static void reading(struct prof_value *v, uint64_t c, uint64_t e, uint64_t r)
{
	v->counter = c;
	v->enabled = e;
	v->running = r;
}

static void test_account_complete(void **state)
{
	struct prof_value before[PROF_MAX_EVENTS] = {}, after[PROF_MAX_EVENTS] = {};
	struct prof_accum a = {};

	reading(&before[0], 1000, 500, 500);
	reading(&after[0], 1300, 600, 600);
	reading(&before[1], 50, 500, 500);
	reading(&after[1], 60, 600, 600);
	/* Past n: never looked at. */
	reading(&after[2], 999, 999, 1);
	prof_account(&a, before, after, 2, 0);
	assert_int_equal(a.runs, 1);
	assert_int_equal(a.partial, 0);
	assert_int_equal(a.counter[0], 300);
	assert_int_equal(a.counter[1], 10);
	assert_int_equal(a.enabled[0], 100);
	assert_int_equal(a.running[0], 100);
	assert_int_equal(a.counter[2], 0);
	assert_int_equal(a.enabled[2], 0);
}

static void test_account_partial(void **state)
{
	struct prof_value before[PROF_MAX_EVENTS] = {}, after[PROF_MAX_EVENTS] = {};
	struct prof_accum a = {};

	/* Event 1 was multiplexed out for part of the run. */
	reading(&before[0], 1000, 500, 500);
	reading(&after[0], 1300, 600, 600);
	reading(&before[1], 50, 500, 400);
	reading(&after[1], 60, 600, 450);
	prof_account(&a, before, after, 2, 0);
	assert_int_equal(a.runs, 1);
	assert_int_equal(a.partial, 1);
	assert_int_equal(a.read_errors, 0);
	/* Its counts are left out (not scaled), for every event. */
	assert_int_equal(a.counter[0], 0);
	assert_int_equal(a.counter[1], 0);
	/* Its times still say how much of the time the counter ran. */
	assert_int_equal(a.enabled[1], 100);
	assert_int_equal(a.running[1], 50);

	/* A complete run after it counts as usual. */
	reading(&before[1], 60, 600, 450);
	reading(&after[1], 70, 700, 550);
	reading(&before[0], 1300, 600, 600);
	reading(&after[0], 1500, 700, 700);
	prof_account(&a, before, after, 2, 0);
	assert_int_equal(a.runs, 2);
	assert_int_equal(a.partial, 1);
	assert_int_equal(a.counter[0], 200);
	assert_int_equal(a.counter[1], 10);

	/* A failed read: partial, nothing else added. */
	prof_account(&a, before, after, 2, 1);
	assert_int_equal(a.runs, 3);
	assert_int_equal(a.partial, 2);
	assert_int_equal(a.read_errors, 1);
	assert_int_equal(a.counter[0], 200);
	assert_int_equal(a.enabled[0], 200);
}

static void test_report_fill(void **state)
{
	struct profile_totals t = {};
	struct profile_report r = {};

	r.nr_events = 2;
	snprintf(r.ev[0].name, sizeof(r.ev[0].name), "cycles");
	r.ev[0].metric = PM_CYCLES;
	snprintf(r.ev[1].name, sizeof(r.ev[1].name), "instructions");
	r.ev[1].metric = PM_INSTRUCTIONS;

	/* Nothing ran yet: per-run values and shares are unknown. */
	profile_report_fill(&r, &t);
	assert_int_equal(r.runs, 0);
	assert_true(isnan(r.ev[0].per_run));
	assert_true(isnan(r.ev[0].enabled_pct));
	assert_true(isnan(profile_ipc(&r)));
	assert_false(r.has_topdown);

	t.runs = 10;
	t.partial = 2;
	t.counter[0] = 8000;
	t.counter[1] = 12000;
	t.enabled[0] = t.enabled[1] = 1000;
	t.running[0] = 1000;
	t.running[1] = 750;
	profile_report_fill(&r, &t);
	assert_int_equal(r.runs, 10);
	assert_int_equal(r.partial_runs, 2);
	/* Per run over the 8 complete runs. */
	assert_close(r.ev[0].per_run, 1000.0);
	assert_close(r.ev[1].per_run, 1500.0);
	assert_close(r.ev[0].enabled_pct, 100.0);
	assert_close(r.ev[1].enabled_pct, 75.0);
	assert_close(profile_ipc(&r), 1.5);
	assert_true(isnan(profile_per_kinsn(&r, PM_LLC_MISSES)));
	assert_int_equal(profile_find(&r, PM_INSTRUCTIONS), 1);

	/* Every run partial: no per-run value. */
	t.partial = 10;
	profile_report_fill(&r, &t);
	assert_true(isnan(r.ev[0].per_run));
}

static void test_report_topdown(void **state)
{
	static const enum td_role roles[] = { TDR_CYCLES, TDR_UOPS_ISSUED,
					      TDR_RETIRED, TDR_FE_BUBBLES,
					      TDR_RECOVERY };
	static const uint64_t counts[] = { 1000, 2200, 2000, 800, 25 };
	struct profile_totals t = { .runs = 4 };
	struct profile_report r = { .td_model = TD_SKL, .nr_events = 5 };

	for (int i = 0; i < 5; i++) {
		r.ev[i].role = roles[i];
		t.counter[i] = counts[i];
		t.enabled[i] = t.running[i] = 1;
	}
	profile_report_fill(&r, &t);
	assert_true(r.has_topdown);
	assert_close(r.td.retiring, 0.5);
	assert_close(r.td.frontend_bound, 0.2);

	/* Without a run measured in full, no Top-Down. */
	t.partial = 4;
	profile_report_fill(&r, &t);
	assert_false(r.has_topdown);
}

/* ---- the JSON value --------------------------------------------------------- */

static char *json_of(const struct profile_report *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	struct jw w;

	assert_non_null(f);
	jw_init(&w, f);
	profile_print_json(&w, r);
	assert_int_equal(fclose(f), 0);
	return s;
}

static void test_json(void **state)
{
	static const char *const top[] = { "id", "runs", "partial_runs",
					   "events", "topdown",
					   "overhead_ns_per_run" };
	static const char *const ev[] = { "name", "total", "per_run",
					  "enabled_pct" };
	static const char *const td[] = { "retiring", "bad_speculation",
					  "frontend_bound", "backend_bound" };
	struct profile_report r = { .id = 42, .runs = 10, .partial_runs = 1,
				    .nr_events = 1,
				    .overhead_ns_per_run = (double)NAN };
	struct json_object *o, *e, *v;
	char *s;

	s = json_of(NULL);
	assert_string_equal(s, "null");
	free(s);

	snprintf(r.ev[0].name, sizeof(r.ev[0].name), "cpu-clock");
	r.ev[0].total = 900;
	r.ev[0].per_run = 100.0;
	r.ev[0].enabled_pct = 100.0;
	s = json_of(&r);
	o = json_tokener_parse(s);
	assert_non_null(o);
	assert_keys(o, top, sizeof(top) / sizeof(top[0]));
	assert_true(json_object_object_get_ex(o, "id", &v));
	assert_int_equal(json_object_get_int64(v), 42);
	assert_true(json_object_object_get_ex(o, "partial_runs", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	assert_true(json_object_object_get_ex(o, "topdown", &v));
	assert_null(v);		/* JSON null */
	assert_true(json_object_object_get_ex(o, "overhead_ns_per_run", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(o, "events", &v));
	assert_int_equal(json_object_array_length(v), 1);
	e = json_object_array_get_idx(v, 0);
	assert_keys(e, ev, sizeof(ev) / sizeof(ev[0]));
	assert_true(json_object_object_get_ex(e, "name", &v));
	assert_string_equal(json_object_get_string(v), "cpu-clock");
	assert_true(json_object_object_get_ex(e, "per_run", &v));
	assert_close(json_object_get_double(v), 100.0);
	json_object_put(o);
	free(s);

	r.has_topdown = true;
	r.td = (struct topdown){ 0.5, 0.1, 0.2, 0.2 };
	r.overhead_ns_per_run = 35.5;
	r.ev[0].per_run = (double)NAN;
	s = json_of(&r);
	o = json_tokener_parse(s);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "topdown", &v));
	assert_non_null(v);
	assert_keys(v, td, sizeof(td) / sizeof(td[0]));
	assert_true(json_object_object_get_ex(v, "retiring", &e));
	assert_close(json_object_get_double(e), 0.5);
	assert_true(json_object_object_get_ex(o, "overhead_ns_per_run", &v));
	assert_close(json_object_get_double(v), 35.5);
	/* A per-run value not known yet is null, not 0. */
	assert_true(json_object_object_get_ex(o, "events", &v));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(v, 0),
					      "per_run", &e));
	assert_null(e);
	json_object_put(o);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topdown_skl),
		cmocka_unit_test(test_topdown_icl_spr),
		cmocka_unit_test(test_topdown_zen4),
		cmocka_unit_test(test_account_complete),
		cmocka_unit_test(test_account_partial),
		cmocka_unit_test(test_report_fill),
		cmocka_unit_test(test_report_topdown),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
