// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programs for the --bench tests: one per packet type BPF_PROG_TEST_RUN
 * takes, an XDP program whose return code depends on the packet (so the
 * return-code histogram has several codes to count), settings of several
 * kinds for --bench-set, and a kprobe that the benchmark must list as not
 * runnable.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* Settings: --bench-set changes them before load. */
const volatile __u32 drop_all = 0;	/* .rodata: every packet XDP_DROP */
const volatile __u8 small = 1;		/* .rodata: a 1-byte integer */
__s32 signed_setting = -1;		/* .data */
__u64 big_setting;			/* .bss */
struct pair {
	__u32 a, b;
} not_an_integer = { 1, 2 };		/* .data: not settable */

/*
 * By the last octet of the IPv4 source: 0 mod 4 dropped, 1 mod 4 sent
 * back, others passed; anything not IPv4 aborted.
 */
SEC("xdp")
int bench_codes(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u32 octet;

	if (drop_all)
		return XDP_DROP;
	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_ABORTED;
	octet = bpf_ntohl(ip->saddr) & 0xff;
	if (big_setting + small + signed_setting == 12345)
		return XDP_REDIRECT;
	if (octet % 4 == 0)
		return XDP_DROP;
	if (octet % 4 == 1)
		return XDP_TX;
	return XDP_PASS;
}

SEC("tc")
int bench_tc(struct __sk_buff *skb)
{
	return skb->len > 100 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("socket")
int bench_sock(struct __sk_buff *skb)
{
	return skb->len;
}

SEC("cgroup_skb/ingress")
int bench_cgroup(struct __sk_buff *skb)
{
	return 1;
}

SEC("flow_dissector")
int bench_flow(struct __sk_buff *skb)
{
	return BPF_OK;
}

SEC("kprobe/do_nanosleep")
int bench_kprobe(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
