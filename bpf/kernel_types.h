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

struct bpf_prog {
	struct bpf_prog_aux *aux;
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
