/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The program table's columns, one row each: header labels, the -s name,
 * widths and the order they give way on narrow screens, alignment, the
 * JSON key, how a cell is written and how rows compare. The full-screen
 * table, the batch text table, the JSON record, sorting, -s and its help
 * all read this table; tests/test_docs checks the man page's FIELDS
 * section against it. Adding a column is one row in columns.c, its
 * formatter (and comparator, to sort on it), and its man page entry.
 */
#ifndef EBPFTOP_ANALYSIS_COLUMNS_H
#define EBPFTOP_ANALYSIS_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/snapshot.h"

struct jw;

/* Every column, in display order (`<` and `>` step through it). */
enum col {
	COL_ID,
	COL_TYPE,
	COL_NAME,
	COL_NSRUN,
	COL_RUNS,
	COL_CPU,
	COL_RUNCNT,
	COL_RUNTIME,
	COL_ISA,	/* the BPF ISA level the program needs */
	COL_FLAG,	/* the regression marker: "▲+240%" */
	COL_OWNERS,
	COL_TAG,	/* JSON only */
	COL_SUBPROGS,	/* JSON only, like the rest: what a program is made of */
	COL_TAIL_CALLS,
	COL_HELPERS,
	COL_MAPS,
	COL_XLATED,
	COL_JITED,
	COL_JIT_PAGES,
	COL__MAX,
};

/* How a cell is wanted. */
struct col_fmt {
	bool text;	/* batch text: exact numbers, "-" for no value */
	bool utf8;	/* full screen: the terminal can show ▲ */
	int width;	/* full screen: columns the cell may take */
};

/*
 * The text of one cell of @row: written into @buf (or a string that
 * lives as long as the row) and returned. An empty cell is "".
 */
typedef const char *col_cell_fn(char *buf, size_t len,
				const struct prog_row *row,
				const struct col_fmt *f);
/*
 * The batch text cell of @row (what a col_cell_fn writes with .text)
 * written at @buf, @len bytes of room, NUL-terminated when there is room
 * for it: returns its length, below @len, so that the text table need
 * not look for the end.
 */
typedef size_t col_text_fn(char *buf, size_t len, const struct prog_row *row);
/* The JSON value of @row's member (the key is written already). */
typedef void col_json_fn(struct jw *w, const struct prog_row *row);
/* <0, 0 or >0 as @a goes before, with or after @b (ties: 0). */
typedef int col_cmp_fn(const struct prog_row *a, const struct prog_row *b);

/* A width measured from the cells, for the width fields below. */
#define COL_MEASURED 0

struct col_def {
	const char *label;	/* full-screen header; NULL: JSON only */
	const char *text_label;	/* batch text header; NULL: as label */
	const char *sort_name;	/* -s name; NULL: cannot sort on it */
	col_cmp_fn *cmp;	/* with sort_name */
	bool ascending;		/* sorts A to Z (text, ids), not largest first */
	bool right;		/* values line up on the right (numbers) */

	/*
	 * Full screen: a fixed width, or COL_MEASURED: its widest cell,
	 * within min_w..max_w (max_w 0: no limit).
	 */
	int width;
	int min_w;
	int max_w;
	/*
	 * Flexible columns (NAME, OWNERS) share what the others leave, in
	 * table order; the last one shown takes the rest. Before other
	 * columns are dropped each keeps keep_w (or its widest cell, when
	 * narrower).
	 */
	bool flex;
	int keep_w;
	/* NAME gives up room down to this before a column with outranks goes. */
	int squeeze_w;
	/*
	 * Narrow screens: columns go in increasing drop order (0: never).
	 * With outranks, NAME first shrinks to its squeeze_w.
	 */
	int drop;
	bool outranks;
	bool hide_empty;	/* shown only while some cell is not empty */
	bool marker;		/* drawn in the flag colour; empty cells draw nothing */

	/*
	 * Batch text: a printf width (negative: left aligned); with
	 * text_fit as wide as its widest cell when that is wider (the text
	 * table never cuts). A column with text_free is unpadded, after two
	 * spaces, and last. Batch text escapes every cell (text_escape)
	 * but those of text_plain columns, whose cells are printable ASCII
	 * by construction (numbers, fixed words).
	 */
	int text_width;
	bool text_fit;
	bool text_free;
	bool text_plain;
	col_text_fn *text;	/* text_plain columns: the cell, measured */

	const char *json_key;	/* NULL: not in the JSON record */
	int json_pos;		/* its place among the record's members */
	col_json_fn *json;

	col_cell_fn *cell;
	const char *help;	/* the help screen's line; NULL: none */
};

extern const struct col_def col_table[COL__MAX];

static inline const struct col_def *col_def(enum col c)
{
	return &col_table[c < COL__MAX ? c : COL_ID];
}

/* The full-screen header label of a column ("" for JSON-only ones). */
const char *col_label(enum col c);
/* Whether a column's values line up on the right. */
bool col_right(enum col c);

/* The -s name of a column ("cpu", "nsrun", ...); "?" when it has none. */
const char *col_sort_name(enum col c);
/* Parse a -s name; returns 0 or -EINVAL. */
int col_parse_sort(const char *s, enum col *c);
/*
 * Every -s name, comma-separated, in column order; @dflt first with
 * " (default)" when it is not COL__MAX. Returns @buf.
 */
char *col_sort_names(char *buf, size_t len, enum col dflt);
/* The sortable column @dir (+1 or -1) steps from @c, wrapping around. */
enum col col_sort_step(enum col c, int dir);

/* The columns of the JSON record in its order: COL__MAX ends the list. */
const enum col *col_json_order(void);

#endif
