// SPDX-License-Identifier: GPL-2.0-only
/*
 * The floor of a refresh: an iter/bpf_prog iterator that only counts the
 * programs it visits and writes nothing. tests/bench/iter_floor times one
 * read() of it; no collection over the same programs can cost less.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>

__u64 visited;

SEC("iter/bpf_prog")
int count_progs(struct bpf_iter__bpf_prog *ctx)
{
	if (ctx->prog)
		visited++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
