// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden tests for batch output: a fixed snapshot (odd names, rates with
 * no value yet, flagged rows, owners, a profile, hot lines, the demo's
 * counters) is
 * written as text and as JSON and compared byte for byte with the files
 * under tests/golden/. A change to either writer shows up here as a diff.
 *
 * When a change of output is intended, regenerate the files and review
 * the diff before committing it:
 *
 *   EBPFTOP_GOLDEN_UPDATE=1 make -C build check TESTS=tests/test_golden
 *   git diff tests/golden/
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
#include <time.h>

#include <cmocka.h>

#include "hot/report.h"
#include "output/batch.h"

/* ---- the fixed snapshot -------------------------------------------------- */

static struct prog_owner owners_classifier[] = {
	{ .pid = 4242, .comm = "ebpftop-demo" },
	{ .pid = 1, .comm = "systemd" },
};
static struct prog_owner owners_odd[] = {
	{ .pid = 77, .comm = "a \"b\" \\c" },
	{ .pid = 78, .comm = "caf\xc3\xa9\tx" },
};
static struct prog_owner owners_evil[] = {
	{ .pid = 666, .comm = "\x1b]0;pwn\x07" },
};

static struct prog_sample samples[] = {
	{
		.id = 7, .type = 6, .type_name = "xdp",
		.name = "xdp_classifier", .tag = "0123456789abcdef",
		.run_cnt = 123456789, .run_time_ns = 9876543210ull,
		.nr_owners = 2, .owners = owners_classifier,
	},
	{
		/* No name, no owners, no rates yet. */
		.id = 12, .type = 5, .type_name = "tracepoint",
		.name = "", .tag = "fedcba9876543210",
	},
	{
		.id = 300, .type = 2, .type_name = "kprobe",
		.name = "a_rather_long_program_name_that_is_wider_than_the_name_column",
		.tag = "00000000000000ff", .run_cnt = 5, .run_time_ns = 1000,
	},
	{
		/* Largest id and counters; a UTF-8 name. */
		.id = UINT32_MAX, .type = 8, .type_name = "cgroup_skb",
		.name = "caf\xc3\xa9_\xc3\x9f", .tag = "a1b2c3d4e5f60718",
		.run_cnt = UINT64_MAX, .run_time_ns = UINT64_MAX,
		.nr_owners = 2, .owners = owners_odd,
	},
	{
		/* Control characters in a name and an owner's comm. */
		.id = 55, .type = 1, .type_name = "socket_filter",
		.name = "evil\x1b[2J\"q\\", .tag = "5555555555555555",
		.run_cnt = 1, .run_time_ns = 42,
		.nr_owners = 1, .owners = owners_evil,
	},
};

#define NR (sizeof(samples) / sizeof(samples[0]))

/* 2026-01-02 03:04:05 UTC, plus a fraction. */
#define T0 1767323045.25

static void fill_rows(struct prog_row *rows, bool first)
{
	static const struct prog_rates rates[NR] = {
		{ .runs_per_s = 1234.5, .ns_per_run = 80.04, .cpu_pct = 9.88 },
		{ .runs_per_s = NAN, .ns_per_run = NAN, .cpu_pct = NAN },
		{ .runs_per_s = 0.5, .ns_per_run = 200.0, .cpu_pct = 0.00001 },
		{ .runs_per_s = 99.95, .ns_per_run = 99.96, .cpu_pct = 100.0 },
		{ .runs_per_s = 0.0, .ns_per_run = NAN, .cpu_pct = 0.0 },
	};

	memset(rows, 0, NR * sizeof(*rows));
	for (size_t i = 0; i < NR; i++) {
		rows[i].s = &samples[i];
		rows[i].r = first ? (struct prog_rates){ NAN, NAN, NAN } :
				    rates[i];
		rows[i].reg = (struct prog_regression){
			.baseline_ns = NAN, .current_ns = NAN,
			.change_pct = NAN, .limit_ns = NAN,
			.clear_ns = NAN, .since = NAN,
		};
	}
	if (first)
		return;
	/* Two flagged rows: the worse one is listed first. */
	rows[0].reg = (struct prog_regression){
		.active = true, .baseline_ns = 23.5, .current_ns = 80.04,
		.change_pct = 240.6, .limit_ns = 35.25, .clear_ns = 30.0,
		.since = T0 - 61,
	};
	rows[2].reg = (struct prog_regression){
		.active = true, .baseline_ns = 1.25, .current_ns = 200.0,
		.change_pct = 15900.0, .limit_ns = 2.0, .clear_ns = 1.5,
		.since = T0 - 3600.5,
	};
	/* Learning: a baseline but no flag. */
	rows[3].reg.baseline_ns = 99.0;
	rows[3].reg.current_ns = 99.96;
	rows[3].reg.change_pct = 0.97;
}

static void fill_snapshot(struct snapshot *snap, struct prog_row *rows,
			  bool first)
{
	memset(snap, 0, sizeof(*snap));
	snap->time = first ? T0 - 1 : T0;
	snap->interval_s = first ? (double)NAN : 1.0;
	snap->stats_on = true;
	snap->stats = first ? "on (system-wide)" : "on";
	snap->kernel = "6.18.0-golden";
	snap->ncpus = 4;
	snap->nr_rows = NR;
	snap->rows = rows;
	snap->total_cpu_pct = first ? (double)NAN : 119.88;
	snap->seq = first ? 1 : 2;
}

static void fill_profile(struct profile_report *r)
{
	static const struct {
		const char *name;
		uint64_t total;
		double per_run, enabled, base;
	} ev[] = {
		{ "cycles", 1000000, 250.5, 100.0, 30.25 },
		{ "instructions", 2500000, 625.0, 50.0, NAN },
		{ "LLC-load-misses", 0, NAN, NAN, NAN },
	};

	memset(r, 0, sizeof(*r));
	r->id = 7;
	snprintf(r->prog_name, sizeof(r->prog_name), "xdp_classifier");
	r->runs = 4000;
	r->partial_runs = 3;
	r->nr_events = sizeof(ev) / sizeof(ev[0]);
	for (size_t i = 0; i < r->nr_events; i++) {
		snprintf(r->ev[i].name, sizeof(r->ev[i].name), "%s", ev[i].name);
		r->ev[i].total = ev[i].total;
		r->ev[i].per_run = ev[i].per_run;
		r->ev[i].enabled_pct = ev[i].enabled;
		r->ev[i].baseline_per_run = ev[i].base;
	}
	r->ev[0].metric = PM_CYCLES;
	r->ev[1].metric = PM_INSTRUCTIONS;
	r->ev[2].metric = PM_LLC_MISSES;
	r->has_topdown = true;
	r->td = (struct topdown){ 0.5, 0.125, 0.25, 0.125 };
	r->overhead_ns_per_run = 12.5;
	snprintf(r->pmu, sizeof(r->pmu), "skl");
	r->td_model = TD_SKL;
}

/* Hot lines of the classifier: a helper line, a no-line bucket, odd text. */
static struct hot_report_line hot_lines[] = {
	{ "/src/bpf/xdp_classifier.bpf.c", 64, 3, "\t\tc = a + b; /* \"sum\" */",
	  "xdp_classifier", 1, 900, 0, 75.0 },
	{ "/src/bpf/xdp_classifier.bpf.c", 131, 8,
	  "\tcnt = bpf_map_lookup_elem(&xdpc_counts, &cls);", "xdp_classifier",
	  2, 100, 140, 20.0 },
	{ NULL, 0, 0, NULL, "xdp_classifier", 3, 60, 0, 5.0 },
	{ "/src/bpf/xdp_classifier.bpf.c", 120, 1, NULL, "xdp_classifier", 0,
	  0, 0, 0.0 },
};
static struct hot_report_sub hot_subs[] = { { "xdp_classifier", 1200, 100.0 } };
static const struct hot_report hot = {
	.id = 7,
	.prog_name = "xdp_classifier",
	.event = "cpu-clock",
	.freq_hz = 4000,
	.window_s = 5.0,
	.has_line_info = true,
	.samples_total = 6000,
	.samples_in_prog = 1200,
	.overhead_pct = 0.25,
	.nr_lines = 4,
	.lines = hot_lines,
	.nr_subprogs = 1,
	.subprogs = hot_subs,
};

static const struct batch_demo demo = {
	.regressed = true,
	.prog_id = 7,
	.nr_classes = 4,
	.names = { "fizz", "buzz", "fizzbuzz", "other" },
	.counts = { 10, 20, 30, UINT64_MAX },
};

/* ---- writing and comparing ----------------------------------------------- */

enum golden_case {
	CASE_FIRST,	/* the first refresh: no rates, nothing flagged */
	CASE_BUSY,	/* rates, flags, a profile and the demo */
};

/* Every record of one case, as the writer prints it. */
static char *render(enum golden_case c, bool json, size_t *len)
{
	struct prog_row rows[NR];
	struct snapshot snap;
	struct profile_report prof;
	const struct batch_extra x = { .demo = &demo };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	fill_rows(rows, c == CASE_FIRST);
	fill_snapshot(&snap, rows, c == CASE_FIRST);
	if (c == CASE_BUSY) {
		fill_profile(&prof);
		snap.profile = &prof;
		snap.hot = &hot;
	}
	if (json) {
		if (c == CASE_BUSY)
			batch_print_json_x(f, &snap, rows, NR, &x);
		else
			batch_print_json(f, &snap, rows, NR);
	} else {
		if (c == CASE_BUSY)
			batch_print_text_x(f, &snap, rows, NR, &x);
		else
			batch_print_text(f, &snap, rows, NR);
		/* A subset, as a filter leaves it: the NAME column narrows. */
		batch_print_text(f, &snap, rows + 1, 1);
	}
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *golden_path(const char *file)
{
	const char *dir = getenv("top_srcdir");
	char *p;

	if (asprintf(&p, "%s/tests/golden/%s", dir ? dir : ".", file) < 0)
		fail_msg("out of memory");
	return p;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	if (!f)
		fail_msg("%s: %s (EBPFTOP_GOLDEN_UPDATE=1 writes it)", path,
			 strerror(errno));
	*len = 0;
	do {
		if (*len + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	assert_int_equal(ferror(f), 0);
	fclose(f);
	return buf;
}

/* First line where @a and @b differ, from 1. */
static size_t first_diff_line(const char *a, size_t alen, const char *b,
			      size_t blen)
{
	size_t line = 1;

	for (size_t i = 0; i < alen && i < blen && a[i] == b[i]; i++)
		line += a[i] == '\n';
	return line;
}

static void check(enum golden_case c, bool json, const char *file)
{
	char *path = golden_path(file);
	size_t glen, wlen;
	char *got = render(c, json, &glen), *want;

	if (getenv("EBPFTOP_GOLDEN_UPDATE")) {
		FILE *f = fopen(path, "wb");

		if (!f)
			fail_msg("%s: %s", path, strerror(errno));
		assert_int_equal(fwrite(got, 1, glen, f), glen);
		assert_int_equal(fclose(f), 0);
		print_message("wrote %s\n", path);
	}
	want = slurp(path, &wlen);
	if (glen != wlen || memcmp(got, want, glen)) {
		fprintf(stderr, "---- got (%s) ----\n%.*s----\n", file,
			(int)glen, got);
		fail_msg("%s differs from the writer's output from line %zu "
			 "(%zu bytes written, %zu in the file); if the change "
			 "is intended, see the top of tests/test_golden.c",
			 path, first_diff_line(got, glen, want, wlen), glen,
			 wlen);
	}
	free(want);
	free(got);
	free(path);
}

static void test_text_first(void **state)
{
	(void)state;
	check(CASE_FIRST, false, "first.txt");
}

static void test_text_busy(void **state)
{
	(void)state;
	check(CASE_BUSY, false, "busy.txt");
}

static void test_json_first(void **state)
{
	(void)state;
	check(CASE_FIRST, true, "first.jsonl");
}

static void test_json_busy(void **state)
{
	(void)state;
	check(CASE_BUSY, true, "busy.jsonl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_first),
		cmocka_unit_test(test_text_busy),
		cmocka_unit_test(test_json_first),
		cmocka_unit_test(test_json_busy),
	};

	/* Times in the text are local: make them the same everywhere. */
	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
