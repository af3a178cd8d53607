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

static void print_prog_json(struct json_writer *w, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;

	json_begin_object(w);
	json_key(w, "id");
	json_uint(w, s->id);
	json_key(w, "type");
	json_string(w, s->type_name);
	json_key(w, "name");
	json_string(w, s->name[0] ? s->name : NULL);
	json_key(w, "tag");
	json_string(w, s->tag);
	json_key(w, "run_cnt");
	json_uint(w, s->run_cnt);
	json_key(w, "run_time_ns");
	json_uint(w, s->run_time_ns);
	json_key(w, "runs_per_s");
	json_double(w, row->r.runs_per_s);
	json_key(w, "ns_per_run");
	json_double(w, row->r.ns_per_run);
	json_key(w, "cpu_pct");
	json_double(w, row->r.cpu_pct);
	json_key(w, "pids");
	json_begin_array(w);
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		json_begin_object(w);
		json_key(w, "pid");
		json_uint(w, s->owners[i].pid);
		json_key(w, "comm");
		json_string(w, s->owners[i].comm);
		json_end_object(w);
	}
	json_end_array(w);
	/* Filled by the regression detector once it exists. */
	json_key(w, "regression");
	json_null(w);
	json_end_object(w);
}

void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	struct json_writer w;

	json_init(&w, f);
	json_begin_object(&w);
	json_key(&w, "time");
	json_double(&w, snap->time);
	json_key(&w, "interval_s");
	json_double(&w, snap->interval_s);
	json_key(&w, "stats_enabled");
	json_bool(&w, stats_state_on(snap->stats));
	json_key(&w, "programs");
	json_begin_array(&w);
	for (size_t i = 0; i < n; i++)
		print_prog_json(&w, &rows[i]);
	json_end_array(&w);
	json_key(&w, "profile");
	json_null(&w);
	json_end_object(&w);
	fputc('\n', f);
}
