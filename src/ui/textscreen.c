// SPDX-License-Identifier: GPL-2.0-only
/*
 * Full-screen text: a page of lines, the first few fixed at the top, the
 * rest scrolling under them, and a footer. The help screen and the
 * regression event log are two such pages.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "analysis/regress.h"
#include "ui/colors.h"
#include "ui/draw.h"
#include "ui/keymap.h"
#include "ui/parts.h"

struct text_screen;

/* Draw line @i of the page at screen line @y. */
typedef void text_line_fn(const struct text_screen *ts, size_t i, int y);

struct text_screen {
	size_t nr_head;		/* lines at the top that do not scroll */
	size_t nr_lines;	/* every line, the head included */
	size_t top;		/* first line under the head: the scroll position */
	const char *footer;	/* on the last line of the screen */
	const char *ell;
	text_line_fn *line;
	const void *ctx;	/* what the lines are drawn from */
};

static void text_screen_draw(const struct text_screen *ts)
{
	int y = 0;

	for (size_t i = 0; i < ts->nr_head && y < LINES; i++, y++)
		ts->line(ts, i, y);
	for (size_t i = ts->nr_head + ts->top; i < ts->nr_lines && y < LINES - 1;
	     i++, y++)
		ts->line(ts, i, y);
	if (LINES > 1)
		draw_text(LINES - 1, 0, COLS, color(ROLE_MESSAGE), ts->footer,
			  false, ts->ell);
}

/* A title line, across the screen. */
static void title_line(const struct text_screen *ts, int y, const char *text)
{
	draw_fill(y, 0, COLS, color(ROLE_HEADER));
	draw_text(y, 0, COLS, color(ROLE_HEADER), text, false, ts->ell);
}

/* ---- help ------------------------------------------------------------------ */

/* Names of a binding's keys: "h/?/F1". */
static void key_names(char *buf, size_t len, const struct key_binding *b)
{
	size_t off = 0;

	buf[0] = '\0';
	/* Several codes can share one name (Enter is \n, \r and KEY_ENTER). */
	for (int k = 0; k < KEYMAP_MAX_KEYS && b->names[k] && off < len; k++) {
		int n = snprintf(buf + off, len - off, "%s%s", k ? "/" : "",
				 b->names[k]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

struct help_page {
	int kw;			/* the widest key names */
	int nr_col_help;	/* columns with a help line */
};

/*
 * Title, blank; a line per key binding; blank; a line per column that
 * has help (from the column table), and what a blank rate means.
 */
static void help_line(const struct text_screen *ts, size_t i, int y)
{
	const struct help_page *h = ts->ctx;
	size_t keys_end = 2 + keymap_len, cols = keys_end + 1;
	char buf[CELL_MAX];

	if (i == 0) {
		snprintf(buf, sizeof(buf),
			 "ebpftop %s: top for BPF programs. Keys:",
			 PACKAGE_VERSION);
		title_line(ts, y, buf);
	} else if (i >= 2 && i < keys_end) {
		const struct key_binding *b = &keymap[i - 2];

		key_names(buf, sizeof(buf), b);
		draw_text(y, 2, h->kw, color(ROLE_KEYBAR_KEY), buf, false,
			  ts->ell);
		draw_text(y, 2 + h->kw + 2, COLS - h->kw - 4,
			  color(ROLE_NORMAL), b->help, false, ts->ell);
	} else if (i >= cols && i < cols + (size_t)h->nr_col_help) {
		size_t k = i - cols;

		for (int c = 0; c < COL__MAX; c++) {
			if (col_def(c)->help && !k--) {
				draw_text(y, 2, COLS - 2, color(ROLE_NORMAL),
					  col_def(c)->help, false, ts->ell);
				break;
			}
		}
	} else if (i == cols + (size_t)h->nr_col_help) {
		draw_text(y, 2, COLS - 2, color(ROLE_NORMAL),
			  "A blank rate has no value yet: first refresh, or stats off.",
			  false, ts->ell);
	}
}

void help_draw(const struct tui_state *t)
{
	struct help_page h = { 0 };
	struct text_screen ts = {
		.nr_head = 2, .footer = "press any key to close this help",
		.ell = draw_ellipsis(t->utf8), .line = help_line, .ctx = &h,
	};
	char buf[CELL_MAX];

	for (size_t i = 0; i < keymap_len; i++) {
		int n;

		key_names(buf, sizeof(buf), &keymap[i]);
		n = (int)strlen(buf);
		if (n > h.kw)
			h.kw = n;
	}
	for (int c = 0; c < COL__MAX; c++)
		h.nr_col_help += col_def(c)->help != NULL;
	ts.nr_lines = 2 + keymap_len + 1 + (size_t)h.nr_col_help + 1;
	text_screen_draw(&ts);
}

/* ---- the regression event log ---------------------------------------------- */

/*
 * Title, the detector's settings, blank, column titles; then a line per
 * regression, newest first (or one saying there was none).
 */
static void log_line(const struct text_screen *ts, size_t i, int y)
{
	const struct regress *r = ts->ctx;
	size_t n = r ? regress__nr_events(r) : 0;
	size_t head = ts->nr_head;
	char buf[CELL_MAX];

	if (i == 0) {
		snprintf(buf, sizeof(buf),
			 "regression event log: %zu regression%s remembered (the last %d at most)",
			 n, n == 1 ? "" : "s", REGRESS_EVENTS_MAX);
		title_line(ts, y, buf);
	} else if (i == 1 && r) {
		const struct regress_params *p = regress__params(r);

		snprintf(buf, sizeof(buf),
			 "flagged: ns/run %.0f%% or more above baseline and above its noise, %u refreshes in a row",
			 p->threshold_pct, p->window);
		draw_text(y, 0, COLS, color(ROLE_STATUS), buf, false, ts->ell);
	} else if (i == head - 1) {
		snprintf(buf, sizeof(buf), "%-8s  %-8s  %7s  %10s  %10s  %8s  %s",
			 "START", "END", "ID", "BASELINE", "PEAK", "CHANGE",
			 "NAME");
		draw_fill(y, 0, COLS, color(ROLE_COLHDR));
		draw_text(y, 0, COLS, color(ROLE_COLHDR), buf, false, ts->ell);
	} else if (i >= head && !n) {
		draw_text(y, 0, COLS, color(ROLE_NORMAL),
			  "no regression flagged since ebpftop started", false,
			  ts->ell);
	} else if (i >= head) {
		const struct regress_event *e = regress__event(r, n - 1 - (i - head));
		char start[16], end[16], chg[32];
		struct prog_sample s;

		fmt_clock(start, sizeof(start), e->start);
		if (isnan(e->end))
			snprintf(end, sizeof(end), "ongoing");
		else if (e->gone)
			snprintf(end, sizeof(end), "gone");
		else
			fmt_clock(end, sizeof(end), e->end);
		memset(&s, 0, sizeof(s));
		snprintf(s.name, sizeof(s.name), "%s", e->name);
		snprintf(buf, sizeof(buf),
			 "%-8s  %-8s  %7" PRIu32 "  %7.1f ns  %7.1f ns  %8s  %s",
			 start, end, e->id, e->baseline_ns, e->peak_ns,
			 regress_fmt_change(chg, sizeof(chg), e->peak_pct),
			 display_name(&s));
		draw_text(y, 0, COLS,
			  color(isnan(e->end) ? ROLE_REGRESSED : ROLE_NORMAL),
			  buf, false, ts->ell);
	}
}

void log_draw(const struct tui_state *t)
{
	const struct regress *r = app__regress(t->app);
	size_t n = r ? regress__nr_events(r) : 0;
	struct text_screen ts = {
		/* Title, settings (with a detector), blank, column titles. */
		.nr_head = r ? 4 : 3,
		.footer = "press any key to close the event log",
		.ell = draw_ellipsis(t->utf8), .line = log_line, .ctx = r,
	};

	ts.nr_lines = ts.nr_head + (n ? n : 1);
	text_screen_draw(&ts);
}
