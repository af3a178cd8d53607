// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TUI's layout decisions, without a terminal: columns fitted to every
 * width from 1 to 300, the screen split for every height from 0 to 80,
 * the regression marker, the selection that follows a program, scrolling,
 * cells cut to a width, counters and durations in their columns.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/layout.h"

/* What a busy machine's table asks for; the flag as the screen sets it. */
static const int busy[COL__MAX] = {
	[COL_ID] = 6, [COL_TYPE] = 13, [COL_NAME] = 40, [COL_OWNERS] = 30,
	[COL_FLAG] = 7,
};
static const int quiet[COL__MAX] = {
	[COL_ID] = 2, [COL_TYPE] = 3, [COL_NAME] = 4, [COL_OWNERS] = 0,
	[COL_FLAG] = 0,
};

/* Columns the full-screen table has (JSON-only ones are never shown). */
static int nr_screen_columns(void)
{
	int n = 0;

	for (int c = 0; c < COL__MAX; c++)
		n += col_table[c].label != NULL;
	return n;
}

/*
 * The shown columns run left to right one space apart; returns how many
 * there are, and in @used how many screen columns they take.
 */
static int columns_in_order(const struct col_layout *l, int *used)
{
	int x = 0, shown = 0;

	for (int c = 0; c < COL__MAX; c++) {
		if (!l->shown[c])
			continue;
		if (l->x[c] != x)
			fail_msg("column %s at x %d, want %d", col_label(c),
				 l->x[c], x);
		if (l->w[c] < 0)
			fail_msg("column %s has width %d", col_label(c),
				 l->w[c]);
		x += l->w[c] + 1;
		shown++;
	}
	*used = x ? x - 1 : 0;
	return shown;
}

static void test_columns_every_width(void **state)
{
	const int *wants[] = { busy, quiet };

	for (size_t k = 0; k < 2; k++) {
		for (int sort = 0; sort < COL__MAX; sort++) {
			if (!col_table[sort].sort_name)
				continue;
			for (int width = 1; width <= 300; width++) {
				struct col_layout l;
				int edge;

				layout_columns(width, wants[k], sort, &l);
				columns_in_order(&l, &edge);
				/* NAME and the sort column never go. */
				assert_true(l.shown[COL_NAME]);
				assert_true(l.shown[sort]);
				/* No room taken for a flag nobody has. */
				if (!wants[k][COL_FLAG])
					assert_false(l.shown[COL_FLAG]);
				/*
				 * Whenever NAME and the sort column fit at
				 * their least, everything shown fits.
				 */
				if (width >= 24 + 1 + 16 && edge > width)
					fail_msg("width %d, sort %d: the columns take %d",
						 width, sort, edge);
			}
		}
	}
}

static void test_columns_wide_and_narrow(void **state)
{
	struct col_layout l;
	int edge, shown;

	/* Wide: every column, NAME as wide as it asked, OWNERS the rest. */
	layout_columns(200, busy, COL_CPU, &l);
	shown = columns_in_order(&l, &edge);
	assert_int_equal(shown, nr_screen_columns());
	assert_false(l.shown[COL_TAG]);
	assert_int_equal(l.w[COL_NAME], busy[COL_NAME]);
	assert_int_equal(edge, 200);
	assert_true(l.w[COL_OWNERS] >= busy[COL_OWNERS]);
	assert_int_equal(l.w[COL_FLAG], busy[COL_FLAG]);
	assert_int_equal(l.w[COL_ID], busy[COL_ID]);
	assert_int_equal(l.w[COL_TYPE], busy[COL_TYPE]);

	/* 80 columns: OWNERS goes first, the flag stays. */
	layout_columns(80, busy, COL_CPU, &l);
	columns_in_order(&l, &edge);
	assert_false(l.shown[COL_OWNERS]);
	assert_true(l.shown[COL_FLAG]);
	assert_true(l.shown[COL_CPU]);
	assert_true(l.w[COL_NAME] >= 24);
	assert_int_equal(edge, 80);

	/* 45 columns: NAME at its least, the sort column, the flag. */
	layout_columns(45, busy, COL_RUNCNT, &l);
	shown = columns_in_order(&l, &edge);
	assert_int_equal(shown, 3);
	assert_true(l.shown[COL_NAME] && l.shown[COL_RUNCNT] &&
		    l.shown[COL_FLAG]);
	assert_int_equal(edge, 45);
	/* 40: NAME gives up room for the flag, down to 12 columns... */
	layout_columns(40, busy, COL_RUNCNT, &l);
	shown = columns_in_order(&l, &edge);
	assert_int_equal(shown, 3);
	assert_true(l.shown[COL_FLAG]);
	assert_int_equal(l.w[COL_NAME], 40 - 10 - 7 - 2);
	/* ... and below that the flag goes, last of all. */
	layout_columns(30, busy, COL_RUNCNT, &l);
	shown = columns_in_order(&l, &edge);
	assert_int_equal(shown, 2);
	assert_true(l.shown[COL_NAME] && l.shown[COL_RUNCNT]);
	assert_int_equal(l.w[COL_NAME], 30 - 10 - 1);
	/* Nothing flagged: NAME keeps its 24 before other columns stay. */
	{
		int w[COL__MAX];

		memcpy(w, busy, sizeof(w));
		w[COL_FLAG] = 0;
		layout_columns(45, w, COL_RUNCNT, &l);
		shown = columns_in_order(&l, &edge);
		assert_true(l.w[COL_NAME] >= 24);
	}

	/* A TYPE wider than its cap is capped. */
	{
		int w[COL__MAX];

		memcpy(w, busy, sizeof(w));
		w[COL_TYPE] = 40;
		layout_columns(200, w, COL_CPU, &l);
		assert_int_equal(l.w[COL_TYPE], 16);
	}
}

/* Line @y of a screen of @lines goes to @what; -1: not shown. */
static void mark(char *used, int lines, int y, const char *what)
{
	if (y < 0)
		return;
	if (y >= lines)
		fail_msg("%d lines: %s at %d", lines, what, y);
	if (used[y])
		fail_msg("%d lines: %s at %d, taken", lines, what, y);
	used[y] = 1;
}

/* Every screen line used at most once, inside the screen. */
static void check_screen(int lines, bool details, bool banner, bool demo,
			 int pane)
{
	struct screen_want w = {
		.lines = lines, .details = details, .banner = banner,
		.demo = demo,
	};
	struct screen_layout l;
	char used[128] = { 0 };

	for (int p = 0; p < PANE__MAX; p++)
		w.pane_h[p] = pane;
	layout_screen(&w, &l);
	mark(used, lines, l.header_y, "header");
	mark(used, lines, l.banner_y, "banner");
	mark(used, lines, l.demo_y, "demo line");
	mark(used, lines, l.status_y, "status");
	mark(used, lines, l.colhdr_y, "column header");
	mark(used, lines, l.keybar_y, "key bar");
	assert_true(l.rows_h >= 0 && l.details_h >= 0);
	for (int i = 0; i < l.rows_h; i++)
		mark(used, lines, l.rows_y + i, "table row");
	for (int i = 0; i < l.details_h; i++)
		mark(used, lines, l.details_y + i, "details");
	for (int p = 0; p < PANE__MAX; p++) {
		for (int i = 0; i < l.pane_h[p]; i++)
			mark(used, lines, l.pane_y[p] + i, "pane");
		if (!pane || l.pane_h[p] == 0) {
			assert_int_equal(l.pane_y[p], -1);
			assert_int_equal(l.pane_h[p], 0);
			continue;
		}
		/* Never more than asked, never a sliver. */
		assert_true(l.pane_h[p] <= pane);
		assert_true(l.pane_h[p] >= LAYOUT_PANE_MIN);
		/* What it came from keeps its rows. */
		if (details)
			assert_true(l.details_h >= LAYOUT_KEEP_ROWS);
		else
			assert_true(l.rows_h >= LAYOUT_KEEP_ROWS);
	}
	if (lines >= 1)
		assert_int_equal(l.header_y, 0);
	if (lines >= 5)
		assert_int_equal(l.keybar_y, lines - 1);
	/* Banner and demo line only where the table keeps four rows. */
	if (l.banner_y >= 0 || l.demo_y >= 0)
		assert_true(l.rows_h + l.details_h >= 4);
	if (details && lines >= 6)
		assert_true(l.details_h > 0);
	/* Big enough to share: the table keeps three rows at least. */
	if (details && l.rows_h > 0)
		assert_true(l.rows_h >= 3);
	/* A pane is shown whenever what it would come from can spare it. */
	if (pane >= LAYOUT_PANE_MIN && lines >= 30)
		assert_true(l.pane_h[PANE_PROFILE] >= LAYOUT_PANE_MIN);
	if (!details)
		assert_true(l.details_h == 0 && l.details_y == -1);
	/* Every line of a screen of 5 or more has a use. */
	if (lines >= 5) {
		for (int y = 0; y < lines; y++) {
			if (!used[y])
				fail_msg("%d lines (details %d, banner %d, demo %d): line %d unused",
					 lines, details, banner, demo, y);
		}
	}
}

static void test_screen_every_height(void **state)
{
	static const int panes[] = { 0, 1, 2, 7, 200 };

	for (int lines = 0; lines <= 80; lines++) {
		for (int m = 0; m < 8; m++) {
			for (size_t p = 0; p < sizeof(panes) / sizeof(panes[0]); p++)
				check_screen(lines, m & 1, m & 2, m & 4,
					     panes[p]);
		}
	}
}

/* The profile pane: under the table, or under the details when open. */
static void test_screen_panes(void **state)
{
	struct screen_want w = { .lines = 40 };
	struct screen_layout l, none;

	layout_screen(&w, &none);
	assert_int_equal(none.pane_y[PANE_PROFILE], -1);
	/* Taken from the bottom of the table, which keeps the rest. */
	w.pane_h[PANE_PROFILE] = 7;
	layout_screen(&w, &l);
	assert_int_equal(l.pane_h[PANE_PROFILE], 7);
	assert_int_equal(l.rows_h, none.rows_h - 7);
	assert_int_equal(l.pane_y[PANE_PROFILE], l.rows_y + l.rows_h);
	assert_int_equal(l.pane_y[PANE_PROFILE] + 7, l.keybar_y);
	/* More than there is: the table keeps its four rows. */
	w.pane_h[PANE_PROFILE] = 100;
	layout_screen(&w, &l);
	assert_int_equal(l.rows_h, LAYOUT_KEEP_ROWS);
	assert_int_equal(l.pane_h[PANE_PROFILE],
			 none.rows_h - LAYOUT_KEEP_ROWS);
	/* Details open: the pane comes out of them, the table is as it was. */
	w.details = true;
	w.pane_h[PANE_PROFILE] = 0;
	layout_screen(&w, &none);
	w.pane_h[PANE_PROFILE] = 7;
	layout_screen(&w, &l);
	assert_int_equal(l.rows_h, none.rows_h);
	assert_int_equal(l.details_h, none.details_h - 7);
	assert_int_equal(l.pane_y[PANE_PROFILE], l.details_y + l.details_h);
	/* 10 lines: six table rows, two of them for the pane... */
	w = (struct screen_want){ .lines = 10 };
	w.pane_h[PANE_PROFILE] = 7;
	layout_screen(&w, &l);
	assert_int_equal(l.rows_h, LAYOUT_KEEP_ROWS);
	assert_int_equal(l.pane_h[PANE_PROFILE], 2);
	assert_int_equal(l.pane_y[PANE_PROFILE], 7);
	/* ... 9: one line to spare is no pane. */
	w.lines = 9;
	layout_screen(&w, &l);
	assert_int_equal(l.pane_y[PANE_PROFILE], -1);
	assert_int_equal(l.rows_h, 9 - 4);
}

static void test_flag(void **state)
{
	char buf[64];

	assert_int_equal(fmt_flag(buf, sizeof(buf), 240.0, true, 8), 6);
	assert_string_equal(buf, "\xe2\x96\xb2+240%");
	assert_int_equal(fmt_flag(buf, sizeof(buf), 240.0, false, 8), 6);
	assert_string_equal(buf, "^+240%");
	assert_int_equal(fmt_flag(buf, sizeof(buf), 31.4, false, 8), 5);
	assert_string_equal(buf, "^+31%");
	/* Large changes are scaled, so they fit the column's 8 at most. */
	fmt_flag(buf, sizeof(buf), 12345.0, false, 8);
	assert_string_equal(buf, "^+12k%");
	fmt_flag(buf, sizeof(buf), 5e6, false, 8);
	assert_string_equal(buf, "^+>999k%");
	fmt_flag(buf, sizeof(buf), NAN, false, 8);
	assert_string_equal(buf, "^?");
	/* No room for the arrow: the number, cut to the width. */
	assert_int_equal(fmt_flag(buf, sizeof(buf), 240.0, true, 5), 5);
	assert_string_equal(buf, "+240%");
	assert_int_equal(fmt_flag(buf, sizeof(buf), 240.0, true, 3), 3);
	assert_string_equal(buf, "+24");
	assert_int_equal(fmt_flag(buf, sizeof(buf), 240.0, true, -1), 0);
	assert_string_equal(buf, "");
}

static void test_follow(void **state)
{
	struct prog_sample s[4];
	struct prog_row rows[4];

	memset(s, 0, sizeof(s));
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 4; i++) {
		s[i].id = (uint32_t)(10 + i);
		rows[i].s = &s[i];
	}
	/* The program, wherever the sort put it. */
	assert_int_equal(layout_follow(rows, 4, 12, 0), 2);
	assert_int_equal(layout_follow(rows, 4, 10, 3), 0);
	/* Gone: the row now where it was, or the last. */
	assert_int_equal(layout_follow(rows, 4, 99, 1), 1);
	assert_int_equal(layout_follow(rows, 4, 99, 7), 3);
	assert_int_equal(layout_follow(rows, 0, 12, 2), 0);
}

/* One scroll: the selection visible, no blank end, no needless jump. */
static void check_scroll(size_t top, size_t sel, size_t n, size_t page)
{
	size_t t = layout_scroll(top, sel, n, page);

	if (!page) {
		assert_int_equal(t, 0);
		return;
	}
	assert_true(sel >= t && sel < t + page);
	/* No blank page end while rows hide above. */
	if (n >= page)
		assert_true(t + page <= n);
	else
		assert_int_equal(t, 0);
	if (sel >= top && sel < top + page && top + page <= n)
		assert_int_equal(t, top);
}

static void test_scroll(void **state)
{
	/* Every top, selection, length and page up to 12. */
	for (size_t n = 0; n <= 12; n++) {
		for (size_t page = 0; page <= 12; page++) {
			for (size_t top = 0; top <= 12; top++) {
				for (size_t sel = 0; sel < n; sel++)
					check_scroll(top, sel, n, page);
			}
		}
	}
}

/* Display columns of a fitted cell: the ellipsis "…" counts one. */
static size_t cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void test_fit(void **state)
{
	char buf[64];

	assert_string_equal(layout_fit(buf, sizeof(buf), "xdp", 6, false, "~"),
			    "xdp   ");
	assert_string_equal(layout_fit(buf, sizeof(buf), "42", 6, true, "~"),
			    "    42");
	assert_string_equal(layout_fit(buf, sizeof(buf), "xdp_classifier", 6,
				       false, "~"),
			    "xdp_c~");
	assert_string_equal(layout_fit(buf, sizeof(buf), "xdp_classifier", 6,
				       false, "\xe2\x80\xa6"),
			    "xdp_c\xe2\x80\xa6");
	/* Control and non-ASCII bytes become '?': one byte, one column. */
	assert_string_equal(layout_fit(buf, sizeof(buf), "a\tb\xc3\xa9", 6,
				       false, "~"),
			    "a?b?? ");
	assert_string_equal(layout_fit(buf, sizeof(buf), "abc", 0, false, "~"),
			    "");
	assert_string_equal(layout_fit(buf, sizeof(buf), "abc", -3, true, "~"),
			    "");
	/* Every width, long and short text: exactly that many columns. */
	for (int w = 1; w < 40; w++) {
		assert_int_equal(cols(layout_fit(buf, sizeof(buf),
						 "ebpftop_test_program_with_a_long_name",
						 w, false, "\xe2\x80\xa6")),
				 w);
		assert_int_equal(cols(layout_fit(buf, sizeof(buf), "x", w,
						 true, "~")),
				 w);
	}
	/* A buffer too small for the width: cut, never overrun. */
	memset(buf, 'Z', sizeof(buf));
	layout_fit(buf, 8, "ebpftop_test_program", 30, false, "\xe2\x80\xa6");
	assert_true(strlen(buf) <= 7);
	assert_int_equal(buf[8], 'Z');
}

/* In a UTF-8 locale characters are whole: é is one column, 日 two. */
static void test_fit_utf8(void **state)
{
	char buf[64];

	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		fail_msg("no C.UTF-8 locale");
	assert_int_equal(layout_width("x\xc3\xa9"), 2);
	assert_int_equal(layout_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	assert_string_equal(layout_fit(buf, sizeof(buf), "x\xc3\xa9", 6, false,
				       "~"),
			    "x\xc3\xa9    ");
	assert_string_equal(layout_fit(buf, sizeof(buf), "x\xc3\xa9", 4, true,
				       "~"),
			    "  x\xc3\xa9");
	/* Cut between characters, never inside one; a wide one that does
	 * not fit leaves a blank before the ellipsis. */
	assert_string_equal(layout_fit(buf, sizeof(buf),
				       "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5,
				       false, "~"),
			    "\xe6\x97\xa5\xe6\x9c\xac~");
	assert_string_equal(layout_fit(buf, sizeof(buf),
				       "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4,
				       false, "~"),
			    "\xe6\x97\xa5 ~");
	assert_string_equal(layout_fit(buf, sizeof(buf), "\xc3\xa9\xc3\xa9\xc3\xa9",
				       2, false, "~"),
			    "\xc3\xa9~");
	/* Escape sequences, C1 controls and broken UTF-8 still show as '?'. */
	assert_string_equal(layout_fit(buf, sizeof(buf), "\x1b[2J", 5, false,
				       "~"),
			    "?[2J ");
	assert_string_equal(layout_fit(buf, sizeof(buf), "a\xc2\x9b" "b\xff", 5,
				       false, "~"),
			    "a?b? ");
	/* A small buffer: whole characters only, NUL-terminated. */
	memset(buf, 'Z', sizeof(buf));
	layout_fit(buf, 6, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 10, false, "~");
	assert_true(strlen(buf) <= 5);
	assert_int_equal(buf[6], 'Z');
	for (size_t i = 0; buf[i]; i++)
		assert_true((unsigned char)buf[i] != 0xc3 || buf[i + 1]);
	setlocale(LC_CTYPE, "C");
}

static void test_count(void **state)
{
	static const uint64_t v[] = {
		0, 9, 999, 1000, 99999, 123456789, 4294967296ull,
		999999999999ull, 18446744073709551615ull,
	};
	char buf[32];

	assert_string_equal(fmt_count(buf, sizeof(buf), 123456, 10), "123456");
	/* Scaled by the smallest unit that fits, rounded when it must be. */
	assert_string_equal(fmt_count(buf, sizeof(buf), 12345678, 8),
			    "12345678");
	assert_string_equal(fmt_count(buf, sizeof(buf), 12345678, 6), "12346k");
	assert_string_equal(fmt_count(buf, sizeof(buf), 12345678, 5), "12.3M");
	assert_string_equal(fmt_count(buf, sizeof(buf), 1234567890123ull, 5),
			    "1235G");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (int w = 4; w <= 20; w++) {
			size_t n = strlen(fmt_count(buf, sizeof(buf), v[i], w));

			if ((int)n > w)
				fail_msg("%" PRIu64 " in %d columns: '%s'",
					 v[i], w, buf);
		}
	}
}

static void test_duration(void **state)
{
	char buf[32];

	assert_string_equal(fmt_duration(buf, sizeof(buf), 850), "850ns");
	assert_string_equal(fmt_duration(buf, sizeof(buf), 1500), "1.5us");
	assert_string_equal(fmt_duration(buf, sizeof(buf), 2500000), "2.5ms");
	assert_string_equal(fmt_duration(buf, sizeof(buf), 1250000000),
			    "1.25s");
	assert_string_equal(fmt_duration(buf, sizeof(buf), 125000000000ull),
			    "2m05s");
	assert_string_equal(fmt_duration(buf, sizeof(buf),
					 (3 * 3600 + 7 * 60) * 1000000000ull),
			    "3h07m");
	assert_string_equal(fmt_duration(buf, sizeof(buf),
					 (5 * 86400 + 7200) * 1000000000ull),
			    "5d02h");
	assert_string_equal(fmt_duration(buf, sizeof(buf), UINT64_MAX), "584y");
	/* The RUN_TIME column is 9 wide: every magnitude fits, up to u64. */
	for (uint64_t ns = 1; ns; ns = ns > UINT64_MAX / 3 ? 0 : ns * 3) {
		if (strlen(fmt_duration(buf, sizeof(buf), ns)) > 9)
			fail_msg("%" PRIu64 " ns: '%s'", ns, buf);
		if (strlen(fmt_duration(buf, sizeof(buf), ns - 1)) > 9)
			fail_msg("%" PRIu64 " ns: '%s'", ns - 1, buf);
	}
	{
		static const uint64_t edge[] = {
			999, 999949, 999999, 999949999, 999999999,
			59994999999ull, 59999999999ull, 3599999999999ull,
			359999999999999ull, 8639999999999999999ull,
			8640000000000000000ull,
		};

		for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
			if (strlen(fmt_duration(buf, sizeof(buf), edge[i])) > 9)
				fail_msg("%" PRIu64 " ns: '%s'", edge[i], buf);
		}
	}
}

static void test_boot_to_wall(void **state)
{
	/* Loaded 90 s before now. */
	assert_true(fabs(layout_boot_to_wall(10000000000ull, 1800000000.0,
					     100000000000ull) -
			 1799999910.0) < 1e-6);
	/* A stamp a little after now stays just after now, no wrap. */
	assert_true(fabs(layout_boot_to_wall(100500000000ull, 1800000000.0,
					     100000000000ull) -
			 1800000000.5) < 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_every_width),
		cmocka_unit_test(test_columns_wide_and_narrow),
		cmocka_unit_test(test_screen_every_height),
		cmocka_unit_test(test_screen_panes),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_scroll),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_fit_utf8),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_boot_to_wall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
