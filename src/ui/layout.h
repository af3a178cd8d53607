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

/*
 * Wall-clock time (unix seconds) of a CLOCK_BOOTTIME instant @boot_ns,
 * given both clocks read now.
 */
double layout_boot_to_wall(uint64_t boot_ns, double now_real_s,
			   uint64_t now_boot_ns);

#endif
