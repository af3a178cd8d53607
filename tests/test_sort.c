// SPDX-License-Identifier: GPL-2.0-only
/* Sorting rows on every key, sort key names, and the filter. */
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

#include "analysis/sort.h"

#define N 6

static struct prog_sample samples[N];
static struct prog_row rows[N];
static struct prog_owner owners[3] = {
	{ 4242, "Loader" },
	{ 77, "systemd" },
	{ 1234, "cilium-agent" },
};

/*
 * Six programs, given in an order that is none of the sort orders. The
 * numbers are chosen so every key orders them differently, with a tie and
 * a missing value in each rate column.
 */
static int setup(void **state)
{
	static const struct {
		uint32_t id;
		const char *type;
		const char *name;
		uint64_t cnt, ns;
		double nsrun, runs, cpu;
	} d[N] = {
		{ 30, "xdp", "beta", 5, 1ull << 40, 10.0, NAN, 1.0 },
		{ 10, "tracing", "", 1ull << 40, 7, NAN, 2.0, 1.0 },
		{ 50, "socket_filter", "Alpha", 5, 3, 30.0, 2.0, NAN },
		{ 20, "xdp", "gamma", 0, 0, 10.0, 100.0, 0.5 },
		{ 60, "cgroup_skb", "", 3, 9, 5.0, 0.0, 3.0 },
		{ 40, "kprobe", "alpha", 1ull << 33, 1ull << 62, 20.0, 50.0, 0.0 },
	};

	memset(samples, 0, sizeof(samples));
	for (int i = 0; i < N; i++) {
		struct prog_sample *s = &samples[i];

		s->id = d[i].id;
		s->type_name = d[i].type;
		snprintf(s->name, sizeof(s->name), "%s", d[i].name);
		s->run_cnt = d[i].cnt;
		s->run_time_ns = d[i].ns;
		rows[i].s = s;
		rows[i].r.ns_per_run = d[i].nsrun;
		rows[i].r.runs_per_s = d[i].runs;
		rows[i].r.cpu_pct = d[i].cpu;
	}
	/* id 30 is held by Loader and systemd, id 10 by cilium-agent. */
	samples[0].owners = &owners[0];
	samples[0].nr_owners = 2;
	samples[1].owners = &owners[2];
	samples[1].nr_owners = 1;
	return 0;
}

static void check_order(enum sort_key k, const uint32_t want[N])
{
	struct prog_row r[N];
	char got[128] = "", exp[128] = "";

	memcpy(r, rows, sizeof(r));
	rows_sort(r, N, k);
	for (int i = 0; i < N; i++) {
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %u",
			 r[i].s->id);
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), " %u",
			 want[i]);
	}
	if (strcmp(got, exp))
		fail_msg("sort by %s: got%s, want%s", sort_key_name(k), got, exp);
	/* The comparator agrees with the result, pair by pair. */
	for (int i = 0; i + 1 < N; i++) {
		assert_true(rows_compare(&r[i], &r[i + 1], k) < 0);
		assert_true(rows_compare(&r[i + 1], &r[i], k) > 0);
		assert_int_equal(rows_compare(&r[i], &r[i], k), 0);
	}
}

static void test_sort_id(void **state)
{
	static const uint32_t want[N] = { 10, 20, 30, 40, 50, 60 };

	check_order(SORT_ID, want);
}

static void test_sort_type(void **state)
{
	/* Ascending type names, ties (two xdp) by id. */
	static const uint32_t want[N] = { 60, 40, 50, 10, 20, 30 };

	check_order(SORT_TYPE, want);
}

static void test_sort_name(void **state)
{
	/* Byte order ("Alpha" < "alpha"), unnamed last, ties by id. */
	static const uint32_t want[N] = { 50, 40, 30, 20, 10, 60 };

	check_order(SORT_NAME, want);
}

static void test_sort_nsrun(void **state)
{
	/* Largest first, tie 10.0 (20, 30) by id, NAN last. */
	static const uint32_t want[N] = { 50, 40, 20, 30, 60, 10 };

	check_order(SORT_NSRUN, want);
}

static void test_sort_runs(void **state)
{
	static const uint32_t want[N] = { 20, 40, 10, 50, 60, 30 };

	check_order(SORT_RUNS, want);
}

static void test_sort_cpu(void **state)
{
	static const uint32_t want[N] = { 60, 10, 30, 20, 40, 50 };

	check_order(SORT_CPU, want);
}

static void test_sort_runcnt(void **state)
{
	/* 2^40 and 2^33 differ by far more than INT_MAX; tie 5 by id. */
	static const uint32_t want[N] = { 10, 40, 30, 50, 60, 20 };

	check_order(SORT_RUNCNT, want);
}

static void test_sort_runtime(void **state)
{
	static const uint32_t want[N] = { 40, 30, 60, 10, 50, 20 };

	check_order(SORT_RUNTIME, want);
}

static struct prog_row mkrow(struct prog_sample *s, uint32_t id, uint64_t cnt,
			     uint64_t ns)
{
	struct prog_row r;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->type_name = "xdp";
	s->run_cnt = cnt;
	s->run_time_ns = ns;
	r.s = s;
	r.r.ns_per_run = r.r.runs_per_s = r.r.cpu_pct = NAN;
	return r;
}

static void test_u64_no_int_truncation(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 0x80000000ull, 0x100000000ull, 0x100000001ull,
		0x7fffffffffffffffull, 0x8000000000000000ull, UINT64_MAX,
	};
	struct prog_sample sa, sb;

	/* Every pair both ways, for both counter keys. */
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		for (size_t j = 0; j < sizeof(vals) / sizeof(vals[0]); j++) {
			struct prog_row a = mkrow(&sa, 1, vals[i], vals[i]);
			struct prog_row b = mkrow(&sb, 2, vals[j], vals[j]);
			int want = vals[i] > vals[j] ? -1 : vals[i] < vals[j] ? 1 : -1;
			int c1 = rows_compare(&a, &b, SORT_RUNCNT);
			int c2 = rows_compare(&a, &b, SORT_RUNTIME);

			/* Equal values fall back to the id: 1 before 2. */
			if ((c1 < 0) != (want < 0) || (c2 < 0) != (want < 0) ||
			    !c1 || !c2)
				fail_msg("compare %#llx with %#llx: %d %d",
					 (unsigned long long)vals[i],
					 (unsigned long long)vals[j], c1, c2);
		}
	}
}

static void test_nan_last_everywhere(void **state)
{
	struct prog_sample sa, sb;
	struct prog_row a = mkrow(&sa, 9, 0, 0), b = mkrow(&sb, 1, 0, 0);
	static const double vals[] = { 0.0, -0.0, 1e-300, 1e300, INFINITY };

	/* a has a value, b (lower id) none: a first for every rate key. */
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		a.r.ns_per_run = a.r.runs_per_s = a.r.cpu_pct = vals[i];
		assert_true(rows_compare(&a, &b, SORT_NSRUN) < 0);
		assert_true(rows_compare(&a, &b, SORT_RUNS) < 0);
		assert_true(rows_compare(&a, &b, SORT_CPU) < 0);
		assert_true(rows_compare(&b, &a, SORT_CPU) > 0);
	}
	/* Both without a value: by id. */
	a.r.cpu_pct = NAN;
	assert_true(rows_compare(&a, &b, SORT_CPU) > 0);
	assert_true(rows_compare(&b, &a, SORT_CPU) < 0);
}

static void test_sort_small(void **state)
{
	struct prog_row r[1];

	/* Nothing and one row: no crash, nothing moves. */
	rows_sort(NULL, 0, SORT_CPU);
	memcpy(r, rows, sizeof(r));
	rows_sort(r, 1, SORT_NAME);
	assert_ptr_equal(r[0].s, rows[0].s);
}

static void test_sort_stable_repeat(void **state)
{
	struct prog_row a[N], b[N];

	/* Sorting a sorted array changes nothing, on every key. */
	for (int k = 0; k < SORT__MAX; k++) {
		memcpy(a, rows, sizeof(a));
		rows_sort(a, N, (enum sort_key)k);
		memcpy(b, a, sizeof(b));
		rows_sort(b, N, (enum sort_key)k);
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_key_names(void **state)
{
	static const struct {
		const char *name;
		enum sort_key k;
	} names[] = {
		{ "id", SORT_ID },	 { "type", SORT_TYPE },
		{ "name", SORT_NAME },	 { "nsrun", SORT_NSRUN },
		{ "runs", SORT_RUNS },	 { "cpu", SORT_CPU },
		{ "runcnt", SORT_RUNCNT }, { "runtime", SORT_RUNTIME },
	};
	static const char *const bad[] = {
		"", "CPU", "Cpu", " cpu", "cpu ", "cp", "cpux", "bogus", "?",
		"ns/run", "runs/s", "0", "-1",
	};
	enum sort_key k;

	assert_int_equal(sizeof(names) / sizeof(names[0]), SORT__MAX);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		k = SORT__MAX;
		assert_int_equal(sort_key_parse(names[i].name, &k), 0);
		assert_int_equal(k, names[i].k);
		assert_string_equal(sort_key_name(names[i].k), names[i].name);
		/* The list in messages names every key. */
		assert_non_null(strstr(sort_key_names(), names[i].name));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k = SORT_NAME;
		assert_int_equal(sort_key_parse(bad[i], &k), -EINVAL);
		assert_int_equal(k, SORT_NAME);
	}
	assert_string_equal(sort_key_name(SORT__MAX), "?");
	/* The design's default sort key and its documented list. */
	assert_int_equal(sort_key_parse("cpu", &k), 0);
	assert_int_equal(k, SORT_CPU);
}

static size_t filter_ids(const char *needle, uint32_t *ids)
{
	struct prog_row r[N];
	size_t n;

	memcpy(r, rows, sizeof(r));
	n = rows_filter(r, N, needle);
	for (size_t i = 0; i < n; i++) {
		ids[i] = r[i].s->id;
		/* row_matches agrees with rows_filter. */
		assert_true(row_matches(&r[i], needle));
	}
	return n;
}

#define assert_filter(needle, ...)                                           \
	do {                                                                  \
		static const uint32_t want_[] = { __VA_ARGS__ };             \
		uint32_t got_[N];                                             \
		size_t n_ = filter_ids(needle, got_);                         \
		if (n_ != sizeof(want_) / sizeof(want_[0]) ||                 \
		    memcmp(got_, want_, sizeof(want_)))                       \
			fail_msg("filter '%s': %zu rows, want %zu", needle,   \
				 n_, sizeof(want_) / sizeof(want_[0]));       \
	} while (0)

static void test_filter(void **state)
{
	uint32_t got[N];

	/* Empty and NULL keep everything, in order. */
	assert_int_equal(filter_ids("", got), N);
	assert_int_equal(got[0], 30);
	assert_int_equal(got[5], 40);
	assert_int_equal(filter_ids(NULL, got), N);
	for (int i = 0; i < N; i++)
		assert_true(row_matches(&rows[i], NULL) && row_matches(&rows[i], ""));

	/* Name, case-insensitive, substring; order kept. */
	assert_filter("alpha", 50, 40);
	assert_filter("ALPHA", 50, 40);
	assert_filter("lph", 50, 40);
	assert_filter("gam", 20);
	/* Type. */
	assert_filter("xdp", 30, 20);
	assert_filter("XDP", 30, 20);
	assert_filter("socket", 50);
	assert_filter("cgroup_skb", 60);
	/* Owner comm, any owner of several, case-insensitive. */
	assert_filter("loader", 30);
	assert_filter("SYSTEMD", 30);
	assert_filter("cilium", 10);
	/* Owner pid: the whole number. */
	assert_filter("4242", 30);
	assert_filter("1234", 10);
	assert_filter("77", 30);
	/* Matches nothing. */
	assert_int_equal(filter_ids("nothing-matches-this", got), 0);
	/* "a" is in alpha, beta, gamma, tracing, Alpha, cilium-agent... */
	assert_filter("a", 30, 10, 50, 20, 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sort_id, setup),
		cmocka_unit_test_setup(test_sort_type, setup),
		cmocka_unit_test_setup(test_sort_name, setup),
		cmocka_unit_test_setup(test_sort_nsrun, setup),
		cmocka_unit_test_setup(test_sort_runs, setup),
		cmocka_unit_test_setup(test_sort_cpu, setup),
		cmocka_unit_test_setup(test_sort_runcnt, setup),
		cmocka_unit_test_setup(test_sort_runtime, setup),
		cmocka_unit_test(test_u64_no_int_truncation),
		cmocka_unit_test(test_nan_last_everywhere),
		cmocka_unit_test_setup(test_sort_small, setup),
		cmocka_unit_test_setup(test_sort_stable_repeat, setup),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test_setup(test_filter, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
