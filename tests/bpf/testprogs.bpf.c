// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programs the integration tests load and drive with BPF_PROG_TEST_RUN:
 * an XDP program, a socket filter, and one whose name is longer than the
 * kernel's 15 characters (its full name lives in BTF only).
 * The XDP program has a run-time switch, slow, that makes each run do many
 * times the work: a per-run regression the regression tests land and revert.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Work per run, so ns/run is not all call overhead. */
const volatile __u32 spin = 16;
/* Set from userspace (testload "slow xdp 1"): sixteen times the work. */
volatile __u32 slow;

SEC("xdp")
int xdp_test_pass(struct xdp_md *ctx)
{
	__u32 acc = 0, n = spin;

	if (slow)
		n = spin * 16;
	for (__u32 i = 0; i < n && i < 4096; i++)
		acc += i ^ (acc << 1);
	return acc == 0xffffffff ? XDP_DROP : XDP_PASS;
}

SEC("socket")
int sock_test_filt(struct __sk_buff *skb)
{
	return skb->len;
}

SEC("xdp")
int ebpftop_test_program_with_a_long_name(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
