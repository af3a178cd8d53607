/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_RESULT_H
#define EBPFTOP_BENCH_RESULT_H

/*
 * What a benchmark measured, program by program and round by round: the
 * plain data that --bench and the live batch mode produce, that a baseline
 * file holds and that --compare judges. Pure: no libbpf, no I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_ROUNDS_DEFAULT 10u
#define BENCH_ROUNDS_MIN 1u
#define BENCH_ROUNDS_MAX 1000u
#define BENCH_ROUND_MS_DEFAULT 75u	/* a round aims at 50 to 100 ms */
#define BENCH_ROUND_MS_MIN 1u
#define BENCH_ROUND_MS_MAX 10000u
/* Distinct return codes kept per program (more are counted as "other"). */
#define BENCH_RETVALS_MAX 16
#define BENCH_NAME_MAX 128
#define BENCH_TYPE_MAX 32

/* Kernel run-time stats during a round: every run pays two clock reads. */
enum bench_stats {
	BENCH_STATS_OFF,
	BENCH_STATS_ON,
	BENCH_STATS_MIXED,	/* turned on or off during the round */
};

struct bench_retval {
	int64_t code;		/* the program's return value */
	uint64_t packets;	/* input packets that got it */
};

/* One program: a row of the report, a record of the baseline. */
struct bench_prog {
	char name[BENCH_NAME_MAX];
	char type[BENCH_TYPE_MAX];	/* libbpf's name: "xdp", "sched_cls" */
	bool ran;		/* false: not benchmarked, @reason says why */
	char reason[160];
	unsigned int nr_rounds;
	double *ns;		/* ns/run of each round */
	double *runs;		/* runs made in each round */
	unsigned char *stats;	/* enum bench_stats of each round */
	unsigned int nr_floor;
	double *floor_ns;	/* ns/run of an empty program, per round; may be 0 rounds */
	uint64_t packets;	/* input packets per round (0: live mode) */
	unsigned int nr_retvals;
	struct bench_retval retvals[BENCH_RETVALS_MAX];
	uint64_t retvals_other;	/* packets whose code did not fit the table */
	bool retvals_vary;	/* a packet's code changed between rounds */
	bool stats_on;		/* stats were on in some round */
};

/* A whole run: programs plus where and how they were measured. */
struct bench_result {
	char mode[8];		/* "bench" or "live" */
	char object[256];	/* object file's name without .bpf.o; "" live */
	char input[320];	/* what the programs were fed */
	char version[32];	/* ebpftop's */
	char kernel[65];	/* uname release */
	char cpu[128];		/* /proc/cpuinfo model name */
	char date[32];		/* ISO 8601, UTC */
	unsigned int round_ms;	/* target length of a round; 0 live */
	size_t nr_progs;
	struct bench_prog *progs;
};

/* Summary of a set of rounds: median and extremes (NAN when empty). */
struct bench_summary {
	double median, min, max;
	unsigned int n;
};

void bench_summarize(const double *v, unsigned int n, struct bench_summary *s);

/* Append an empty program (name and type set). NULL on ENOMEM. */
struct bench_prog *bench_result_add(struct bench_result *r, const char *name,
				    const char *type);
/* Append a round to @p (@floor: to its floor rounds). 0 or -ENOMEM. */
int bench_prog_add_round(struct bench_prog *p, double ns, double runs,
			 enum bench_stats stats);
const char *bench_stats_str(enum bench_stats s);
int bench_prog_add_floor(struct bench_prog *p, double ns);
/* Count a packet's return code. */
void bench_prog_count_retval(struct bench_prog *p, int64_t code);
/* Total runs over all rounds. */
double bench_prog_total_runs(const struct bench_prog *p);
/* The program of @r with this name and type, or NULL. */
const struct bench_prog *bench_result_find(const struct bench_result *r,
					   const char *name, const char *type);
void bench_result_free(struct bench_result *r);

/* The name of return code @code for programs of @type ("XDP_PASS"), or NULL. */
const char *bench_retval_name(const char *type, int64_t code);

#endif
