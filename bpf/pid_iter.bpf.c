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
 *
 * This runs once for every open file on the machine. A program file costs
 * five reads behind pointers (the program, its aux, its id, the group
 * leader, its comm): plain loads through bpf_rdonly_cast(), which takes an
 * untyped pointer from Linux 6.15 on, in this object; a
 * bpf_probe_read_kernel() call each before that, in pid_iter_probe.bpf.c,
 * which is this file compiled with PID_ITER_PROBE.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "iters.h"

#ifndef PID_ITER_PROBE
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * Field @field of struct @type at kernel address @addr, as a @t: a plain
 * load that yields 0 where the address is bad.
 */
#define LOAD(t, addr, type, field) \
	(*(t *)((char *)bpf_rdonly_cast((void *)(addr), 0) + \
		bpf_core_field_offset(type, field)))
#define PID_ITER ebpftop_pids
#else
#define PID_ITER ebpftop_pids_p
#endif

/* Set by userspace before each read. */
__u32 self_pid;
__u32 self_prog_fd;
__u32 self_link_fd;

/* Learnt on the first pass over ebpftop's own files. */
__u64 prog_fops;
__u64 link_fops;

SEC("iter/task_file")
int PID_ITER(struct bpf_iter__task_file *ctx)
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
#ifndef PID_ITER_PROBE
	if (fops == prog_fops) {
		__u64 prog = (__u64)file->private_data;
		__u64 aux = LOAD(__u64, prog, struct bpf_prog, aux);

		e.prog_id = aux ? LOAD(__u32, aux, struct bpf_prog_aux, id) : 0;
	} else if (fops == link_fops) {
		__u64 link = (__u64)file->private_data;
		/* A link detached from its program points at no program. */
		__u64 prog = LOAD(__u64, link, struct bpf_link, prog);
		__u64 aux = prog ? LOAD(__u64, prog, struct bpf_prog, aux) : 0;

		e.prog_id = aux ? LOAD(__u32, aux, struct bpf_prog_aux, id) : 0;
	}
	if (!e.prog_id)
		return 0;
	{
		/* comm is NUL-padded, 16 bytes with the last one NUL. */
		__u64 leader = (__u64)task->group_leader;
		char *c = (char *)bpf_rdonly_cast((void *)leader, 0) +
			  bpf_core_field_offset(struct task_struct, comm);

		*(__u64 *)&e.comm[0] = *(__u64 *)c;
		*(__u64 *)&e.comm[8] = *(__u64 *)(c + 8);
		e.comm[sizeof(e.comm) - 1] = '\0';
	}
#else
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
#endif
	bpf_seq_write(ctx->meta->seq, &e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
