/* SPDX-License-Identifier: GPL-2.0-only */
/* Records the collection iterators write; shared with userspace. */
#ifndef EBPFTOP_BPF_ITERS_H
#define EBPFTOP_BPF_ITERS_H

#include <linux/types.h>

/* iter/bpf_prog: one per loaded program. */
struct prog_iter_entry {
	__u32 id;
	__u32 pad;
	__s64 refcnt;		/* kernel references, including the iterator's own */
};

/* iter/task_file: one per file descriptor that holds a program or a link to one. */
struct pid_iter_entry {
	__u32 prog_id;
	__u32 pid;		/* thread group id */
	char comm[16];		/* of the thread group leader */
};

/*
 * iter/bpf_prog with counters: one per loaded program, its run-time
 * statistics summed over the possible CPUs (prog_stats.bpf.c).
 */
struct prog_stats_entry {
	__u32 id;
	__u32 type;		/* enum bpf_prog_type */
	__u64 run_cnt;
	__u64 run_time_ns;
	__u64 recursion_misses;
	__u8 tag[8];
};

/* The most CPUs prog_stats.bpf.c sums over (it is verified per CPU). */
#define PROG_STATS_MAX_CPUS 512

#endif
