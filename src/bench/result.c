// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bench_summarize(const double *v, unsigned int n, struct bench_summary *s)
{
	double *t;

	s->n = n;
	s->median = s->min = s->max = NAN;
	if (!n)
		return;
	t = malloc(n * sizeof(*t));
	if (!t)
		return;
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_double);
	s->min = t[0];
	s->max = t[n - 1];
	s->median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	free(t);
}

struct bench_prog *bench_result_add(struct bench_result *r, const char *name,
				    const char *type)
{
	struct bench_prog *p = realloc(r->progs, (r->nr_progs + 1) * sizeof(*p));

	if (!p)
		return NULL;
	r->progs = p;
	p += r->nr_progs++;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->type, sizeof(p->type), "%s", type);
	return p;
}

static int push(double **v, unsigned int n, double x)
{
	double *t = realloc(*v, (n + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	t[n] = x;
	*v = t;
	return 0;
}

int bench_prog_add_round(struct bench_prog *p, double ns, double runs,
			 enum bench_stats stats)
{
	unsigned char *s;

	if (push(&p->ns, p->nr_rounds, ns) ||
	    push(&p->runs, p->nr_rounds, runs))
		return -ENOMEM;
	s = realloc(p->stats, p->nr_rounds + 1);
	if (!s)
		return -ENOMEM;
	p->stats = s;
	s[p->nr_rounds++] = (unsigned char)stats;
	p->stats_on |= stats != BENCH_STATS_OFF;
	return 0;
}

const char *bench_stats_str(enum bench_stats s)
{
	return s == BENCH_STATS_OFF ? "off" : s == BENCH_STATS_ON ? "on" : "mixed";
}

int bench_prog_add_floor(struct bench_prog *p, double ns)
{
	if (push(&p->floor_ns, p->nr_floor, ns))
		return -ENOMEM;
	p->nr_floor++;
	return 0;
}

void bench_prog_count_retval(struct bench_prog *p, int64_t code)
{
	for (unsigned int i = 0; i < p->nr_retvals; i++) {
		if (p->retvals[i].code == code) {
			p->retvals[i].packets++;
			return;
		}
	}
	if (p->nr_retvals == BENCH_RETVALS_MAX) {
		p->retvals_other++;
		return;
	}
	p->retvals[p->nr_retvals].code = code;
	p->retvals[p->nr_retvals++].packets = 1;
}

double bench_prog_total_runs(const struct bench_prog *p)
{
	double sum = 0;

	for (unsigned int i = 0; i < p->nr_rounds; i++)
		sum += p->runs[i];
	return sum;
}

const struct bench_prog *bench_result_find(const struct bench_result *r,
					   const char *name, const char *type)
{
	for (size_t i = 0; i < r->nr_progs; i++)
		if (!strcmp(r->progs[i].name, name) &&
		    !strcmp(r->progs[i].type, type))
			return &r->progs[i];
	return NULL;
}

void bench_result_free(struct bench_result *r)
{
	for (size_t i = 0; i < r->nr_progs; i++) {
		free(r->progs[i].ns);
		free(r->progs[i].runs);
		free(r->progs[i].stats);
		free(r->progs[i].floor_ns);
	}
	free(r->progs);
	r->progs = NULL;
	r->nr_progs = 0;
}

static const char *const xdp_codes[] = { "XDP_ABORTED", "XDP_DROP", "XDP_PASS",
					 "XDP_TX", "XDP_REDIRECT" };
static const char *const tc_codes[] = { "TC_ACT_OK", "TC_ACT_RECLASSIFY",
					"TC_ACT_SHOT", "TC_ACT_PIPE",
					"TC_ACT_STOLEN", "TC_ACT_QUEUED",
					"TC_ACT_REPEAT", "TC_ACT_REDIRECT" };
static const char *const flow_codes[] = { "BPF_OK", "BPF_DROP" };

const char *bench_retval_name(const char *type, int64_t code)
{
	if (!strcmp(type, "xdp") && code >= 0 && code < 5)
		return xdp_codes[code];
	if (!strcmp(type, "sched_cls") || !strcmp(type, "sched_act")) {
		if (code == -1)
			return "TC_ACT_UNSPEC";
		if (code >= 0 && code < 8)
			return tc_codes[code];
	}
	if (!strcmp(type, "flow_dissector") && code >= 0 && code < 2)
		return flow_codes[code];
	if (!strcmp(type, "cgroup_skb") && (code == 0 || code == 1))
		return code ? "allow" : "drop";
	return NULL;
}
