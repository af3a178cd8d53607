// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/sort.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int rows_compare(const struct prog_row *a, const struct prog_row *b,
		 enum col k)
{
	int c = 0;

	if (k < COL__MAX && col_table[k].cmp)
		c = col_table[k].cmp(a, b);
	/* Ties broken by id, so that the order is stable. */
	return c ? c : (a->s->id > b->s->id) - (a->s->id < b->s->id);
}

static int qsort_cmp(const void *a, const void *b, void *key)
{
	return rows_compare(a, b, *(const enum col *)key);
}

void rows_sort(struct prog_row *rows, size_t n, enum col k)
{
	if (n < 2)
		return;
	qsort_r(rows, n, sizeof(*rows), qsort_cmp, &k);
}

bool row_matches(const struct prog_row *row, const char *needle)
{
	const struct prog_sample *s = row->s;
	char pid[16];

	if (!needle || !*needle)
		return true;
	if (strcasestr(s->name, needle))
		return true;
	if (s->type_name && strcasestr(s->type_name, needle))
		return true;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		if (strcasestr(s->owners[i].comm, needle))
			return true;
		snprintf(pid, sizeof(pid), "%u", s->owners[i].pid);
		if (!strcmp(pid, needle))
			return true;
	}
	return false;
}

size_t rows_filter(struct prog_row *rows, size_t n, const char *needle)
{
	size_t kept = 0;

	if (!needle || !*needle)
		return n;
	for (size_t i = 0; i < n; i++) {
		if (row_matches(&rows[i], needle))
			rows[kept++] = rows[i];
	}
	return kept;
}

int rows_view(const struct snapshot *snap, const char *filter, enum col sort,
	      struct prog_row **view, size_t *cap, size_t *n)
{
	if (snap->nr_rows > *cap) {
		struct prog_row *v = realloc(*view, snap->nr_rows * sizeof(*v));

		if (!v) {
			*n = 0;
			return -ENOMEM;
		}
		*view = v;
		*cap = snap->nr_rows;
	}
	if (snap->nr_rows)
		memcpy(*view, snap->rows, snap->nr_rows * sizeof(**view));
	*n = rows_filter(*view, snap->nr_rows, filter);
	rows_sort(*view, *n, sort);
	return 0;
}
