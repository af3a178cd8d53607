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
 * per-CPU allocation. The counters are then read with plain loads through
 * bpf_rdonly_cast(), which fault safely, without the u64_stats sequence
 * (as the kernel itself reads them on 64-bit machines).
 */
#include <linux/bpf.h>
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "iters.h"

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

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

static int learn_offsets(void)
{
	char *arr = bpf_rdonly_cast(&ebpftop_pcpu, 0);
	__u32 zero = 0;
	__u64 raw;

	raw = *(__u64 *)(arr + bpf_core_field_offset(struct bpf_array, aux) +
			 sizeof(void *));
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

SEC("iter/bpf_prog")
int ebpftop_progs(struct bpf_iter__bpf_prog *ctx)
{
	struct bpf_prog *prog = ctx->prog;
	struct prog_stats_entry e = {};
	__u64 stats;
	char *p;

	if (!prog)
		return 0;
	if (!offsets_ok && learn_offsets())
		return 1;	/* ends the read (EAGAIN): no records */
	if (offsets_only)
		return 1;	/* one program was enough: the same */
	e.id = prog->aux->id;
	p = bpf_rdonly_cast(prog, 0);
	e.type = *(__u32 *)(p + bpf_core_field_offset(struct bpf_prog, type));
	*(__u64 *)e.tag = *(__u64 *)(p + bpf_core_field_offset(struct bpf_prog, tag));
	stats = *(__u64 *)(p + bpf_core_field_offset(struct bpf_prog, stats));
	if (stats) {
		for (__u32 i = 0; i < nr_cpus && i < PROG_STATS_MAX_CPUS; i++) {
			char *s = bpf_rdonly_cast((void *)(stats + cpu_off[i]), 0);

			e.run_cnt += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, cnt));
			e.run_time_ns += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, nsecs));
			e.recursion_misses += *(__u64 *)(s + bpf_core_field_offset(struct bpf_prog_stats, misses));
		}
	}
	bpf_seq_write(ctx->meta->seq, &e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
