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

/*
 * Lines the pane would like (0: closed): layout_screen() gives it those
 * it can spare (PANE_PROFILE).
 */
int profile_pane_want(const struct app *a);

/* Draw it in lines @y..@y+@h-1. */
void profile_pane_draw(const struct app *a, int y, int h, bool utf8);

#endif
