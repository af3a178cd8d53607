/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hot-lines pane: below the table while a program's lines are
 * sampled (key a, --hot): each source line with its share of the
 * program's samples, a heat bar, its samples and helper samples, and
 * the subprograms' shares; or why hot lines were refused or ended.
 */
#ifndef EBPFTOP_UI_HOT_PANE_H
#define EBPFTOP_UI_HOT_PANE_H

#include <stdbool.h>

#include "app.h"

/*
 * Lines the pane would like (0: closed): layout_screen() gives it those
 * it can spare (PANE_HOT).
 */
int hot_pane_want(const struct app *a);

/* Draw it in lines @y..@y+@h-1. */
void hot_pane_draw(const struct app *a, int y, int h, bool utf8);

#endif
