/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OPTS_H
#define EBPFTOP_OPTS_H

/*
 * What the command line asks for, and the limits of its values: filled by
 * cli.c and cli_values.c, read by everything that main() sets up.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/columns.h"
#include "export/listen_addr.h"

#define CLI_BENCH_SETS_MAX 32

struct ebpftop_opts {
	double delay_s;		/* refresh interval */
	unsigned long iterations; /* 0: run until quit */
	bool batch;
	bool json;
	bool no_stats;
	enum col sort;		/* a column with a sort name */
	const char *filter;	/* NULL: everything */
	double regress_threshold; /* percent above baseline that is flagged */
	unsigned int regress_window; /* refreshes in a row to flag or clear */
	bool demo;		/* run the demo workload */
	unsigned int demo_pps;	/* demo packets per second */
	double demo_regress_after; /* land the regression after; 0: never */
	uint32_t profile_id;	/* -p: profile this program from the start; 0: none */
	const char *events;	/* -e: profiler events; NULL: the default preset */
	uint32_t hot_id;	/* --hot: sample this program's lines from the start; 0: none */
	const char *sample_event; /* --sample-event; NULL: cycles, else cpu-clock */
	unsigned int sample_freq; /* --sample-freq, Hz */
	bool regress_threshold_set; /* given on the command line */
	/* --bench and the CI gate (src/bench/) */
	const char *bench;	/* --bench FILE.bpf.o; NULL: live */
	const char *bench_progs; /* --bench-prog a,b; NULL: every packet program */
	const char *bench_sets[CLI_BENCH_SETS_MAX]; /* --bench-set NAME=VALUE */
	unsigned int nr_bench_sets;
	unsigned int bench_rounds; /* --bench-rounds */
	unsigned int bench_round_ms; /* --bench-round-ms */
	const char *pcap;	/* --pcap FILE; NULL: the built-in packets */
	bool bmf;		/* --bmf: Bencher Metric Format on stdout */
	const char *record;	/* --record FILE */
	const char *compare;	/* --compare FILE */
	bool report_md;		/* --report md */
	bool listen;		/* --listen: serve /metrics at listen_addr */
	struct listen_addr listen_addr;
	const char *prom_file;	/* --prom-file: NULL if none */
	bool quiet;		/* -q: no per-refresh output in batch mode */
};

#define CLI_SORT_DEFAULT COL_CPU
#define CLI_DELAY_MIN 0.1
#define CLI_DELAY_MAX 86400.0
/* The largest -n: a count of refreshes that fits in 32 bits. */
#define CLI_ITERATIONS_MAX 4294967295ul
#define CLI_DEMO_PPS_DEFAULT 20000u
#define CLI_DEMO_PPS_MAX 1000000u
#define CLI_SAMPLE_FREQ_DEFAULT 4000u
#define CLI_SAMPLE_FREQ_MAX 1000000u

#endif
