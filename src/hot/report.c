// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "hot/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_writer.h"
#include "util/text.h"

double hot_pct(uint64_t part, uint64_t whole)
{
	if (!whole)
		return 0.0;
	return round((double)part * 10000.0 / (double)whole) / 100.0;
}

const char *hot_basename(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "";
}

const char *hot_trim(const char *s)
{
	if (!s)
		return "";
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static uint64_t line_total(const struct hot_report_line *l)
{
	return l->samples + l->helper_samples;
}

static int cmp_hot(const void *a, const void *b)
{
	const struct hot_report_line *x = a, *y = b;
	uint64_t tx = line_total(x), ty = line_total(y);

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_source(const void *a, const void *b)
{
	const struct hot_report_line *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}

void hot_lines_sort(struct hot_report_line *lines, size_t n, bool source_order)
{
	if (n)
		qsort(lines, n, sizeof(*lines), source_order ? cmp_source : cmp_hot);
}

void hot_print_json(struct jw *w, const struct hot_report *r)
{
	if (!r) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	JW_FIELDS(w, JW_U("id", r->id), JW_S("event", r->event),
		  JW_U("freq_hz", r->freq_hz),
		  JW_D("window_s", round(r->window_s * 1000.0) / 1000.0),
		  JW_U("samples_total", r->samples_total),
		  JW_U("samples_in_prog", r->samples_in_prog));
	jw_key(w, "lines");
	jw_begin_array(w);
	for (size_t i = 0; i < r->nr_lines; i++) {
		const struct hot_report_line *l = &r->lines[i];

		JW_OBJECT(w, JW_S("file", l->file), JW_U("line", l->line),
			  JW_U("col", l->col), JW_S("source", l->source),
			  JW_S("subprog", l->subprog),
			  JW_U("samples", l->samples), JW_D("pct", l->pct),
			  JW_U("helper_samples", l->helper_samples));
	}
	jw_end_array(w);
	jw_key(w, "subprogs");
	jw_begin_array(w);
	for (size_t i = 0; i < r->nr_subprogs; i++)
		JW_OBJECT(w, JW_S("name", r->subprogs[i].name),
			  JW_U("samples", r->subprogs[i].samples),
			  JW_D("pct", r->subprogs[i].pct));
	jw_end_array(w);
	jw_end_object(w);
}

void hot_print_text(FILE *f, const struct hot_report *r, size_t max)
{
	char name[256];

	if (!r)
		return;
	text_escape(name, sizeof(name), r->prog_name ? r->prog_name : "");
	fprintf(f, "HOT LINES of %u %s: %s at %u Hz, %" PRIu64 " of %" PRIu64
		   " samples in the program, %s %.1f s\n",
		r->id, name, r->event, r->freq_hz,
		r->samples_in_prog, r->samples_total,
		r->cumulative ? "cumulative" : "last", r->window_s);
	if (r->samples_in_prog < HOT_FEW_SAMPLES)
		fprintf(f, "  (fewer than %d samples: shares are rough)\n",
			HOT_FEW_SAMPLES);
	fprintf(f, "%7s %8s %8s  %-24s %s\n", "PCT", "SAMPLES", "HELPER",
		"FILE:LINE", "SOURCE");
	for (size_t i = 0; i < r->nr_lines && i < max; i++) {
		const struct hot_report_line *l = &r->lines[i];
		char raw[192], where[256], src[1024];

		if (!l->samples && !l->helper_samples)
			break;
		if (l->file)
			snprintf(raw, sizeof(raw), "%s:%u",
				 hot_basename(l->file), l->line);
		else
			snprintf(raw, sizeof(raw), "(%s, no line)",
				 l->subprog ? l->subprog : "?");
		text_escape(where, sizeof(where), raw);
		/* Line text is the loader's: escape it for the terminal. */
		text_escape(src, sizeof(src), hot_trim(l->source));
		fprintf(f, "%6.2f%% %8" PRIu64 " %8" PRIu64 "  %-24s %s\n",
			l->pct, l->samples, l->helper_samples, where, src);
	}
	for (size_t i = 0; r->nr_subprogs > 1 && i < r->nr_subprogs; i++) {
		text_escape(name, sizeof(name), r->subprogs[i].name);
		fprintf(f, "  subprogram %s: %.2f%% (%" PRIu64 " samples)\n", name,
			r->subprogs[i].pct, r->subprogs[i].samples);
	}
	fputc('\n', f);
}
