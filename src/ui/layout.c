// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "ui/layout.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/* Below this NAME is hard to read: drop other columns first. */
#define NAME_MIN 24
/* ... except the regression marker, which NAME makes room for down to this. */
#define NAME_MIN_FLAGGED 12
/* OWNERS narrower than this shows nothing useful ("testloa~"). */
#define OWNERS_MIN 8
#define TYPE_MAX 16

static const char *const labels[COL__MAX] = {
	[COL_ID] = "ID",
	[COL_TYPE] = "TYPE",
	[COL_NAME] = "NAME",
	[COL_NSRUN] = "NS/RUN",
	[COL_RUNS] = "RUNS/S",
	[COL_CPU] = "CPU%",
	[COL_RUNCNT] = "RUN_CNT",
	[COL_RUNTIME] = "RUN_TIME",
	[COL_FLAG] = "FLAG",
	[COL_OWNERS] = "OWNERS",
};

/*
 * Fixed widths leave room for the label plus the one-column sort marker;
 * numbers wider than their column are scaled (fmt_count, fmt_duration).
 */
static const int fixed_w[COL__MAX] = {
	[COL_NSRUN] = 8,
	[COL_RUNS] = 9,
	[COL_CPU] = 7,
	[COL_RUNCNT] = 10,
	[COL_RUNTIME] = 9,
};

/* The FLAG column: as wide as its widest marker, within these. */
#define FLAG_MIN 4
#define FLAG_MAX 8

/*
 * Which columns go first when the terminal is narrow. The regression
 * marker goes last: with NAME it says what is on fire.
 */
static const enum col drop_order[] = {
	COL_OWNERS, COL_RUNTIME, COL_RUNCNT, COL_TYPE,
	COL_NSRUN,  COL_RUNS,    COL_CPU,    COL_ID,    COL_FLAG,
};

const char *col_label(enum col c)
{
	return c < COL__MAX ? labels[c] : "";
}

bool col_right(enum col c)
{
	return c != COL_TYPE && c != COL_NAME && c != COL_OWNERS &&
	       c != COL_FLAG;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void layout_columns(int width, const struct col_wants *want,
		    enum sort_key sort, struct col_layout *out)
{
	int name_min = clamp(want->name, 5, NAME_MIN);
	int owners_min = clamp(want->owners, 7, OWNERS_MIN);
	int fixed, seps, leftover, x = 0;
	size_t next_drop = 0;

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < COL__MAX; c++) {
		out->shown[c] = true;
		out->w[c] = fixed_w[c];
	}
	out->w[COL_ID] = want->id > 5 ? want->id : 5;
	out->w[COL_TYPE] = clamp(want->type, 5, TYPE_MAX);
	/* Only while something shown is flagged: no room taken otherwise. */
	out->shown[COL_FLAG] = want->flag > 0;
	out->w[COL_FLAG] = clamp(want->flag, FLAG_MIN, FLAG_MAX);
	for (;;) {
		int need;

		fixed = 0;
		seps = -1;
		for (int c = 0; c < COL__MAX; c++) {
			if (!out->shown[c])
				continue;
			seps++;
			if (c != COL_NAME && c != COL_OWNERS)
				fixed += out->w[c];
		}
		need = fixed + seps + name_min +
		       (out->shown[COL_OWNERS] ? owners_min : 0);
		if (need <= width)
			break;
		while (next_drop < sizeof(drop_order) / sizeof(drop_order[0]) &&
		       (int)drop_order[next_drop] == (int)sort)
			next_drop++;
		if (next_drop == sizeof(drop_order) / sizeof(drop_order[0]))
			break;
		/*
		 * The marker is what tells a terminal without colours which
		 * row is on fire: NAME gives up some of its room first.
		 */
		if (drop_order[next_drop] == COL_FLAG &&
		    name_min > NAME_MIN_FLAGGED) {
			name_min = clamp(want->name, 5, NAME_MIN_FLAGGED);
			continue;
		}
		out->shown[drop_order[next_drop++]] = false;
	}
	leftover = width - fixed - seps;
	if (leftover < 0)
		leftover = 0;
	if (out->shown[COL_OWNERS]) {
		out->w[COL_NAME] = clamp(want->name, name_min,
					 leftover - owners_min);
		out->w[COL_OWNERS] = leftover - out->w[COL_NAME];
	} else {
		out->w[COL_NAME] = leftover;
		out->w[COL_OWNERS] = 0;
	}
	for (int c = 0; c < COL__MAX; c++) {
		if (!out->shown[c])
			continue;
		out->x[c] = x;
		x += out->w[c] + 1;
	}
}

void layout_screen(int lines, bool details, struct screen_layout *l)
{
	layout_screen_x(lines, details, false, false, l);
}

void layout_screen_x(int lines, bool details, bool banner, bool demo,
		     struct screen_layout *l)
{
	int y = 0, end;

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
	if (!details || l->colhdr_y < 0)
		return;
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
	wchar_t wc;
	size_t k = mbrtowc(&wc, s, n, st);
	int w;

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
	size_t n = strlen(s), cols = 0, nb;
	mbstate_t st = { 0 };

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

char *fmt_count(char *buf, size_t len, uint64_t v, int width)
{
	static const char units[] = "kMGTPE";
	double d = (double)v;

	snprintf(buf, len, "%" PRIu64, v);
	for (size_t u = 0; u < sizeof(units) - 1; u++) {
		if ((int)strlen(buf) <= width)
			break;
		d /= 1000.0;
		snprintf(buf, len, "%.1f%c", d, units[u]);
		if ((int)strlen(buf) > width)
			snprintf(buf, len, "%.0f%c", d, units[u]);
	}
	return buf;
}

char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000u;

	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (s < 60)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%um%02us", (unsigned int)(s / 60),
			 (unsigned int)(s % 60));
	else if (s < 100 * 3600)
		snprintf(buf, len, "%uh%02um", (unsigned int)(s / 3600),
			 (unsigned int)(s / 60 % 60));
	else if (s / 86400 < 100000)
		snprintf(buf, len, "%" PRIu64 "d%02uh", s / 86400,
			 (unsigned int)(s / 3600 % 24));
	else	/* Julian years: 584y at most */
		snprintf(buf, len, "%" PRIu64 "y", s / 31557600);
	return buf;
}

double layout_boot_to_wall(uint64_t boot_ns, double now_real_s,
			   uint64_t now_boot_ns)
{
	/* In doubles: a stamp "after now" must not wrap around to 2554. */
	return now_real_s - ((double)now_boot_ns - (double)boot_ns) / 1e9;
}

int layout_flag(char *buf, size_t len, double pct, bool utf8, int width)
{
	/* U+25B2 ▲: three bytes, one column. */
	const char *arrow = utf8 ? "\xe2\x96\xb2" : "^";
	char num[32];
	int n;

	if (isnan(pct))
		snprintf(num, sizeof(num), "?");
	else if (pct < 9999.5)
		snprintf(num, sizeof(num), "%+.0f%%", pct);
	else if (pct < 999499.0)
		snprintf(num, sizeof(num), "+%.0fk%%", pct / 1000.0);
	else
		snprintf(num, sizeof(num), "+>999k%%");
	n = (int)strlen(num);
	if (width > n) {
		snprintf(buf, len, "%s%s", arrow, num);
		return n + 1;
	}
	/* No room for the arrow: the number alone (cut if it must be). */
	if (width < 0)
		width = 0;
	snprintf(buf, len, "%.*s", width, num);
	return (int)strlen(buf);
}
