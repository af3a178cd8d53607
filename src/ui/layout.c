// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/layout.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The next column to drop after rank @rank (0: the first), or COL__MAX. */
static enum col next_drop(int *rank, enum col sort)
{
	for (;;) {
		int best = COL__MAX;

		/* The lowest drop rank above the one dropped last. */
		for (int c = 0; c < COL__MAX; c++) {
			if (col_table[c].drop > *rank &&
			    (best == COL__MAX ||
			     col_table[c].drop < col_table[best].drop))
				best = c;
		}
		if (best == COL__MAX)
			return COL__MAX;
		*rank = col_table[best].drop;
		/* The column sorted on always stays. */
		if (best != (int)sort)
			return (enum col)best;
	}
}

void layout_columns(int width, const int want[COL__MAX], enum col sort,
		    struct col_layout *out)
{
	int min[COL__MAX], fixed, seps, leftover, x = 0, rank = 0;
	enum col drop = next_drop(&rank, sort);

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = &col_table[c];

		out->shown[c] = d->label && (!d->hide_empty || want[c] > 0);
		if (d->width != COL_MEASURED)
			out->w[c] = d->width;
		else
			out->w[c] = clamp(want[c], d->min_w,
					  d->max_w ? d->max_w : INT_MAX);
		min[c] = d->flex ? clamp(want[c], d->min_w, d->keep_w) : 0;
	}
	for (;;) {
		bool squeezed = false;
		int need;

		fixed = 0;
		seps = -1;
		need = 0;
		for (int c = 0; c < COL__MAX; c++) {
			if (!out->shown[c])
				continue;
			seps++;
			if (!col_table[c].flex)
				fixed += out->w[c];
			need += min[c];
		}
		need += fixed + seps;
		if (need <= width || drop == COL__MAX)
			break;
		/*
		 * A column that outranks NAME (the regression marker, which
		 * tells a terminal without colours which row is on fire):
		 * the flexible columns give up some of their room first.
		 */
		for (int c = 0; col_table[drop].outranks && c < COL__MAX; c++) {
			const struct col_def *d = &col_table[c];

			if (d->flex && d->squeeze_w && min[c] > d->squeeze_w) {
				min[c] = clamp(want[c], d->min_w, d->squeeze_w);
				squeezed = true;
			}
		}
		if (squeezed)
			continue;
		out->shown[drop] = false;
		drop = next_drop(&rank, sort);
	}
	leftover = width - fixed - seps;
	if (leftover < 0)
		leftover = 0;
	/* Flexible columns in order; the last one shown takes the rest. */
	for (int c = 0; c < COL__MAX; c++) {
		int later = 0, last = 1;

		if (!col_table[c].flex)
			continue;
		if (!out->shown[c]) {
			out->w[c] = 0;
			continue;
		}
		for (int k = c + 1; k < COL__MAX; k++) {
			if (col_table[k].flex && out->shown[k]) {
				later += min[k];
				last = 0;
			}
		}
		out->w[c] = last ? leftover :
				   clamp(want[c], min[c], leftover - later);
		leftover -= out->w[c];
	}
	for (int c = 0; c < COL__MAX; c++) {
		if (!out->shown[c])
			continue;
		out->x[c] = x;
		x += out->w[c] + 1;
	}
}

/* The details pane: under the table, or over the whole body when small. */
static void place_details(struct screen_layout *l)
{
	if (l->rows_h + 1 >= 14) {
		/* Table on top, the details of its selected row below. */
		int table = (l->rows_h + 1) * 2 / 5 - 1;

		if (table < 3)
			table = 3;
		l->details_y = l->rows_y + table;
		l->details_h = l->rows_h - table;
		l->rows_h = table;
	} else {
		/* Too small to share: the details take the whole body. */
		l->details_y = l->colhdr_y;
		l->details_h = l->rows_h + 1;
		l->colhdr_y = -1;
		l->rows_y = -1;
		l->rows_h = 0;
	}
}

/* Take pane @p's lines from the bottom of the details pane or the table. */
static void place_pane(const struct screen_want *w, enum pane p,
		       struct screen_layout *l)
{
	int *from_h = l->details_h > 0 ? &l->details_h : &l->rows_h;
	int from_y = l->details_h > 0 ? l->details_y : l->rows_y;
	int h = w->pane_h[p];

	l->pane_y[p] = -1;
	l->pane_h[p] = 0;
	if (h <= 0 || from_y < 0)
		return;
	if (h > *from_h - LAYOUT_KEEP_ROWS)
		h = *from_h - LAYOUT_KEEP_ROWS;
	if (h < LAYOUT_PANE_MIN)
		return;
	*from_h -= h;
	l->pane_y[p] = from_y + *from_h;
	l->pane_h[p] = h;
}

void layout_screen(const struct screen_want *w, struct screen_layout *l)
{
	int lines = w->lines, y = 0, end;
	bool details = w->details, banner = w->banner, demo = w->demo;

	l->header_y = lines >= 1 ? y++ : -1;
	/* Each extra line leaves the table at least four rows. */
	l->banner_y = banner && lines >= 9 ? y++ : -1;
	l->demo_y = demo && lines >= 10 ? y++ : -1;
	l->status_y = lines >= 4 ? y++ : -1;
	l->keybar_y = lines >= 5 ? lines - 1 : -1;
	end = l->keybar_y >= 0 ? l->keybar_y : lines;
	l->colhdr_y = y < end ? y++ : -1;
	l->rows_y = y < end ? y : -1;
	l->rows_h = y < end ? end - y : 0;
	l->details_y = -1;
	l->details_h = 0;
	if (details && l->colhdr_y >= 0)
		place_details(l);
	for (int p = 0; p < PANE__MAX; p++)
		place_pane(w, (enum pane)p, l);
}

size_t layout_follow(const struct prog_row *rows, size_t n, uint32_t id,
		     size_t old_index)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].s->id == id)
			return i;
	}
	return old_index < n ? old_index : n - 1;
}

size_t layout_scroll(size_t top, size_t sel, size_t n, size_t page)
{
	if (!page || !n)
		return 0;
	if (sel < top)
		top = sel;
	else if (sel >= top + page)
		top = sel - page + 1;
	/* No empty space under the last row while rows are hidden above. */
	if (top + page > n)
		top = n > page ? n - page : 0;
	return top;
}

/*
 * The next character of @s (@n bytes left): its length in *@nb and its
 * columns, or -1 when it does not print as itself (a control character,
 * or bytes that are no character in the locale) and shows as one '?'.
 */
static int next_char(const char *s, size_t n, size_t *nb, mbstate_t *st)
{
	unsigned char c = (unsigned char)*s;
	wchar_t wc;
	size_t k;
	int w;

	/*
	 * ASCII, the common case, without the C library: the TUI measures
	 * every row's name and owners at each refresh (10,000 rows and more).
	 */
	if (c < 0x80 && mbsinit(st)) {
		*nb = 1;
		return c >= 0x20 && c < 0x7f ? 1 : -1;
	}
	k = mbrtowc(&wc, s, n, st);

	if (k == (size_t)-1 || k == (size_t)-2 || !k) {
		memset(st, 0, sizeof(*st));
		*nb = 1;
		return -1;
	}
	*nb = k;
	w = iswprint((wint_t)wc) ? wcwidth(wc) : -1;
	return w;
}

size_t layout_width(const char *s)
{
	const unsigned char *a = (const unsigned char *)s;
	size_t n, cols = 0, nb;
	mbstate_t st = { 0 };

	/* Printable ASCII throughout: one column a byte. */
	while (*a >= 0x20 && *a < 0x7f)
		a++;
	if (!*a)
		return (size_t)(a - (const unsigned char *)s);
	n = strlen(s);

	for (size_t i = 0; i < n; i += nb) {
		int w = next_char(s + i, n - i, &nb, &st);

		cols += w < 0 ? 1 : (size_t)w;
	}
	return cols;
}

/*
 * Copy the characters of @src that fit in @cols columns and @room bytes
 * to @dst; returns the bytes written, the columns used in *@used.
 */
static size_t copy_cols(char *dst, size_t room, const char *src, size_t cols,
			size_t *used)
{
	size_t n = strlen(src), o = 0, c = 0, nb;
	mbstate_t st = { 0 };

	for (size_t i = 0; i < n; i += nb) {
		int w = next_char(src + i, n - i, &nb, &st);
		size_t cw = w < 0 ? 1 : (size_t)w, bytes = w < 0 ? 1 : nb;

		if (c + cw > cols || o + bytes > room)
			break;
		if (w < 0)
			dst[o] = '?';
		else
			memcpy(dst + o, src + i, nb);
		o += bytes;
		c += cw;
	}
	*used = c;
	return o;
}

char *layout_fit(char *dst, size_t len, const char *src, int width,
		 bool right, const char *ellipsis)
{
	size_t el = strlen(ellipsis), w, tw, o = 0, used = 0, pad;

	if (!len)
		return dst;
	w = width > 0 ? (size_t)width : 0;
	/* Never more columns than one-byte characters could fill. */
	if (w + el + 1 > len)
		w = len > el + 1 ? len - el - 1 : 0;
	tw = layout_width(src);
	if (tw > w) {
		if (w) {
			/* The ellipsis takes the last column. */
			o = copy_cols(dst, len - el - 1, src, w - 1, &used);
			/* A wide character that did not fit leaves blanks. */
			for (; used < w - 1 && o + el + 1 < len; used++)
				dst[o++] = ' ';
			memcpy(dst + o, ellipsis, el);
			o += el;
		}
	} else {
		pad = w - tw;
		if (right) {
			memset(dst, ' ', pad);
			o = pad;
		}
		o += copy_cols(dst + o, len - o - 1, src, tw, &used);
		if (!right) {
			pad = w - used;
			if (pad > len - o - 1)
				pad = len - o - 1;
			memset(dst + o, ' ', pad);
			o += pad;
		}
	}
	dst[o] = '\0';
	return dst;
}



double layout_boot_to_wall(uint64_t boot_ns, double now_real_s,
			   uint64_t now_boot_ns)
{
	/* In doubles: a stamp "after now" must not wrap around to 2554. */
	return now_real_s - ((double)now_boot_ns - (double)boot_ns) / 1e9;
}

/*
 * Whether @c's cell in row @r is the one it has in row @prev (measured
 * already), from what that cell is made of: the type's static string, the
 * owners (most programs share their loader with the previous row), the
 * flag's blank while no regression is flagged. Other cells are measured.
 */
static bool same_cell(int c, const struct prog_row *r,
		      const struct prog_row *prev)
{
	const struct prog_sample *a = r->s, *b = prev->s;

	switch (c) {
	case COL_TYPE:
		return a->type_name == b->type_name;
	case COL_FLAG:
		return !r->reg.active && !prev->reg.active;
	case COL_OWNERS:
		return a->nr_owners == b->nr_owners &&
		       (!a->nr_owners ||
			!memcmp(a->owners, b->owners,
				a->nr_owners * sizeof(*a->owners)));
	default:
		return false;
	}
}

void layout_measure(const struct prog_row *view, size_t nview, bool utf8,
		    int want[COL__MAX])
{
	char buf[512];

	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		const struct col_fmt fmt = { .utf8 = utf8, .width = d->max_w };
		size_t widest = 0;

		want[c] = 0;
		if (!d->label || d->width != COL_MEASURED)
			continue;
		if (c == COL_ID) {
			/* Ids are decimal: the largest is the widest. */
			for (size_t i = 1; i < nview; i++) {
				if (view[i].s->id > view[widest].s->id)
					widest = i;
			}
			if (nview)
				want[c] = (int)layout_width(d->cell(buf, sizeof(buf),
								    &view[widest], &fmt));
			continue;
		}
		for (size_t i = 0; i < nview; i++) {
			int n;

			if (i && same_cell(c, &view[i], &view[i - 1]))
				continue;
			n = (int)layout_width(d->cell(buf, sizeof(buf),
						      &view[i], &fmt));
			if (n > want[c])
				want[c] = n;
		}
	}
}
