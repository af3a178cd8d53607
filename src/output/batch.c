// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/batch.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "analysis/regress.h"
#include "util/json_writer.h"
#include "output/profile_out.h"
#include "hot/report.h"
#include "util/text.h"

/* Worst regression first, then by id. */
static int cmp_change(const void *pa, const void *pb)
{
	const struct prog_row *a = *(const struct prog_row *const *)pa;
	const struct prog_row *b = *(const struct prog_row *const *)pb;

	if (a->reg.change_pct != b->reg.change_pct)
		return a->reg.change_pct > b->reg.change_pct ? -1 : 1;
	return a->s->id < b->s->id ? -1 : a->s->id > b->s->id;
}

/* "REGRESSION: name +240% ns/run (...)" for every flagged row. */
static void print_regressions(FILE *f, const struct prog_row *rows, size_t n)
{
	const struct prog_row **v;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += rows[i].reg.active;
	if (!k)
		return;
	v = malloc(k * sizeof(*v));
	if (!v)
		return;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].reg.active)
			v[k++] = &rows[i];
	}
	qsort(v, k, sizeof(*v), cmp_change);
	for (size_t i = 0; i < k; i++) {
		const struct prog_regression *g = &v[i]->reg;
		time_t t = (time_t)g->since;
		char chg[32], when[16] = "?", name[4 * PROG_NAME_MAX];
		struct tm tm;

		if (!isnan(g->since) && localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%H:%M:%S", &tm);
		fprintf(f, "REGRESSION: %s %s ns/run (id %u, baseline %.1f ns, now %.1f ns, since %s)\n",
			text_escape(name, sizeof(name), display_name(v[i]->s)),
			regress_fmt_change(chg, sizeof(chg), g->change_pct),
			v[i]->s->id, g->baseline_ns, g->current_ns, when);
	}
	free(v);
}

static void print_demo_text(FILE *f, const struct batch_demo *d)
{
	fprintf(f, "demo: program %u", d->prog_id);
	for (size_t i = 0; i < d->nr_classes && i < BATCH_DEMO_CLASSES_MAX; i++)
		fprintf(f, "  %s %" PRIu64, d->names[i], d->counts[i]);
	fprintf(f, "  regressed: %s\n", d->regressed ? "yes" : "no");
}

void batch_print_text(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	batch_print_text_x(f, snap, rows, n, NULL);
}

#define TEXT_CELL_MAX 2048

/*
 * The text of a cell as the text table prints it: names and owners are
 * chosen by whoever loads a program, so every cell is escaped (text_escape).
 */
static const char *text_cell(char *buf, size_t len, enum col c,
			     const struct prog_row *row)
{
	const struct col_fmt fmt = { .text = true };
	char raw[512];

	return text_escape(buf, len, col_def(c)->cell(raw, sizeof(raw), row,
						      &fmt));
}

/* Width of column @c in the text table: printf's, widened to fit. */
static int text_width(enum col c, const struct prog_row *rows, size_t n)
{
	const struct col_def *d = col_def(c);
	int w = d->text_width < 0 ? -d->text_width : d->text_width;
	char buf[TEXT_CELL_MAX];

	for (size_t i = 0; d->text_fit && i < n; i++) {
		int len = (int)strlen(text_cell(buf, sizeof(buf), c, &rows[i]));

		if (len > w)
			w = len;
	}
	return d->text_width < 0 ? -w : w;
}

/* One line of the text table: the column titles, or a row's cells. */
static void print_text_line(FILE *f, const int width[COL__MAX],
			    const struct prog_row *row)
{
	bool first = true;
	char buf[TEXT_CELL_MAX];

	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		const char *text;

		if (!d->label)
			continue;
		if (row)
			text = text_cell(buf, sizeof(buf), c, row);
		else
			text = d->text_label ? d->text_label : d->label;
		/* By hand: printf per cell is most of a 10,000-row table's cost. */
		if (d->text_free) {
			if (!first)
				fputs_unlocked("  ", f);
			fputs_unlocked(text, f);
		} else {
			int w = width[c] < 0 ? -width[c] : width[c];
			size_t len = strlen(text);

			if (!first)
				putc_unlocked(' ', f);
			if (width[c] < 0)
				fwrite_unlocked(text, 1, len, f);
			for (size_t k = len; k < (size_t)w; k++)
				putc_unlocked(' ', f);
			if (width[c] >= 0)
				fwrite_unlocked(text, 1, len, f);
		}
		first = false;
	}
	fputc('\n', f);
}

void batch_print_text_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x)
{
	char when[32], share[16];
	time_t t = (time_t)snap->time;
	int width[COL__MAX];
	struct tm tm;

	/* Names are never cut: the column is as wide as the longest one. */
	for (int c = 0; c < COL__MAX; c++)
		width[c] = text_width(c, rows, n);
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fmt_pct(share, sizeof(share), snapshot_total_share(snap), "-");
	fprintf(f, "ebpftop %s  kernel %s  stats %s  programs %zu  bpf cpu %s%s of %u cpus\n",
		when, snap->kernel, snap->stats ? snap->stats : "off", snap->nr_rows,
		share, strcmp(share, "-") ? "%" : "", snap->ncpus);
	if (x && x->demo)
		print_demo_text(f, x->demo);
	print_regressions(f, rows, n);
	print_text_line(f, width, NULL);
	for (size_t i = 0; i < n; i++)
		print_text_line(f, width, &rows[i]);
	fputc('\n', f);
	profile_print_text(f, snap->profile);
	hot_print_text(f, snap->hot, 10);
}

/* One program: the members of the columns with a JSON key, in order. */
static void print_prog_json(struct jw *w, const struct prog_row *row)
{
	jw_begin_object(w);
	for (const enum col *c = col_json_order(); *c < COL__MAX; c++) {
		jw_key(w, col_def(*c)->json_key);
		col_def(*c)->json(w, row);
	}
	jw_end_object(w);
}

static void print_demo_json(struct jw *w, const struct batch_demo *d)
{
	jw_key(w, "demo");
	jw_begin_object(w);
	jw_bool_field(w, "regressed", d->regressed);
	jw_uint_field(w, "prog_id", d->prog_id);
	jw_key(w, "classes");
	jw_begin_object(w);
	for (size_t i = 0; i < d->nr_classes && i < BATCH_DEMO_CLASSES_MAX; i++) {
		jw_uint_field(w, d->names[i], d->counts[i]);
	}
	jw_end_object(w);
	jw_end_object(w);
}

void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	batch_print_json_x(f, snap, rows, n, NULL);
}

void batch_print_json_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x)
{
	struct jw w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_double_field(&w, "time", snap->time);
	jw_double_field(&w, "interval_s", snap->interval_s);
	jw_bool_field(&w, "stats_enabled", snap->stats_on);
	jw_key(&w, "programs");
	jw_begin_array(&w);
	for (size_t i = 0; i < n; i++)
		print_prog_json(&w, &rows[i]);
	jw_end_array(&w);
	jw_key(&w, "profile");
	profile_print_json(&w, snap->profile);
	jw_key(&w, "hot");
	hot_print_json(&w, snap->hot);
	if (x && x->demo)
		print_demo_json(&w, x->demo);
	jw_end_object(&w);
	fputc('\n', f);
}
