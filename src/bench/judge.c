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

static double half_range_pct(const struct bench_summary *s)
{
	if (!s->n || !(s->median > 0))
		return NAN;
	return (s->max - s->min) / 2 / s->median * 100;
}

static void judge_one(struct bench_judgement *j, double threshold_pct)
{
	struct bench_summary b = { 0 }, c = { 0 };
	double nb, nc;

	j->base_ns = j->now_ns = j->change_pct = j->noise_pct = NAN;
	j->p_worse = j->p_better = NAN;
	if (j->base && j->base->ran && j->base->nr_rounds)
		bench_summarize(j->base->ns, j->base->nr_rounds, &b);
	if (j->now && j->now->ran && j->now->nr_rounds)
		bench_summarize(j->now->ns, j->now->nr_rounds, &c);
	j->base_ns = b.n ? b.median : (double)NAN;
	j->now_ns = c.n ? c.median : (double)NAN;
	if (!j->base || !b.n) {
		j->verdict = j->now && c.n ? BENCH_NEW : BENCH_NOT_RUN;
		return;
	}
	if (!j->now) {
		j->verdict = BENCH_MISSING;
		return;
	}
	if (!c.n) {
		j->verdict = BENCH_NOT_RUN;
		return;
	}
	if (b.median > 0)
		j->change_pct = (c.median - b.median) / b.median * 100;
	nb = half_range_pct(&b);
	nc = half_range_pct(&c);
	j->noise_pct = isnan(nb) ? nc : isnan(nc) ? nb : fmax(nb, nc);
	j->p_worse = bench_mann_whitney_greater(j->base->ns, b.n, j->now->ns, c.n);
	j->p_better = bench_mann_whitney_greater(j->now->ns, c.n, j->base->ns, b.n);
	j->verdict = BENCH_UNCHANGED;
	if (j->change_pct >= threshold_pct && j->p_worse < BENCH_ALPHA)
		j->verdict = BENCH_REGRESSED;
	else if (j->change_pct <= -threshold_pct * 100 / (100 + threshold_pct) &&
		 j->p_better < BENCH_ALPHA)
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
