/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The few kernel-internal types ebpftop's BPF programs touch, declared with
 * only the fields they read. preserve_access_index makes every access a
 * CO-RE relocation, so libbpf fixes the offsets against the running
 * kernel's BTF: no vmlinux.h generated from the build machine is needed.
 */
#ifndef EBPFTOP_BPF_KERNEL_TYPES_H
#define EBPFTOP_BPF_KERNEL_TYPES_H

#include <linux/types.h>

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct seq_file;

typedef struct {
	__s64 counter;
} atomic64_t;

struct task_struct {
	int pid;
	int tgid;
	char comm[16];
	struct task_struct *group_leader;
};

struct file {
	const void *f_op;
	void *private_data;
};

struct bpf_prog_aux {
	atomic64_t refcnt;
	__u32 id;
};

/* u64_stats_t on 64-bit kernels: one 64-bit counter, read as such. */
struct ebpftop_u64_stats {
	__s64 counter;
};

/* The per-CPU run-time statistics of a program. */
struct bpf_prog_stats {
	struct ebpftop_u64_stats cnt;
	struct ebpftop_u64_stats nsecs;
	struct ebpftop_u64_stats misses;
};

/* The kernel's enum bpf_prog_type (the ___ suffix is dropped when matching). */
enum bpf_prog_type___kern {
	BPF_PROG_TYPE___KERN_UNSPEC,
};

struct bpf_prog {
	struct bpf_prog_aux *aux;
	enum bpf_prog_type___kern type;
	__u8 tag[8];
	struct bpf_prog_stats *stats;	/* __percpu */
};

/*
 * An array map. In a BPF_MAP_TYPE_PERCPU_ARRAY the per-CPU pointers of the
 * elements (pptrs[], a flexible array in an anonymous union that CO-RE
 * does not resolve) follow aux directly.
 */
struct bpf_array {
	__u32 elem_size;
	void *aux;
};

struct bpf_link {
	__u32 id;
	struct bpf_prog *prog;
};

struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
};

struct bpf_iter__task_file {
	union {
		struct bpf_iter_meta *meta;
	};
	union {
		struct task_struct *task;
	};
	__u32 fd;
	union {
		struct file *file;
	};
};

struct bpf_iter__bpf_prog {
	union {
		struct bpf_iter_meta *meta;
	};
	union {
		struct bpf_prog *prog;
	};
};

#pragma clang attribute pop

#endif
