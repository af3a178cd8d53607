// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebpftop's profiler: an fentry and an fexit program around one target BPF
 * program, reading every selected counter back to back at both ends.
 * Userspace sets the attach target, nr_events and nr_cpus before load, and
 * puts per-CPU perf event fds in events[event * nr_cpus + cpu].
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpf/profiler.h"

const volatile __u32 nr_events = 1;
const volatile __u32 nr_cpus = 1;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct prof_scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct prof_accum);
} accum SEC(".maps");

SEC("fentry")
int ebpftop_fentry(__u64 *ctx)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id(), d, i;
	struct prof_scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	struct prof_frame *f;
	__u64 arg = 0;

	if (!s)
		return 0;
	d = s->depth;
	/* Counted even when too deep to record, so that exits pair up. */
	s->depth = d + 1;
	if (d >= PROF_MAX_DEPTH)
		return 0;
	f = &s->f[d];
	/* The target's context pointer; 0 if it takes no argument. */
	bpf_get_func_arg(ctx, 0, &arg);
	f->ctx = arg;
	f->err = 0;
	/* Last, so that the window holds as little of our own work as can be. */
	for (i = 0; i < PROF_MAX_EVENTS; i++) {
		if (i >= nr_events)
			break;
		if (bpf_perf_event_read_value(&events, (__u64)(i * nr_cpus + cpu),
					      (struct bpf_perf_event_value *)&f->v[i],
					      sizeof(f->v[i])))
			f->err = 1;
	}
	return 0;
}

SEC("fexit")
int ebpftop_fexit(__u64 *ctx)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id(), d, i;
	struct prof_value now[PROF_MAX_EVENTS];
	struct prof_scratch *s;
	struct prof_accum *a;
	__u64 arg = 0;
	int err = 0, k, idx = -1;

	/* First, so that the window holds as little of our own work as can be. */
	for (i = 0; i < PROF_MAX_EVENTS; i++) {
		if (i >= nr_events)
			break;
		if (bpf_perf_event_read_value(&events, (__u64)(i * nr_cpus + cpu),
					      (struct bpf_perf_event_value *)&now[i],
					      sizeof(now[i])))
			err = 1;
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	a = bpf_map_lookup_elem(&accum, &zero);
	if (!s || !a)
		return 0;
	d = s->depth;
	if (!d) {
		/* Our fentry was skipped (recursion guard): not measurable. */
		a->runs++;
		a->partial++;
		a->unpaired++;
		return 0;
	}
	if (d > PROF_MAX_DEPTH) {
		/* Nested deeper than we record: count the run, unmeasured. */
		s->depth = d - 1;
		a->runs++;
		a->partial++;
		return 0;
	}
	/*
	 * This run's frame is the innermost with its context. Frames above it
	 * belong to runs whose exit was skipped: drop them with it.
	 */
	bpf_get_func_arg(ctx, 0, &arg);
	for (k = PROF_MAX_DEPTH - 1; k >= 0; k--) {
		if (k < (int)d && s->f[k].ctx == arg) {
			idx = k;
			break;
		}
	}
	if (idx < 0) {
		/* Entry skipped while an outer run was open: leave it be. */
		a->runs++;
		a->partial++;
		a->unpaired++;
		return 0;
	}
	s->depth = (__u32)idx;
	prof_account(a, s->f[idx].v, now, nr_events, err || s->f[idx].err);
	return 0;
}

/* bpf_perf_event_read_value is GPL-only. */
char LICENSE[] SEC("license") = "GPL";
