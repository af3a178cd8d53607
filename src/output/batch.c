// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/batch.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "analysis/format.h"
#include "output/json_writer.h"

void batch_print_text(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	char when[32], share[16], a[32], b[32], c[32], owners[512];
	time_t t = (time_t)snap->time;
	int namew = 4;
	struct tm tm;

	/* Names are never cut: the column is as wide as the longest one. */
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(display_name(rows[i].s));

		if (len > namew)
			namew = len;
	}
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "ebpftop %s  kernel %s  stats %s  programs %zu  bpf cpu %s%% of %u cpus\n",
		when, snap->kernel, stats_state_str(snap->stats), snap->nr_rows,
		fmt_pct(share, sizeof(share), snapshot_total_share(snap), "-"),
		snap->ncpus);
	fprintf(f, "%7s %-16s %-*s %10s %10s %7s %12s %15s  %s\n", "ID",
		"TYPE", namew, "NAME", "NS/RUN", "RUNS/S", "CPU%", "RUN_CNT",
		"RUN_TIME_NS", "OWNERS");
	for (size_t i = 0; i < n; i++) {
		const struct prog_sample *s = rows[i].s;

		fprintf(f, "%7u %-16s %-*s %10s %10s %7s %12" PRIu64 " %15" PRIu64 "  %s\n",
			s->id, s->type_name, namew, display_name(s),
			fmt_rate(a, sizeof(a), rows[i].r.ns_per_run, "-"),
			fmt_rate(b, sizeof(b), rows[i].r.runs_per_s, "-"),
			fmt_pct(c, sizeof(c), rows[i].r.cpu_pct, "-"),
			s->run_cnt, s->run_time_ns,
			fmt_owners(owners, sizeof(owners), s));
	}
	fputc('\n', f);
}

static void print_prog_json(struct jw *w, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;

	jw_begin_object(w);
	jw_key(w, "id");
	jw_uint(w, s->id);
	jw_key(w, "type");
	jw_string(w, s->type_name);
	jw_key(w, "name");
	jw_string(w, s->name[0] ? s->name : NULL);
	jw_key(w, "tag");
	jw_string(w, s->tag);
	jw_key(w, "run_cnt");
	jw_uint(w, s->run_cnt);
	jw_key(w, "run_time_ns");
	jw_uint(w, s->run_time_ns);
	jw_key(w, "runs_per_s");
	jw_double(w, row->r.runs_per_s);
	jw_key(w, "ns_per_run");
	jw_double(w, row->r.ns_per_run);
	jw_key(w, "cpu_pct");
	jw_double(w, row->r.cpu_pct);
	jw_key(w, "pids");
	jw_begin_array(w);
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		jw_begin_object(w);
		jw_key(w, "pid");
		jw_uint(w, s->owners[i].pid);
		jw_key(w, "comm");
		jw_string(w, s->owners[i].comm);
		jw_end_object(w);
	}
	jw_end_array(w);
	/* Filled by the regression detector once it exists. */
	jw_key(w, "regression");
	jw_null(w);
	jw_end_object(w);
}

void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	struct jw w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_key(&w, "time");
	jw_double(&w, snap->time);
	jw_key(&w, "interval_s");
	jw_double(&w, snap->interval_s);
	jw_key(&w, "stats_enabled");
	jw_bool(&w, stats_state_on(snap->stats));
	jw_key(&w, "programs");
	jw_begin_array(&w);
	for (size_t i = 0; i < n; i++)
		print_prog_json(&w, &rows[i]);
	jw_end_array(&w);
	jw_key(&w, "profile");
	jw_null(&w);
	jw_end_object(&w);
	fputc('\n', f);
}
