/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_RUNNER_H
#define EBPFTOP_BENCH_RUNNER_H

/*
 * --bench: load a BPF object with libbpf and time its packet programs with
 * BPF_PROG_TEST_RUN, round by round, beside an empty program of the same
 * type (the floor).
 */

#include <stdbool.h>
#include <stddef.h>

#include "bench/input.h"
#include "bench/result.h"

struct bench_config {
	const char *path;		/* the object file */
	const char *progs;		/* "a,b": only these; NULL: every packet program */
	const char *const *sets;	/* "NAME=VALUE" globals to set before load */
	size_t nr_sets;
	unsigned int rounds;
	unsigned int round_ms;		/* target length of one round */
	const struct bench_input *in;
};

/* What the runner noticed that the user should know. */
struct bench_notes {
	bool stats_on;		/* run-time stats were on: runs include their cost */
	bool long_rounds;	/* the input is so large that one pass exceeds a round */
	unsigned int rounds_redone; /* measured again: stats flipped during them */
	bool xdp_slow;		/* an XDP program could not be held in the dispatcher */
};

/*
 * Open @c->path (checks it is a BPF ELF object), set the globals, load the
 * selected programs and run them, appending every program of the object to
 * @r (those not benchmarked with the reason). Returns 0; -EINVAL for bad
 * input (@err has one line); another negative errno for a runtime failure
 * (@err has a line, then the verifier's last lines when loading failed).
 */
int bench_run(const struct bench_config *c, struct bench_result *r,
	      struct bench_notes *notes, char *err, size_t errlen);

/* The object's label: its file name without directory and ".bpf.o"/".o". */
void bench_object_label(const char *path, char *buf, size_t len);

#endif
