/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_COLLECT_PROG_STATS_H
#define EBPFTOP_COLLECT_PROG_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/iters.h"

/*
 * Every program's counters in one read of a bpf_prog iterator: id, type,
 * tag, run_cnt, run_time_ns and recursion misses, with no file descriptor
 * and no system call per program.
 */
struct prog_stats_iter;

/* How the iterator reads each program's counters. */
enum prog_stats_read {
	PROG_STATS_PLAIN,	/* plain loads through bpf_rdonly_cast(): Linux 6.15+ */
	PROG_STATS_PROBE,	/* bpf_probe_read_kernel(): Linux 5.19+, slower */
};

/*
 * Load the iterator: with plain loads where this kernel verifies them,
 * else with probe reads; with @probe_only, with probe reads alone (tests
 * take the older kernels' way so). 0, or a negative errno when this kernel
 * can run neither (before 5.19, too many CPUs, no BTF, no privileges):
 * callers then fall back to one BPF_OBJ_GET_INFO_BY_FD per program.
 */
int prog_stats_iter__open(struct prog_stats_iter **out, bool probe_only);
void prog_stats_iter__free(struct prog_stats_iter *it);

/* Which of the two ways the loaded iterator reads. */
enum prog_stats_read prog_stats_iter__how(const struct prog_stats_iter *it);

/* The iterator program's id, to leave ebpftop's own program out. */
uint32_t prog_stats_iter__prog_id(const struct prog_stats_iter *it);

/*
 * One pass over every loaded program, in id order. The array is owned by
 * @it and reused by the next call. 0 or a negative errno.
 */
int prog_stats_iter__read(struct prog_stats_iter *it,
			  const struct prog_stats_entry **entries, size_t *n);

/*
 * The possible CPUs listed in @text ("0-3,8,10-11"), in @cpus, at most @max.
 * Returns how many, or -EINVAL for text that is not a CPU list and -E2BIG
 * for more than @max.
 */
int prog_stats_parse_cpus(const char *text, uint32_t *cpus, size_t max);

#endif
