// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/sort.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/msort.h"

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

/*
 * A filter compiled once per view: the needle folded to lower case, and
 * the pid it names if it is one written as "%u" would write it.
 */
struct needle {
	char low[256];
	size_t len;
	bool is_pid;
	uint32_t pid;
	/*
	 * Type names are static strings, a few dozen for any number of
	 * programs: the last one looked at, and whether it matched.
	 */
	const char *type_name;
	bool type_match;
};

static inline unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* False when @text is too long for the compiled form: use strcasestr. */
static bool needle_init(struct needle *nd, const char *text)
{
	unsigned long long v = 0;
	size_t len = strlen(text);

	if (len >= sizeof(nd->low))
		return false;
	for (size_t i = 0; i < len; i++)
		nd->low[i] = (char)fold((unsigned char)text[i]);
	nd->low[len] = '\0';
	nd->len = len;
	nd->is_pid = len > 0 && len <= 10 && (text[0] != '0' || len == 1);
	for (size_t i = 0; nd->is_pid && i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			nd->is_pid = false;
		else
			v = v * 10 + (unsigned)(text[i] - '0');
	}
	if (v > UINT32_MAX)
		nd->is_pid = false;
	nd->pid = (uint32_t)v;
	nd->type_name = NULL;
	nd->type_match = false;
	return true;
}

/* Case-insensitive (ASCII) substring test, as strcasestr in C or UTF-8. */
static bool has_needle(const char *hay, const struct needle *nd)
{
	const unsigned char lo = (unsigned char)nd->low[0];
	const unsigned char up = lo >= 'a' && lo <= 'z' ? (unsigned char)(lo - ('a' - 'A')) : lo;
	size_t len = strlen(hay);

	if (len < nd->len)
		return false;	/* most names, against a long needle */
	for (size_t i = 0, last = len - nd->len; i <= last; i++) {
		size_t k;

		if ((unsigned char)hay[i] != lo && (unsigned char)hay[i] != up)
			continue;
		for (k = 1; k < nd->len; k++) {
			if (fold((unsigned char)hay[i + k]) != (unsigned char)nd->low[k])
				break;
		}
		if (k == nd->len)
			return true;
	}
	return false;
}

static bool row_matches_nd(const struct prog_row *row, struct needle *nd)
{
	const struct prog_sample *s = row->s;

	if (has_needle(s->name, nd))
		return true;
	if (s->type_name && s->type_name != nd->type_name) {
		nd->type_name = s->type_name;
		nd->type_match = has_needle(s->type_name, nd);
	}
	if (s->type_name && nd->type_match)
		return true;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		if (has_needle(s->owners[i].comm, nd))
			return true;
		if (nd->is_pid && s->owners[i].pid == nd->pid)
			return true;
	}
	return false;
}

/* The needle's plain form, for one too long to compile. */
static bool row_matches_long(const struct prog_row *row, const char *needle)
{
	const struct prog_sample *s = row->s;

	if (strcasestr(s->name, needle))
		return true;
	if (s->type_name && strcasestr(s->type_name, needle))
		return true;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		/* Longer than any pid: only the comm can match. */
		if (strcasestr(s->owners[i].comm, needle))
			return true;
	}
	return false;
}

bool row_matches(const struct prog_row *row, const char *needle)
{
	struct needle nd;

	if (!needle || !*needle)
		return true;
	if (!needle_init(&nd, needle))
		return row_matches_long(row, needle);
	return row_matches_nd(row, &nd);
}

size_t rows_filter(struct prog_row *rows, size_t n, const char *needle)
{
	struct needle nd;
	bool compiled;
	size_t kept = 0;

	if (!needle || !*needle)
		return n;
	compiled = needle_init(&nd, needle);
	for (size_t i = 0; i < n; i++) {
		if (compiled ? row_matches_nd(&rows[i], &nd) :
			       row_matches_long(&rows[i], needle))
			rows[kept++] = rows[i];
	}
	return kept;
}

/* Two row pointers compared on column *@ctx, for msort_natural(). */
static int row_ptr_compare(const void *a, const void *b, const void *ctx)
{
	return rows_compare(*(const struct prog_row *const *)a,
			    *(const struct prog_row *const *)b,
			    *(const enum col *)ctx);
}

/*
 * The view's allocation holds, after its *cap rows, two arrays of *cap
 * row pointers: the filter and the sort work on those, and only the
 * rows shown are copied, once, in their order.
 */
#define VIEW_SLOT (sizeof(struct prog_row) + 2 * sizeof(struct prog_row *))

int rows_view(const struct snapshot *snap, const char *filter, enum col sort,
	      struct prog_row **view, size_t *cap, size_t *n)
{
	const struct prog_row **ptrs, **tmp, **sorted;
	struct needle nd;
	bool all = !filter || !*filter, compiled = false;
	size_t kept = 0;

	if (snap->nr_rows > *cap) {
		struct prog_row *v = realloc(*view, snap->nr_rows * VIEW_SLOT);

		if (!v) {
			*n = 0;
			return -ENOMEM;
		}
		*view = v;
		*cap = snap->nr_rows;
	}
	if (!snap->nr_rows) {
		*n = 0;
		return 0;
	}
	ptrs = (const struct prog_row **)(void *)(*view + *cap);
	tmp = ptrs + *cap;
	if (!all)
		compiled = needle_init(&nd, filter);
	for (size_t i = 0; i < snap->nr_rows; i++) {
		const struct prog_row *r = &snap->rows[i];

		if (all || (compiled ? row_matches_nd(r, &nd) :
				       row_matches_long(r, filter)))
			ptrs[kept++] = r;
	}
	/* From one refresh to the next most rows are in order already. */
	sorted = msort_natural(ptrs, tmp, kept, sizeof(*ptrs), row_ptr_compare,
			       &sort);
	for (size_t i = 0; i < kept; i++)
		(*view)[i] = *sorted[i];
	*n = kept;
	return 0;
}
