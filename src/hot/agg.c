// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "hot/agg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int counts_init(struct hot_counts *c, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->own = calloc(n ? n : 1, sizeof(*c->own));
	c->helper = calloc(n ? n : 1, sizeof(*c->helper));
	return c->own && c->helper ? 0 : -ENOMEM;
}

static void counts_clear(struct hot_counts *c, size_t n)
{
	c->total = 0;
	c->in_prog = 0;
	memset(c->own, 0, n * sizeof(*c->own));
	memset(c->helper, 0, n * sizeof(*c->helper));
}

static void counts_free(struct hot_counts *c)
{
	free(c->own);
	free(c->helper);
	memset(c, 0, sizeof(*c));
}

int hot_agg_init(struct hot_agg *a, size_t nr_lines, uint64_t start_ns)
{
	memset(a, 0, sizeof(*a));
	a->nr_lines = nr_lines;
	a->start_ns = start_ns;
	if (counts_init(&a->cum, nr_lines))
		goto fail;
	for (int i = 0; i < HOT_SLOTS; i++) {
		if (counts_init(&a->slot[i], nr_lines))
			goto fail;
		a->slot_sec[i] = -1;
	}
	return 0;
fail:
	hot_agg_free(a);
	return -ENOMEM;
}

void hot_agg_free(struct hot_agg *a)
{
	counts_free(&a->cum);
	for (int i = 0; i < HOT_SLOTS; i++)
		counts_free(&a->slot[i]);
}

static void count(struct hot_counts *c, enum hot_hit hit, size_t line)
{
	c->total++;
	if (hit == HOT_OWN)
		c->own[line]++;
	else if (hit == HOT_HELPER)
		c->helper[line]++;
	else
		return;
	c->in_prog++;
}

void hot_agg_add(struct hot_agg *a, uint64_t t_ns, enum hot_hit hit,
		 size_t line)
{
	int64_t sec = (int64_t)(t_ns / 1000000000ull);
	int k = (int)(sec % HOT_SLOTS);

	if (hit != HOT_MISS && line >= a->nr_lines)
		hit = HOT_MISS;
	count(&a->cum, hit, line);
	if (a->slot_sec[k] != sec) {
		/* A sample older than the slot's second is past the window. */
		if (a->slot_sec[k] > sec)
			return;
		counts_clear(&a->slot[k], a->nr_lines);
		a->slot_sec[k] = sec;
	}
	count(&a->slot[k], hit, line);
}

static void counts_add(struct hot_counts *to, const struct hot_counts *c,
		       size_t n)
{
	to->total += c->total;
	to->in_prog += c->in_prog;
	for (size_t i = 0; i < n; i++) {
		to->own[i] += c->own[i];
		to->helper[i] += c->helper[i];
	}
}

double hot_agg_sum(const struct hot_agg *a, bool cumulative, uint64_t now_ns,
		   struct hot_counts *out)
{
	int64_t now_sec = (int64_t)(now_ns / 1000000000ull);
	uint64_t from;

	counts_clear(out, a->nr_lines);
	if (now_ns < a->start_ns)
		return 0.0;
	if (cumulative) {
		counts_add(out, &a->cum, a->nr_lines);
		return (double)(now_ns - a->start_ns) / 1e9;
	}
	for (int i = 0; i < HOT_SLOTS; i++) {
		if (a->slot_sec[i] > now_sec - HOT_WINDOW_S &&
		    a->slot_sec[i] <= now_sec)
			counts_add(out, &a->slot[i], a->nr_lines);
	}
	from = (uint64_t)(now_sec - HOT_WINDOW_S + 1) * 1000000000ull;
	if (now_sec - HOT_WINDOW_S + 1 < 0 || from < a->start_ns)
		from = a->start_ns;
	return (double)(now_ns - from) / 1e9;
}

void hot_report_free(struct hot_report *r)
{
	free(r->lines);
	free(r->subprogs);
	r->lines = NULL;
	r->subprogs = NULL;
	r->nr_lines = 0;
	r->nr_subprogs = 0;
}

int hot_report_fill(struct hot_report *r, const struct hot_prog *p,
		    const struct hot_counts *c, bool source_order)
{
	size_t first_bucket = p->nr_lines - p->nr_funcs, n = 0;

	hot_report_free(r);
	r->has_line_info = p->has_line_info;
	r->samples_total = c->total;
	r->samples_in_prog = c->in_prog;
	r->lines = calloc(p->nr_lines ? p->nr_lines : 1, sizeof(*r->lines));
	r->subprogs = calloc(p->nr_funcs ? p->nr_funcs : 1, sizeof(*r->subprogs));
	if (!r->lines || !r->subprogs) {
		hot_report_free(r);
		return -ENOMEM;
	}
	for (uint32_t f = 0; f < p->nr_funcs; f++)
		r->subprogs[f].name = p->func_name[f];
	r->nr_subprogs = p->nr_funcs;
	for (size_t i = 0; i < p->nr_lines; i++) {
		const struct hot_line_def *d = &p->lines[i];
		struct hot_report_line *l = &r->lines[n];
		uint64_t t = c->own[i] + c->helper[i];

		if (d->func < p->nr_funcs)
			r->subprogs[d->func].samples += t;
		/* The no-line buckets only when something landed there. */
		if (i >= first_bucket && !t)
			continue;
		l->file = d->file;
		l->line = d->line;
		l->col = d->col;
		l->source = d->source;
		l->subprog = d->func < p->nr_funcs ? p->func_name[d->func] : NULL;
		l->order = (uint32_t)i;
		l->samples = c->own[i];
		l->helper_samples = c->helper[i];
		l->pct = hot_pct(t, c->in_prog);
		n++;
	}
	r->nr_lines = n;
	for (uint32_t f = 0; f < p->nr_funcs; f++)
		r->subprogs[f].pct = hot_pct(r->subprogs[f].samples, c->in_prog);
	hot_lines_sort(r->lines, n, source_order);
	return 0;
}
