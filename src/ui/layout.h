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
#include "analysis/columns.h"
#include "analysis/format.h"

struct col_layout {
	bool shown[COL__MAX];
	int x[COL__MAX];
	int w[COL__MAX];
};

/*
 * Fit the columns of the table (analysis/columns.c) into @width, given
 * the width each would like (@want: its widest cell at this refresh):
 * drop columns in their drop order (never the sort column) until the
 * flexible ones (NAME, OWNERS) get a useful width, then share what is
 * left between those.
 */
void layout_columns(int width, const int want[COL__MAX], enum col sort,
		    struct col_layout *out);

/*
 * Panes under the table, such as the profile pane: each takes the lines it
 * would like from the bottom of the details pane when that is open, else
 * from the bottom of the table, as far as those keep LAYOUT_KEEP_ROWS
 * lines. They are placed in this order, each above the one before.
 */
enum pane {
	PANE_PROFILE,
	PANE_HOT,	/* hot lines (key a), above the profile pane */
	PANE__MAX,
};

#define LAYOUT_KEEP_ROWS 4	/* what the table or details pane keeps */
#define LAYOUT_PANE_MIN 2	/* a pane with fewer lines is not shown */

/* What is to be shown: layout_screen() decides where. */
struct screen_want {
	int lines;		/* of the terminal */
	bool details;		/* the details pane is open */
	bool banner;		/* the regression banner: something is flagged */
	bool demo;		/* the demo's line */
	int pane_h[PANE__MAX];	/* lines each pane would like; 0: closed */
};

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
	int pane_y[PANE__MAX];
	int pane_h[PANE__MAX];	/* 0: not shown */
	int keybar_y;
};

/*
 * Split the screen between header, the optional lines under it (banner,
 * demo line: small screens drop them), status line, table, details pane,
 * the panes under them, and key bar. The smallest screens keep the header
 * and the table first. Every part goes where this says; nothing is moved
 * afterwards.
 */
void layout_screen(const struct screen_want *w, struct screen_layout *l);

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

/*
 * The width each COL_MEASURED column of the table would like for the
 * @nview rows of @view: its widest cell (0 for the other columns). Cells
 * known to equal the previous row's are not formatted again.
 */
void layout_measure(const struct prog_row *view, size_t nview, bool utf8,
		    int want[COL__MAX]);

char *layout_fit(char *dst, size_t len, const char *src, int width,
		 bool right, const char *ellipsis);

/*
 * Wall-clock time (unix seconds) of a CLOCK_BOOTTIME instant @boot_ns,
 * given both clocks read now.
 */
double layout_boot_to_wall(uint64_t boot_ns, double now_real_s,
			   uint64_t now_boot_ns);

#endif
