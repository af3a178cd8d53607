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

#endif
