/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_GRAPH_PANE_H
#define EBPFTOP_UI_GRAPH_PANE_H

#include <stdbool.h>
#include <stdint.h>

struct history;

/* The details graph's windows, in seconds; key g steps through them. */
#define GRAPH_WINDOWS 3
extern const double graph_window_s[GRAPH_WINDOWS];

/* Lines the graphs need at the least: a title, 2 plot rows, the axis. */
#define GRAPH_PANE_MIN_H 4

/*
 * Draw program @id's ns/run and runs/s over the last @window_s seconds
 * before @now from @h, side by side in the box of @height lines and
 * @width columns at (@y, @x): titles, y labels, plots, axis rows. The
 * ns/run graph shows @baseline_ns (NAN: none) dashed. @utf8: braille,
 * else ASCII. Returns the lines used (0 if the box is too small).
 */
int graph_pane_draw(const struct history *h, uint32_t id, double now,
		    double window_s, double baseline_ns, bool utf8, int y,
		    int x, int height, int width);

#endif
