/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_REPORT_H
#define EBPFTOP_BENCH_REPORT_H

/* The readable side of a benchmark: plain text for logs, Markdown for CI
 * job summaries (--report md). */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/judge.h"
#include "bench/result.h"

enum bench_format {
	BENCH_TEXT,
	BENCH_MARKDOWN,
};

/* "3.2 M", "870 k": a count with a unit prefix, into @buf. */
char *bench_fmt_count(char *buf, size_t len, double v);

/* Header lines and one row per program: ns/run, spread, floor, runs, codes. */
void bench_report_results(FILE *f, const struct bench_result *r,
			  enum bench_format fmt);

/* The comparison: baseline, now, change, noise, p, verdict per program. */
void bench_report_compare(FILE *f, const struct bench_result *base,
			  const struct bench_judgement *j, size_t n,
			  double threshold_pct, enum bench_format fmt);

#endif
