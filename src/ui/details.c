// SPDX-License-Identifier: GPL-2.0-only
/* The details pane: everything known of the selected program. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "analysis/format.h"
#include "analysis/regress.h"
#include "insights/insights.h"
#include "ui/colors.h"
#include "ui/draw.h"
#include "ui/graph_pane.h"
#include "ui/parts.h"

/* Where the details pane writes: lines y..end-1, values from column vx. */
struct entries {
	int y;
	int end;
	int vx;
	const char *ell;
};

/*
 * One "label  value" entry; long values wrap at spaces onto the following
 * lines, so the full name and every map stay readable.
 */
__attribute__((format(printf, 3, 4)))
static void pane_line(struct entries *p, const char *label, const char *fmt, ...)
{
	char text[2048];
	int w = COLS - p->vx;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (p->y >= p->end)
		return;
	draw_text(p->y, 1, p->vx - 1, color(ROLE_DETAILS_LABEL), label, false,
		  p->ell);
	if (w <= 0) {
		p->y++;
		return;
	}
	p->y = draw_wrapped(p->y, p->end, p->vx, w, color(ROLE_NORMAL), text,
			    p->ell);
}

/* "a, b, c" of a list into @buf. */
static void join_maps(char *buf, size_t len, const struct app_prog_detail *d)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < d->nr_maps && off < len; i++) {
		const struct app_map_ref *m = &d->maps[i];
		int n = snprintf(buf + off, len - off, "%s%" PRIu32 " %s (%s)",
				 i ? ", " : "", m->id,
				 m->name[0] ? m->name : "(unnamed)", m->type);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void join_links(char *buf, size_t len, const struct app_prog_detail *d)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < d->nr_links && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%" PRIu32 ": %s",
				 i ? ", " : "", d->links[i].id,
				 d->links[i].target);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static const struct prog_row *selected_row(const struct tui_state *t)
{
	if (t->nview && t->sel < t->nview && t->view[t->sel].s->id == t->sel_id)
		return &t->view[t->sel];
	return NULL;
}

/* "06:22:56-06:23:40 +935%" of one event into @buf; returns @buf. */
static char *fmt_event_span(char *buf, size_t len,
			    const struct regress_event *e)
{
	char a[16], b[16], chg[32];

	fmt_clock(a, sizeof(a), e->start);
	if (isnan(e->end))
		snprintf(b, sizeof(b), "now");
	else
		fmt_clock(b, sizeof(b), e->end);
	snprintf(buf, len, "%s-%s peak %s (baseline %.1f ns%s)", a, b,
		 regress_fmt_change(chg, sizeof(chg), e->peak_pct),
		 e->baseline_ns, e->gone ? ", program went away" : "");
	return buf;
}

/* What the detector knows of the program: baseline, now, its history. */
static void draw_details_regress(struct entries *p, const struct tui_state *t,
				 const struct prog_row *row)
{
	const struct prog_regression *g = &row->reg;
	const struct regress *r = app__regress(t->app);
	char buf[2048], chg[32], when[16], span[256];
	size_t off = 0, n = r ? regress__nr_events(r) : 0;

	if (g->active) {
		fmt_clock(when, sizeof(when), g->since);
		pane_line(p, "regress", "REGRESSED %s since %s: %.1f ns/run against a baseline of %.1f ns, clears at %.1f ns",
			  regress_fmt_change(chg, sizeof(chg), g->change_pct),
			  when, g->current_ns, g->baseline_ns, g->clear_ns);
	} else if (isnan(g->baseline_ns)) {
		pane_line(p, "regress",
			  "learning the baseline (refreshes with 100 runs or more count)");
	} else {
		pane_line(p, "regress",
			  "baseline %.1f ns/run, now %.1f ns (%s), flagged above %.1f ns",
			  g->baseline_ns, g->current_ns,
			  regress_fmt_change(chg, sizeof(chg), g->change_pct),
			  g->limit_ns);
	}
	/* Its regressions, newest first, across reloads (same tag and name). */
	buf[0] = '\0';
	for (size_t i = n; i-- > 0 && off < sizeof(buf);) {
		const struct regress_event *e = regress__event(r, i);
		int k;

		if (strcmp(e->tag, row->s->tag) || strcmp(e->name, row->s->name))
			continue;
		k = snprintf(buf + off, sizeof(buf) - off, "%s%s",
			     off ? "; " : "",
			     fmt_event_span(span, sizeof(span), e));
		if (k < 0)
			break;
		off += (size_t)k;
	}
	pane_line(p, "history", "%s", off ? buf : "no regression seen");
}

/* What the program is made of, then the graph of how it moved. */
static void draw_details_insights(struct entries *p, const struct tui_state *t,
				  const struct prog_row *row)
{
	struct insight_line l[INSIGHT_LINES_MAX];
	size_t n = insights_describe(row->ins, l, INSIGHT_LINES_MAX);

	for (size_t i = 0; i < n; i++)
		pane_line(p, l[i].label, "%s", l[i].text);
	if (p->end - p->y >= GRAPH_PANE_MIN_H)
		p->y += graph_pane_draw(app__history(t->app), row->s->id,
					app__snapshot(t->app)->time,
					graph_window_s[t->graph_window %
						       GRAPH_WINDOWS],
					row->reg.baseline_ns, t->utf8, p->y, 1,
					p->end - p->y, COLS - 2);
}

void details_draw(const struct tui_state *t, int y, int h)
{
	const struct prog_row *row = selected_row(t);
	struct entries p = { .y = y + 1, .end = y + h, .vx = 11,
			  .ell = draw_ellipsis(t->utf8) };
	const struct app_prog_detail *d = &t->detail;
	char title[128], when[64] = "?", buf[2048], rt[32];
	const struct prog_sample *s;
	struct timespec real, boot;

	if (y < 0 || h <= 0)
		return;
	if (!row) {
		draw_fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
		draw_text(y, 1, COLS - 1, color(ROLE_DETAILS_TITLE),
			  "no program selected (Enter closes)", false, p.ell);
		return;
	}
	s = row->s;
	snprintf(title, sizeof(title), "program %" PRIu32 " (Enter closes)",
		 s->id);
	draw_fill(y, 0, COLS, color(ROLE_DETAILS_TITLE));
	draw_text(y, 1, COLS - 1, color(ROLE_DETAILS_TITLE), title, false,
		  p.ell);
	if (p.vx >= COLS)
		p.vx = COLS / 2;

	if (s->load_time_ns && !clock_gettime(CLOCK_REALTIME, &real) &&
	    !clock_gettime(CLOCK_BOOTTIME, &boot)) {
		uint64_t bt = (uint64_t)boot.tv_sec * 1000000000u +
			      (uint64_t)boot.tv_nsec;
		double wall = layout_boot_to_wall(
			s->load_time_ns,
			(double)real.tv_sec + (double)real.tv_nsec / 1e9, bt);
		time_t tt = (time_t)wall;
		struct tm tm;

		if (localtime_r(&tt, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	}
	pane_line(&p, "name", "%s", display_name(s));
	if (s->btf_id)
		pane_line(&p, "id",
			  "%" PRIu32 "   type %s   tag %s   btf id %" PRIu32,
			  s->id, s->type_name ? s->type_name : "?", s->tag,
			  s->btf_id);
	else
		pane_line(&p, "id", "%" PRIu32 "   type %s   tag %s   no btf",
			  s->id, s->type_name ? s->type_name : "?", s->tag);
	pane_line(&p, "loaded", "%s by uid %" PRIu32, when, s->uid);
	if (t->detail_err)
		pane_line(&p, "size",
			  "xlated %" PRIu32 " B, jited %" PRIu32 " B",
			  s->xlated_len, s->jited_len);
	else
		pane_line(&p, "size",
			  "xlated %" PRIu32 " B, jited %" PRIu32 " B, %" PRIu32
			  " insns verified, gpl %s",
			  s->xlated_len, s->jited_len, d->verified_insns,
			  d->gpl ? "yes" : "no");
	pane_line(&p, "counters",
		  "run_cnt %" PRIu64 ", run_time %" PRIu64
		  " ns (%s), recursion misses %" PRIu64,
		  s->run_cnt, s->run_time_ns,
		  fmt_duration(rt, sizeof(rt), s->run_time_ns),
		  s->recursion_misses);
	draw_details_regress(&p, t, row);
	fmt_owners(buf, sizeof(buf), s);
	pane_line(&p, "owners", "%s",
		  buf[0] ? buf : "none (pinned or held by a link)");
	if (t->detail_err) {
		pane_line(&p, "maps", "cannot read maps and links: %s",
			  strerror(-t->detail_err));
	} else {
		/* The insights' maps line says more: sizes and entries. */
		if (!row->ins || row->ins->err) {
			join_maps(buf, sizeof(buf), d);
			pane_line(&p, "maps", "%s", d->nr_maps ? buf : "none");
		}
		join_links(buf, sizeof(buf), d);
		pane_line(&p, "links", "%s", d->nr_links ? buf : "none");
	}
	draw_details_insights(&p, t, row);
}
