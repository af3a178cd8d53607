// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: run the demo's XDP classifier through
 * BPF_PROG_TEST_RUN on the demo's own packets, fast and regressed, and
 * print ns/run for each in Bencher Metric Format (JSON) on stdout:
 *
 *   {"xdp_classifier/fast": {"latency": {"value": V, "lower_value": L,
 *    "upper_value": U}}, "xdp_classifier/regressed": {...}}
 *
 * V is the median over rounds, L and U the extremes; each round is the mean
 * over SOURCES demo source addresses of the kernel's ns/run with REPEAT.
 * A summary goes to stderr. Built by make check; see bench_classifier.sh.
 *
 *   bench_classifier [-r ROUNDS] [-n REPEAT] [-s SOURCES] [-t TERMS]
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/xdp_classifier.h"
#include "demo/packet.h"
#include "xdp_classifier.skel.h"

#define MAX_ROUNDS 101

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The kernel's run count of @fd (it only moves while stats are on). */
static uint64_t run_cnt(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.run_cnt;
}

/*
 * Mean ns/run over @sources demo packets; *stats_on tells whether the
 * kernel's run-time stats were on meanwhile (someone runs ebpftop): then
 * every run also pays for their two clock reads.
 */
static int round_ns(struct xdp_classifier_bpf *skel, int slow,
		    unsigned int repeat, unsigned int sources, double *out,
		    int *stats_on)
{
	int fd = bpf_program__fd(skel->progs.xdp_classifier);
	uint64_t cnt = run_cnt(fd);
	uint8_t pkt[DEMO_FRAME_LEN];
	double sum = 0;

	skel->bss->regressed = (uint32_t)slow;
	for (unsigned int i = 0; i < sources; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .repeat = repeat);

		/* Spread over the demo's sources: every class is in it. */
		demo_frame_build(pkt,
				 demo_source_addr((uint64_t)i * DEMO_SRC_SPAN /
						  sources + i),
				 (uint16_t)(1024 + i), 1);
		if (bpf_prog_test_run_opts(fd, &opts))
			return -errno;
		sum += opts.duration;
	}
	*out = sum / sources;
	*stats_on |= run_cnt(fd) != cnt;
	return 0;
}

static void print_metric(const char *name, double *v, int n, int last)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	printf("  \"%s\": {\"latency\": {\"value\": %.2f, \"lower_value\": %.2f, \"upper_value\": %.2f}}%s\n",
	       name, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2, v[0],
	       v[n - 1], last ? "" : ",");
}

static unsigned long arg_num(const char *s, const char *what,
			     unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || !v || v > max) {
		fprintf(stderr, "bench_classifier: bad %s '%s' (1 to %lu)\n",
			what, s, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned int rounds = 5, repeat = 100000, sources = 16, terms = 0;
	double fast[MAX_ROUNDS], slow[MAX_ROUNDS];
	struct xdp_classifier_bpf *skel;
	int c, err = 0, stats_rounds = 0;

	while ((c = getopt(argc, argv, "r:n:s:t:")) != -1) {
		switch (c) {
		case 'r':
			rounds = (unsigned int)arg_num(optarg, "rounds",
						       MAX_ROUNDS);
			break;
		case 'n':
			repeat = (unsigned int)arg_num(optarg, "repeat",
						       100000000);
			break;
		case 's':
			sources = (unsigned int)arg_num(optarg, "sources",
							DEMO_SRC_SPAN);
			break;
		case 't':
			terms = (unsigned int)arg_num(optarg, "terms",
						      XDPC_SLOW_TERMS_MAX);
			break;
		default:
			fprintf(stderr, "usage: bench_classifier [-r ROUNDS] [-n REPEAT] [-s SOURCES] [-t TERMS]\n");
			return 2;
		}
	}

	skel = xdp_classifier_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_classifier: cannot load the classifier: %s (run as root)\n",
			strerror(errno));
		return 1;
	}
	if (terms)
		skel->data->slow_terms = terms;
	/* Alternate the two, so drifting load on the machine hits both. */
	for (unsigned int r = 0; r < rounds && !err; r++) {
		int on = 0;

		err = round_ns(skel, 0, repeat, sources, &fast[r], &on);
		if (!err)
			err = round_ns(skel, 1, repeat, sources, &slow[r], &on);
		stats_rounds += on;
	}
	if (err) {
		fprintf(stderr, "bench_classifier: BPF_PROG_TEST_RUN: %s\n",
			strerror(-err));
		xdp_classifier_bpf__destroy(skel);
		return 1;
	}
	printf("{\n");
	print_metric("xdp_classifier/fast", fast, (int)rounds, 0);
	print_metric("xdp_classifier/regressed", slow, (int)rounds, 1);
	printf("}\n");
	fprintf(stderr, "bench_classifier: %u rounds x %u sources x %u runs, %u slow terms: fast %.1f ns/run, regressed %.1f ns/run (medians), ratio %.1f\n",
		rounds, sources, repeat, skel->data->slow_terms,
		fast[rounds / 2], slow[rounds / 2],
		fast[rounds / 2] > 0 ? slow[rounds / 2] / fast[rounds / 2] : 0);
	if (stats_rounds)
		fprintf(stderr, "bench_classifier: run-time stats were on in %d of %u rounds (is ebpftop running?): each run then includes their two clock reads; stop it for clean figures\n",
			stats_rounds, rounds);
	xdp_classifier_bpf__destroy(skel);
	return 0;
}
