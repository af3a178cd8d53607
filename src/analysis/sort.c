// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/sort.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const key_names[SORT__MAX] = {
	[SORT_ID] = "id",
	[SORT_TYPE] = "type",
	[SORT_NAME] = "name",
	[SORT_NSRUN] = "nsrun",
	[SORT_RUNS] = "runs",
	[SORT_CPU] = "cpu",
	[SORT_RUNCNT] = "runcnt",
	[SORT_RUNTIME] = "runtime",
};

const char *sort_key_name(enum sort_key k)
{
	return k < SORT__MAX ? key_names[k] : "?";
}

const char *sort_key_names(void)
{
	return "cpu, nsrun, runs, id, name, type, runcnt, runtime";
}

int sort_key_parse(const char *s, enum sort_key *k)
{
	for (int i = 0; i < SORT__MAX; i++) {
		if (!strcmp(s, key_names[i])) {
			*k = (enum sort_key)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* -1, 0 or 1 without subtracting (u64 differences do not fit an int). */
#define CMP3(a, b) (((a) > (b)) - ((a) < (b)))

/* Larger first; NAN after every number. */
static int cmp_desc_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return CMP3(b, a);
}

static int cmp_text(const char *a, const char *b)
{
	/* Unnamed programs sort after named ones. */
	if (!*a || !*b)
		return (!*a) - (!*b);
	return strcmp(a, b);
}

int rows_compare(const struct prog_row *a, const struct prog_row *b,
		 enum sort_key k)
{
	int c = 0;

	switch (k) {
	case SORT_ID:
		break;
	case SORT_TYPE:
		c = cmp_text(a->s->type_name ? a->s->type_name : "",
			     b->s->type_name ? b->s->type_name : "");
		break;
	case SORT_NAME:
		c = cmp_text(a->s->name, b->s->name);
		break;
	case SORT_NSRUN:
		c = cmp_desc_double(a->r.ns_per_run, b->r.ns_per_run);
		break;
	case SORT_RUNS:
		c = cmp_desc_double(a->r.runs_per_s, b->r.runs_per_s);
		break;
	case SORT_CPU:
		c = cmp_desc_double(a->r.cpu_pct, b->r.cpu_pct);
		break;
	case SORT_RUNCNT:
		c = CMP3(b->s->run_cnt, a->s->run_cnt);
		break;
	case SORT_RUNTIME:
		c = CMP3(b->s->run_time_ns, a->s->run_time_ns);
		break;
	case SORT__MAX:
	default:
		break;
	}
	return c ? c : CMP3(a->s->id, b->s->id);
}

static int qsort_cmp(const void *a, const void *b, void *key)
{
	return rows_compare(a, b, *(const enum sort_key *)key);
}

void rows_sort(struct prog_row *rows, size_t n, enum sort_key k)
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
