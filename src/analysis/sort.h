/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_SORT_H
#define EBPFTOP_ANALYSIS_SORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/snapshot.h"

/* Sort keys in column order: `<` and `>` step through them. */
enum sort_key {
	SORT_ID,
	SORT_TYPE,
	SORT_NAME,
	SORT_NSRUN,
	SORT_RUNS,
	SORT_CPU,
	SORT_RUNCNT,
	SORT_RUNTIME,
	SORT__MAX,
};

/* The -s name of a key ("cpu", "nsrun", ...). */
const char *sort_key_name(enum sort_key k);
/* Parse a -s name; returns 0 or -EINVAL. */
int sort_key_parse(const char *s, enum sort_key *k);
/* Comma-separated list of every key name, for messages. */
const char *sort_key_names(void);

/*
 * Compare two rows for @k: numbers largest first, text and ids in
 * ascending order, rows with no value last; ties broken by id so the order
 * is stable from one refresh to the next.
 */
int rows_compare(const struct prog_row *a, const struct prog_row *b,
		 enum sort_key k);
void rows_sort(struct prog_row *rows, size_t n, enum sort_key k);

/*
 * Whether @row matches @needle (case-insensitive substring of the name,
 * the type, or an owner's comm or pid). An empty or NULL needle matches
 * everything.
 */
bool row_matches(const struct prog_row *row, const char *needle);

/* Keep the rows that match @needle, in order; returns how many remain. */
size_t rows_filter(struct prog_row *rows, size_t n, const char *needle);

#endif
