// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walk every open file of every task and report those that are BPF
 * programs, or BPF links to a program, with the owning process.
 *
 * A file is a program or a link when its f_op is bpf_prog_fops or
 * bpf_link_fops. Those are data symbols, absent from kallsyms and BTF on
 * kernels built without CONFIG_KALLSYMS_ALL, so a __ksym extern cannot be
 * resolved everywhere. Instead the iterator learns both addresses from
 * ebpftop's own files: userspace names one fd that is known to be a program
 * and one that is known to be a link.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "iters.h"

/* Set by userspace before each read. */
__u32 self_pid;
__u32 self_prog_fd;
__u32 self_link_fd;

/* Learnt on the first pass over ebpftop's own files. */
__u64 prog_fops;
__u64 link_fops;

SEC("iter/task_file")
int ebpftop_pids(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct pid_iter_entry e = {};
	__u64 fops;

	if (!task || !file)
		return 0;
	/*
	 * task and file are trusted pointers: plain loads (CO-RE
	 * relocated) cost far less than a probe-read helper call, and this
	 * runs once for every open file on the machine.
	 */
	e.pid = task->tgid;
	fops = (__u64)file->f_op;
	/* ebpftop's own fds on every program are not ownership. */
	if (e.pid == self_pid) {
		if ((__u32)task->pid != self_pid)
			return 0;
		if (ctx->fd == self_prog_fd)
			prog_fops = fops;
		else if (ctx->fd == self_link_fd)
			link_fops = fops;
		return 0;
	}
	if (!fops)
		return 0;
	if (fops == prog_fops) {
		struct bpf_prog *prog = BPF_CORE_READ(file, private_data);

		e.prog_id = BPF_CORE_READ(prog, aux, id);
	} else if (fops == link_fops) {
		struct bpf_link *link = BPF_CORE_READ(file, private_data);

		/* A link detached from its program points at no program. */
		e.prog_id = BPF_CORE_READ(link, prog, aux, id);
	}
	if (!e.prog_id)
		return 0;
	BPF_CORE_READ_STR_INTO(&e.comm, task, group_leader, comm);
	bpf_seq_write(ctx->meta->seq, &e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
