// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "export/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hot/report.h"

/* Owners named @comm earlier in the list: one series per name, not per pid. */
static bool comm_seen(const struct prog_sample *s, uint32_t upto,
		      const char *comm)
{
	for (uint32_t i = 0; i < upto; i++)
		if (!strncmp(s->owners[i].comm, comm, PROG_COMM_LEN))
			return true;
	return false;
}

static void globals(struct om_writer *w, const struct snapshot *snap,
		    double refresh_s)
{
	om_family(w, "ebpftop_bpf_stats_enabled", OM_GAUGE, NULL,
		  "1 while the kernel counts BPF program runs and run time, 0 while it does not (the run counters then stand still)",
		  true);
	om_sample(w);
	om_value_u64(w, snap->stats_on ? 1 : 0);

	om_family(w, "ebpftop_programs", OM_GAUGE, NULL,
		  "BPF programs loaded at the latest refresh", true);
	om_sample(w);
	om_value_u64(w, snap->nr_rows);

	om_family(w, "ebpftop_refreshes", OM_COUNTER, NULL,
		  "Refreshes completed since ebpftop started", true);
	om_sample(w);
	om_value_u64(w, snap->seq);

	om_family(w, "ebpftop_refresh_duration_seconds", OM_GAUGE, "seconds",
		  "Time the latest refresh took to read every program", false);
	if (!isnan(refresh_s)) {
		om_sample(w);
		om_value_double(w, refresh_s);
	}
}

/* A sample of the current family labelled with the program it is about. */
static void id_sample(struct om_writer *w, uint32_t id)
{
	om_sample(w);
	om_label_u64(w, "prog_id", id);
}

static void v_runs(struct om_writer *w, const struct prog_row *r)
{
	id_sample(w, r->s->id);
	om_value_u64(w, r->s->run_cnt);
}

static void v_run_time(struct om_writer *w, const struct prog_row *r)
{
	id_sample(w, r->s->id);
	om_value_ns_as_s(w, r->s->run_time_ns);
}

static void v_recursion(struct om_writer *w, const struct prog_row *r)
{
	id_sample(w, r->s->id);
	om_value_u64(w, r->s->recursion_misses);
}

static void v_regressed(struct om_writer *w, const struct prog_row *r)
{
	id_sample(w, r->s->id);
	om_value_u64(w, r->reg.active ? 1 : 0);
}

static void v_baseline(struct om_writer *w, const struct prog_row *r)
{
	/* Absent while the detector learns. */
	if (isnan(r->reg.baseline_ns))
		return;
	id_sample(w, r->s->id);
	om_value_double(w, r->reg.baseline_ns / 1e9);
}

/* The per-program families with one sample a program, labelled prog_id. */
static const struct prog_family {
	const char *name;
	enum om_type type;
	const char *unit;
	const char *help;
	/* Writes the row's sample, if it has one. */
	void (*value)(struct om_writer *w, const struct prog_row *r);
} prog_families[] = {
	{ "ebpftop_program_runs", OM_COUNTER, NULL,
	  "Runs of the program counted by the kernel while BPF stats were on (run_cnt)",
	  v_runs },
	{ "ebpftop_program_run_time_seconds", OM_COUNTER, "seconds",
	  "Time spent in the program counted by the kernel while BPF stats were on (run_time_ns)",
	  v_run_time },
	{ "ebpftop_program_recursion_misses", OM_COUNTER, NULL,
	  "Runs the kernel skipped because the program was already running on that CPU",
	  v_recursion },
	{ "ebpftop_program_regressed", OM_GAUGE, NULL,
	  "1 while the regression detector flags the program's cost per run, 0 otherwise",
	  v_regressed },
	{ "ebpftop_program_regression_baseline_seconds", OM_GAUGE, "seconds",
	  "Cost per run the regression detector has learnt as normal (absent while it learns)",
	  v_baseline },
};

static void programs(struct om_writer *w, const struct snapshot *snap)
{
	om_family(w, "ebpftop_program", OM_INFO, NULL,
		  "A loaded BPF program; join the other ebpftop_program_ families on prog_id",
		  true);
	for (size_t i = 0; i < snap->nr_rows; i++) {
		const struct prog_sample *s = snap->rows[i].s;

		id_sample(w, s->id);
		om_label(w, "prog_name", s->name);
		om_label(w, "prog_type", s->type_name ? s->type_name : "unknown");
		om_label(w, "tag", s->tag);
		om_value_u64(w, 1);
	}

	for (size_t f = 0; f < sizeof(prog_families) / sizeof(*prog_families);
	     f++) {
		const struct prog_family *pf = &prog_families[f];

		om_family(w, pf->name, pf->type, pf->unit, pf->help, true);
		for (size_t i = 0; i < snap->nr_rows; i++)
			pf->value(w, &snap->rows[i]);
	}

	om_family(w, "ebpftop_program_owner", OM_INFO, NULL,
		  "A process holding the program (by command name; pids are left out so restarts do not add series)",
		  true);
	for (size_t i = 0; i < snap->nr_rows; i++) {
		const struct prog_sample *s = snap->rows[i].s;

		for (uint32_t o = 0; o < s->nr_owners; o++) {
			char comm[PROG_COMM_LEN + 1];

			memcpy(comm, s->owners[o].comm, PROG_COMM_LEN);
			comm[PROG_COMM_LEN] = '\0';
			if (comm_seen(s, o, comm))
				continue;
			id_sample(w, s->id);
			om_label(w, "comm", comm);
			om_value_u64(w, 1);
		}
	}
}

static void profile(struct om_writer *w, const struct profile_report *p)
{
	om_family(w, "ebpftop_profile_runs", OM_COUNTER, NULL,
		  "Runs of the profiled program seen by the profiler since it attached",
		  false);
	id_sample(w, p->id);
	om_value_u64(w, p->runs);

	om_family(w, "ebpftop_profile_partial_runs", OM_COUNTER, NULL,
		  "Profiled runs whose counters were not measured in full (left out of the event counts)",
		  false);
	id_sample(w, p->id);
	om_value_u64(w, p->partial_runs);

	om_family(w, "ebpftop_profile_events", OM_COUNTER, NULL,
		  "Hardware or software event counts over the fully measured runs of the profiled program",
		  false);
	for (size_t i = 0; i < p->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		id_sample(w, p->id);
		om_label(w, "event", p->ev[i].name);
		om_value_u64(w, p->ev[i].total);
	}

	om_family(w, "ebpftop_profile_event_running_ratio", OM_GAUGE, NULL,
		  "Share of the time an event was enabled that it was counting (below 1: multiplexed)",
		  false);
	for (size_t i = 0; i < p->nr_events && i < PROFILE_MAX_EVENTS; i++) {
		if (isnan(p->ev[i].enabled_pct))
			continue;
		id_sample(w, p->id);
		om_label(w, "event", p->ev[i].name);
		om_value_double(w, p->ev[i].enabled_pct / 100.0);
	}

	om_family(w, "ebpftop_profile_overhead_seconds", OM_GAUGE, "seconds",
		  "Calibrated time the profiler adds to each run of the profiled program",
		  false);
	if (!isnan(p->overhead_ns_per_run)) {
		id_sample(w, p->id);
		om_value_double(w, p->overhead_ns_per_run / 1e9);
	}
}

/* Lines a hot-lines report exports: the hottest, to bound the series. */
#define METRICS_HOT_LINES 20

static void hot(struct om_writer *w, const struct hot_report *h)
{
	om_family(w, "ebpftop_hot_window_seconds", OM_GAUGE, "seconds",
		  "Time the hot-lines sample counts cover (a rolling window, or since sampling began)",
		  false);
	id_sample(w, h->id);
	om_value_double(w, h->window_s);

	om_family(w, "ebpftop_hot_samples", OM_GAUGE, NULL,
		  "Samples that landed in the sampled program or in what it called, over the window",
		  false);
	id_sample(w, h->id);
	om_value_u64(w, h->samples_in_prog);

	om_family(w, "ebpftop_hot_line_ratio", OM_GAUGE, NULL,
		  "Share of the program's samples on a source line (helpers it calls included), over the window; the 20 hottest lines",
		  false);
	for (size_t i = 0; i < h->nr_lines && i < METRICS_HOT_LINES; i++) {
		const struct hot_report_line *l = &h->lines[i];

		id_sample(w, h->id);
		om_label(w, "file", l->file ? hot_basename(l->file) : "");
		om_label_u64(w, "line", l->line);
		om_label(w, "subprog", l->subprog ? l->subprog : "");
		om_value_double(w, l->pct / 100.0);
	}
}

int metrics_build(struct om_writer *w, const struct snapshot *snap,
		  double refresh_s)
{
	om_writer_reset(w);
	globals(w, snap, refresh_s);
	programs(w, snap);
	if (snap->profile)
		profile(w, snap->profile);
	if (snap->hot)
		hot(w, snap->hot);
	if (w->overflow)
		return -E2BIG;
	return w->body.oom ? -ENOMEM : 0;
}
