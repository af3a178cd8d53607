/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_GRAPH_H
#define EBPFTOP_INSIGHTS_GRAPH_H

/*
 * A small line graph for a terminal, drawn into cells that the UI then
 * prints: Unicode braille (2 x 4 dots a cell) or ASCII (one point a cell).
 * The y axis runs from 0 to a round value above the highest point and the
 * baseline; gaps (no data) stay empty. Below the plot an axis row marks
 * what the plot cannot show: flagged spans ('!'), reloads ('^') and time
 * not measured (stats off, '.'). Pure: no curses.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum graph_style {
	GRAPH_BRAILLE,
	GRAPH_ASCII,
};

enum graph_role {
	GRAPH_EMPTY,
	GRAPH_LINE,
	GRAPH_FLAG,		/* line drawn while the regression flag was up */
	GRAPH_BASELINE,
	GRAPH_AXIS,
};

struct graph_cell {
	char ch[5];		/* one character, UTF-8, NUL-terminated */
	uint8_t role;		/* enum graph_role */
};

struct graph {
	int w, h;		/* plot size in cells */
	double ymax;		/* value at the top of the plot; the bottom is 0 */
	char ylabel[3][12];	/* at the top, middle and bottom rows */
	struct graph_cell *plot; /* h rows of w cells, top row first */
	struct graph_cell *axis; /* w cells under the plot */
};

/* Points a graph @w cells wide takes: 2 per cell in braille, else 1. */
size_t graph_points(int w, enum graph_style st);

/*
 * Draw graph_points(w, st) values @v (NAN: gap) with per-point @flagged,
 * @reload and @measured marks (each may be NULL) and a dashed @baseline
 * (NAN: none). 0 or -ENOMEM / -EINVAL. Free with graph_free().
 */
int graph_render(struct graph *g, const double *v, const bool *flagged,
		 const bool *reload, const bool *measured, double baseline,
		 int w, int h, enum graph_style st);
void graph_free(struct graph *g);

/* The round value at or above @v used for the top of the axis. */
double graph_nice_ceil(double v);

/* "950", "12.5k", "3.2M": at most 6 characters. Returns @buf. */
char *graph_fmt_value(char *buf, size_t len, double v);

/*
 * A sparkline of @n values (NAN: gap, shown as a space) scaled from 0 to
 * their maximum: block characters, or ASCII. Returns @buf.
 */
char *graph_sparkline(char *buf, size_t len, const double *v, size_t n,
		      bool utf8);

#endif
