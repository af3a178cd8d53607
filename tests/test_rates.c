// SPDX-License-Identifier: GPL-2.0-only
/* rates_compute() and sat_sub(): NAN for "no value", exact deltas, no garbage. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/rates.h"

static struct prog_sample sample(uint64_t cnt, uint64_t ns)
{
	struct prog_sample s;

	memset(&s, 0, sizeof(s));
	s.id = 7;
	s.run_cnt = cnt;
	s.run_time_ns = ns;
	return s;
}

/* Poisoned output, so a field left unwritten shows up. */
static struct prog_rates poisoned(void)
{
	struct prog_rates r = { -12345.0, -12345.0, -12345.0 };

	return r;
}

static void assert_all_nan(const struct prog_rates *r)
{
	assert_true(isnan(r->ns_per_run));
	assert_true(isnan(r->runs_per_s));
	assert_true(isnan(r->cpu_pct));
}

static void test_first_sample(void **state)
{
	struct prog_sample cur = sample(1000, 50000);
	struct prog_rates r = poisoned();

	rates_compute(NULL, &cur, 1000000000ull, true, &r);
	assert_all_nan(&r);
}

static void test_zero_interval(void **state)
{
	struct prog_sample prev = sample(1000, 50000), cur = sample(2000, 90000);
	struct prog_rates r = poisoned();

	rates_compute(&prev, &cur, 0, true, &r);
	assert_all_nan(&r);
}

static void test_stats_off(void **state)
{
	struct prog_sample prev = sample(1000, 50000), cur = sample(2000, 90000);
	struct prog_rates r = poisoned();

	rates_compute(&prev, &cur, 1000000000ull, false, &r);
	assert_all_nan(&r);
	/* Stats off and nothing moved: still no value, not a zero rate. */
	r = poisoned();
	rates_compute(&prev, &prev, 1000000000ull, false, &r);
	assert_all_nan(&r);
}

static void test_zero_runs(void **state)
{
	struct prog_sample prev = sample(1000, 50000), cur = sample(1000, 50000);
	struct prog_rates r = poisoned();

	rates_compute(&prev, &cur, 500000000ull, true, &r);
	assert_true(r.runs_per_s == 0.0);
	assert_true(r.cpu_pct == 0.0);
	assert_false(signbit(r.runs_per_s));
	assert_false(signbit(r.cpu_pct));
	assert_true(isnan(r.ns_per_run));

	/* Never run at all. */
	prev = sample(0, 0);
	cur = sample(0, 0);
	r = poisoned();
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_true(r.runs_per_s == 0.0);
	assert_true(r.cpu_pct == 0.0);
	assert_true(isnan(r.ns_per_run));
}

static void test_normal_deltas(void **state)
{
	struct prog_sample prev = sample(1000, 100000);
	struct prog_sample cur = sample(1000 + 5000, 100000 + 250000);
	struct prog_rates r = poisoned();

	/* 5000 runs and 250 us over 0.5 s. */
	rates_compute(&prev, &cur, 500000000ull, true, &r);
	assert_true(r.runs_per_s == 10000.0);
	assert_true(r.ns_per_run == 50.0);
	assert_true(r.cpu_pct == 0.05);

	/* One run taking a whole second of a 1 s interval: 100 %. */
	prev = sample(1, 0);
	cur = sample(2, 1000000000ull);
	r = poisoned();
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_true(r.runs_per_s == 1.0);
	assert_true(r.ns_per_run == 1e9);
	assert_true(r.cpu_pct == 100.0);

	/* More than one CPU's worth: percent of one CPU exceeds 100. */
	prev = sample(0, 0);
	cur = sample(4, 3000000000ull);
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_true(r.cpu_pct == 300.0);
	assert_true(r.ns_per_run == 750000000.0);

	/* Time moved, count did not (a run in flight at the sample): 0 runs/s. */
	prev = sample(10, 100);
	cur = sample(10, 400);
	rates_compute(&prev, &cur, 1000ull, true, &r);
	assert_true(r.runs_per_s == 0.0);
	assert_true(isnan(r.ns_per_run));
	assert_true(r.cpu_pct == 30.0);
}

static void test_counter_reset(void **state)
{
	struct prog_sample prev = sample(1000000, 90000000);
	struct prog_sample cur = sample(10, 500);
	struct prog_rates r = poisoned();

	/* Both counters went backwards: the id names another program. */
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_all_nan(&r);

	/* Only the count went backwards. */
	cur = sample(999999, 95000000);
	r = poisoned();
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_all_nan(&r);

	/* Only the time went backwards. */
	cur = sample(1000001, 1000);
	r = poisoned();
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_all_nan(&r);
}

static void test_huge_values(void **state)
{
	struct prog_sample prev = sample(UINT64_MAX - 1000, UINT64_MAX - 100000);
	struct prog_sample cur = sample(UINT64_MAX, UINT64_MAX);
	struct prog_rates r = poisoned();

	/* Deltas near the top of the range are exact and small. */
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_true(r.runs_per_s == 1000.0);
	assert_true(r.ns_per_run == 100.0);
	assert_true(r.cpu_pct == 0.01);

	/* The whole range in one step: finite and positive, no wrap. */
	prev = sample(0, 0);
	cur = sample(UINT64_MAX, UINT64_MAX);
	rates_compute(&prev, &cur, 1, true, &r);
	assert_true(isfinite(r.runs_per_s) && r.runs_per_s > 1e28);
	assert_true(isfinite(r.cpu_pct) && r.cpu_pct > 1e21);
	assert_true(r.ns_per_run == 1.0);

	/* A reset from near UINT64_MAX must not turn into a huge rate. */
	prev = sample(UINT64_MAX - 5, UINT64_MAX - 5);
	cur = sample(3, 3);
	r = poisoned();
	rates_compute(&prev, &cur, 1000000000ull, true, &r);
	assert_all_nan(&r);

	/* The longest interval there is. */
	prev = sample(0, 0);
	cur = sample(1, 1);
	rates_compute(&prev, &cur, UINT64_MAX, true, &r);
	assert_true(r.runs_per_s > 0.0 && r.runs_per_s < 1e-9);
	assert_true(r.ns_per_run == 1.0);
}

static void test_sat_sub(void **state)
{
	assert_int_equal(sat_sub(5, 3), 2);
	assert_int_equal(sat_sub(3, 5), 0);
	assert_int_equal(sat_sub(7, 7), 0);
	assert_int_equal(sat_sub(0, UINT64_MAX), 0);
	assert_true(sat_sub(UINT64_MAX, 0) == UINT64_MAX);
	assert_true(sat_sub(UINT64_MAX, 1) == UINT64_MAX - 1);
	assert_true(sat_sub(UINT64_MAX - 1, UINT64_MAX) == 0);
	assert_true(sat_sub(1ull << 63, (1ull << 63) - 1) == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_sample),
		cmocka_unit_test(test_zero_interval),
		cmocka_unit_test(test_stats_off),
		cmocka_unit_test(test_zero_runs),
		cmocka_unit_test(test_normal_deltas),
		cmocka_unit_test(test_counter_reset),
		cmocka_unit_test(test_huge_values),
		cmocka_unit_test(test_sat_sub),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
