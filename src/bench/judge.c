// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/judge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *bench_verdict_str(enum bench_verdict v)
{
	switch (v) {
	case BENCH_UNCHANGED:
		return "unchanged";
	case BENCH_REGRESSED:
		return "regressed";
	case BENCH_IMPROVED:
		return "improved";
	case BENCH_NEW:
		return "new";
	case BENCH_MISSING:
		return "missing";
	case BENCH_NOT_RUN:
		return "not run";
	}
	return "?";
}

struct ranked {
	double v;
	int from_y;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;

	return (x > y) - (x < y);
}

double bench_mann_whitney_greater(const double *x, unsigned int nx,
				  const double *y, unsigned int ny)
{
	unsigned int n = nx + ny;
	double ry = 0, ties = 0, u, mean, var, z;
	struct ranked *all;

	if (!nx || !ny)
		return 1.0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return 1.0;
	for (unsigned int i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i], 0 };
	for (unsigned int i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], 1 };
	qsort(all, n, sizeof(*all), cmp_ranked);
	/* Mid-ranks for ties; sum of t^3 - t for the variance correction. */
	for (unsigned int i = 0; i < n;) {
		unsigned int j = i;
		double rank;

		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		rank = (i + j) / 2.0 + 1;
		for (unsigned int k = i; k <= j; k++)
			if (all[k].from_y)
				ry += rank;
		ties += pow(j - i + 1, 3) - (j - i + 1);
		i = j + 1;
	}
	free(all);
	u = ry - ny * (ny + 1) / 2.0;	/* pairs where y beats x */
	mean = nx * (double)ny / 2.0;
	var = nx * (double)ny / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0)
		return u > mean ? 0.0 : 1.0;	/* every value tied */
	z = (u - mean - 0.5) / sqrt(var);
	return 0.5 * erfc(z / sqrt(2.0));
}

static double half_range(const struct bench_summary *s)
{
	return s->n ? (s->max - s->min) / 2 : (double)NAN;
}

/*
 * The rounds of @p to judge: those in stats state @want (any but mixed if
 * @want < 0), as ns/run, or less the floor of the same round when @net.
 * Returns how many went into @v (room for p->nr_rounds).
 */
static unsigned int pick(const struct bench_prog *p, int want, bool net,
			 double *v)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < p->nr_rounds; i++) {
		if (p->stats[i] == BENCH_STATS_MIXED ||
		    (want >= 0 && p->stats[i] != want))
			continue;
		v[n++] = net ? p->ns[i] - p->floor_ns[i] : p->ns[i];
	}
	return n;
}

static unsigned int count(const struct bench_prog *p, enum bench_stats s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < p->nr_rounds; i++)
		n += p->stats[i] == s;
	return n;
}

/*
 * Like against like: the rounds both runs made with stats in the same
 * state, when each has BENCH_SAME_STATS_MIN of them (or all its rounds);
 * else *@differ: every round that did not see stats flip.
 */
static void choose(const struct bench_prog *b, const struct bench_prog *c,
		   int *want, bool *differ)
{
	unsigned int boff = count(b, BENCH_STATS_OFF), coff = count(c, BENCH_STATS_OFF);
	unsigned int bon = count(b, BENCH_STATS_ON), con = count(c, BENCH_STATS_ON);
	bool off_ok = boff && coff &&
		      (boff >= BENCH_SAME_STATS_MIN || boff == b->nr_rounds) &&
		      (coff >= BENCH_SAME_STATS_MIN || coff == c->nr_rounds);
	bool on_ok = bon && con &&
		     (bon >= BENCH_SAME_STATS_MIN || bon == b->nr_rounds) &&
		     (con >= BENCH_SAME_STATS_MIN || con == c->nr_rounds);

	*differ = false;
	if (off_ok && (!on_ok || (boff < coff ? boff : coff) >= (bon < con ? bon : con)))
		*want = BENCH_STATS_OFF;
	else if (on_ok)
		*want = BENCH_STATS_ON;
	else {
		*want = -1;
		*differ = true;
	}
}

/* Median whole ns/run of the rounds of @p in state @want (-1: not mixed). */
static double median_of(const struct bench_prog *p, int want)
{
	struct bench_summary s;
	double *v = malloc(p->nr_rounds * sizeof(*v));
	unsigned int n;

	if (!v)
		return NAN;
	n = pick(p, want, false, v);
	bench_summarize(v, n, &s);
	free(v);
	return s.median;
}

static void judge_one(struct bench_judgement *j, double threshold_pct)
{
	struct bench_summary b = { 0 }, c = { 0 };
	double *bv = NULL, *cv = NULL;
	unsigned int nb_r, nc_r;
	double nb, nc, scale, delta = 0;
	int want;

	j->base_ns = j->now_ns = j->change_pct = j->noise_pct = NAN;
	j->p_worse = j->p_better = NAN;
	if (!j->base || !j->base->ran || !j->base->nr_rounds) {
		j->verdict = j->now && j->now->ran && j->now->nr_rounds ?
				     BENCH_NEW : BENCH_NOT_RUN;
		return;
	}
	if (!j->now) {
		j->verdict = BENCH_MISSING;
		return;
	}
	if (!j->now->ran || !j->now->nr_rounds) {
		j->verdict = BENCH_NOT_RUN;
		return;
	}
	choose(j->base, j->now, &want, &j->stats_differ);
	/* With a floor in every round, the cost above it is judged. */
	j->net = j->base->nr_floor == j->base->nr_rounds &&
		 j->now->nr_floor == j->now->nr_rounds;
	bv = malloc(j->base->nr_rounds * sizeof(*bv));
	cv = malloc(j->now->nr_rounds * sizeof(*cv));
	if (!bv || !cv) {
		free(bv);
		free(cv);
		j->verdict = BENCH_UNCHANGED;
		return;
	}
	nb_r = pick(j->base, want, j->net, bv);
	nc_r = pick(j->now, want, j->net, cv);
	j->rounds_left_out = j->base->nr_rounds - nb_r + j->now->nr_rounds - nc_r;
	bench_summarize(bv, nb_r, &b);
	bench_summarize(cv, nc_r, &c);
	/* What the table shows: the whole ns/run of the same rounds. */
	j->base_ns = median_of(j->base, want);
	j->now_ns = median_of(j->now, want);
	j->base_net = j->net ? b.median : (double)NAN;
	j->now_net = j->net ? c.median : (double)NAN;
	/*
	 * The change in what the program itself costs, as a share of what
	 * a run cost in the baseline: the floor's own drift (the machine,
	 * run-time stats) drops out, and a tiny program's cost above the
	 * floor does not make a tiny change look huge.
	 */
	/*
	 * Stats on cost this VM ~80 ns a run and raised even the cost above
	 * the floor of a small program (6 to 18 ns): across stats states,
	 * changes count against the dearer of the two runs.
	 */
	scale = j->stats_differ ? fmax(j->base_ns, j->now_ns) : j->base_ns;
	delta = c.median - b.median;
	if (scale > 0) {
		j->change_pct = delta / scale * 100;
		nb = half_range(&b) / scale * 100;
		nc = half_range(&c) / scale * 100;
		j->noise_pct = isnan(nb) ? nc : isnan(nc) ? nb : fmax(nb, nc);
	}
	j->p_worse = bench_mann_whitney_greater(bv, nb_r, cv, nc_r);
	j->p_better = bench_mann_whitney_greater(cv, nc_r, bv, nb_r);
	free(bv);
	free(cv);
	j->verdict = BENCH_UNCHANGED;
	if (j->change_pct >= threshold_pct && j->p_worse < BENCH_ALPHA &&
	    delta >= BENCH_MIN_CHANGE_NS)
		j->verdict = BENCH_REGRESSED;
	else if (j->change_pct <= -threshold_pct * 100 / (100 + threshold_pct) &&
		 j->p_better < BENCH_ALPHA && -delta >= BENCH_MIN_CHANGE_NS)
		/* The inverse change: 25 % slower undone is 20 % faster. */
		j->verdict = BENCH_IMPROVED;
}

long bench_judge(const struct bench_result *base,
		 const struct bench_result *now, double threshold_pct,
		 struct bench_judgement **out)
{
	struct bench_judgement *j;
	size_t n = 0;

	j = calloc(now->nr_progs + base->nr_progs + 1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	for (size_t i = 0; i < now->nr_progs; i++) {
		j[n].now = &now->progs[i];
		j[n].base = bench_result_find(base, now->progs[i].name,
					      now->progs[i].type);
		judge_one(&j[n++], threshold_pct);
	}
	for (size_t i = 0; i < base->nr_progs; i++) {
		if (bench_result_find(now, base->progs[i].name,
				      base->progs[i].type) || !base->progs[i].ran)
			continue;
		j[n].base = &base->progs[i];
		judge_one(&j[n++], threshold_pct);
	}
	*out = j;
	return (long)n;
}

size_t bench_count(const struct bench_judgement *j, size_t n,
		   enum bench_verdict v)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += j[i].verdict == v;
	return c;
}
