// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/profile_pane.h"

#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/profile.h"
#include "ui/colors.h"
#include "ui/draw.h"

/* Where a message wraps: inside the pane's margins, never narrower than 8. */
static int msg_width(void)
{
	return COLS - 2 < 8 ? 8 : COLS - 2;
}

int profile_pane_want(const struct app *a)
{
	const struct profile_report *r = app__snapshot(a)->profile;
	const char *p = app__profile_msg(a);
	int n = 1;

	/* Title, column heads, the events, summary lines. */
	if (r)
		return 2 + (int)r->nr_events + 2;
	if (!*p)
		return 0;
	while (*p) {
		draw_wrap(p, msg_width(), &p);
		n++;
	}
	return n;
}

static const char *num(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

/* The Top-Down shares as a bar of @w cells: R, S(peculation), F, B. */
static void topdown_bar(char *buf, int w, const struct topdown *td)
{
	const double share[4] = { td->retiring, td->bad_speculation,
				  td->frontend_bound, td->backend_bound };
	const char mark[4] = { 'R', 'S', 'F', 'B' };
	double acc = 0.0, sum = 0.0;
	int o = 0;

	for (int i = 0; i < 4; i++)
		sum += share[i];
	if (!(sum > 0.0))
		sum = 1.0;
	for (int i = 0; i < 4; i++) {
		int end;

		acc += share[i] / sum;
		end = (int)lround(acc * w);
		while (o < end && o < w)
			buf[o++] = mark[i];
	}
	while (o < w)
		buf[o++] = '.';
	buf[o] = '\0';
}

static void draw_summary(const struct profile_report *r, int y, int end,
			 const char *ell)
{
	char line[CELL_MAX], a[32], b[32], bar[48];
	int i, n = 0;

	if (y >= end)
		return;
	/* Derived figures: what a 20-instruction program wants to know. */
	if (profile_find(r, PM_CYCLES) >= 0 &&
	    profile_find(r, PM_INSTRUCTIONS) >= 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "  IPC %s",
			      num(a, sizeof(a), profile_ipc(r), 2));
	i = profile_find(r, PM_LLC_MISSES);
	if (i >= 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "  LLC misses %s/run, %s per 1k insns",
			      num(a, sizeof(a), r->ev[i].per_run, 3),
			      num(b, sizeof(b),
				  profile_per_kinsn(r, PM_LLC_MISSES), 3));
	if (r->partial_runs)
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "  %" PRIu64 " partial run%s (a counter multiplexed out or unreadable: left out)",
			      r->partial_runs, r->partial_runs == 1 ? "" : "s");
	if (!n)
		snprintf(line, sizeof(line),
			 "  (IPC and LLC misses per 1k instructions need -e default)");
	draw_line(y++, 0, color(ROLE_NORMAL), line, ell);
	if (y >= end)
		return;
	if (r->has_topdown) {
		topdown_bar(bar, 40, &r->td);
		snprintf(line, sizeof(line),
			 "  Top-Down [%s] retiring %.0f%%  bad speculation %.0f%%  frontend %.0f%%  backend %.0f%% (%s)",
			 bar, 100.0 * r->td.retiring,
			 100.0 * r->td.bad_speculation,
			 100.0 * r->td.frontend_bound,
			 100.0 * r->td.backend_bound,
			 td_model_name(r->td_model));
	} else {
		snprintf(line, sizeof(line), "  Top-Down: %s",
			 r->runs && r->runs == r->partial_runs && r->td_model ?
				 "no run measured in full yet" :
				 r->topdown_note[0] ? r->topdown_note :
						      "no runs yet");
	}
	draw_line(y, 0, color(ROLE_NORMAL), line, ell);
}

void profile_pane_draw(const struct app *a, int y, int h, bool utf8)
{
	const struct profile_report *r = app__snapshot(a)->profile;
	const char *ell = draw_ellipsis(utf8);
	char line[CELL_MAX], c1[32], c2[32], c3[32];
	int end = y + h;

	if (h <= 0 || y < 0)
		return;
	draw_fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
	if (!r) {
		/* Refused, or ended: say why until p closes it. */
		const char *p = app__profile_msg(a);

		draw_line(y++, 1, color(ROLE_DETAILS_TITLE),
			  "profile (p closes)", ell);
		if (*p)
			draw_wrapped(y, end, 1, msg_width(), color(ROLE_MESSAGE),
				     p, ell);
		return;
	}
	if (isnan(r->overhead_ns_per_run))
		snprintf(c1, sizeof(c1), "not calibrated");
	else
		snprintf(c1, sizeof(c1), "%.1f ns/run", r->overhead_ns_per_run);
	snprintf(line, sizeof(line),
		 "profile of program %" PRIu32 " %s: %" PRIu64 " runs, %" PRIu64 " partial   profiler overhead %s   (p stops)",
		 r->id, r->prog_name, r->runs, r->partial_runs, c1);
	draw_line(y++, 1, color(ROLE_DETAILS_TITLE), line, ell);
	if (y >= end)
		return;
	draw_fill(y, 0, COLS, color(ROLE_COLHDR));
	snprintf(line, sizeof(line), "  %-20s %14s %18s %9s %16s", "EVENT",
		 "PER RUN", "TOTAL", "ENABLED", "PROFILER/RUN");
	draw_line(y++, 0, color(ROLE_COLHDR), line, ell);
	for (size_t i = 0; i < r->nr_events && y < end; i++) {
		const struct profile_event *e = &r->ev[i];

		snprintf(line, sizeof(line), "  %-20s %14s %18" PRIu64 " %8s%% %16s",
			 e->name, num(c1, sizeof(c1), e->per_run, 2), e->total,
			 num(c2, sizeof(c2), e->enabled_pct, 1),
			 num(c3, sizeof(c3), e->baseline_per_run, 2));
		draw_line(y++, 0, color(ROLE_NORMAL), line, ell);
	}
	draw_summary(r, y, end, ell);
}
