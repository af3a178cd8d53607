// SPDX-License-Identifier: GPL-2.0-only
/*
 * The demo's workload: an XDP program that classifies each IPv4 packet by
 * its source address the FizzBuzzFibonacci way and counts the classes in a
 * per-CPU array. With `regressed` set, it decides "Fibonacci" the slow way,
 * rebuilding the sequence for every packet: the same answers at several
 * times the cost per run, which is what ebpftop's regression detector and
 * the benchmark are meant to catch.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "xdp_classifier.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XDPC__CLASSES);
	__type(key, __u32);
	__type(value, __u64);
} xdpc_counts SEC(".maps");

/* Set from userspace through the skeleton's mmaped .bss/.data. */
__u32 regressed;			/* 0: fast path, else the slow one */
__u32 slow_terms = XDPC_SLOW_TERMS;	/* terms the slow path walks */

/* The fix: the 13 Fibonacci numbers below 256 as a constant set. */
static __always_inline int is_fibonacci_fast(__u32 n)
{
	switch (n) {
	case 0: case 1: case 2: case 3: case 5: case 8: case 13: case 21:
	case 34: case 55: case 89: case 144: case 233:
		return 1;
	default:
		return 0;
	}
}

/*
 * The bad build: for every packet, generate the sequence again, term by
 * term with no early exit, and collect the terms below 256 into a set.
 * Terms saturate at 2^64 - 1 instead of wrapping, so the answer is the
 * fast path's. All the work is on constants, so the verifier walks the
 * loop once per term without splitting on the packet's contents.
 */
static __always_inline int is_fibonacci_slow(__u32 n)
{
	__u64 s0 = 0, s1 = 0, s2 = 0, s3 = 0, w;
	__u64 a = 0, b = 1, c;
	__u32 terms = slow_terms;

	for (__u32 i = 0; i < XDPC_SLOW_TERMS_MAX; i++) {
		if (i >= terms)
			break;
		if (a < 64)
			s0 |= 1ULL << a;
		else if (a < 128)
			s1 |= 1ULL << (a - 64);
		else if (a < 192)
			s2 |= 1ULL << (a - 128);
		else if (a < 256)
			s3 |= 1ULL << (a - 192);
		c = a + b;
		if (c < b)
			c = ~0ULL;
		a = b;
		b = c;
	}
	if (n < 64)
		w = s0;
	else if (n < 128)
		w = s1;
	else if (n < 192)
		w = s2;
	else
		w = s3;
	return (w >> (n & 63)) & 1;
}

/*
 * Fibonacci on the last octet first, then FizzBuzz, Fizz and Buzz on the
 * whole address as a 32-bit number (host order), as in the article.
 */
static __always_inline __u32 classify(__u32 addr, int slow)
{
	__u32 octet = addr & 0xff;

	if (slow ? is_fibonacci_slow(octet) : is_fibonacci_fast(octet))
		return XDPC_FIBONACCI;
	if (addr % 15 == 0)
		return XDPC_FIZZBUZZ;
	if (addr % 3 == 0)
		return XDPC_FIZZ;
	if (addr % 5 == 0)
		return XDPC_BUZZ;
	return XDPC_OTHER;
}

/* The demo's own UDP packet (see xdp_classifier.h)? */
static __always_inline int is_demo_packet(struct iphdr *ip, void *end)
{
	struct udphdr *udp;
	__u64 magic, want;

	if (ip->protocol != IPPROTO_UDP ||
	    (ip->frag_off & bpf_htons(0x3fff)))
		return 0;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) + XDPC_MAGIC_LEN > end)
		return 0;
	if (udp->dest != bpf_htons(XDPC_DEMO_PORT))
		return 0;
	__builtin_memcpy(&magic, udp + 1, sizeof(magic));
	__builtin_memcpy(&want, XDPC_MAGIC, sizeof(want));
	return magic == want;
}

SEC("xdp")
int xdp_classifier(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	__u32 cls;
	__u64 *cnt;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end || ip->version != 4 || ip->ihl < 5)
		return XDP_PASS;

	cls = classify(bpf_ntohl(ip->saddr), regressed);
	cnt = bpf_map_lookup_elem(&xdpc_counts, &cls);
	if (cnt)
		*cnt += 1;
	return is_demo_packet(ip, end) ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
