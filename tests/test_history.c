// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history ring and the graph on synthetic series: flat, a step, gaps
 * while stats were off, a reload under a new id, flagged spans, the long
 * window from coarse buckets, the memory bound, ASCII fallback, sparklines.
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

#include "insights/graph.h"
#include "insights/history.h"

#define T0 1800000000.0
#define TAG "0123456789abcdef"

struct step {
	double ns, rs;
	bool flag;
};

/* Feed @n refreshes one second apart from @t; returns the next time. */
static double feed(struct history *h, uint32_t id, const char *name, double t,
		   size_t n, struct step s)
{
	for (size_t i = 0; i < n; i++, t += 1.0) {
		history__begin(h, t);
		assert_int_equal(history__update(h, id, TAG, name, 1.0, s.ns, s.rs,
						 s.flag), 0);
		history__end(h);
	}
	return t;
}

static void assert_near(double v, double want, double rel)
{
	if (isnan(v) || fabs(v - want) > rel * want)
		fail_msg("%g is not within %g%% of %g", v, rel * 100, want);
}

static void test_codes(void **state)
{
	static const double v[] = { 0, 1, 7.5, 123.4, 5000, 1e6, 3.3e9 };

	(void)state;
	assert_int_equal(hist_encode(NAN, 2000, 0xffff), 0);
	assert_true(isnan(hist_decode(0, 2000)));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		double d = hist_decode(hist_encode(v[i], 2000, 0xffff), 2000);

		assert_true(fabs(d - v[i]) <= 0.0005 * v[i] + 1e-9);
	}
}

/* The rows of the plot that hold line dots; -1 if none. */
static int line_rows(const struct graph *g, int x0, int x1, int *first)
{
	int nrows = 0;

	*first = -1;
	for (int r = 0; r < g->h; r++) {
		bool any = false;

		for (int x = x0; x < x1; x++)
			any |= g->plot[r * g->w + x].role == GRAPH_LINE ||
			       g->plot[r * g->w + x].role == GRAPH_FLAG;
		if (any) {
			if (*first < 0)
				*first = r;
			nrows++;
		}
	}
	return nrows;
}

static int render(struct graph *g, const struct hist_point *p, size_t n, int w,
		  int h, double baseline, enum graph_style st)
{
	double v[512];
	bool f[512], r[512], m[512];

	assert_true(n <= 512);
	for (size_t i = 0; i < n; i++) {
		v[i] = p[i].ns_per_run;
		f[i] = p[i].flagged;
		r[i] = p[i].reload;
		m[i] = p[i].measured;
	}
	return graph_render(g, v, f, r, m, baseline, w, h, st);
}

static void test_flat(void **state)
{
	struct history *h = history__new();
	struct hist_point p[120];
	struct graph g;
	int first;

	(void)state;
	double t = feed(h, 7, "flat", T0, 60, (struct step){ 500, 1000, false });

	assert_int_equal(history__series(h, 7, t - 1, 60, 120, p), 120);
	for (size_t i = 0; i < 120; i++) {
		assert_near(p[i].ns_per_run, 500, 0.001);
		assert_near(p[i].runs_per_s, 1000, 0.001);
		assert_false(p[i].flagged);
	}
	assert_int_equal(render(&g, p, 120, 60, 4, 500, GRAPH_BRAILLE), 0);
	assert_true(g.ymax == 500);
	assert_string_equal(g.ylabel[0], "500");
	assert_string_equal(g.ylabel[2], "0");
	/* one flat line at the top, every column drawn */
	assert_int_equal(line_rows(&g, 0, 60, &first), 1);
	assert_int_equal(first, 0);
	for (int x = 0; x < 60; x++)
		assert_int_not_equal(g.plot[x].role, GRAPH_EMPTY);
	graph_free(&g);
	history__free(h);
}

static void test_step(void **state)
{
	struct history *h = history__new();
	struct hist_point p[60];
	struct graph g;
	double t;
	int first;

	(void)state;
	t = feed(h, 7, "step", T0, 30, (struct step){ 500, 1000, false });
	t = feed(h, 7, "step", t, 30, (struct step){ 1000, 1000, true });
	assert_int_equal(history__series(h, 7, t - 1, 60, 60, p), 60);
	for (size_t i = 0; i < 29; i++) {
		assert_near(p[i].ns_per_run, 500, 0.001);
		assert_false(p[i].flagged);
	}
	for (size_t i = 31; i < 60; i++) {
		assert_near(p[i].ns_per_run, 1000, 0.001);
		assert_true(p[i].flagged);
	}
	/* ASCII: a point per cell; the step goes from the bottom half up */
	assert_int_equal(render(&g, p, 60, 60, 5, 500, GRAPH_ASCII), 0);
	assert_true(g.ymax == 1000);
	assert_int_equal(line_rows(&g, 0, 29, &first), 1);
	assert_int_equal(first, 2);		/* 500 of 1000 on 5 rows */
	assert_int_equal(line_rows(&g, 31, 60, &first), 1);
	assert_int_equal(first, 0);
	assert_string_equal(g.plot[2 * 60 + 10].ch, "*");
	assert_string_equal(g.axis[45].ch, "!");
	assert_int_equal(g.plot[45].role, GRAPH_FLAG);
	assert_string_equal(g.axis[10].ch, "-");
	for (int i = 0; i < 60 * 5; i++)
		assert_true((unsigned char)g.plot[i].ch[0] < 0x80);
	graph_free(&g);
	history__free(h);
}

static void test_stats_off_gap(void **state)
{
	struct history *h = history__new();
	struct hist_point p[50];
	struct graph g;
	double t;

	(void)state;
	t = feed(h, 9, "gap", T0, 20, (struct step){ 800, 50, false });
	t = feed(h, 9, "gap", t, 10, (struct step){ NAN, NAN, false });
	t = feed(h, 9, "gap", t, 20, (struct step){ 800, 50, false });
	assert_int_equal(history__series(h, 9, t - 1, 50, 50, p), 40);
	for (size_t i = 0; i < 50; i++) {
		bool off = i >= 20 && i < 30;

		assert_int_equal(p[i].measured, !off);
		assert_int_equal(isnan(p[i].ns_per_run), off);
	}
	assert_int_equal(render(&g, p, 50, 25, 3, NAN, GRAPH_BRAILLE), 0);
	for (int x = 10; x < 15; x++) {
		assert_string_equal(g.axis[x].ch, ".");
		for (int r = 0; r < 3; r++)
			assert_int_equal(g.plot[r * 25 + x].role, GRAPH_EMPTY);
	}
	assert_int_equal(g.plot[5].role, GRAPH_LINE);
	graph_free(&g);
	history__free(h);
}

static void test_reload(void **state)
{
	struct history *h = history__new();
	struct hist_point p[60];
	int reloads = 0;
	double t;

	(void)state;
	t = feed(h, 3, "rl", T0, 30, (struct step){ 300, 100, false });
	/* a refresh without it, then it is back under id 4 */
	history__begin(h, t);
	history__end(h);
	t += 1;
	t = feed(h, 4, "rl", t, 29, (struct step){ 600, 100, false });
	assert_int_equal(history__count(h), 1);
	assert_int_equal(history__series(h, 3, t - 1, 60, 60, p), -ENOENT);
	assert_int_equal(history__series(h, 4, t - 1, 60, 60, p), 59);
	for (size_t i = 0; i < 60; i++)
		reloads += p[i].reload;
	assert_int_equal(reloads, 1);
	assert_true(p[32].reload);	/* reloaded at T0 + 31: point 32 of 60 from T0 - 1 */
	assert_near(p[10].ns_per_run, 300, 0.001);
	assert_near(p[50].ns_per_run, 600, 0.001);
	/* another program with the same name but another tag is not it */
	history__begin(h, t);
	assert_int_equal(history__update(h, 5, "ffffffffffffffff", "rl", 1, 1,
					 1, false), 0);
	history__end(h);
	assert_int_equal(history__count(h), 2);
	history__free(h);
}

/* 15 minutes: older than the fine ring, the 5 s buckets answer. */
static void test_long_window(void **state)
{
	struct history *h = history__new();
	struct hist_point p[90];
	double t;
	int valid;

	(void)state;
	t = feed(h, 1, "long", T0, 300, (struct step){ 200, 10, false });
	t = feed(h, 1, "long", t, 600, (struct step){ 400, 10, false });
	valid = history__series(h, 1, t - 1, 900, 90, p);
	assert_true(valid >= 88);
	assert_near(p[5].ns_per_run, 200, 0.002);
	assert_near(p[25].ns_per_run, 200, 0.002);
	assert_near(p[40].ns_per_run, 400, 0.002);
	assert_near(p[89].ns_per_run, 400, 0.002);
	assert_near(p[60].runs_per_s, 10, 0.002);
	history__free(h);
}

/* Bounded memory: 10,000 programs, all running or all idle. */
static void test_memory_bound(void **state)
{
	struct history *h = history__new();
	size_t busy, idle;

	(void)state;
	for (int r = 0; r < 100; r++) {
		history__begin(h, T0 + r);
		for (uint32_t id = 1; id <= 10000; id++)
			assert_int_equal(history__update(h, id, TAG, "p", 1, 100,
							 id <= 5000 ? 10 : 0,
							 false), 0);
		history__end(h);
	}
	busy = history__bytes(h);
	print_message("history: 10,000 programs (5,000 running): %zu KiB\n",
		      busy / 1024);
	/* at most 1.3 KiB a running program, nothing for an idle one */
	assert_int_equal(history__count(h), 5000);
	assert_true(busy <= 5000 * 1331 + 64 * 1024);
	history__free(h);

	h = history__new();
	history__begin(h, T0);
	for (uint32_t id = 1; id <= 10000; id++)
		assert_int_equal(history__update(h, id, TAG, "p", 1, NAN, 0, false), 0);
	history__end(h);
	idle = history__bytes(h);
	/* nothing at all for a program that has not run */
	assert_int_equal(history__count(h), 0);
	assert_true(idle <= 1024);
	history__free(h);
}

static void test_format_and_sparkline(void **state)
{
	static const double v[] = { 0, 50, 100, NAN, 25 };
	char buf[64];

	(void)state;
	assert_string_equal(graph_fmt_value(buf, sizeof(buf), 950), "950");
	assert_string_equal(graph_fmt_value(buf, sizeof(buf), 12500), "12k");
	assert_string_equal(graph_fmt_value(buf, sizeof(buf), 2500), "2.5k");
	assert_string_equal(graph_fmt_value(buf, sizeof(buf), 3.2e6), "3.2M");
	assert_true(graph_nice_ceil(730) == 800);
	assert_true(graph_nice_ceil(1000) == 1000);
	assert_true(graph_nice_ceil(0) == 1);
	assert_string_equal(graph_sparkline(buf, sizeof(buf), v, 5, false), "_=# -");
	assert_string_equal(graph_sparkline(buf, sizeof(buf), v, 5, true),
			    "\u2581\u2585\u2588 \u2583");
}

/* One program's refresh for test_call_order. */
struct hupd {
	uint32_t id;
	size_t i;
	bool quiet;
};

static int hupd_cmp(const void *x, const void *y)
{
	const struct hupd *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

static void hupd_feed(struct history *h, const struct hupd *u, size_t m,
		      char names[][16], int r)
{
	for (size_t j = 0; j < m; j++) {
		size_t i = u[j].i;

		assert_int_equal(history__update(h, u[j].id, TAG, names[i], 1.0,
						 u[j].quiet ? (double)NAN : 100.0 + (double)i,
						 u[j].quiet ? 0.0 : 10.0 * (double)(i + 1),
						 !u[j].quiet && r % 7 == 0), 0);
	}
}

/*
 * Programs that run, idle, never run, go and come back under new ids, fed
 * to one history in id order (as every refresh does) and to another in a
 * shuffled order: both must hold the same series for every program.
 */
static void test_call_order(void **state)
{
	struct history *a = history__new(), *b = history__new();
	struct hist_point pa[40], pb[40];
	struct hupd u[32];
	uint32_t ids[32];
	char names[32][16];
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	size_t n = 32, kept = 0;
	double t = T0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		ids[i] = (uint32_t)(5 * i + 1);
		snprintf(names[i], sizeof(names[i]), "h%zu", i);
	}
	for (int r = 0; r < 120; r++, t += 1.0) {
		size_t m = 0;

		/* Every 10 refreshes one program goes and comes back under a new id. */
		if (r % 10 == 9)
			ids[(size_t)r / 10 % n] += 1000;
		for (size_t i = 0; i < n; i++) {
			/* Every fifth never runs; the others go quiet a while. */
			if (i % 5 == 4 && r % 3)
				continue;	/* and is not always there either */
			u[m++] = (struct hupd){ .id = ids[i], .i = i,
						.quiet = i % 5 == 4 ||
							 (r / 15 + (int)i) % 4 == 0 };
		}
		qsort(u, m, sizeof(u[0]), hupd_cmp);
		history__begin(a, t);
		hupd_feed(a, u, m, names, r);
		history__end(a);
		for (size_t j = m; j > 1; j--) {
			struct hupd tmp;
			size_t x;

			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			x = (size_t)(rng >> 33) % j;
			tmp = u[j - 1];
			u[j - 1] = u[x];
			u[x] = tmp;
		}
		history__begin(b, t);
		hupd_feed(b, u, m, names, r);
		history__end(b);
	}
	assert_int_equal(history__count(a), history__count(b));
	for (size_t i = 0; i < n; i++) {
		int va = history__series(a, ids[i], t - 1, 40, 40, pa);
		int vb = history__series(b, ids[i], t - 1, 40, 40, pb);

		assert_int_equal(va, vb);
		if (i % 5 == 4) {
			assert_int_equal(va, -ENOENT);	/* never ran: nothing kept */
			continue;
		}
		assert_true(va > 0);
		kept++;
		for (size_t k = 0; k < 40; k++) {
			assert_int_equal(pa[k].flagged, pb[k].flagged);
			assert_int_equal(pa[k].reload, pb[k].reload);
			assert_int_equal(pa[k].measured, pb[k].measured);
			assert_true((isnan(pa[k].ns_per_run) && isnan(pb[k].ns_per_run)) ||
				    pa[k].ns_per_run == pb[k].ns_per_run);
			assert_true((isnan(pa[k].runs_per_s) && isnan(pb[k].runs_per_s)) ||
				    pa[k].runs_per_s == pb[k].runs_per_s);
		}
	}
	assert_int_equal(kept, 26);
	history__free(a);
	history__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_stats_off_gap),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_long_window),
		cmocka_unit_test(test_memory_bound),
		cmocka_unit_test(test_format_and_sparkline),
		cmocka_unit_test(test_call_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
