// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/gate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench/baseline.h"
#include "bench/input.h"
#include "bench/judge.h"
#include "bench/report.h"
#include "bench/runner.h"

/* Where and when: version, kernel, CPU model, date. */
static void fill_meta(struct bench_result *r, const char *mode)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	char line[512];
	FILE *f;

	snprintf(r->mode, sizeof(r->mode), "%s", mode);
	snprintf(r->version, sizeof(r->version), "%s", PACKAGE_VERSION);
	if (!uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	snprintf(r->cpu, sizeof(r->cpu), "unknown CPU");
	f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(r->cpu, sizeof(r->cpu), "%s", colon);
		break;
	}
	if (f)
		fclose(f);
	if (gmtime_r(&now, &tm))
		strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Write the baseline next to @path, then rename it into place. */
static int record(const char *path, const struct bench_result *r)
{
	char tmp[4096];
	FILE *f;
	int err;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		fprintf(stderr, "ebpftop: --record: cannot write '%s': %s\n", tmp,
			strerror(errno));
		return -errno;
	}
	err = baseline_write(f, r);
	if (fclose(f) && !err)
		err = -EIO;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		fprintf(stderr, "ebpftop: --record: cannot write '%s': %s\n", path,
			strerror(-err));
		remove(tmp);
	}
	return err;
}

static double threshold(const struct ebpftop_opts *o)
{
	return o->regress_threshold_set ? o->regress_threshold :
					  BENCH_THRESHOLD_DEFAULT;
}

/*
 * The end of a run: report, BMF, baseline, verdicts. @base is the
 * baseline read at start (NULL without --compare). Exit status.
 */
static int finish(const struct ebpftop_opts *o, const struct bench_result *r,
		  const struct bench_result *base, FILE *report)
{
	enum bench_format fmt = o->report_md ? BENCH_MARKDOWN : BENCH_TEXT;
	struct bench_judgement *j = NULL;
	int status = 0;
	long n;

	if (report)
		bench_report_results(report, r, fmt);
	if (o->bmf && bmf_write(stdout, r)) {
		fprintf(stderr, "ebpftop: --bmf: write error: %s\n", strerror(errno));
		status = 1;
	}
	if (o->record && record(o->record, r))
		status = 1;
	if (!base)
		return status;
	if (strcmp(base->kernel, r->kernel))
		fprintf(stderr, "ebpftop: warning: the baseline was recorded on kernel %s, this is %s: figures may differ for that alone\n",
			base->kernel, r->kernel);
	if (strcmp(base->cpu, r->cpu))
		fprintf(stderr, "ebpftop: warning: the baseline was recorded on a %s, this is a %s: figures may differ for that alone\n",
			base->cpu, r->cpu);
	for (size_t i = 0; i < r->nr_progs; i++) {
		const struct bench_prog *b = bench_result_find(base, r->progs[i].name,
							       r->progs[i].type);

		if (!b || !b->ran || !r->progs[i].ran ||
		    (b->nr_rounds >= 5 && r->progs[i].nr_rounds >= 5))
			continue;
		fprintf(stderr, "ebpftop: warning: %u baseline rounds against %u: the rank test needs 5 or more on each side to reach p < %.2g, so nothing can be judged regressed (use --bench-rounds 5 or more; live, -n 6 or more)\n",
			b->nr_rounds, r->progs[i].nr_rounds, BENCH_ALPHA);
		break;
	}
	n = bench_judge(base, r, threshold(o), &j);
	if (n < 0) {
		fprintf(stderr, "ebpftop: out of memory\n");
		return 1;
	}
	bench_report_compare(report ? report : stderr, base, j, (size_t)n,
			     threshold(o), fmt);
	for (long i = 0; i < n; i++) {
		const struct bench_prog *p = j[i].now;

		if (j[i].verdict != BENCH_REGRESSED)
			continue;
		fprintf(stderr, "ebpftop: %s (%s) regressed: %.1f -> %.1f ns/run (%+.0f%%, p = %.2g)\n",
			p->name, p->type, j[i].base_ns, j[i].now_ns,
			j[i].change_pct, j[i].p_worse);
		if (!status)
			status = EXIT_REGRESSED;
	}
	free(j);
	return status;
}

int bench_main(const struct ebpftop_opts *o)
{
	struct bench_result r = { 0 }, base = { 0 };
	struct bench_input in = { 0 };
	struct bench_notes notes;
	char err[4096];
	struct bench_config c = {
		.path = o->bench,
		.progs = o->bench_progs,
		.sets = o->bench_sets,
		.nr_sets = o->nr_bench_sets,
		.rounds = o->bench_rounds ? o->bench_rounds : BENCH_ROUNDS_DEFAULT,
		.round_ms = o->bench_round_ms ? o->bench_round_ms :
						BENCH_ROUND_MS_DEFAULT,
		.in = &in,
	};
	int ret, status;

	/* Everything that is bad input is found before anything runs. */
	if (o->compare) {
		ret = baseline_read(o->compare, &base, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "ebpftop: --compare: %s\n", err);
			return ret == -ENOMEM ? 1 : 2;
		}
	}
	ret = o->pcap ? bench_input_pcap(o->pcap, &in, err, sizeof(err)) :
			bench_input_builtin(&in);
	if (ret) {
		if (ret == -ENOMEM)
			fprintf(stderr, "ebpftop: out of memory\n");
		else
			fprintf(stderr, "ebpftop: --pcap: %s\n", err);
		bench_result_free(&base);
		return ret == -EINVAL ? 2 : 1;	/* 1: no memory, no libpcap */
	}
	fill_meta(&r, "bench");
	bench_object_label(o->bench, r.object, sizeof(r.object));
	snprintf(r.input, sizeof(r.input), "%s; %u rounds of ~%u ms per program, median with min-max",
		 in.desc, c.rounds, c.round_ms);
	r.round_ms = c.round_ms;
	ret = bench_run(&c, &r, &notes, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ebpftop: %s\n", err);
		status = ret == -EINVAL ? 2 : 1;
		goto out;
	}
	if (notes.stats_on)
		fprintf(stderr, "ebpftop: warning: BPF run-time stats were on while benchmarking (is ebpftop or another tool running?): every run includes their two clock reads\n");
	if (notes.rounds_redone)
		fprintf(stderr, "ebpftop: warning: %u rounds were measured again: BPF run-time stats were turned on or off during them\n",
			notes.rounds_redone);
	if (notes.xdp_slow)
		fprintf(stderr, "ebpftop: warning: could not attach an XDP program in a private network namespace (needs CAP_SYS_ADMIN and CAP_NET_ADMIN): every test run waits for the kernel's XDP dispatcher, so rounds are slow\n");
	if (notes.long_rounds)
		fprintf(stderr, "ebpftop: warning: one pass over the %zu packets takes longer than a round: rounds run each packet once\n",
			in.n);
	status = finish(o, &r, o->compare ? &base : NULL,
			o->bmf ? stderr : stdout);
	if (fflush(stdout) && !status)
		status = 1;
out:
	bench_result_free(&r);
	bench_result_free(&base);
	bench_input_free(&in);
	return status;
}

/* ---- live batch mode --------------------------------------------------------- */

struct live_gate {
	const struct ebpftop_opts *o;
	struct bench_result r;
	struct bench_result base;
	bool have_base;
	/* Per refresh, per program of r: runs and time summed over ids. */
	double *runs, *time;
	size_t cap;
	bool oom;
};

int live_gate__new(const struct ebpftop_opts *o, const char *kernel,
		   struct live_gate **out, char *msg, size_t msglen)
{
	struct live_gate *g = calloc(1, sizeof(*g));
	int ret;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->o = o;
	if (o->compare) {
		ret = baseline_read(o->compare, &g->base, msg, msglen);
		if (ret) {
			char tmp[512];

			snprintf(tmp, sizeof(tmp), "%s", msg);
			snprintf(msg, msglen, "--compare: %s", tmp);
			free(g);
			return ret == -ENOMEM ? ret : -EINVAL;
		}
		g->have_base = true;
	}
	fill_meta(&g->r, "live");
	if (kernel && *kernel)
		snprintf(g->r.kernel, sizeof(g->r.kernel), "%s", kernel);
	snprintf(g->r.input, sizeof(g->r.input),
		 "live: every refresh of %.1f s is a round%s%s", o->delay_s,
		 o->filter ? ", programs matching " : "",
		 o->filter ? o->filter : "");
	*out = g;
	return 0;
}

void live_gate__refresh(struct live_gate *g, const struct snapshot *snap,
			const struct prog_row *rows, size_t n)
{
	if (!g || g->oom || !(snap->interval_s > 0))
		return;
	/* Every program seen gets a slot; ids with one name and type merge. */
	for (size_t i = 0; i < n; i++) {
		const struct prog_sample *s = rows[i].s;
		const char *name = *s->name ? s->name : s->type_name;

		if (!bench_result_find(&g->r, name, s->type_name) &&
		    !bench_result_add(&g->r, name, s->type_name)) {
			g->oom = true;
			return;
		}
	}
	if (g->r.nr_progs > g->cap) {
		double *a = realloc(g->runs, g->r.nr_progs * sizeof(*a));
		double *b = a ? realloc(g->time, g->r.nr_progs * sizeof(*b)) : NULL;

		if (a)
			g->runs = a;
		if (!a || !b) {
			g->oom = true;
			return;
		}
		g->time = b;
		g->cap = g->r.nr_progs;
	}
	memset(g->runs, 0, g->r.nr_progs * sizeof(*g->runs));
	memset(g->time, 0, g->r.nr_progs * sizeof(*g->time));
	for (size_t i = 0; i < n; i++) {
		const struct prog_sample *s = rows[i].s;
		const struct prog_rates *rt = &rows[i].r;
		const char *name = *s->name ? s->name : s->type_name;
		size_t k = (size_t)(bench_result_find(&g->r, name, s->type_name) -
				    g->r.progs);
		double runs = rt->runs_per_s * snap->interval_s;

		if (!isfinite(rt->ns_per_run) || !(runs > 0))
			continue;
		g->runs[k] += runs;
		g->time[k] += runs * rt->ns_per_run;
	}
	for (size_t k = 0; k < g->r.nr_progs; k++) {
		struct bench_prog *p = &g->r.progs[k];

		if (!(g->runs[k] > 0))
			continue;
		if (bench_prog_add_round(p, g->time[k] / g->runs[k], g->runs[k],
					 BENCH_STATS_ON)) {
			g->oom = true;
			return;
		}
		p->ran = true;
	}
}

int live_gate__finish(struct live_gate *g)
{
	for (size_t k = 0; k < g->r.nr_progs; k++) {
		struct bench_prog *p = &g->r.progs[k];

		if (!p->ran)
			snprintf(p->reason, sizeof(p->reason),
				 "no runs counted while measured%s",
				 g->o->no_stats ? " (--no-stats)" : "");
	}
	if (g->oom) {
		fprintf(stderr, "ebpftop: out of memory\n");
		return 1;
	}
	return finish(g->o, &g->r, g->have_base ? &g->base : NULL,
		      g->o->bmf ? NULL : stdout);
}

void live_gate__free(struct live_gate *g)
{
	if (!g)
		return;
	bench_result_free(&g->r);
	bench_result_free(&g->base);
	free(g->runs);
	free(g->time);
	free(g);
}
