// SPDX-License-Identifier: GPL-2.0-only
/* The program table: column titles with the sort marker, then the rows. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/columns.h"
#include "ui/colors.h"
#include "ui/draw.h"
#include "ui/parts.h"

static const char *sort_marker(const struct tui_state *t, enum col k)
{
	bool ascending = col_def(k)->ascending;

	/* U+25B2 ▲ and U+25BC ▼ */
	if (t->utf8)
		return ascending ? "\xe2\x96\xb2" : "\xe2\x96\xbc";
	return ascending ? "^" : "v";
}

/* The sort column's label with its marker on the inner side: "  CPU%▼". */
static void draw_sort_label(const struct tui_state *t, int y, int x, int w,
			    enum col c)
{
	const char *label = col_label(c);
	int len = (int)strlen(label);
	char buf[64];

	draw_fill(y, x, w, color(ROLE_SORTCOL));
	if (w < len + 1 || x + w > COLS || w >= (int)sizeof(buf) - 8) {
		/* No room for the marker: the colour alone has to do. */
		draw_text(y, x, w, color(ROLE_SORTCOL), label, col_right(c),
			  draw_ellipsis(t->utf8));
		return;
	}
	snprintf(buf, sizeof(buf), "%*s%s%s", col_right(c) ? w - len - 1 : 0,
		 "", label, sort_marker(t, t->sort));
	attrset(color(ROLE_SORTCOL));
	mvaddstr(y, x, buf);
}

static void draw_colhdr(const struct tui_state *t, int y,
			const struct col_layout *cl)
{
	if (y < 0)
		return;
	draw_fill(y, 0, COLS, color(ROLE_COLHDR));
	for (int c = 0; c < COL__MAX; c++) {
		if (!cl->shown[c])
			continue;
		if (c == (int)t->sort)
			draw_sort_label(t, y, cl->x[c], cl->w[c], c);
		else
			draw_text(y, cl->x[c], cl->w[c], color(ROLE_COLHDR),
				  col_label(c), col_right(c), draw_ellipsis(t->utf8));
	}
}

static void draw_row(const struct tui_state *t, int y,
		     const struct col_layout *cl, const struct prog_row *row,
		     bool selected)
{
	attr_t attr = color(selected ? ROLE_SELECTED :
			    row->reg.active ? ROLE_REGRESSED : ROLE_NORMAL);
	char buf[512];

	if (selected)
		draw_fill(y, 0, COLS, attr);
	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		struct col_fmt fmt = { .utf8 = t->utf8, .width = cl->w[c] };
		const char *text;

		if (!cl->shown[c])
			continue;
		if (d->marker) {
			/* The marker is the flag without colour: ▲ or ^. */
			if (cl->w[c] > COLS - cl->x[c])
				fmt.width = COLS - cl->x[c];
			if (fmt.width <= 0)
				continue;
			text = d->cell(buf, sizeof(buf), row, &fmt);
			if (!*text)
				continue;
			attrset(color(ROLE_FLAG));
			mvaddstr(y, cl->x[c], text);
			continue;
		}
		text = d->cell(buf, sizeof(buf), row, &fmt);
		draw_text(y, cl->x[c], cl->w[c], attr, text, col_right(c),
			  draw_ellipsis(t->utf8));
	}
}

void table_draw(struct tui_state *t, const struct screen_layout *l)
{
	int want[COL__MAX];
	struct col_layout cl;

	layout_measure(t->view, t->nview, t->utf8, want);
	layout_columns(COLS, want, t->sort, &cl);
	draw_colhdr(t, l->colhdr_y, &cl);
	t->page = l->rows_h > 0 ? (size_t)l->rows_h : 1;
	t->top = layout_scroll(t->top, t->sel, t->nview, t->page);
	if (l->rows_h <= 0)
		return;
	if (!t->nview) {
		char msg[TUI_FILTER_MAX + 32];
		int len, x;

		if (t->filter[0])
			snprintf(msg, sizeof(msg), "no program matches '%s'",
				 t->filter);
		else
			snprintf(msg, sizeof(msg), "no BPF programs loaded");
		len = (int)strlen(msg);
		x = len < COLS ? (COLS - len) / 2 : 0;
		draw_text(l->rows_y + (l->rows_h - 1) / 2, x, len,
			  color(ROLE_EMPTY), msg, false, draw_ellipsis(t->utf8));
		return;
	}
	for (int i = 0; i < l->rows_h && t->top + (size_t)i < t->nview; i++) {
		size_t r = t->top + (size_t)i;

		draw_row(t, l->rows_y + i, &cl, &t->view[r], r == t->sel);
	}
}
