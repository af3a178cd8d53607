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
#include "util/msort.h"

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

static void check_order(enum col k, const uint32_t want[N])
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
		fail_msg("sort by %s: got%s, want%s", col_sort_name(k), got, exp);
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

	check_order(COL_ID, want);
}

static void test_sort_type(void **state)
{
	/* Ascending type names, ties (two xdp) by id. */
	static const uint32_t want[N] = { 60, 40, 50, 10, 20, 30 };

	check_order(COL_TYPE, want);
}

static void test_sort_name(void **state)
{
	/* Byte order ("Alpha" < "alpha"), unnamed last, ties by id. */
	static const uint32_t want[N] = { 50, 40, 30, 20, 10, 60 };

	check_order(COL_NAME, want);
}

static void test_sort_nsrun(void **state)
{
	/* Largest first, tie 10.0 (20, 30) by id, NAN last. */
	static const uint32_t want[N] = { 50, 40, 20, 30, 60, 10 };

	check_order(COL_NSRUN, want);
}

static void test_sort_runs(void **state)
{
	static const uint32_t want[N] = { 20, 40, 10, 50, 60, 30 };

	check_order(COL_RUNS, want);
}

static void test_sort_cpu(void **state)
{
	static const uint32_t want[N] = { 60, 10, 30, 20, 40, 50 };

	check_order(COL_CPU, want);
}

static void test_sort_runcnt(void **state)
{
	/* 2^40 and 2^33 differ by far more than INT_MAX; tie 5 by id. */
	static const uint32_t want[N] = { 10, 40, 30, 50, 60, 20 };

	check_order(COL_RUNCNT, want);
}

static void test_sort_runtime(void **state)
{
	static const uint32_t want[N] = { 40, 30, 60, 10, 50, 20 };

	check_order(COL_RUNTIME, want);
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
			int c1 = rows_compare(&a, &b, COL_RUNCNT);
			int c2 = rows_compare(&a, &b, COL_RUNTIME);

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
		assert_true(rows_compare(&a, &b, COL_NSRUN) < 0);
		assert_true(rows_compare(&a, &b, COL_RUNS) < 0);
		assert_true(rows_compare(&a, &b, COL_CPU) < 0);
		assert_true(rows_compare(&b, &a, COL_CPU) > 0);
	}
	/* Both without a value: by id. */
	a.r.cpu_pct = NAN;
	assert_true(rows_compare(&a, &b, COL_CPU) > 0);
	assert_true(rows_compare(&b, &a, COL_CPU) < 0);
}

static void test_sort_small(void **state)
{
	struct prog_row r[1];

	/* Nothing and one row: no crash, nothing moves. */
	rows_sort(NULL, 0, COL_CPU);
	memcpy(r, rows, sizeof(r));
	rows_sort(r, 1, COL_NAME);
	assert_ptr_equal(r[0].s, rows[0].s);
}

static void test_sort_stable_repeat(void **state)
{
	struct prog_row a[N], b[N];

	/* Sorting a sorted array changes nothing, on every key. */
	for (int k = 0; k < COL__MAX; k++) {
		memcpy(a, rows, sizeof(a));
		rows_sort(a, N, (enum col)k);
		memcpy(b, a, sizeof(b));
		rows_sort(b, N, (enum col)k);
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_key_names(void **state)
{
	static const struct {
		const char *name;
		enum col k;
	} names[] = {
		{ "id", COL_ID },	 { "type", COL_TYPE },
		{ "name", COL_NAME },	 { "nsrun", COL_NSRUN },
		{ "runs", COL_RUNS },	 { "cpu", COL_CPU },
		{ "runcnt", COL_RUNCNT }, { "runtime", COL_RUNTIME },
	};
	static const char *const bad[] = {
		"", "CPU", "Cpu", " cpu", "cpu ", "cp", "cpux", "bogus", "?",
		"ns/run", "runs/s", "0", "-1",
	};
	enum col k;
	char list[256];
	int sortable = 0;

	for (int c = 0; c < COL__MAX; c++)
		sortable += col_table[c].sort_name != NULL;
	assert_int_equal(sizeof(names) / sizeof(names[0]), sortable);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		k = COL__MAX;
		assert_int_equal(col_parse_sort(names[i].name, &k), 0);
		assert_int_equal(k, names[i].k);
		assert_string_equal(col_sort_name(names[i].k), names[i].name);
		/* The list in messages names every key. */
		assert_non_null(strstr(col_sort_names(list, sizeof(list), COL__MAX),
					 names[i].name));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k = COL_NAME;
		assert_int_equal(col_parse_sort(bad[i], &k), -EINVAL);
		assert_int_equal(k, COL_NAME);
	}
	assert_string_equal(col_sort_name(COL__MAX), "?");
	assert_string_equal(col_sort_name(COL_OWNERS), "?");
	assert_int_equal(col_parse_sort("owners", &k), -EINVAL);
	/* Help and messages: column order, the default first when given. */
	assert_string_equal(col_sort_names(list, sizeof(list), COL__MAX),
			    "id, type, name, nsrun, runs, cpu, runcnt, runtime");
	assert_string_equal(col_sort_names(list, sizeof(list), COL_CPU),
			    "cpu (default), id, type, name, nsrun, runs, runcnt, runtime");
	/* The design's default sort key and its documented list. */
	assert_int_equal(col_parse_sort("cpu", &k), 0);
	assert_int_equal(k, COL_CPU);
}

/* The column table is whole: what each use of it needs is there. */
static void test_column_table(void **state)
{
	const enum col *order = col_json_order();
	bool in_json[COL__MAX] = { false };
	int flex_last = -1, nr_json = 0, nr_order = 0;

	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = &col_table[c];

		if (!d->cell)
			fail_msg("column %d has no formatter", c);
		if (!!d->sort_name != !!d->cmp)
			fail_msg("column %s: a sort name needs a comparator",
				 col_label(c));
		if (d->sort_name && !d->label)
			fail_msg("column %d sorts but is not shown", c);
		if (d->json_key && !d->json)
			fail_msg("column %s: a JSON key needs a writer",
				 col_label(c));
		nr_json += d->json_key != NULL;
		if (!d->label)
			continue;
		if (d->width == COL_MEASURED && d->max_w && d->max_w < d->min_w)
			fail_msg("column %s: max_w < min_w", d->label);
		if (d->flex && (d->width != COL_MEASURED || d->keep_w < d->min_w))
			fail_msg("column %s: flexible columns are measured and keep at least min_w",
				 d->label);
		if (d->flex)
			flex_last = c;
		/* A free text column is the last one of the text table. */
		for (int k = c + 1; d->text_free && k < COL__MAX; k++)
			if (col_table[k].label)
				fail_msg("column %s is free text but not last",
					 d->label);
		for (int k = c + 1; k < COL__MAX; k++) {
			const struct col_def *e = &col_table[k];

			if (e->label && !strcmp(e->label, d->label))
				fail_msg("label %s twice", d->label);
			if (e->sort_name && d->sort_name &&
			    !strcmp(e->sort_name, d->sort_name))
				fail_msg("sort name %s twice", d->sort_name);
			if (e->drop && e->drop == d->drop)
				fail_msg("columns %s and %s share drop rank %d",
					 d->label, e->label, d->drop);
			if (e->json_key && d->json_key &&
			    !strcmp(e->json_key, d->json_key))
				fail_msg("JSON key %s twice", d->json_key);
		}
	}
	/* Some flexible column takes what is left, and never goes. */
	assert_true(flex_last >= 0);
	for (int c = 0; c < COL__MAX; c++) {
		if (col_table[c].flex && col_table[c].drop == 0)
			flex_last = -2;
	}
	assert_int_equal(flex_last, -2);
	/* The JSON order names every keyed column once. */
	for (int i = 0; order[i] != COL__MAX; i++) {
		assert_true(order[i] < COL__MAX);
		assert_false(in_json[order[i]]);
		assert_non_null(col_table[order[i]].json_key);
		in_json[order[i]] = true;
		nr_order++;
	}
	assert_int_equal(nr_order, nr_json);
	for (int c = 0; c < COL__MAX; c++)
		assert_int_equal(in_json[c], col_table[c].json_key != NULL);
	/* The record keeps the order of its members (the man page shows it). */
	assert_string_equal(col_table[order[0]].json_key, "id");
	assert_string_equal(col_table[order[3]].json_key, "tag");
	assert_string_equal(col_table[order[nr_json - 1]].json_key,
			    "regression");
}

/* < and > visit every sortable column, in column order, both ways. */
static void test_sort_step(void **state)
{
	enum col c = COL_ID, back;
	int n = 0;

	do {
		enum col next = col_sort_step(c, 1);

		assert_non_null(col_table[next].sort_name);
		assert_true(next > c || next == COL_ID);
		assert_int_equal(col_sort_step(next, -1), c);
		c = next;
		n++;
	} while (c != COL_ID && n < COL__MAX + 1);
	assert_int_equal(c, COL_ID);
	assert_int_equal(n, 8);
	assert_int_equal(col_sort_step(COL_RUNTIME, 1), COL_ID);
	assert_int_equal(col_sort_step(COL_ID, -1), COL_RUNTIME);
	back = col_sort_step(COL_CPU, -1);
	assert_int_equal(back, COL_RUNS);
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

/* The filter as first written: strcasestr, and a pid printed with %u. */
static bool ref_matches(const struct prog_row *row, const char *needle)
{
	const struct prog_sample *s = row->s;
	char pid[16];

	if (!needle || !*needle)
		return true;
	if (strcasestr(s->name, needle) ||
	    (s->type_name && strcasestr(s->type_name, needle)))
		return true;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		snprintf(pid, sizeof(pid), "%u", s->owners[i].pid);
		if (strcasestr(s->owners[i].comm, needle) || !strcmp(pid, needle))
			return true;
	}
	return false;
}

#define BIG 3000

/*
 * rows_view() on many rows with ties, missing values and runs already in
 * order gives what filtering with strcasestr and sorting with qsort give,
 * on every key and for needles of every kind, its buffer reused.
 */
static void test_view_many(void **state)
{
	static const char *const names[] = { "bench_1", "Bench_22", "xdp_Fw",
					     "", "tc_ALPHA", "aAaA" };
	static const char *const types[] = { "xdp", "tracing", "sched_cls" };
	static struct prog_owner own[] = { { 4242, "Loader" }, { 7, "sshd" },
					   { 0, "swapper" } };
	static const double vals[] = { NAN, 0.0, 1.5, 1.5, 20.0, 1e9 };
	static const char *const needles[] = {
		NULL, "", "a", "AA", "bench_2", "XDP", "4242", "7", "0", "042",
		"00", "424", "sshd", "er", "no-such-prog", "4294967296",
	};
	char longneedle[300];
	struct prog_sample *s = calloc(BIG, sizeof(*s));
	struct prog_row *r = calloc(BIG, sizeof(*r)), *want = calloc(BIG, sizeof(*r));
	struct prog_row *view = NULL;
	size_t cap = 0, n, nw;
	struct snapshot snap = { .rows = r };

	assert_non_null(s);
	assert_non_null(r);
	assert_non_null(want);
	memset(longneedle, 'a', sizeof(longneedle) - 1);
	longneedle[sizeof(longneedle) - 1] = '\0';
	srand(9);
	for (int i = 0; i < BIG; i++) {
		s[i].id = (uint32_t)(i * 3 + 1);
		s[i].type_name = types[rand() % 3];
		snprintf(s[i].name, sizeof(s[i].name), "%s%d",
			 names[rand() % 6], rand() % 50);
		s[i].run_cnt = (uint64_t)(rand() % 4);
		s[i].run_time_ns = i < BIG / 2 ? 5 : (uint64_t)rand();
		s[i].owners = &own[rand() % 3];
		s[i].nr_owners = (uint32_t)(rand() % 2 + (s[i].owners != &own[2]));
		r[i].s = &s[i];
		/* The first half idle: long runs already in order. */
		r[i].r.ns_per_run = i < BIG / 2 ? (double)NAN : vals[rand() % 6];
		r[i].r.runs_per_s = i < BIG / 2 ? 0.0 : vals[rand() % 6];
		r[i].r.cpu_pct = vals[rand() % 6];
	}
	for (size_t rows_n = 1; rows_n <= BIG; rows_n *= 7) {
		snap.nr_rows = rows_n;
		for (int k = 0; k < COL__MAX; k++) {
			for (size_t f = 0; f <= sizeof(needles) / sizeof(needles[0]); f++) {
				const char *nd = f < sizeof(needles) / sizeof(needles[0]) ?
							 needles[f] : longneedle;

				nw = 0;
				for (size_t i = 0; i < rows_n; i++) {
					if (ref_matches(&r[i], nd))
						want[nw++] = r[i];
				}
				rows_sort(want, nw, (enum col)k);
				assert_int_equal(rows_view(&snap, nd, (enum col)k,
							   &view, &cap, &n), 0);
				if (n != nw || (n && memcmp(view, want, n * sizeof(*want))))
					fail_msg("%zu rows, key %d, needle '%s': %zu rows, want %zu",
						 rows_n, k, nd ? nd : "(null)", n, nw);
				for (size_t i = 0; i < n; i++)
					assert_true(row_matches(&view[i], nd));
			}
		}
	}
	free(view);
	free(want);
	free(r);
	free(s);
}

/* An element for msort_natural(): a key with many ties, and where it was. */
struct kv {
	uint32_t key;
	uint32_t at;
	uint64_t pad;	/* elements wider than a pointer, as the owner refs */
};

static int kv_cmp(const void *a, const void *b, const void *ctx)
{
	const struct kv *x = a, *y = b;

	(void)ctx;
	return (x->key > y->key) - (x->key < y->key);
}

/*
 * msort_natural() against the definition of a stable sort, on random
 * arrays of every size up to 300 in every shape: random, few keys, in
 * order, reversed, and in a few ascending runs.
 */
static void test_msort_natural(void **state)
{
	struct kv a[300], tmp[300];

	(void)state;
	srand(7);
	for (size_t n = 0; n <= 300; n++) {
		for (int shape = 0; shape < 5; shape++) {
			bool seen[300] = { false };
			struct kv *out;

			for (size_t i = 0; i < n; i++) {
				uint32_t k = (uint32_t)rand();

				if (shape == 1)
					k %= 4;
				else if (shape == 2)
					k = (uint32_t)i / 3;
				else if (shape == 3)
					k = (uint32_t)(n - i);
				else if (shape == 4)
					k = (uint32_t)(i % 37) + (uint32_t)rand() % 3;
				a[i] = (struct kv){ .key = k, .at = (uint32_t)i,
						    .pad = (uint64_t)k * 31 + i };
			}
			out = msort_natural(a, tmp, n, sizeof(*a), kv_cmp, NULL);
			assert_true(out == a || out == tmp);
			for (size_t i = 0; i < n; i++) {
				/* Each element once, whole. */
				assert_false(seen[out[i].at]);
				seen[out[i].at] = true;
				assert_int_equal(out[i].pad,
						 (uint64_t)out[i].key * 31 + out[i].at);
				if (!i)
					continue;
				assert_true(out[i - 1].key <= out[i].key);
				if (out[i - 1].key == out[i].key)
					assert_true(out[i - 1].at < out[i].at);
			}
		}
	}
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
		cmocka_unit_test(test_column_table),
		cmocka_unit_test(test_sort_step),
		cmocka_unit_test_setup(test_filter, setup),
		cmocka_unit_test(test_view_many),
		cmocka_unit_test(test_msort_natural),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
