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
#include "ui/layout.h"

/*
 * Make room for the pane in @l (from the details pane when it is open,
 * else from the table, leaving each a few rows); its place in *@y and
 * *@h (0: not shown).
 */
void hot_pane_place(const struct app *a, struct screen_layout *l, int *y,
		    int *h);

/* Draw it in lines @y..@y+@h-1. */
void hot_pane_draw(const struct app *a, int y, int h, bool utf8);

#endif
