// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the exporter adds to one refresh with N programs: building the
 * metrics from a refresh (metrics_build) and rendering both formats
 * (om_render), as exporter__publish does, on a made-up refresh of N
 * programs with realistic names, tags and one owner each.
 *
 *   tests/bench/bench_export [N...]     (default: 1000 10000)
 *
 * Prints per N: the median over 30 rounds of the time per refresh, and the
 * size of each format. It prints figures; it does not pass or fail.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/snapshot.h"
#include "export/metrics.h"
#include "export/openmetrics.h"

#define ROUNDS 30

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void bench(size_t n)
{
	struct prog_sample *s = calloc(n, sizeof(*s));
	struct prog_owner *own = calloc(n, sizeof(*own));
	struct prog_row *rows = calloc(n, sizeof(*rows));
	double build[ROUNDS], total[ROUNDS];
	size_t len_text = 0, len_om = 0;
	struct om_writer w;
	struct snapshot snap = { .stats_on = true, .stats = "on", .seq = 1 };

	if (!s || !own || !rows) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		s[i].id = (uint32_t)(100000 + i);
		s[i].type_name = i % 3 ? "cgroup_skb" : "xdp";
		snprintf(s[i].name, sizeof(s[i].name), "cil_from_container_%zu", i);
		snprintf(s[i].tag, sizeof(s[i].tag), "%016zx", i * 2654435761u);
		s[i].run_cnt = 1234567890ull + i;
		s[i].run_time_ns = 98765432109ull + i;
		own[i].pid = (uint32_t)(1000 + i % 50);
		snprintf(own[i].comm, sizeof(own[i].comm), "cilium-agent");
		s[i].nr_owners = 1;
		s[i].owners = &own[i];
		rows[i].s = &s[i];
		rows[i].reg.baseline_ns = i % 2 ? 123.4 + (double)i : (double)NAN;
		rows[i].reg.active = i % 97 == 0;
	}
	snap.rows = rows;
	snap.nr_rows = n;
	om_writer_init(&w);
	for (int r = 0; r < ROUNDS; r++) {
		struct om_buf text = {}, om = {};
		double t0 = now_s(), t1;

		if (metrics_build(&w, &snap, 0.01)) {
			fprintf(stderr, "metrics_build failed\n");
			exit(1);
		}
		t1 = now_s();
		if (om_render(&w, OM_FORMAT_TEXT, &text) ||
		    om_render(&w, OM_FORMAT_OPENMETRICS, &om)) {
			fprintf(stderr, "om_render failed\n");
			exit(1);
		}
		build[r] = (t1 - t0) * 1e3;
		total[r] = (now_s() - t0) * 1e3;
		len_text = text.len;
		len_om = om.len;
		om_buf_free(&text);
		om_buf_free(&om);
	}
	qsort(build, ROUNDS, sizeof(double), cmp_double);
	qsort(total, ROUNDS, sizeof(double), cmp_double);
	printf("%8zu programs: %7.2f ms per refresh (build %.2f ms, render both %.2f ms), "
	       "text %zu bytes, OpenMetrics %zu bytes\n",
	       n, total[ROUNDS / 2], build[ROUNDS / 2],
	       total[ROUNDS / 2] - build[ROUNDS / 2], len_text, len_om);
	om_writer_free(&w);
	free(s);
	free(own);
	free(rows);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		bench(1000);
		bench(10000);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		bench(strtoul(argv[i], NULL, 10));
	return 0;
}
