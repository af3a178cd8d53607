// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/hot_pane.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hot/report.h"
#include "ui/colors.h"
#include "ui/draw.h"

#define LINE_MAX_W CELL_MAX
/* Source lines the pane would like to show. */
#define WANT_LINES 16
/* Cells of the heat bar: one per 10 % of the program's samples. */
#define BAR_W 10

/* Title, a note, column heads, the lines, the subprograms; or the message. */
int hot_pane_want(const struct app *a)
{
	const struct hot_report *r = app__snapshot(a)->hot;
	int n;

	if (!r)
		return app__hot_msg(a)[0] ? 3 : 0;
	n = 2 + (r->nr_lines < WANT_LINES ? (int)r->nr_lines : WANT_LINES);
	if (r->samples_in_prog < HOT_FEW_SAMPLES || app__hot_msg(a)[0])
		n++;
	if (r->nr_subprogs > 1 || !r->has_line_info)
		n++;
	return n;
}

/* The line's text, tabs as spaces, without its indent. */
static void source_text(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	for (s = hot_trim(s); *s && o + 1 < len; s++)
		buf[o++] = *s == '\t' ? ' ' : *s;
	buf[o] = '\0';
}

static void draw_hot_line(const struct hot_report_line *l, int y, bool subs,
			  const char *ell)
{
	char line[LINE_MAX_W], where[96], src[512];
	int cells = (int)lround(l->pct / 100.0 * BAR_W);

	if (l->file)
		snprintf(where, sizeof(where), "%s:%u", hot_basename(l->file),
			 l->line);
	else
		snprintf(where, sizeof(where), "(no line)");
	source_text(src, sizeof(src), l->source);
	/* The subprogram column only for programs that have more than one. */
	snprintf(line, sizeof(line), " %6.2f%% %*s %8" PRIu64 " %7" PRIu64 "  %-24s %-*s%s%s",
		 l->pct, BAR_W, "", l->samples, l->helper_samples, where,
		 subs ? 16 : 0, subs && l->subprog ? l->subprog : "",
		 subs ? " " : "", src);
	draw_line(y, 0, color(ROLE_NORMAL), line, ell);
	/* The heat bar: reverse video, so it shows without colours too. */
	if (cells > BAR_W)
		cells = BAR_W;
	if (cells > 0)
		draw_fill(y, 9, cells, color(ROLE_FLAG) | A_REVERSE);
}

static void draw_subprogs(const struct hot_report *r, int y, const char *ell)
{
	char line[LINE_MAX_W];
	int n = snprintf(line, sizeof(line), "  subprograms:");

	for (size_t i = 0; i < r->nr_subprogs && n < (int)sizeof(line) - 1; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  %s %.2f%%",
			      r->subprogs[i].name, r->subprogs[i].pct);
	draw_line(y, 0, color(ROLE_NORMAL), line, ell);
}

void hot_pane_draw(const struct app *a, int y, int h, bool utf8)
{
	const struct hot_report *r = app__snapshot(a)->hot;
	const char *ell = draw_ellipsis(utf8);
	char line[LINE_MAX_W], lost[48] = "";
	int end = y + h;
	bool subs;

	if (h <= 0 || y < 0)
		return;
	draw_fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
	if (!r) {
		/* Refused, or ended: say why until a closes it. */
		draw_line(y++, 1, color(ROLE_DETAILS_TITLE), "hot lines (a closes)",
			  ell);
		draw_wrapped(y, end, 1, COLS - 2, color(ROLE_MESSAGE), app__hot_msg(a),
			     ell);
		return;
	}
	subs = r->nr_subprogs > 1;
	if (r->lost)
		snprintf(lost, sizeof(lost), "   %" PRIu64 " samples lost", r->lost);
	snprintf(line, sizeof(line),
		 "hot lines of %" PRIu32 " %s   %s %u Hz   samples %" PRIu64 " in prog / %" PRIu64 " total   %s %.1f s   sampler %.2f%% CPU%s   (a closes, o order, w window)",
		 r->id, r->prog_name ? r->prog_name : "", r->event, r->freq_hz,
		 r->samples_in_prog, r->samples_total,
		 r->cumulative ? "cumulative" : "last", r->window_s,
		 r->overhead_pct, lost);
	draw_line(y++, 1, color(ROLE_DETAILS_TITLE), line, ell);
	if (y < end && app__hot_msg(a)[0])
		draw_line(y++, 1, color(ROLE_MESSAGE), app__hot_msg(a), ell);
	else if (y < end && r->samples_in_prog < HOT_FEW_SAMPLES)
		draw_line(y++, 1, color(ROLE_MESSAGE),
			  "fewer than 200 samples in the program: shares are rough until more come in",
			  ell);
	if (y >= end)
		return;
	draw_fill(y, 0, COLS, color(ROLE_COLHDR));
	snprintf(line, sizeof(line), " %7s %-*s %8s %7s  %-24s %-*s%s%s", "SHARE",
		 BAR_W, "HEAT", "SAMPLES", "HELPER", "FILE:LINE", subs ? 16 : 0,
		 subs ? "SUBPROG" : "", subs ? " " : "", "SOURCE");
	draw_line(y++, 0, color(ROLE_COLHDR), line, ell);
	/* The subprograms' line stays at the bottom when there is one. */
	if (r->nr_subprogs > 1 || !r->has_line_info)
		end--;
	for (size_t i = 0; i < r->nr_lines && y < end; i++)
		draw_hot_line(&r->lines[i], y++, subs, ell);
	if ((r->nr_subprogs > 1 || !r->has_line_info) && end >= y)
		draw_subprogs(r, end, ell);
}
