// SPDX-License-Identifier: GPL-2.0-only
/*
 * One record per loaded program: its id and reference count. ebpftop keeps
 * an fd on every program between refreshes; the count tells it when that fd
 * is the only thing keeping a program alive, so it can let the program go.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "iters.h"

SEC("iter/bpf_prog")
int ebpftop_progs(struct bpf_iter__bpf_prog *ctx)
{
	struct bpf_prog *prog = ctx->prog;
	struct prog_iter_entry e = {};

	if (!prog)
		return 0;
	/* prog is a trusted pointer: plain loads, no helper calls. */
	e.id = prog->aux->id;
	e.refcnt = prog->aux->refcnt.counter;
	bpf_seq_write(ctx->meta->seq, &e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
