/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UI_LAYOUT_H
#define EBPFTOP_UI_LAYOUT_H

/*
 * Layout decisions for the TUI as pure functions: no curses, no I/O, so
 * they can be reasoned about (and tested) without a terminal.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/snapshot.h"
#include "analysis/sort.h"

/* Table columns in display order; the first SORT__MAX match enum sort_key. */
enum col {
	COL_ID,
	COL_TYPE,
	COL_NAME,
	COL_NSRUN,
	COL_RUNS,
	COL_CPU,
	COL_RUNCNT,
	COL_RUNTIME,
	COL_FLAG,	/* the regression marker: "▲+240%" */
	COL_OWNERS,
	COL__MAX,
};

/* Header label of a column ("CPU%"). */
const char *col_label(enum col c);
/* Whether a column's values line up on the right (numbers). */
bool col_right(enum col c);

/* The widths the columns would like: their longest cell at this refresh. */
struct col_wants {
	int id;
	int type;
	int name;
	int owners;
	int flag;	/* widest regression marker; 0: none, no FLAG column */
};

struct col_layout {
	bool shown[COL__MAX];
	int x[COL__MAX];
	int w[COL__MAX];
};

/*
 * Fit the columns into @width: drop the least useful ones (never NAME,
 * never the sort column) until NAME gets a useful width, then give NAME
 * what is left, sharing it with OWNERS when that is shown.
 */
void layout_columns(int width, const struct col_wants *want,
		    enum sort_key sort, struct col_layout *out);

/* Where each part of the screen goes; a y of -1 means "not shown". */
struct screen_layout {
	int header_y;
	int banner_y;		/* "REGRESSION: ..." while something is flagged */
	int demo_y;		/* the demo's class counters */
	int status_y;
	int colhdr_y;
	int rows_y;
	int rows_h;
	int details_y;		/* details pane title line */
	int details_h;		/* including the title */
	int keybar_y;
};

/*
 * Split @lines rows between header, status line, table, details pane (when
 * @details) and key bar. The smallest screens keep the header and the
 * table first.
 */
void layout_screen(int lines, bool details, struct screen_layout *l);
/*
 * The same with the optional lines under the header: the regression
 * banner (@banner) and the demo line (@demo), which small screens drop.
 */
void layout_screen_x(int lines, bool details, bool banner, bool demo,
		     struct screen_layout *l);

/*
 * The flag cell of a regression of @pct percent in at most @width columns:
 * "▲+240%" (with @utf8) or "^+240%"; large changes are scaled ("^+12k%").
 * Returns the number of columns used.
 */
int layout_flag(char *buf, size_t len, double pct, bool utf8, int width);

/*
 * The row to select after the view changed: the one with @id, or, when that
 * program went away or was filtered out, the one now at @old_index (the
 * nearest to where it was). 0 when @n is 0.
 */
size_t layout_follow(const struct prog_row *rows, size_t n, uint32_t id,
		     size_t old_index);

/* First row to show so that row @sel is on a page of @page rows. */
size_t layout_scroll(size_t top, size_t sel, size_t n, size_t page);

/*
 * Copy @src into @dst as exactly @width columns, padded with spaces on the
 * right (or on the left with @right). Text too long is cut and ends with
 * @ellipsis, which must be one column wide. Characters are read in the
 * locale's encoding (UTF-8 in a UTF-8 locale): what does not print as
 * itself (control characters, escape sequences, bytes that are no
 * character) becomes '?', one column. Returns @dst.
 */
/* Columns @s takes on screen, as layout_fit() shows it. */
size_t layout_width(const char *s);

char *layout_fit(char *dst, size_t len, const char *src, int width,
		 bool right, const char *ellipsis);

/* A counter in at most @width columns: digits, or scaled with k/M/G/T/P/E. */
char *fmt_count(char *buf, size_t len, uint64_t v, int width);

/* A duration in nanoseconds in at most 9 columns: "850ns", "1.25s", "3h07m". */
char *fmt_duration(char *buf, size_t len, uint64_t ns);

/*
 * Wall-clock time (unix seconds) of a CLOCK_BOOTTIME instant @boot_ns,
 * given both clocks read now.
 */
double layout_boot_to_wall(uint64_t boot_ns, double now_real_s,
			   uint64_t now_boot_ns);

#endif
