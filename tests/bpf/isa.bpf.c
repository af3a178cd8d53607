// SPDX-License-Identifier: GPL-2.0-only
/*
 * One source the insights tests build four times, with -mcpu=v1, v2, v3
 * and v4, to check the ISA level ebpftop reads from the kernel's
 * translation against the object's own instructions.
 *
 * isa_mix uses what the levels add where the compiler may use it: unsigned
 * compares (JLT/JLE in v2), 32-bit arithmetic and jumps (v3), sign
 * extension, byte swaps and signed division (v4). Every operand comes from
 * global variables, so the verifier can prune nothing. isa_div divides by
 * a value only known at run time: the verifier guards that division with
 * instructions of its own, which must not raise the level.
 *
 * isa_calls has a subprogram, a tail call and known helpers, for exact
 * names and counts.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 a64, b64, out64[8];
__u32 a32, b32, out32[8];
__s8 s8v;
__s16 s16v;
__s64 sa, sb;

SEC("socket")
int isa_mix(struct __sk_buff *skb)
{
	__u64 x = a64, y = b64;
	__u32 p = a32, q = b32;

	if (x < y)
		out64[0] = y - x;
	if ((__s64)x <= (__s64)y)
		out64[1] = x + 3;
	if (p < q)
		out32[0] = q - p;
	out32[1] = (p << 3) + (q >> 2);
	out32[2] = p * q + 7;
	out64[2] = (__s64)s8v + (__s64)s16v;
	out64[3] = __builtin_bswap64(x);
#if __BPF_CPU_VERSION__ >= 4
	out64[4] = sb ? sa / sb : 0;
#endif
	return 0;
}

SEC("socket")
int isa_div(struct __sk_buff *skb)
{
	out64[5] = a64 / b64;
	out64[6] = a64 % b64;
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} isa_jumps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 128);
	__type(key, __u32);
	__type(value, __u64);
} isa_seen SEC(".maps");

static __attribute__((noinline)) int isa_note(__u32 key)
{
	__u64 now = bpf_ktime_get_ns(), *v;

	v = bpf_map_lookup_elem(&isa_seen, &key);
	if (v)
		return *v == now;
	bpf_map_update_elem(&isa_seen, &key, &now, BPF_ANY);
	return 0;
}

SEC("socket")
int isa_calls(struct __sk_buff *skb)
{
	__u32 k = skb->len & 3;
	int r = isa_note(k);

	r += isa_note(k + 1);
	if (bpf_ktime_get_ns() & 1)
		bpf_tail_call(skb, &isa_jumps, 0);
	bpf_tail_call(skb, &isa_jumps, k);
	return r;
}

char LICENSE[] SEC("license") = "GPL";
