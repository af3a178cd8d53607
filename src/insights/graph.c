// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/graph.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t graph_points(int w, enum graph_style st)
{
	if (w <= 0)
		return 0;
	return (size_t)w * (st == GRAPH_BRAILLE ? 2 : 1);
}

double graph_nice_ceil(double v)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double e;

	if (!(v > 0) || isinf(v))
		return 1;
	e = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * e >= v * (1 - 1e-12))
			return steps[i] * e;
	return 10 * e;
}

char *graph_fmt_value(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "", "k", "M", "G", "T" };
	size_t u = 0;

	if (isnan(v)) {
		snprintf(buf, len, "?");
		return buf;
	}
	while (fabs(v) >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	if (u == 0 && v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) < 10)
		snprintf(buf, len, "%.2g%s", v, unit[u]);
	else
		snprintf(buf, len, "%.0f%s", v, unit[u]);
	return buf;
}

/* Braille dot bit of dot column @c (0, 1) and dot row @r (0 top .. 3). */
static uint8_t dot_bit(int c, int r)
{
	static const uint8_t bits[2][4] = { { 0x01, 0x02, 0x04, 0x40 },
					    { 0x08, 0x10, 0x20, 0x80 } };

	return bits[c][r];
}

static void braille_char(char out[5], uint8_t bits)
{
	unsigned int cp = 0x2800u + bits;

	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	out[3] = '\0';
}

static void set_ch(struct graph_cell *c, const char *s, enum graph_role r)
{
	snprintf(c->ch, sizeof(c->ch), "%s", s);
	c->role = (uint8_t)r;
}

/* Row of value @v on a scale of @rows rows, 0 at the top. */
static int row_of(double v, double ymax, int rows)
{
	long r = lround(v / ymax * (rows - 1));

	if (r < 0)
		r = 0;
	if (r > rows - 1)
		r = rows - 1;
	return rows - 1 - (int)r;
}

int graph_render(struct graph *g, const double *v, const bool *flagged,
		 const bool *reload, const bool *measured, double baseline,
		 int w, int h, enum graph_style st)
{
	bool braille = st == GRAPH_BRAILLE;
	int sub_w = braille ? 2 : 1, sub_h = braille ? 4 : 1;
	int rows = h * sub_h;
	size_t n = graph_points(w, st);
	uint8_t *line = NULL, *base = NULL;
	bool *flagcol = NULL;
	double top = 0;
	int prev = -1;

	memset(g, 0, sizeof(*g));
	if (w <= 0 || h <= 0)
		return -EINVAL;
	g->w = w;
	g->h = h;
	g->plot = calloc((size_t)w * (size_t)h, sizeof(*g->plot));
	g->axis = calloc((size_t)w, sizeof(*g->axis));
	line = calloc((size_t)w * (size_t)h, 1);
	base = calloc((size_t)w * (size_t)h, 1);
	flagcol = calloc((size_t)w, sizeof(*flagcol));
	if (!g->plot || !g->axis || !line || !base || !flagcol) {
		free(line);
		free(base);
		free(flagcol);
		graph_free(g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > top)
			top = v[i];
	if (!isnan(baseline) && baseline > top)
		top = baseline;
	g->ymax = graph_nice_ceil(top);
	graph_fmt_value(g->ylabel[0], sizeof(g->ylabel[0]), g->ymax);
	graph_fmt_value(g->ylabel[1], sizeof(g->ylabel[1]), g->ymax / 2);
	graph_fmt_value(g->ylabel[2], sizeof(g->ylabel[2]), 0);

	/* The line: a dot per point, joined vertically to the previous one. */
	for (size_t i = 0; i < n; i++) {
		int x = (int)i / sub_w, dc = (int)i % sub_w, y, lo, hi;

		if (flagged && flagged[i])
			flagcol[x] = true;
		if (isnan(v[i])) {
			prev = -1;
			continue;
		}
		y = row_of(v[i], g->ymax, rows);
		lo = prev < 0 ? y : (prev < y ? prev : y);
		hi = prev < 0 ? y : (prev > y ? prev : y);
		for (int r = lo; r <= hi; r++)
			line[(r / sub_h) * w + x] |=
				braille ? dot_bit(dc, r % sub_h) :
					  (uint8_t)(r == y ? 2 : 1);
		prev = y;
	}
	/* The baseline: dashes, two dots on, two off. */
	if (!isnan(baseline) && baseline > 0) {
		int y = row_of(baseline, g->ymax, rows);

		for (size_t i = 0; i < n; i++)
			if ((i / sub_w) % 2 == 0 || !braille)
				base[(y / sub_h) * w + (int)i / sub_w] |=
					braille ? dot_bit((int)i % sub_w, y % sub_h) : 1;
	}
	for (int r = 0; r < h; r++) {
		for (int x = 0; x < w; x++) {
			struct graph_cell *c = &g->plot[r * w + x];
			uint8_t l = line[r * w + x], b = base[r * w + x];
			enum graph_role role = l ? (flagcol[x] ? GRAPH_FLAG : GRAPH_LINE) :
					       b ? GRAPH_BASELINE : GRAPH_EMPTY;

			if (braille) {
				if (l | b)
					braille_char(c->ch, l | b);
				else
					set_ch(c, " ", role);
				c->role = (uint8_t)role;
			} else {
				set_ch(c, l & 2 ? "*" : l ? "|" : b ? "-" : " ", role);
			}
		}
	}
	/* The axis row: flagged, reloaded, not measured. */
	for (int x = 0; x < w; x++) {
		bool rl = false, unmeasured = measured != NULL;

		for (int k = 0; k < sub_w; k++) {
			size_t i = (size_t)(x * sub_w + k);

			rl |= reload && reload[i];
			if (measured && measured[i])
				unmeasured = false;
		}
		if (rl)
			set_ch(&g->axis[x], "^", GRAPH_AXIS);
		else if (flagcol[x])
			set_ch(&g->axis[x], "!", GRAPH_FLAG);
		else if (unmeasured)
			set_ch(&g->axis[x], ".", GRAPH_AXIS);
		else
			set_ch(&g->axis[x], braille ? "\u2500" : "-", GRAPH_AXIS);
	}
	free(line);
	free(base);
	free(flagcol);
	return 0;
}

void graph_free(struct graph *g)
{
	free(g->plot);
	free(g->axis);
	g->plot = NULL;
	g->axis = NULL;
}

char *graph_sparkline(char *buf, size_t len, const double *v, size_t n,
		      bool utf8)
{
	static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583",
					       "\u2584", "\u2585", "\u2586",
					       "\u2587", "\u2588" };
	static const char ascii[8] = { '_', '.', '-', '~', '=', '+', '*', '#' };
	double top = 0;
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > top)
			top = v[i];
	for (size_t i = 0; i < n; i++) {
		const char *s;
		char one[2] = { ' ', '\0' };
		size_t k;

		if (!isnan(v[i])) {
			long l = top > 0 ? lround(v[i] / top * 7) : 0;

			if (l < 0)
				l = 0;
			one[0] = ascii[l];
			s = utf8 ? blocks[l] : one;
		} else {
			s = one;
		}
		k = strlen(s);
		if (off + k >= len)
			break;
		memcpy(buf + off, s, k + 1);
		off += k;
	}
	return buf;
}
