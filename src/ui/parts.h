/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parts of the screen, each drawn by its own file from the TUI's
 * state, at the place layout_screen() (layout.c) gave it; screen.c calls
 * them in turn. A y of -1 (or a height of 0) draws nothing.
 */
#ifndef EBPFTOP_UI_PARTS_H
#define EBPFTOP_UI_PARTS_H

#include <stddef.h>

#include "ui/layout.h"
#include "ui/screen.h"

/* header.c: the header line, the regression banner, the demo line, status. */
void header_draw(const struct tui_state *t, int y);
/* The worst regression among the rows shown, and how many are flagged. */
const struct prog_row *banner_worst(const struct tui_state *t, size_t *count);
void banner_draw(const struct tui_state *t, int y);
void demo_line_draw(const struct tui_state *t, int y);
/* The status line; returns the cursor column while the filter prompt is open, else -1. */
int status_draw(const struct tui_state *t, int y, unsigned long long now);

/* table.c: column titles and rows (updates t->top and t->page). */
void table_draw(struct tui_state *t, const struct screen_layout *l);

/* details.c: the details of the selected program, lines y..y+h-1. */
void details_draw(const struct tui_state *t, int y, int h);

/* textscreen.c: the help screen and the event log, over the whole screen. */
void help_draw(const struct tui_state *t);
void log_draw(const struct tui_state *t);

/* keybar.c: the key bar. */
void keybar_draw(const struct tui_state *t, int y);

#endif
