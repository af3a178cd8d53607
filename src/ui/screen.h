/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_SCREEN_H
#define EBPFTOP_UI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/snapshot.h"
#include "analysis/columns.h"
#include "app.h"
#include "demo/demo.h"

#define TUI_FILTER_MAX 128
#define TUI_MSG_MAX 160

/* What the TUI shows: the loop in tui.c changes it, screen.c draws it. */
struct tui_state {
	struct app *app;
	struct prog_row *view;		/* filtered, sorted copy of the rows */
	size_t nview;
	size_t view_cap;
	size_t sel;			/* index of the selected row in view */
	uint32_t sel_id;		/* the selection follows it; 0: none */
	size_t top;			/* first row on screen */
	size_t page;			/* table rows at the last draw */
	enum col sort;			/* a column with a sort name */
	char filter[TUI_FILTER_MAX];
	bool editing;			/* the filter prompt has the keys */
	bool paused;
	bool help;
	bool details;
	struct app_prog_detail detail;	/* of detail_id, when detail_err is 0 */
	uint32_t detail_id;
	unsigned long detail_seq;	/* snapshot it was fetched for */
	bool hot_source_order;	/* key o: hot lines in source order */
	bool hot_cumulative;	/* key w: hot lines since a, not the last 5 s */
	int detail_err;
	enum stats_state stats;		/* as of the sample, or of the s key */
	char msg[TUI_MSG_MAX];		/* transient, until msg_until */
	unsigned long long msg_until;	/* CLOCK_MONOTONIC ns */
	bool utf8;			/* the locale can show ▼ and … */
	bool log;			/* the regression event log is open */
	unsigned int graph_window;	/* details graph: index into 1, 5, 15 min (key g) */
	bool demo_ok;			/* demo_counts were read */
	uint64_t demo_counts[DEMO__CLASSES]; /* as of the sample */
};

/* Draw the whole screen from @t (updates t->top and t->page). */
void screen_draw(struct tui_state *t);

#endif
