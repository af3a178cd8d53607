// SPDX-License-Identifier: GPL-2.0-only
/*
 * An object the verifier refuses: the program reads the packet without
 * checking its length. ebpftop --bench must exit 1 and show the verifier's
 * last lines.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bench_unchecked(struct xdp_md *ctx)
{
	unsigned char *data = (void *)(long)ctx->data;

	return data[20] == 7 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
