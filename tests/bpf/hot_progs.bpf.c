// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programs for the hot-lines tests, each with its time on a line the
 * test finds by the marker comment at its end:
 *  - hot_loop: a loop on one line (HOT-LOOP); a branch that never runs
 *    (HOT-COLD);
 *  - hot_helper: hash map lookups in a loop, the time in the helper
 *    (HOT-HELPER);
 *  - hot_main calls the subprogram hot_sub; each has a loop line
 *    (HOT-MAIN, HOT-SUB);
 *  - hot_tp on the raw tracepoint sys_enter, for getpid(2) of the test
 *    process only (HOT-TP): a tracing program, run by the tracepoint.
 * Built with -g like every BPF object here: the line info comes from it.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 loop_iters = 2000;
const volatile __u32 tp_tgid;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} hot_hash SEC(".maps");

SEC("xdp")
int hot_loop(struct xdp_md *ctx)
{
	__u64 acc = ctx->data_end - ctx->data;

	if (acc == 12345)
		bpf_printk("never: the test sends 64-byte packets"); /* HOT-COLD */
	for (__u32 i = 0; i < loop_iters && i < 100000; i++) acc = acc * 2654435761u + (acc >> 7) + i; /* HOT-LOOP */
	return acc == 7 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int hot_helper(struct xdp_md *ctx)
{
	__u64 acc = 0, *v;

	for (__u32 i = 0; i < 512; i++) {
		__u32 k = i * 2654435761u;

		v = bpf_map_lookup_elem(&hot_hash, &k); /* HOT-HELPER */
		if (v)
			acc += *v;
	}
	return acc == 7 ? XDP_DROP : XDP_PASS;
}

static __noinline __u64 hot_sub(__u64 x)
{
	for (__u32 i = 0; i < loop_iters && i < 100000; i++) x = x * 31 + (x >> 3) + i; /* HOT-SUB */
	return x;
}

SEC("xdp")
int hot_main(struct xdp_md *ctx)
{
	__u64 acc = ctx->data_end - ctx->data;

	for (__u32 i = 0; i < loop_iters && i < 100000; i++) acc = acc * 7 + (acc >> 5) + i; /* HOT-MAIN */
	acc = hot_sub(acc);
	return acc == 7 ? XDP_DROP : XDP_PASS;
}

SEC("raw_tp/sys_enter")
int hot_tp(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 acc = bpf_get_current_pid_tgid();

	if ((__u32)(acc >> 32) != tp_tgid || ctx->args[1] != 39 /* getpid */)
		return 0;
	for (__u32 i = 0; i < loop_iters && i < 100000; i++) acc = acc * 13 + (acc >> 11) + i; /* HOT-TP */
	return acc == 7;
}

char LICENSE[] SEC("license") = "GPL";
