/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hot-lines report of one program: what the pane draws and the
 * batch output prints. Pure data and arithmetic.
 */
#ifndef EBPFTOP_HOT_REPORT_H
#define EBPFTOP_HOT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct jw;

/* The rolling window, seconds. */
#define HOT_WINDOW_S 5
/* Below this many samples in the program a line's share means little. */
#define HOT_FEW_SAMPLES 200
#define HOT_FREQ_DEFAULT 4000u
#define HOT_FREQ_MAX 1000000u

struct hot_report_line {
	const char *file;	/* NULL: the function's addresses without line info */
	uint32_t line, col;
	const char *source;	/* the line's text, NULL if none */
	const char *subprog;	/* the function it belongs to */
	uint32_t order;		/* position in source order */
	uint64_t samples;	/* samples whose address is on the line */
	uint64_t helper_samples; /* samples in helpers/kfuncs called from it */
	double pct;		/* (samples + helper_samples) / samples_in_prog */
};

struct hot_report_sub {
	const char *name;
	uint64_t samples;	/* its lines' samples and helper samples */
	double pct;
};

struct hot_report {
	uint32_t id;
	const char *prog_name;
	char event[64];		/* "cpu-clock" */
	unsigned int freq_hz;
	double window_s;	/* what the counts cover, seconds */
	bool cumulative;	/* since start, rather than the last HOT_WINDOW_S s */
	bool has_line_info;
	uint64_t samples_total;	/* every sample taken, any code, all CPUs */
	uint64_t samples_in_prog; /* in the program or in what it called */
	uint64_t lost;		/* samples the kernel dropped (ring full) */
	double overhead_pct;	/* ebpftop's sampler thread, percent of one CPU */
	size_t nr_lines;
	struct hot_report_line *lines;	/* hottest first, ties in source order */
	size_t nr_subprogs;
	struct hot_report_sub *subprogs; /* in the program's order */
};

/*
 * @part of @whole in percent, rounded to 0.01 (0 when @whole is 0):
 * rounded shares add up to 100 within 0.005 per share.
 */
double hot_pct(uint64_t part, uint64_t whole);

/* The last part of a path ("" for NULL); a line's text without its indent. */
const char *hot_basename(const char *path);
const char *hot_trim(const char *s);

/* Order @lines hottest first (ties: source order) or in source order. */
void hot_lines_sort(struct hot_report_line *lines, size_t n, bool source_order);

/*
 * The record's "hot" value: null when @r is NULL, else {"id", "event",
 * "freq_hz", "window_s", "samples_total", "samples_in_prog", "lines":
 * [{"file", "line", "col", "source", "subprog", "samples", "pct",
 * "helper_samples"}], "subprogs": [{"name", "samples", "pct"}]}.
 */
void hot_print_json(struct jw *w, const struct hot_report *r);

/* A few text lines after the table (the hottest @max lines); nothing for NULL. */
void hot_print_text(FILE *f, const struct hot_report *r, size_t max);

#endif
