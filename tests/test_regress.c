// SPDX-License-Identifier: GPL-2.0-only
/*
 * The regression detector on synthetic series: steps up and down, spikes,
 * drift, noise, refreshes with too few runs, stats toggled off and on,
 * reloads under a new id, recovery and the event log.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/regress.h"

#define TAG_A "0123456789abcdef"
#define TAG_B "fedcba9876543210"
#define RUNS 1000.0
/* Refreshes are a second apart from this time on. */
#define T0 1800000000.0

struct fx {
	struct regress *r;
	double t;		/* time of the next refresh */
	unsigned long n;	/* refreshes so far */
};

static uint64_t rng_state;

/* xorshift64*: the same series on every run. */
static double rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) /
	       (double)(1ull << 53);
}

/* Standard normal, Box-Muller. */
static double gauss(void)
{
	double u = rnd(), v = rnd();

	if (u < 1e-12)
		u = 1e-12;
	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* Small natural noise: about 2 % either way. */
static double jitter(double v)
{
	return v * (1.0 + 0.02 * gauss());
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(regress__new(&f->r, NULL), 0);
	assert_non_null(f->r);
	f->t = T0;
	rng_state = 0x9e3779b97f4a7c15ull;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	regress__free(f->r);
	free(f);
	return 0;
}

/* One refresh of one program; returns its verdict. */
static struct prog_regression step1(struct fx *f, uint32_t id, const char *tag,
				    const char *name, double ns, double runs)
{
	struct prog_regression out;

	regress__begin(f->r, f->t);
	assert_int_equal(regress__update(f->r, id, tag, name, ns, runs, &out),
			 0);
	regress__end(f->r);
	f->t += 1.0;
	f->n++;
	return out;
}

static struct prog_regression step(struct fx *f, double ns)
{
	return step1(f, 1, TAG_A, "prog", ns, RUNS);
}

/* @n refreshes of steady noise around @v; none may be flagged. */
static void steady(struct fx *f, double v, int n)
{
	for (int i = 0; i < n; i++) {
		struct prog_regression g = step(f, jitter(v));

		if (g.active)
			fail_msg("flagged at steady refresh %d (%.1f ns, baseline %.1f)",
				 i, g.current_ns, g.baseline_ns);
	}
}

static void test_defaults(void **state)
{
	struct regress_params p;
	struct fx *f = *state;
	const struct regress_params *q = regress__params(f->r);

	regress_params_default(&p);
	assert_true(p.threshold_pct == 30.0);
	assert_int_equal(p.window, 3);
	assert_true(q->threshold_pct == 30.0);
	assert_int_equal(q->window, 3);
	assert_int_equal(regress__nr_events(f->r), 0);
	assert_null(regress__event(f->r, 0));
}

/* Learning: no baseline until the warm-up is done, never a flag. */
static void test_warmup(void **state)
{
	struct fx *f = *state;
	unsigned int warm = regress__params(f->r)->warmup;
	struct prog_regression g;

	for (unsigned int i = 0; i + 1 < warm; i++) {
		g = step(f, 100.0 * (i + 1));	/* wild, but still learning */
		assert_false(g.active);
		assert_true(isnan(g.baseline_ns));
		assert_true(isnan(g.since));
	}
	g = step(f, 100.0);
	assert_false(g.active);
	assert_false(isnan(g.baseline_ns));
}

/* A +40 % step is flagged at exactly its third refresh, never before. */
static void step_up_window(unsigned int window, double pct)
{
	struct regress_params p;
	struct prog_regression g;
	struct fx f = { .t = T0 };
	double start;

	regress_params_default(&p);
	p.window = window;
	assert_int_equal(regress__new(&f.r, &p), 0);
	assert_non_null(f.r);
	steady(&f, 100.0, 20);
	start = f.t;
	for (unsigned int i = 1; i <= window; i++) {
		g = step(&f, jitter(100.0 * (1.0 + pct / 100.0)));
		if (i < window && g.active)
			fail_msg("window %u: flagged after %u refreshes", window, i);
	}
	if (!g.active)
		fail_msg("window %u: +%.0f %% not flagged after %u refreshes",
			 window, pct, window);
	assert_true(g.since == start);
	assert_true(fabs(g.baseline_ns - 100.0) < 3.0);
	assert_true(fabs(g.change_pct - pct) < 0.08 * (100.0 + pct));
	assert_true(fabs(g.change_pct -
			 (g.current_ns / g.baseline_ns - 1.0) * 100.0) < 1e-9);
	assert_true(g.limit_ns < g.current_ns);
	assert_int_equal(regress__nr_events(f.r), 1);
	/* It stays flagged while the step lasts; the baseline does not follow. */
	for (int i = 0; i < 50; i++) {
		g = step(&f, jitter(100.0 * (1.0 + pct / 100.0)));
		assert_true(g.active);
		assert_true(g.since == start);
		assert_true(fabs(g.baseline_ns - 100.0) < 3.0);
	}
	assert_int_equal(regress__nr_events(f.r), 1);
	regress__free(f.r);
}

static void test_step_up(void **state)
{
	step_up_window(3, 40.0);
	step_up_window(3, 240.0);
	step_up_window(1, 40.0);
	step_up_window(5, 40.0);
	step_up_window(10, 100.0);
}

/* A rise under the threshold is not a regression. */
static void test_small_rise(void **state)
{
	struct fx *f = *state;

	steady(f, 100.0, 20);
	steady(f, 115.0, 100);
	assert_int_equal(regress__nr_events(f->r), 0);
}

/* --regress-threshold: 10 % flags a +15 % step, 50 % does not flag +40 %. */
static void test_threshold(void **state)
{
	struct regress_params p;
	struct prog_regression g;
	struct fx f = { .t = T0 };

	regress_params_default(&p);
	p.threshold_pct = 10.0;
	assert_int_equal(regress__new(&f.r, &p), 0);
	steady(&f, 100.0, 20);
	for (int i = 0; i < 3; i++)
		g = step(&f, 115.0);
	assert_true(g.active);
	regress__free(f.r);

	p.threshold_pct = 50.0;
	assert_int_equal(regress__new(&f.r, &p), 0);
	steady(&f, 100.0, 20);
	steady(&f, 140.0, 20);
	regress__free(f.r);
}

static void test_step_down(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	steady(f, 100.0, 20);
	steady(f, 50.0, 50);
	g = step(f, 50.0);
	/* The baseline followed the program down. */
	assert_true(fabs(g.baseline_ns - 50.0) < 2.0);
	assert_int_equal(regress__nr_events(f->r), 0);
}

static void test_single_spike(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	steady(f, 100.0, 20);
	g = step(f, 500.0);
	assert_false(g.active);
	steady(f, 100.0, 5);
	/* Two in a row is still less than the window of three. */
	assert_false(step(f, 400.0).active);
	assert_false(step(f, 400.0).active);
	steady(f, 100.0, 20);
	/* Spikes do not drag the baseline along. */
	g = step(f, 100.0);
	assert_true(fabs(g.baseline_ns - 100.0) < 3.0);
	assert_int_equal(regress__nr_events(f->r), 0);
}

/* 0.5 % more per refresh, 300 refreshes: 4.4 times slower, never flagged. */
static void test_slow_drift(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;
	double v = 100.0;

	steady(f, 100.0, 10);
	for (int i = 0; i < 300; i++) {
		v *= 1.005;
		g = step(f, jitter(v));
		if (g.active)
			fail_msg("drift flagged at %d: %.1f ns, baseline %.1f", i,
				 v, g.baseline_ns);
	}
	/* The baseline adapted to the new level. */
	assert_true(g.baseline_ns > 0.9 * v && g.baseline_ns < v);
	assert_int_equal(regress__nr_events(f->r), 0);
}

/*
 * Heavy noise (20 % sigma and an occasional doubling) is never flagged
 * over thousands of refreshes, yet a threefold step still is.
 */
static void test_heavy_noise(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;
	int i;

	for (i = 0; i < 3000; i++) {
		double v = 100.0 * (1.0 + 0.2 * gauss());

		if (rnd() < 0.02)
			v *= 2.0;
		if (v < 10.0)
			v = 10.0;
		g = step(f, v);
		if (g.active)
			fail_msg("noise flagged at refresh %d: %.1f ns, baseline %.1f, limit %.1f",
				 i, v, g.baseline_ns, g.limit_ns);
	}
	/* The noise band is wider than the threshold here. */
	assert_true(g.limit_ns > g.baseline_ns * 1.3);
	for (i = 1; i <= 3; i++)
		g = step(f, 300.0 * (1.0 + 0.2 * gauss()));
	assert_true(g.active);
	assert_int_equal(regress__nr_events(f->r), 1);
}

/* Refreshes with too few runs neither count toward a flag nor teach. */
static void test_few_runs(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	steady(f, 100.0, 20);
	for (int i = 0; i < 20; i++)
		assert_false(step1(f, 1, TAG_A, "prog", 1000.0, 10.0).active);
	/* A step with few-run refreshes between its refreshes. */
	assert_false(step(f, 200.0).active);
	assert_false(step1(f, 1, TAG_A, "prog", 1000.0, 99.0).active);
	assert_false(step(f, 200.0).active);
	assert_false(step1(f, 1, TAG_A, "prog", 50.0, 1.0).active);
	g = step(f, 200.0);
	assert_true(g.active);
	assert_true(fabs(g.baseline_ns - 100.0) < 3.0);
	/* A program that never runs enough never learns. */
	for (int i = 0; i < 20; i++) {
		g = step1(f, 2, TAG_B, "idle", 100.0 * (i % 3 + 1), 5.0);
		assert_true(isnan(g.baseline_ns));
		assert_false(g.active);
	}
}

/* NAN (stats off, first sample, no runs): gaps that break nothing. */
static void test_stats_toggle(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	g = step(f, NAN);
	assert_true(isnan(g.baseline_ns) && isnan(g.current_ns) &&
		    isnan(g.change_pct));
	steady(f, 100.0, 3);
	for (int i = 0; i < 10; i++) {
		g = step1(f, 1, TAG_A, "prog", NAN, NAN);
		assert_false(g.active);
	}
	steady(f, 100.0, 10);
	g = step1(f, 1, TAG_A, "prog", NAN, 0.0);
	assert_false(isnan(g.baseline_ns));
	/* A step with stats going off in the middle still counts to three. */
	assert_false(step(f, 150.0).active);
	assert_false(step1(f, 1, TAG_A, "prog", NAN, NAN).active);
	assert_false(step(f, 150.0).active);
	assert_false(step1(f, 1, TAG_A, "prog", INFINITY, RUNS).active);
	assert_false(step1(f, 1, TAG_A, "prog", -5.0, RUNS).active);
	g = step(f, 150.0);
	assert_true(g.active);
	/* Off while flagged: still flagged, with its values. */
	g = step1(f, 1, TAG_A, "prog", NAN, NAN);
	assert_true(g.active);
	assert_false(isnan(g.change_pct));
}

/* Recovery clears the flag, with hysteresis; the log has start and end. */
static void test_recovery(void **state)
{
	struct fx *f = *state;
	const struct regress_event *e;
	struct prog_regression g;
	double start, end;

	/* A moderate step: limit 130, clear limit 122.5. */
	steady(f, 100.0, 20);
	start = f->t;
	for (int i = 0; i < 3; i++)
		g = step(f, 150.0);
	assert_true(g.active);
	g = step(f, 170.0);	/* the peak */
	for (int i = 0; i < 5; i++)
		assert_true(step(f, 150.0).active);
	e = regress__event(f->r, 0);
	assert_non_null(e);
	assert_true(isnan(e->end));
	/* Between the clear limit and the flag limit: still flagged. */
	for (int i = 0; i < 20; i++) {
		g = step(f, 126.0);
		assert_true(g.active);
	}
	/* A moderate step clears three quarters of the way to the limit. */
	assert_true(fabs((g.clear_ns - g.baseline_ns) -
			 0.75 * (g.limit_ns - g.baseline_ns)) < 1e-9);
	/*
	 * Back down. The current value (median of the last 3) is back under
	 * the clear limit from the second low refresh on, and must stay
	 * there for 3 refreshes: the flag clears on the fourth low refresh,
	 * and the regression ended at the second.
	 */
	assert_true(step(f, 100.0).active);
	end = f->t;
	assert_true(step(f, 101.0).active);
	/* One noisy refresh meanwhile does not restart the count. */
	assert_true(step(f, 140.0).active);
	g = step(f, 99.0);
	assert_false(g.active);
	assert_true(isnan(g.since));
	assert_true(isnan(g.clear_ns));

	assert_int_equal(regress__nr_events(f->r), 1);
	e = regress__event(f->r, 0);
	assert_int_equal(e->serial, 1);
	assert_int_equal(e->id, 1);
	assert_string_equal(e->name, "prog");
	assert_string_equal(e->tag, TAG_A);
	assert_true(e->start == start);
	assert_true(e->end == end);
	assert_false(e->gone);
	assert_true(fabs(e->baseline_ns - 100.0) < 3.0);
	assert_true(e->peak_ns == 150.0 || e->peak_ns == 170.0);
	assert_true(e->peak_pct > 45.0);
	assert_true(fabs(e->peak_pct - (e->peak_ns / e->baseline_ns - 1.0) * 100.0) < 1e-9);

	/* A steady program after: no new flag; a second step: a second event. */
	steady(f, 100.0, 30);
	for (int i = 0; i < 3; i++)
		g = step(f, 180.0);
	assert_true(g.active);
	assert_int_equal(regress__nr_events(f->r), 2);
	assert_true(isnan(regress__event(f->r, 1)->end));
	assert_false(isnan(regress__event(f->r, 0)->end));
}

/*
 * A big step reverted onto a slower machine: back under the limit is
 * enough to clear, above it is not.
 */
static void test_recovery_big_step(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	steady(f, 100.0, 20);
	for (int i = 0; i < 3; i++)
		g = step(f, 600.0);
	assert_true(g.active);
	/* Reverted, but the machine runs 33 % slower now: still flagged. */
	for (int i = 0; i < 20; i++)
		assert_true(step(f, 133.0).active);
	/* Flagged, it says where it clears: the limit, after this step. */
	assert_true(fabs(g.clear_ns - g.limit_ns) < 1e-9);
	/* 26 % slower: under the limit (130), over 3/4 of it. */
	assert_true(step(f, 126.0).active);
	assert_true(step(f, 126.0).active);
	assert_true(step(f, 126.0).active);
	g = step(f, 126.0);
	assert_false(g.active);
	assert_false(isnan(regress__event(f->r, 0)->end));
	/* It stays cleared there, and its baseline moves up to it. */
	for (int i = 0; i < 20; i++)
		g = step(f, jitter(126.0));
	assert_false(g.active);
	assert_true(g.baseline_ns > 120.0);
	assert_int_equal(regress__nr_events(f->r), 1);
}

/* A reload: gone for a refresh, back under a new id with the same identity. */
static void test_reload(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;
	const struct regress_event *e;
	double since;

	steady(f, 100.0, 20);
	/* A refresh without it: it is gone. */
	regress__begin(f->r, f->t);
	regress__end(f->r);
	f->t += 1.0;
	/* Back as id 7: it knows its baseline at once. */
	g = step1(f, 7, TAG_A, "prog", 101.0, RUNS);
	assert_false(isnan(g.baseline_ns));
	assert_true(fabs(g.baseline_ns - 100.0) < 3.0);
	/* And its regression is flagged in three refreshes, as before. */
	since = f->t;
	assert_false(step1(f, 7, TAG_A, "prog", 200.0, RUNS).active);
	assert_false(step1(f, 7, TAG_A, "prog", 200.0, RUNS).active);
	g = step1(f, 7, TAG_A, "prog", 200.0, RUNS);
	assert_true(g.active);
	assert_true(g.since == since);

	/* Reloaded while flagged: still flagged, the same event goes on. */
	regress__begin(f->r, f->t);
	regress__end(f->r);
	f->t += 1.0;
	e = regress__event(f->r, 0);
	assert_true(e->gone && !isnan(e->end));
	g = step1(f, 9, TAG_A, "prog", 200.0, RUNS);
	assert_true(g.active);
	assert_true(g.since == since);
	assert_int_equal(regress__nr_events(f->r), 1);
	e = regress__event(f->r, 0);
	assert_int_equal(e->id, 9);
	assert_false(e->gone);
	assert_true(isnan(e->end));
	/* The old id is not tracked twice. */
	assert_int_equal(regress__nr_tracked(f->r), 1);
}

/* A reload where the new program shows up before the old one goes. */
static void test_reload_overlap(void **state)
{
	struct fx *f = *state;
	struct prog_regression g, h;

	steady(f, 100.0, 20);
	/* Both at once for a refresh: the new one is still learning. */
	regress__begin(f->r, f->t);
	assert_int_equal(regress__update(f->r, 1, TAG_A, "prog", 100.0, RUNS, &g), 0);
	assert_int_equal(regress__update(f->r, 2, TAG_A, "prog", 100.0, RUNS, &h), 0);
	regress__end(f->r);
	f->t += 1.0;
	assert_true(isnan(h.baseline_ns));
	/* The old one goes: the new one takes its baseline over. */
	g = step1(f, 2, TAG_A, "prog", 100.0, RUNS);
	g = step1(f, 2, TAG_A, "prog", 100.0, RUNS);
	assert_false(isnan(g.baseline_ns));
	assert_int_equal(regress__nr_tracked(f->r), 1);
	for (int i = 0; i < 3; i++)
		g = step1(f, 2, TAG_A, "prog", 200.0, RUNS);
	assert_true(g.active);
}

/* Two instances of one program (same tag and name) stay apart. */
static void test_instances(void **state)
{
	struct fx *f = *state;
	struct prog_regression g, h;

	for (int i = 0; i < 30; i++) {
		regress__begin(f->r, f->t);
		regress__update(f->r, 1, TAG_A, "prog", jitter(100.0), RUNS, &g);
		regress__update(f->r, 2, TAG_A, "prog",
				jitter(i < 27 ? 100.0 : 300.0), RUNS, &h);
		regress__end(f->r);
		f->t += 1.0;
	}
	assert_false(g.active);
	assert_true(h.active);
	assert_int_equal(regress__nr_tracked(f->r), 2);
}

/* Another tag (or name) under a new id is another program: fresh start. */
static void test_other_identity(void **state)
{
	struct fx *f = *state;
	struct prog_regression g;

	steady(f, 100.0, 20);
	regress__begin(f->r, f->t);
	regress__end(f->r);
	f->t += 1.0;
	g = step1(f, 7, TAG_B, "prog", 300.0, RUNS);
	assert_true(isnan(g.baseline_ns));
	g = step1(f, 8, TAG_A, "other", 300.0, RUNS);
	assert_true(isnan(g.baseline_ns));
	/* The same id showing another program starts afresh too. */
	steady(f, 100.0, 1);
	g = step1(f, 1, TAG_B, "renamed", 300.0, RUNS);
	assert_true(isnan(g.baseline_ns));
	for (int i = 0; i < 10; i++)
		assert_false(step1(f, 1, TAG_B, "renamed", 300.0, RUNS).active);
}

/* Vanished programs are forgotten after keep_gone refreshes. */
static void test_forget(void **state)
{
	struct regress_params p;
	struct prog_regression g;
	struct fx f = { .t = T0 };

	regress_params_default(&p);
	p.keep_gone = 10;
	assert_int_equal(regress__new(&f.r, &p), 0);
	for (int i = 0; i < 10; i++) {
		regress__begin(f.r, f.t);
		for (uint32_t id = 1; id <= 10000; id++) {
			char name[32];

			snprintf(name, sizeof(name), "p%u", id);
			assert_int_equal(regress__update(f.r, id, TAG_A, name,
							 100.0, RUNS, &g), 0);
		}
		regress__end(f.r);
		f.t += 1.0;
	}
	assert_int_equal(regress__nr_tracked(f.r), 10000);
	for (int i = 0; i < 12; i++) {
		regress__begin(f.r, f.t);
		regress__update(f.r, 1, TAG_A, "p1", 100.0, RUNS, &g);
		regress__end(f.r);
		f.t += 1.0;
		/* At most 1024 remembered, whatever keep_gone says. */
		assert_true(regress__nr_tracked(f.r) <= 1 + 1024);
	}
	assert_int_equal(regress__nr_tracked(f.r), 1);
	regress__free(f.r);
}

/* The log keeps the latest REGRESS_EVENTS_MAX, oldest first. */
static void test_event_ring(void **state)
{
	struct fx *f = *state;
	size_t n;

	steady(f, 100.0, 10);
	for (int k = 0; k < REGRESS_EVENTS_MAX + 10; k++) {
		for (int i = 0; i < 3; i++)
			step(f, 200.0);
		/* The median is back down on the 2nd, clear on the 4th. */
		for (int i = 0; i < 4; i++)
			step(f, 100.0);
	}
	n = regress__nr_events(f->r);
	assert_int_equal(n, REGRESS_EVENTS_MAX);
	assert_int_equal(regress__event(f->r, 0)->serial, 11);
	for (size_t i = 1; i < n; i++) {
		assert_int_equal(regress__event(f->r, i)->serial,
				 regress__event(f->r, i - 1)->serial + 1);
		assert_true(regress__event(f->r, i)->start >
			    regress__event(f->r, i - 1)->end);
	}
	assert_null(regress__event(f->r, n));
}

/* Out-of-range parameters are clamped, not trusted. */
static void test_params_clamped(void **state)
{
	struct regress_params p;
	struct regress *r;

	regress_params_default(&p);
	p.window = 0;
	p.warmup = 1000;
	assert_int_equal(regress__new(&r, &p), 0);
	assert_int_equal(regress__params(r)->window, REGRESS_WINDOW_MIN);
	assert_int_equal(regress__params(r)->warmup, REGRESS_HIST);
	regress__free(r);
	p.window = 100000;
	assert_int_equal(regress__new(&r, &p), 0);
	assert_int_equal(regress__params(r)->window, REGRESS_WINDOW_MAX);
	regress__free(r);
	regress__free(NULL);
}

/* ---- the same verdicts whatever order the programs come in ---------------- */

#define W_MAX 128

struct wprog {
	uint32_t id;
	int tag, name;		/* indexes into w_tags, w_names */
	double base;
	bool present;
	int leave_at;		/* refresh it goes away at (overlapping reload) */
};

static const char *const w_tags[] = { TAG_A, TAG_B, "00112233aabbccdd" };
/*
 * One name per program: two instances of one program gone at the same
 * refresh are told apart by the order they came in, which is not what
 * this test is about (test_instances is).
 */
static char w_names[W_MAX][16];

struct wentry {
	uint32_t id;
	const char *tag, *name;
	double ns, runs;
};

static int wentry_cmp(const void *a, const void *b)
{
	const struct wentry *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static bool same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void assert_same_verdict(const struct prog_regression *a,
				const struct prog_regression *b, uint32_t id,
				int refresh)
{
	if (a->active != b->active || !same_double(a->baseline_ns, b->baseline_ns) ||
	    !same_double(a->current_ns, b->current_ns) ||
	    !same_double(a->change_pct, b->change_pct) ||
	    !same_double(a->limit_ns, b->limit_ns) ||
	    !same_double(a->clear_ns, b->clear_ns) ||
	    !same_double(a->since, b->since))
		fail_msg("program %u, refresh %d: the verdict depends on the order of the calls",
			 id, refresh);
}

static int event_cmp(const void *a, const void *b)
{
	const struct regress_event *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The event logs of @a and @b hold the same regressions. */
static void assert_same_events(const struct regress *a, const struct regress *b)
{
	struct regress_event ea[REGRESS_EVENTS_MAX], eb[REGRESS_EVENTS_MAX];
	size_t n = regress__nr_events(a);

	assert_int_equal(n, regress__nr_events(b));
	for (size_t i = 0; i < n; i++) {
		ea[i] = *regress__event(a, i);
		eb[i] = *regress__event(b, i);
	}
	qsort(ea, n, sizeof(ea[0]), event_cmp);
	qsort(eb, n, sizeof(eb[0]), event_cmp);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(ea[i].id, eb[i].id);
		assert_string_equal(ea[i].name, eb[i].name);
		assert_string_equal(ea[i].tag, eb[i].tag);
		assert_true(same_double(ea[i].baseline_ns, eb[i].baseline_ns));
		assert_true(same_double(ea[i].peak_ns, eb[i].peak_ns));
		assert_true(same_double(ea[i].end, eb[i].end));
		assert_int_equal(ea[i].gone, eb[i].gone);
	}
}

/*
 * A machine's programs over 300 refreshes: idle for a while then busy,
 * too few runs, steps up and back, programs that go, reloads under a new
 * id (some overlapping the old one for a refresh), ids that come back as
 * another program. One detector sees them in id order (as the program
 * table gives them: the steady path), another in a shuffled order (every
 * lookup off the steady path): every verdict, the number of programs
 * tracked and the event log must be the same.
 */
static void test_call_order(void **state)
{
	struct regress *a, *b;
	struct wprog w[W_MAX];
	struct wentry e[W_MAX], sh[W_MAX];
	struct prog_regression ra[W_MAX], rb[W_MAX];
	uint64_t shuffle = 0x243f6a8885a308d3ull;
	unsigned int reloads = 0, reused = 0, flagged = 0, idle_then_busy = 0;
	uint32_t next_id = 1000;
	size_t nw = 40;
	double t = T0;

	(void)state;
	assert_int_equal(regress__new(&a, NULL), 0);
	assert_int_equal(regress__new(&b, NULL), 0);
	for (size_t i = 0; i < W_MAX; i++)
		snprintf(w_names[i], sizeof(w_names[i]), "prog%zu", i);
	for (size_t i = 0; i < nw; i++)
		w[i] = (struct wprog){ .id = (uint32_t)(10 * (i + 1)),
				       .tag = (int)(i % 3), .name = (int)i,
				       .base = 80.0 + 10.0 * (double)(i % 7),
				       .present = true, .leave_at = -1 };
	for (int r = 0; r < 300; r++) {
		size_t n = 0, before = nw;

		/*
		 * What happens to the programs at this refresh (to those there
		 * before it: several new instances of one program at once are
		 * told apart by the order they came in, as test_instances has
		 * it).
		 */
		for (size_t i = 0; i < before; i++) {
			double x = rnd();

			if (w[i].leave_at == r)
				w[i].present = false;
			if (!w[i].present || r < 20)
				continue;
			if (x < 0.01) {
				w[i].present = false;	/* gone for good */
			} else if (x < 0.03 && nw < W_MAX) {
				/* A reload: the same program under a new id. */
				w[nw] = w[i];
				w[nw].id = next_id;
				next_id += 3;
				w[nw].leave_at = -1;
				nw++;
				reloads++;
				if (x < 0.02)
					w[i].present = false;
				else
					w[i].leave_at = r + 1;	/* overlapping */
			} else if (x < 0.035 && nw < W_MAX) {
				/* Its id comes back as another program. */
				w[nw] = w[i];
				w[nw].tag = (w[i].tag + 1) % 3;
				w[nw].base = 2.0 * w[i].base;
				w[nw].leave_at = -1;
				w[i].present = false;
				nw++;
				reused++;
			}
		}
		for (size_t i = 0; i < nw; i++) {
			/* Idle in stretches, busy in others, now and then too few runs. */
			int phase = (int)((w[i].id / 10 + (unsigned)r / 23) % 4);
			double step = r >= 150 && r < 190 && w[i].name % 3 == 0 ? 3.0 : 1.0;

			if (!w[i].present)
				continue;
			e[n].id = w[i].id;
			e[n].tag = w_tags[w[i].tag];
			e[n].name = w_names[w[i].name];
			if (phase == 0) {
				e[n].ns = (double)NAN;
				e[n].runs = 0.0;
			} else {
				e[n].ns = jitter(w[i].base * step);
				e[n].runs = phase == 1 && r % 5 == 0 ? 50.0 : RUNS;
				idle_then_busy += r % 23 == 0 && phase == 1;
			}
			n++;
		}
		/* The same id twice would be one program seen twice: not here. */
		qsort(e, n, sizeof(e[0]), wentry_cmp);
		for (size_t i = 1; i < n; i++)
			assert_true(e[i - 1].id < e[i].id);
		memcpy(sh, e, n * sizeof(e[0]));
		for (size_t i = n; i > 1; i--) {
			size_t j;

			shuffle = shuffle * 6364136223846793005ull + 1442695040888963407ull;
			j = (size_t)(shuffle >> 33) % i;
			struct wentry tmp = sh[i - 1];
			sh[i - 1] = sh[j];
			sh[j] = tmp;
		}
		regress__begin(a, t);
		regress__begin(b, t);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(regress__update(a, e[i].id, e[i].tag, e[i].name,
							 e[i].ns, e[i].runs, &ra[i]), 0);
			flagged += ra[i].active;
		}
		for (size_t i = 0; i < n; i++) {
			struct wentry *k = bsearch(&sh[i], e, n, sizeof(e[0]), wentry_cmp);

			assert_non_null(k);
			assert_int_equal(regress__update(b, sh[i].id, sh[i].tag, sh[i].name,
							 sh[i].ns, sh[i].runs,
							 &rb[k - e]), 0);
		}
		regress__end(a);
		regress__end(b);
		for (size_t i = 0; i < n; i++)
			assert_same_verdict(&ra[i], &rb[i], e[i].id, r);
		assert_int_equal(regress__nr_tracked(a), regress__nr_tracked(b));
		assert_same_events(a, b);
		t += 1.0;
	}
	/* The run went through what it is meant to. */
	assert_true(reloads >= 5);
	assert_true(reused >= 2);
	assert_true(flagged > 0);
	assert_true(idle_then_busy > 0);
	assert_true(regress__nr_events(a) > 0);
	regress__free(a);
	regress__free(b);
}

/*
 * A program idle for a long time (no runs: no value) learns and flags
 * exactly as one that was busy all along: idle refreshes change nothing.
 */
static void test_idle_then_busy(void **state)
{
	struct fx *f = *state;
	struct prog_regression g, h, first;

	regress__begin(f->r, f->t);
	regress__update(f->r, 1, TAG_A, "idle", (double)NAN, 0.0, &first);
	regress__update(f->r, 2, TAG_B, "busy", 100.0, RUNS, &h);
	regress__end(f->r);
	f->t += 1.0;
	for (int i = 0; i < 40; i++) {
		regress__begin(f->r, f->t);
		regress__update(f->r, 1, TAG_A, "idle", (double)NAN, 0.0, &g);
		regress__end(f->r);
		f->t += 1.0;
		/* Nothing learnt, nothing changed. */
		assert_same_verdict(&g, &first, 1, i);
		assert_true(isnan(g.baseline_ns));
	}
	for (int i = 0; i < 12; i++) {
		double v = i < 8 ? 100.0 : 200.0;

		regress__begin(f->r, f->t);
		regress__update(f->r, 1, TAG_A, "idle", v, RUNS, &g);
		regress__update(f->r, 2, TAG_B, "busy", v, RUNS, &h);
		regress__end(f->r);
		f->t += 1.0;
	}
	assert_true(h.active);
	assert_true(g.active);
	assert_true(same_double(g.baseline_ns, h.baseline_ns));
	assert_true(same_double(g.current_ns, h.current_ns));
	/* Idle again while flagged: the flag and its figures stay as they were. */
	for (int i = 0; i < 10; i++) {
		regress__begin(f->r, f->t);
		regress__update(f->r, 1, TAG_A, "idle", (double)NAN, 0.0, &first);
		regress__update(f->r, 2, TAG_B, "busy", (double)NAN, 0.0, &h);
		regress__end(f->r);
		f->t += 1.0;
		assert_same_verdict(&first, &g, 1, i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_step_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_rise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threshold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_step_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_spike, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_drift, setup, teardown),
		cmocka_unit_test_setup_teardown(test_heavy_noise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_few_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats_toggle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recovery, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recovery_big_step, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reload_overlap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_instances, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_params_clamped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_call_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_then_busy, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
