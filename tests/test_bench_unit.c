// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CI gate's pure parts: the rank test, the verdicts, the baseline file
 * (written, read back, refused when foreign or corrupted) and the exact
 * shape of Bencher Metric Format, parsed with json-c.
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
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "bench/baseline.h"
#include "bench/judge.h"
#include "bench/result.h"

static void test_mann_whitney(void **state)
{
	double lo[10], hi[10], same[10];

	for (int i = 0; i < 10; i++) {
		lo[i] = 100 + i;
		hi[i] = 300 + i;
		same[i] = 100 + (i * 7) % 10;
	}
	/* Every slow round above every fast one: far below 0.001. */
	assert_true(bench_mann_whitney_greater(lo, 10, hi, 10) < 0.001);
	/* The other way round: no evidence at all. */
	assert_true(bench_mann_whitney_greater(hi, 10, lo, 10) > 0.99);
	/* The same values: nothing to see. */
	assert_true(bench_mann_whitney_greater(lo, 10, same, 10) > 0.4);
	/* Everything tied, or one side empty: p is 1. */
	assert_true(bench_mann_whitney_greater(lo, 1, lo, 1) >= 0.5);
	assert_true(bench_mann_whitney_greater(lo, 0, hi, 10) == 1.0);
	/* Five against five, fully separated: the exact p is 1/252 = 0.004. */
	assert_true(bench_mann_whitney_greater(lo, 5, hi, 5) < BENCH_ALPHA);
	/* Three against three cannot reach 1 %: the exact p is 0.05. */
	assert_true(bench_mann_whitney_greater(lo, 3, hi, 3) > BENCH_ALPHA);
}

static void fill(struct bench_result *r, const char *name, double base,
		 double step)
{
	struct bench_prog *p = bench_result_add(r, name, "xdp");

	assert_non_null(p);
	p->ran = true;
	p->packets = 4;
	for (int i = 0; i < 10; i++) {
		assert_int_equal(bench_prog_add_round(p, base + step * ((i * 3) % 10), 1e6,
						      BENCH_STATS_OFF), 0);
		assert_int_equal(bench_prog_add_floor(p, 5 + i % 2), 0);
	}
	bench_prog_count_retval(p, 2);
	bench_prog_count_retval(p, 2);
	bench_prog_count_retval(p, 1);
}

static const struct bench_judgement *find(const struct bench_judgement *j,
					  long n, const char *name)
{
	for (long i = 0; i < n; i++) {
		const struct bench_prog *p = j[i].now ? j[i].now : j[i].base;

		if (!strcmp(p->name, name))
			return &j[i];
	}
	fail_msg("no judgement for %s", name);
	return NULL;
}

static void test_judge(void **state)
{
	struct bench_result base = { 0 }, now = { 0 };
	struct bench_judgement *j;
	long n;

	fill(&base, "slower", 100, 1);
	fill(&now, "slower", 300, 1);
	fill(&base, "same", 100, 2);
	fill(&now, "same", 101, 2);
	/* 10 % slower, without doubt, but under the threshold. */
	fill(&base, "bit", 100, 0.1);
	fill(&now, "bit", 110, 0.1);
	fill(&base, "faster", 100, 1);
	fill(&now, "faster", 50, 1);
	fill(&base, "gone", 100, 1);
	fill(&now, "fresh", 100, 1);
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_int_equal(n, 6);
	assert_int_equal(find(j, n, "slower")->verdict, BENCH_REGRESSED);
	/* Medians 104.5 and 304.5. */
	assert_true(fabs(find(j, n, "slower")->change_pct - 200 / 104.5 * 100) < 1e-6);
	assert_int_equal(find(j, n, "same")->verdict, BENCH_UNCHANGED);
	assert_int_equal(find(j, n, "bit")->verdict, BENCH_UNCHANGED);
	assert_int_equal(find(j, n, "faster")->verdict, BENCH_IMPROVED);
	assert_int_equal(find(j, n, "gone")->verdict, BENCH_MISSING);
	assert_int_equal(find(j, n, "fresh")->verdict, BENCH_NEW);
	assert_int_equal(bench_count(j, (size_t)n, BENCH_REGRESSED), 1);
	free(j);
	/*
	 * Stats on now and not in the baseline: every run and every floor
	 * run costs 30 ns more. Above the floor nothing changed.
	 */
	bench_result_free(&base);
	bench_result_free(&now);
	memset(&base, 0, sizeof(base));
	memset(&now, 0, sizeof(now));
	fill(&base, "stats", 100, 1);
	fill(&now, "stats", 130, 1);
	for (unsigned int i = 0; i < 10; i++) {
		now.progs[0].floor_ns[i] += 30;
		now.progs[0].stats[i] = BENCH_STATS_ON;
	}
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_int_equal(n, 1);
	assert_true(j[0].net);
	assert_true(fabs(j[0].change_pct) < 1e-9);
	assert_int_equal(j[0].verdict, BENCH_UNCHANGED);
	assert_true(j[0].stats_differ);
	free(j);
	/* The program itself 30 ns dearer (the floor is not): 28.7 % of 104.5. */
	for (unsigned int i = 0; i < 10; i++) {
		now.progs[0].floor_ns[i] -= 30;
		now.progs[0].stats[i] = BENCH_STATS_OFF;
	}
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_false(j[0].stats_differ);
	assert_true(fabs(j[0].change_pct - 30 / 104.5 * 100) < 1e-6);
	assert_int_equal(j[0].verdict, BENCH_REGRESSED);
	free(j);
	/* The same with stats on now only: counted against 134.5, 22 %. */
	for (unsigned int i = 0; i < 10; i++)
		now.progs[0].stats[i] = BENCH_STATS_ON;
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_true(j[0].stats_differ);
	assert_true(fabs(j[0].change_pct - 30 / 134.5 * 100) < 1e-6);
	assert_int_equal(j[0].verdict, BENCH_UNCHANGED);
	free(j);
	/*
	 * No floors (live mode): ns/run itself. Stats on in 4 rounds of 10
	 * (30 ns more), one round mixed: the 5 rounds with stats off are
	 * compared with the baseline's, alone.
	 */
	base.progs[0].nr_floor = now.progs[0].nr_floor = 0;
	for (unsigned int i = 0; i < 10; i++) {
		now.progs[0].ns[i] -= 30;
		now.progs[0].stats[i] = BENCH_STATS_OFF;
		if (i < 4) {
			now.progs[0].ns[i] += 30;
			now.progs[0].stats[i] = BENCH_STATS_ON;
		}
	}
	now.progs[0].stats[4] = BENCH_STATS_MIXED;
	now.progs[0].ns[4] += 1000;
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_false(j[0].net);
	assert_int_equal(j[0].rounds_left_out, 5);
	assert_int_equal(j[0].verdict, BENCH_UNCHANGED);
	free(j);
	bench_result_free(&base);
	bench_result_free(&now);
	memset(&base, 0, sizeof(base));
	memset(&now, 0, sizeof(now));
	fill(&base, "bit", 100, 0.1);
	fill(&now, "bit", 110, 0.1);
	/* 20 ns on a 40 ns program is 50 %, but less than 25 ns: unchanged. */
	fill(&base, "tiny", 40, 0.01);
	fill(&now, "tiny", 60, 0.01);
	for (unsigned int i = 0; i < 10; i++)
		base.progs[1].floor_ns[i] = now.progs[1].floor_ns[i] = 5;
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_true(find(j, n, "tiny")->change_pct > 25);
	assert_true(find(j, n, "tiny")->p_worse < BENCH_ALPHA);
	assert_int_equal(find(j, n, "tiny")->verdict, BENCH_UNCHANGED);
	free(j);
	/* 100 ns more on 1000: 10 %, under the default threshold ... */
	fill(&base, "big", 1000, 1);
	fill(&now, "big", 1100, 1);
	n = bench_judge(&base, &now, BENCH_THRESHOLD_DEFAULT, &j);
	assert_int_equal(find(j, n, "big")->verdict, BENCH_UNCHANGED);
	free(j);
	/* ... over a 5 % one. */
	n = bench_judge(&base, &now, 5, &j);
	assert_int_equal(find(j, n, "big")->verdict, BENCH_REGRESSED);
	free(j);
	/* With a 5 % threshold a 10 % rise (but only 10 ns) does not count. */
	n = bench_judge(&base, &now, 5, &j);
	assert_true(find(j, n, "bit")->change_pct > 5);
	assert_int_equal(find(j, n, "bit")->verdict, BENCH_UNCHANGED);
	free(j);
	bench_result_free(&base);
	bench_result_free(&now);
}

static char *tmpfile_with(const char *text)
{
	char *path = strdup("/tmp/ebpftop-bench-unit.XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_baseline_round_trip(void **state)
{
	struct bench_result r = { 0 }, back = { 0 };
	struct bench_prog *skipped;
	char path[] = "/tmp/ebpftop-bench-unit.XXXXXX", err[512];
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	snprintf(r.mode, sizeof(r.mode), "bench");
	snprintf(r.object, sizeof(r.object), "obj");
	snprintf(r.kernel, sizeof(r.kernel), "6.18.0");
	snprintf(r.cpu, sizeof(r.cpu), "Some \"quoted\" CPU");
	snprintf(r.date, sizeof(r.date), "2026-11-26T10:00:00Z");
	fill(&r, "prog_a", 123.25, 0.5);
	skipped = bench_result_add(&r, "kp", "kprobe");
	snprintf(skipped->reason, sizeof(skipped->reason), "cannot run");
	assert_int_equal(baseline_write(f, &r), 0);
	fclose(f);
	assert_int_equal(baseline_read(path, &back, err, sizeof(err)), 0);
	assert_string_equal(back.mode, "bench");
	assert_string_equal(back.cpu, r.cpu);
	assert_string_equal(back.kernel, "6.18.0");
	assert_int_equal(back.nr_progs, 2);
	assert_string_equal(back.progs[0].name, "prog_a");
	assert_int_equal(back.progs[0].nr_rounds, 10);
	for (unsigned int i = 0; i < 10; i++)
		assert_true(back.progs[0].ns[i] == r.progs[0].ns[i]);
	assert_int_equal(back.progs[0].nr_floor, 10);
	assert_int_equal(back.progs[0].nr_retvals, 2);
	assert_false(back.progs[1].ran);
	assert_string_equal(back.progs[1].reason, "cannot run");
	bench_result_free(&back);
	bench_result_free(&r);
	unlink(path);
}

static void test_baseline_refused(void **state)
{
	static const char *const bad[] = {
		"{\"format\": \"ebpftop-baseline\", \"format_version\": 1, \"mode\": \"bench\", \"programs\": [{\"name\": \"x\", \"type\": \"xdp\", \"ran\": true, \"rounds\": [{\"ns_per_run\"",
		"{\"foo\": 1}",
		"[1, 2, 3]",
		"{\"format\": \"ebpftop-baseline\", \"format_version\": 2, \"mode\": \"bench\", \"programs\": []}",
		"{\"format\": \"ebpftop-baseline\", \"format_version\": 1, \"mode\": \"bench\", \"programs\": [{\"name\": \"x\", \"type\": \"xdp\", \"ran\": true, \"rounds\": [{\"ns_per_run\": -1, \"runs\": 5}]}]}",
		"{\"format\": \"ebpftop-baseline\", \"format_version\": 1, \"mode\": \"bench\", \"programs\": [{\"name\": \"x\", \"type\": \"xdp\", \"ran\": true, \"rounds\": []}]}",
		"",
		"\x7f" "ELF\x02\x01",
	};
	struct bench_result r;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *path = tmpfile_with(bad[i]);

		assert_int_equal(baseline_read(path, &r, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, path));
		assert_null(strchr(err, '\n'));
		unlink(path);
		free(path);
	}
	assert_int_equal(baseline_read("/nonexistent/base.json", &r, err, sizeof(err)),
			 -ENOENT);
}

static void test_bmf_shape(void **state)
{
	struct bench_result r = { 0 };
	struct bench_prog *skipped;
	json_object *root, *b, *m, *v;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int keys = 0;

	snprintf(r.object, sizeof(r.object), "obj");
	fill(&r, "prog_a", 100, 1);	/* rounds 100..109 */
	skipped = bench_result_add(&r, "kp", "kprobe");
	assert_non_null(skipped);
	assert_int_equal(bmf_write(f, &r), 0);
	fclose(f);
	root = json_tokener_parse(buf);
	assert_non_null(root);
	json_object_object_foreach(root, key, val) {
		(void)val;
		keys++;
		assert_string_equal(key, "obj/prog_a");
	}
	assert_int_equal(keys, 1);
	assert_true(json_object_object_get_ex(root, "obj/prog_a", &b));
	assert_int_equal(json_object_object_length(b), 2);
	assert_true(json_object_object_get_ex(b, "latency", &m));
	assert_int_equal(json_object_object_length(m), 3);
	assert_true(json_object_object_get_ex(m, "value", &v));
	assert_true(fabs(json_object_get_double(v) - 104.5) < 1e-9);
	assert_true(json_object_object_get_ex(m, "lower_value", &v));
	assert_true(json_object_get_double(v) == 100);
	assert_true(json_object_object_get_ex(m, "upper_value", &v));
	assert_true(json_object_get_double(v) == 109);
	assert_true(json_object_object_get_ex(b, "throughput", &m));
	assert_int_equal(json_object_object_length(m), 3);
	assert_true(json_object_object_get_ex(m, "value", &v));
	assert_true(fabs(json_object_get_double(v) - 1e9 / 104.5) < 1e-3);
	assert_true(json_object_object_get_ex(m, "lower_value", &v));
	assert_true(fabs(json_object_get_double(v) - 1e9 / 109) < 1e-3);
	json_object_put(root);
	free(buf);
	bench_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_baseline_round_trip),
		cmocka_unit_test(test_baseline_refused),
		cmocka_unit_test(test_bmf_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
