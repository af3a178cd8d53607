/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OUTPUT_ROW_CACHE_H
#define EBPFTOP_OUTPUT_ROW_CACHE_H

/*
 * A program's row as batch output wrote it (a text line, a JSON object),
 * kept from one refresh to the next. Most programs are idle: between two
 * refreshes their counters do not move, and every byte of their row is
 * what it was. An entry's bytes are reused while every input a row's
 * formatters read is unchanged (id, type, name, tag, counters, rates,
 * owners, insights; a flagged row is never kept) and the layout they were
 * made for (the column widths) is the same. Entries of programs that were
 * not looked up at a refresh are dropped at its end, so the cache holds
 * the rows of one refresh at most.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/snapshot.h"

struct row_cache;

/* NULL on ENOMEM. */
struct row_cache *row_cache__new(void);
void row_cache__free(struct row_cache *c);

/* Start a refresh. */
void row_cache__begin(struct row_cache *c);

/*
 * The entry of @row at this refresh, or -1: no memory, a flagged row, or
 * a second row with the same id in this refresh (write those without the
 * cache). *@same tells whether its inputs are those it had when last
 * looked up; when they are not, the entry forgets its bytes and its aux.
 */
long row_cache__lookup(struct row_cache *c, const struct prog_row *row,
		       bool *same);

/* A number the caller keeps with an entry (the text width of a cell). */
uint32_t row_cache__aux(const struct row_cache *c, long e);
void row_cache__set_aux(struct row_cache *c, long e, uint32_t aux);

/* The layout changed: every entry's bytes are stale. */
void row_cache__new_layout(struct row_cache *c);

/* The bytes kept for entry @e in this layout, or NULL. */
const char *row_cache__bytes(const struct row_cache *c, long e, size_t *len);

/* Keep @len bytes for @e (the row just written); 0 or -ENOMEM. */
int row_cache__store(struct row_cache *c, long e, const char *bytes,
		     size_t len);

/* End the refresh: entries not looked up since row_cache__begin() go. */
void row_cache__end(struct row_cache *c);

/* Entries held, and bytes they hold (for tests and for the curious). */
size_t row_cache__count(const struct row_cache *c);
size_t row_cache__mem(const struct row_cache *c);

#endif
