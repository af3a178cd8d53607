// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/graph_pane.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insights/graph.h"
#include "insights/history.h"
#include "ui/colors.h"
#include "ui/draw.h"

const double graph_window_s[GRAPH_WINDOWS] = { 60, 300, 900 };

/* Width of the y labels and their tick: "12.5k┤". */
#define YLAB_W 6

static attr_t role_attr(uint8_t role)
{
	switch (role) {
	case GRAPH_FLAG:
		return color(ROLE_REGRESSED);
	case GRAPH_BASELINE:
	case GRAPH_AXIS:
		return color(ROLE_DETAILS_LABEL);
	default:
		return color(ROLE_NORMAL);
	}
}

/* @s at (@y, @x): one graph cell, or a label as wide as its bytes. */
static void put(int y, int x, attr_t a, const char *s)
{
	int w = (unsigned char)s[0] >= 0x80 ? 1 : (int)strlen(s);

	draw_text(y, x, w, a, s, false, "");
}

static const char *window_name(double s)
{
	return s <= 60 ? "1 min" : s <= 300 ? "5 min" : "15 min";
}

/* One graph: title, labelled plot, axis row. */
static void draw_one(const char *title, const struct hist_point *p,
		     size_t n, bool runs, double baseline, bool utf8, int y,
		     int x, int h, int w)
{
	enum graph_style st = utf8 ? GRAPH_BRAILLE : GRAPH_ASCII;
	int pw = w - YLAB_W, ph = h - 2;
	double *v = calloc(n, sizeof(*v));
	bool *f = calloc(n, sizeof(*f)), *r = calloc(n, sizeof(*r));
	bool *m = calloc(n, sizeof(*m));
	struct graph g;
	char lab[16];

	if (!v || !f || !r || !m)
		goto out;
	for (size_t i = 0; i < n; i++) {
		v[i] = runs ? p[i].runs_per_s : p[i].ns_per_run;
		f[i] = p[i].flagged;
		r[i] = p[i].reload;
		m[i] = p[i].measured;
	}
	if (graph_render(&g, v, f, r, m, baseline, pw, ph, st))
		goto out;
	put(y, x, color(ROLE_DETAILS_LABEL), title);
	for (int row = 0; row < ph; row++) {
		const char *tick = utf8 ? "\u2502" : "|";

		lab[0] = '\0';
		if (row == 0 || row == ph - 1 || (ph >= 5 && row == ph / 2)) {
			snprintf(lab, sizeof(lab), "%5s",
				 g.ylabel[row == 0 ? 0 : row == ph - 1 ? 2 : 1]);
			tick = utf8 ? "\u2524" : "+";
		}
		put(y + 1 + row, x, color(ROLE_DETAILS_LABEL), lab);
		put(y + 1 + row, x + YLAB_W - 1, color(ROLE_DETAILS_LABEL), tick);
		for (int c = 0; c < pw; c++) {
			const struct graph_cell *cell = &g.plot[row * pw + c];

			if (cell->role != GRAPH_EMPTY)
				put(y + 1 + row, x + YLAB_W + c,
				    role_attr(cell->role), cell->ch);
		}
	}
	put(y + 1 + ph, x + YLAB_W - 1, color(ROLE_DETAILS_LABEL),
	    utf8 ? "\u2514" : "+");
	for (int c = 0; c < pw; c++)
		put(y + 1 + ph, x + YLAB_W + c, role_attr(g.axis[c].role),
		    g.axis[c].ch);
	graph_free(&g);
out:
	free(v);
	free(f);
	free(r);
	free(m);
}

int graph_pane_draw(const struct history *h, uint32_t id, double now,
		    double window_s, double baseline_ns, bool utf8, int y,
		    int x, int height, int width)
{
	enum graph_style st = utf8 ? GRAPH_BRAILLE : GRAPH_ASCII;
	int gw = (width - 3) / 2;	/* two graphs, a gap between */
	struct hist_point *p;
	char title[128], base[32] = "";
	size_t n;
	int valid;

	if (height < GRAPH_PANE_MIN_H || gw < YLAB_W + 10 || !h)
		return 0;
	n = graph_points(gw - YLAB_W, st);
	p = calloc(n, sizeof(*p));
	if (!p)
		return 0;
	valid = history__series(h, id, now, window_s, n, p);
	if (valid <= 0) {
		snprintf(title, sizeof(title),
			 "graph (%s, g changes): %s", window_name(window_s),
			 valid == -ENOENT || valid == 0 ?
				 "no runs measured yet" : strerror(-valid));
		put(y, x, color(ROLE_DETAILS_LABEL), title);
		free(p);
		return 1;
	}
	if (!isnan(baseline_ns))
		snprintf(base, sizeof(base), ", - - baseline %.0f", baseline_ns);
	snprintf(title, sizeof(title), "ns/run, last %s (g)%s",
		 window_name(window_s), base);
	draw_one(title, p, n, false, baseline_ns, utf8, y, x, height, gw);
	snprintf(title, sizeof(title), "runs/s, last %s", window_name(window_s));
	draw_one(title, p, n, true, (double)NAN, utf8, y, x + gw + 3, height, gw);
	free(p);
	return height;
}
