/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_SORT_H
#define EBPFTOP_ANALYSIS_SORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/columns.h"
#include "analysis/snapshot.h"

/*
 * Compare two rows on column @k (its comparator in analysis/columns.c):
 * numbers largest first, text and ids in ascending order, rows with no
 * value last; ties broken by id so the order is stable from one refresh
 * to the next.
 */
int rows_compare(const struct prog_row *a, const struct prog_row *b,
		 enum col k);
void rows_sort(struct prog_row *rows, size_t n, enum col k);

/*
 * Whether @row matches @needle (case-insensitive substring of the name,
 * the type, or an owner's comm or pid). An empty or NULL needle matches
 * everything.
 */
bool row_matches(const struct prog_row *row, const char *needle);

/* Keep the rows that match @needle, in order; returns how many remain. */
size_t rows_filter(struct prog_row *rows, size_t n, const char *needle);

/*
 * What a table shows: the rows of @snap matching @filter, sorted on
 * @sort, copied into *@view (grown as needed, *@cap rows; the same
 * allocation holds the sort's scratch: free it, and pass it back only to
 * rows_view()); their number in *@n. Returns 0, or -ENOMEM (then *@n is 0).
 */
int rows_view(const struct snapshot *snap, const char *filter, enum col sort,
	      struct prog_row **view, size_t *cap, size_t *n);

#endif
