/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Drawing primitives every part of the screen uses: text cut to a width
 * and never past the right edge, blank fill, segments written left to
 * right, text wrapped at spaces. Only these and the parts' own code call
 * curses to draw.
 */
#ifndef EBPFTOP_UI_DRAW_H
#define EBPFTOP_UI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

/* Widest cell we build; wider terminals get blank space past it. */
#define CELL_MAX 1024

/* The one-column mark of cut text: "…" where the locale has it, else "~". */
const char *draw_ellipsis(bool utf8);

/*
 * Write @text in @w columns at (@y, @x), padded (on the left with
 * @right), cut with @ell, never past the right edge.
 */
void draw_text(int y, int x, int w, attr_t attr, const char *text,
	       bool right, const char *ell);

/* Paint @w columns of blank in @attr: the background of bars and rows. */
void draw_fill(int y, int x, int w, attr_t attr);

/* @text from column @x to the right edge, cut with @ell. */
void draw_line(int y, int x, attr_t attr, const char *text, const char *ell);

/* Write @text from *@x on, advancing *@x; returns false when out of room. */
bool draw_seg(int y, int *x, attr_t attr, const char *text, const char *ell);

/*
 * The next line of @s wrapped at spaces to @w columns: its length, and in
 * *@next where the line after it starts. A word longer than the line is
 * cut.
 */
size_t draw_wrap(const char *s, int w, const char **next);

/*
 * @text wrapped to @w columns on lines @y.. (at most up to @end - 1),
 * each written from column @x to the right edge; when it does not fit,
 * the last line is cut with @ell to show there is more. An empty text
 * takes one blank line. Returns the line after the last one written.
 */
int draw_wrapped(int y, int end, int x, int w, attr_t attr, const char *text,
		 const char *ell);

#endif
