/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_BASELINE_H
#define EBPFTOP_BENCH_BASELINE_H

/*
 * Files a benchmark writes and reads: the baseline (--record, --compare;
 * JSON, every round kept, format in ebpftop(8) BENCHMARKS) and Bencher
 * Metric Format (--bmf).
 */

#include <stddef.h>
#include <stdio.h>

#include "bench/result.h"

#define BASELINE_FORMAT "ebpftop-baseline"
#define BASELINE_VERSION 1

/* Write @r as a baseline to @f. 0, or -EIO when the write failed. */
int baseline_write(FILE *f, const struct bench_result *r);

/*
 * Read the baseline at @path into @r (free with bench_result_free()).
 * 0; -ENOENT and friends when it cannot be read; -EINVAL when it is not a
 * baseline. @err gets a one-line reason in both cases.
 */
int baseline_read(const char *path, struct bench_result *r, char *err,
		  size_t errlen);

/*
 * Bencher Metric Format for @r: per benchmarked program, "latency" (ns/run:
 * median of the rounds, lower and upper the extremes) and "throughput"
 * (runs per second of one CPU, 1e9 / ns/run, the same way round). The key
 * is "OBJECT/PROGRAM" in bench mode and "PROGRAM" live (":TYPE" added when
 * two programs share the name). 0 or -EIO.
 */
int bmf_write(FILE *f, const struct bench_result *r);

#endif
