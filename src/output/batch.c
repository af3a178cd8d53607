// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/batch.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/format.h"
#include "analysis/regress.h"
#include "output/json_writer.h"
#include "output/profile_out.h"
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

void batch_print_text_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x)
{
	char when[32], share[16], a[32], b[32], c[32], owners[512], flag[32];
	char safe[2048], name[4 * PROG_NAME_MAX];
	time_t t = (time_t)snap->time;
	int namew = 4;
	struct tm tm;

	/* Names are never cut: the column is as wide as the longest one. */
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(text_escape(name, sizeof(name),
						  display_name(rows[i].s)));

		if (len > namew)
			namew = len;
	}
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fmt_pct(share, sizeof(share), snapshot_total_share(snap), "-");
	fprintf(f, "ebpftop %s  kernel %s  stats %s  programs %zu  bpf cpu %s%s of %u cpus\n",
		when, snap->kernel, stats_state_str(snap->stats), snap->nr_rows,
		share, strcmp(share, "-") ? "%" : "", snap->ncpus);
	if (x && x->demo)
		print_demo_text(f, x->demo);
	print_regressions(f, rows, n);
	fprintf(f, "%7s %-16s %-*s %10s %10s %7s %12s %15s %7s  %s\n", "ID",
		"TYPE", namew, "NAME", "NS/RUN", "RUNS/S", "CPU%", "RUN_CNT",
		"RUN_TIME_NS", "FLAG", "OWNERS");
	for (size_t i = 0; i < n; i++) {
		const struct prog_sample *s = rows[i].s;

		/* The change in ns/run of a flagged program, else "-". */
		if (rows[i].reg.active)
			regress_fmt_change(flag, sizeof(flag),
					   rows[i].reg.change_pct);
		else
			snprintf(flag, sizeof(flag), "-");
		fprintf(f, "%7u %-16s %-*s %10s %10s %7s %12" PRIu64 " %15" PRIu64 " %7s  %s\n",
			s->id, s->type_name, namew,
			text_escape(name, sizeof(name), display_name(s)),
			fmt_rate(a, sizeof(a), rows[i].r.ns_per_run, "-"),
			fmt_rate(b, sizeof(b), rows[i].r.runs_per_s, "-"),
			fmt_pct(c, sizeof(c), rows[i].r.cpu_pct, "-"),
			s->run_cnt, s->run_time_ns, flag,
			text_escape(safe, sizeof(safe),
				    fmt_owners(owners, sizeof(owners), s)));
	}
	fputc('\n', f);
	profile_print_text(f, snap->profile);
}

static void print_prog_json(struct jw *w, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;

	jw_begin_object(w);
	jw_uint_field(w, "id", s->id);
	jw_string_field(w, "type", s->type_name);
	jw_string_field(w, "name", s->name[0] ? s->name : NULL);
	jw_string_field(w, "tag", s->tag);
	jw_uint_field(w, "run_cnt", s->run_cnt);
	jw_uint_field(w, "run_time_ns", s->run_time_ns);
	jw_double_field(w, "runs_per_s", row->r.runs_per_s);
	jw_double_field(w, "ns_per_run", row->r.ns_per_run);
	jw_double_field(w, "cpu_pct", row->r.cpu_pct);
	jw_key(w, "pids");
	jw_begin_array(w);
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		jw_begin_object(w);
		jw_uint_field(w, "pid", s->owners[i].pid);
		jw_string_field(w, "comm", s->owners[i].comm);
		jw_end_object(w);
	}
	jw_end_array(w);
	/* DESIGN.md 3: null unless flagged, then exactly these four. */
	jw_key(w, "regression");
	if (row->reg.active) {
		jw_begin_object(w);
		jw_double_field(w, "baseline_ns", row->reg.baseline_ns);
		jw_double_field(w, "current_ns", row->reg.current_ns);
		jw_double_field(w, "change_pct", row->reg.change_pct);
		jw_double_field(w, "since", row->reg.since);
		jw_end_object(w);
	} else {
		jw_null(w);
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
	jw_bool_field(&w, "stats_enabled", stats_state_on(snap->stats));
	jw_key(&w, "programs");
	jw_begin_array(&w);
	for (size_t i = 0; i < n; i++)
		print_prog_json(&w, &rows[i]);
	jw_end_array(&w);
	jw_key(&w, "profile");
	profile_print_json(&w, snap->profile);
	if (x && x->demo)
		print_demo_json(&w, x->demo);
	jw_end_object(&w);
	fputc('\n', f);
}
