/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The profile pane: below the table while a program is profiled (key p),
 * its counters per run, IPC, misses per 1,000 instructions, the Top-Down
 * bar and the profiler's own cost; or why profiling was refused or ended.
 */
#ifndef EBPFTOP_UI_PROFILE_PANE_H
#define EBPFTOP_UI_PROFILE_PANE_H

#include <stdbool.h>

#include "app.h"
#include "ui/layout.h"

/*
 * Make room for the pane in @l (taken from the details pane when it is
 * open, else from the table, leaving each a few rows); the pane's place
 * in *@y and *@h (0: not shown).
 */
void profile_pane_place(const struct app *a, struct screen_layout *l, int *y,
			int *h);

/* Draw it in lines @y..@y+@h-1. */
void profile_pane_draw(const struct app *a, int y, int h, bool utf8);

#endif
