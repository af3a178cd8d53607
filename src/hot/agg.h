/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sample counts per line of one program: since the start (cumulative)
 * and per second for the rolling window; and the report built from them.
 */
#ifndef EBPFTOP_HOT_AGG_H
#define EBPFTOP_HOT_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hot/lines.h"
#include "hot/report.h"

struct hot_counts {
	uint64_t total;		/* every sample */
	uint64_t in_prog;	/* own + helper */
	uint64_t *own;		/* per line of the program */
	uint64_t *helper;
};

#define HOT_SLOTS (HOT_WINDOW_S + 1)

struct hot_agg {
	size_t nr_lines;
	uint64_t start_ns;	/* CLOCK_MONOTONIC, when counting began */
	struct hot_counts cum;
	struct hot_counts slot[HOT_SLOTS];
	int64_t slot_sec[HOT_SLOTS];	/* which second each slot holds */
};

/* 0 or -ENOMEM. */
int hot_agg_init(struct hot_agg *a, size_t nr_lines, uint64_t start_ns);
void hot_agg_free(struct hot_agg *a);

/* One sample at @t_ns (CLOCK_MONOTONIC); @line matters unless HOT_MISS. */
void hot_agg_add(struct hot_agg *a, uint64_t t_ns, enum hot_hit hit,
		 size_t line);

/*
 * The counts of the window ending at @now_ns: since the start, or the
 * last HOT_WINDOW_S seconds (whole seconds of CLOCK_MONOTONIC, the
 * current one included). @out's arrays must hold nr_lines entries. The
 * window's length in seconds is returned.
 */
double hot_agg_sum(const struct hot_agg *a, bool cumulative, uint64_t now_ns,
		   struct hot_counts *out);

/*
 * Fill @r's lines and subprograms from @c for program @p (the strings
 * point into @p). Lines without samples of the no-line buckets are left
 * out. 0 or -ENOMEM; free with hot_report_free().
 */
int hot_report_fill(struct hot_report *r, const struct hot_prog *p,
		    const struct hot_counts *c, bool source_order);
void hot_report_free(struct hot_report *r);

#endif
