// SPDX-License-Identifier: GPL-2.0-only
/*
 * One record per loaded program with its counters: id, type, tag and the
 * run-time statistics summed over the CPUs, so that one read() of this
 * iterator samples every program without a file descriptor or a system
 * call per program.
 *
 * A program's statistics are per-CPU (struct bpf_prog::stats). Kernels
 * built without per-CPU type tags in their BTF do not let a BPF program
 * resolve such a pointer with bpf_per_cpu_ptr(), and the per-CPU offset
 * table is not reachable as a symbol. A per-CPU array map gives the offsets
 * instead: per CPU, the address bpf_map_lookup_percpu_elem() resolves minus
 * the map's raw per-CPU pointer is that CPU's offset, the same for every
 * per-CPU allocation. The counters are then read without the u64_stats
 * sequence (as the kernel itself reads them on 64-bit machines), in one of
 * two ways, both safe against a fault:
 *
 * - plain loads through bpf_rdonly_cast(), which takes an untyped pointer
 *   from Linux 6.15 on: this object;
 * - bpf_probe_read_kernel(), a helper call per read, for 5.19 to 6.14
 *   (bpf_map_lookup_percpu_elem() came in 5.19): prog_stats_probe.bpf.c,
 *   which is this file compiled with PROG_STATS_PROBE.
 */
#include <linux/bpf.h>
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "iters.h"

#ifndef PROG_STATS_PROBE
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#else
/* The per-CPU map's address as a number: see learn_offsets(). */
__u64 map_addr;
#endif

/* The possible CPUs, set by userspace before load. */
const volatile __u32 nr_cpus = 1;
const volatile __u32 cpu_ids[PROG_STATS_MAX_CPUS] = {};

/* Per-CPU offsets, in cpu_ids order; offsets_ok once they are known. */
__u64 cpu_off[PROG_STATS_MAX_CPUS];
__u32 offsets_ok;
/* Set by userspace for the read that only learns the offsets. */
__u32 offsets_only;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ebpftop_pcpu SEC(".maps");

/* The map's raw per-CPU pointer: pptrs[0], which follows aux. */
static __always_inline __u64 map_pptr(void)
{
#ifndef PROG_STATS_PROBE
	char *arr = bpf_rdonly_cast(&ebpftop_pcpu, 0);

	return *(__u64 *)(arr + bpf_core_field_offset(struct bpf_array, aux) +
			  sizeof(void *));
#else
	__u64 off = bpf_core_field_offset(struct bpf_array, aux) + sizeof(void *);
	__u64 raw = 0;

	/*
	 * The verifier refuses arithmetic on a map pointer: stored and read
	 * back, it is a plain number.
	 */
	*(volatile __u64 *)&map_addr = (__u64)&ebpftop_pcpu;
	if (bpf_probe_read_kernel(&raw, sizeof(raw),
				  (const void *)(*(volatile __u64 *)&map_addr + off)))
		return 0;
	return raw;
#endif
}

/* Add one CPU's counters, struct bpf_prog_stats at @addr, to @e. */
static __always_inline void add_cpu(struct prog_stats_entry *e, __u64 addr)
{
#ifndef PROG_STATS_PROBE
	char *s = bpf_rdonly_cast((void *)addr, 0);
#else
	/*
	 * The three counters in one call: the kernel's struct is 32 bytes
	 * on 64-bit machines (three counters and an empty sequence, aligned
	 * to 16); a kernel with them further apart fails to load this.
	 */
	__u64 buf[4];
	char *s = (char *)buf;

	if (bpf_probe_read_kernel(buf, sizeof(buf), (const void *)addr))
		return;
#endif
	e->run_cnt += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, cnt));
	e->run_time_ns += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, nsecs));
	e->recursion_misses += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, misses));
}

static int learn_offsets(void)
{
	__u32 zero = 0;
	__u64 raw = map_pptr();

	if (!raw)
		return -1;
	for (__u32 i = 0; i < nr_cpus && i < PROG_STATS_MAX_CPUS; i++) {
		void *p = bpf_map_lookup_percpu_elem(&ebpftop_pcpu, &zero,
						     cpu_ids[i]);

		if (!p)
			return -1;
		/*
		 * Stored and read back, the pointer becomes a plain number
		 * (the verifier refuses arithmetic between it and one).
		 */
		*(volatile __u64 *)&cpu_off[i] = (__u64)p;
		cpu_off[i] = *(volatile __u64 *)&cpu_off[i] - raw;
	}
	offsets_ok = 1;
	return 0;
}

/* Named apart, so that a listing tells which of the two is loaded. */
#ifndef PROG_STATS_PROBE
#define PROG_STATS_ITER ebpftop_progs
#else
#define PROG_STATS_ITER ebpftop_progs_p
#endif

SEC("iter/bpf_prog")
int PROG_STATS_ITER(struct bpf_iter__bpf_prog *ctx)
{
	struct bpf_prog *prog = ctx->prog;
	struct prog_stats_entry e = {};
	__u64 stats;
#ifndef PROG_STATS_PROBE
	char *p;
#endif

	if (!prog)
		return 0;
	if (!offsets_ok && learn_offsets())
		return 1;	/* ends the read (EAGAIN): no records */
	if (offsets_only)
		return 1;	/* one program was enough: the same */
	e.id = prog->aux->id;
#ifndef PROG_STATS_PROBE
	p = bpf_rdonly_cast(prog, 0);
	e.type = *(__u32 *)(p + bpf_core_field_offset(struct bpf_prog, type));
	*(__u64 *)e.tag = *(__u64 *)(p + bpf_core_field_offset(struct bpf_prog, tag));
	stats = *(__u64 *)(p + bpf_core_field_offset(struct bpf_prog, stats));
#else
	e.type = BPF_CORE_READ(prog, type);
	bpf_core_read(e.tag, sizeof(e.tag), &prog->tag);
	stats = (__u64)BPF_CORE_READ(prog, stats);
#endif
	if (stats) {
		for (__u32 i = 0; i < nr_cpus && i < PROG_STATS_MAX_CPUS; i++)
			add_cpu(&e, stats + cpu_off[i]);
	}
	bpf_seq_write(ctx->meta->seq, &e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
