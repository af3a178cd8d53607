// SPDX-License-Identifier: GPL-2.0-only
/*
 * One frame of the full-screen view: layout_screen() says where each part
 * goes, then each part draws itself there (ui/parts.h). The help screen
 * and the event log take the whole screen instead.
 */
#include "config.h"

#include "ui/screen.h"

#include <curses.h>

#include "ui/layout.h"
#include "ui/parts.h"
#include "ui/hot_pane.h"
#include "ui/profile_pane.h"
#include "util/clock.h"

/* What is to be shown, for layout_screen(). */
static void screen_want(const struct tui_state *t, struct screen_want *w)
{
	size_t flagged;

	banner_worst(t, &flagged);
	*w = (struct screen_want){
		.lines = LINES,
		.details = t->details,
		.banner = flagged > 0,
		.demo = app__demo(t->app) != NULL,
	};
	w->pane_h[PANE_PROFILE] = profile_pane_want(t->app);
	w->pane_h[PANE_HOT] = hot_pane_want(t->app);
}

void screen_draw(struct tui_state *t)
{
	unsigned long long now = mono_now_ns();
	struct screen_want want;
	struct screen_layout l;
	int cursor_x;

	erase();
	if (t->help || t->log) {
		if (t->help)
			help_draw(t);
		else
			log_draw(t);
		curs_set(0);
		attrset(A_NORMAL);
		refresh();
		return;
	}
	screen_want(t, &want);
	layout_screen(&want, &l);
	header_draw(t, l.header_y);
	banner_draw(t, l.banner_y);
	demo_line_draw(t, l.demo_y);
	table_draw(t, &l);
	if (t->details)
		details_draw(t, l.details_y, l.details_h);
	profile_pane_draw(t->app, l.pane_y[PANE_PROFILE],
			  l.pane_h[PANE_PROFILE], t->utf8);
	hot_pane_draw(t->app, l.pane_y[PANE_HOT], l.pane_h[PANE_HOT], t->utf8);
	keybar_draw(t, l.keybar_y);
	/* Last, so the cursor can stay at the end of the filter prompt. */
	cursor_x = status_draw(t, l.status_y, now);
	attrset(A_NORMAL);
	if (cursor_x >= 0) {
		move(l.status_y, cursor_x);
		curs_set(1);
	} else {
		curs_set(0);
	}
	refresh();
}
