/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_JUDGE_H
#define EBPFTOP_BENCH_JUDGE_H

/*
 * --compare: this run's rounds against a baseline's, program by program.
 * What is judged is the program's cost above the floor: each round's
 * ns/run less the ns/run of the empty program measured in the same round.
 * The floor carries what is not the program (the test-run loop, kernel
 * run-time stats when someone has them on, a busy machine) and drifts with
 * it. A program has regressed when the median of that cost rose by the
 * threshold or more, counted in percent of the baseline's whole ns/run,
 * AND a one-sided Mann-Whitney U test over the rounds says the rise is not
 * chance (p below BENCH_ALPHA); improved is the mirror image. Kernel
 * run-time stats change what a run costs, so rounds are compared like with
 * like: rounds during which stats were turned on or off are left out, and
 * when both runs have enough rounds in one state only those count. When
 * they do not, the change counts against the dearer run's ns/run instead.
 * Without floors (live mode) ns/run itself is judged. Pure.
 */

#include <stddef.h>

#include "bench/result.h"

/* Default --regress-threshold for --compare, in percent (see ebpftop(8)). */
#define BENCH_THRESHOLD_DEFAULT 25.0
/* Significance level of the rank test. */
#define BENCH_ALPHA 0.01
/*
 * And by at least this many ns: on the project's 2-CPU virtual machine,
 * shared with other heavy jobs, the demo classifier's own cost (above the
 * floor) wandered between 6 and 22 ns from one run to the next.
 */
#define BENCH_MIN_CHANGE_NS 25.0
/* Rounds in the same stats state, each side, to compare them alone. */
#define BENCH_SAME_STATS_MIN 5

enum bench_verdict {
	BENCH_UNCHANGED,
	BENCH_REGRESSED,
	BENCH_IMPROVED,
	BENCH_NEW,		/* in this run, not in the baseline */
	BENCH_MISSING,		/* in the baseline, not in this run */
	BENCH_NOT_RUN,		/* listed, but not benchmarked now */
};

struct bench_judgement {
	const struct bench_prog *base;	/* NULL: new */
	const struct bench_prog *now;	/* NULL: missing */
	double base_ns, now_ns;		/* median ns/run (NAN when absent) */
	double base_net, now_net;	/* median above the floor (NAN: not judged so) */
	double change_pct;		/* change of the judged median, % of base_ns */
	double noise_pct;		/* larger half-range of the two, % of base_ns */
	double p_worse;			/* one-sided p: now slower than base */
	double p_better;		/* one-sided p: now faster */
	bool net;			/* judged above the floor */
	bool stats_differ;		/* no like-with-like rounds: conservative */
	unsigned int rounds_left_out;	/* for their stats state, both sides */
	enum bench_verdict verdict;
};

const char *bench_verdict_str(enum bench_verdict v);

/*
 * One-sided Mann-Whitney U test that the @ny values of @y tend to be
 * larger than the @nx values of @x: the p-value, from the normal
 * approximation with tie and continuity corrections (1 when either side
 * is empty).
 */
double bench_mann_whitney_greater(const double *x, unsigned int nx,
				  const double *y, unsigned int ny);

/*
 * Judge @now against @base with @threshold_pct. Fills *@out with an array
 * (every program of @now, then those of @base missing from it) and
 * returns its length, or -ENOMEM. Free *@out with free().
 */
long bench_judge(const struct bench_result *base,
		 const struct bench_result *now, double threshold_pct,
		 struct bench_judgement **out);

/* How many judgements have verdict @v. */
size_t bench_count(const struct bench_judgement *j, size_t n,
		   enum bench_verdict v);

#endif
