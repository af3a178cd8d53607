/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The profiler's maps as both sides see them, and the per-run accounting,
 * which compiles into the BPF program and into the unit tests alike.
 */
#ifndef EBPFTOP_BPF_PROFILER_H
#define EBPFTOP_BPF_PROFILER_H

#include <linux/types.h>

#define PROF_MAX_EVENTS 8	/* counters read per run */
#define PROF_MAX_DEPTH 4	/* nested runs of the target on one CPU */

/* One counter reading: struct bpf_perf_event_value. */
struct prof_value {
	__u64 counter;
	__u64 enabled;
	__u64 running;
};

/* The readings taken when one run of the target began. */
struct prof_frame {
	__u64 ctx;		/* the target's argument: tells nested runs apart */
	__u32 err;		/* a counter could not be read */
	__u32 pad;
	struct prof_value v[PROF_MAX_EVENTS];
};

/* Per CPU: a stack of runs that began and have not ended. */
struct prof_scratch {
	__u32 depth;		/* frames in use; may pass PROF_MAX_DEPTH */
	__u32 pad;
	struct prof_frame f[PROF_MAX_DEPTH];
};

/* Per CPU: what every ended run added up to. */
struct prof_accum {
	__u64 runs;		/* every run that ended */
	__u64 partial;		/* runs not measured in full (see below) */
	__u64 read_errors;	/* runs with a counter that could not be read */
	__u64 unpaired;		/* ends without a recorded beginning */
	__u64 counter[PROF_MAX_EVENTS];	/* complete runs only */
	__u64 enabled[PROF_MAX_EVENTS];	/* every run read in full */
	__u64 running[PROF_MAX_EVENTS];
};

/*
 * Account one run from its readings @before and @after of @n counters;
 * @err when a reading failed. A run during which any counter was not
 * running all the time it was enabled (multiplexed out) is partial: its
 * counts are left out rather than scaled, since a run is far shorter than
 * the multiplexing period and scaling it would be a guess.
 */
static __inline __attribute__((always_inline)) void
prof_account(struct prof_accum *a, const struct prof_value *before,
	     const struct prof_value *after, __u32 n, int err)
{
	int complete = 1;
	__u32 i;

	a->runs++;
	if (err) {
		a->partial++;
		a->read_errors++;
		return;
	}
	for (i = 0; i < PROF_MAX_EVENTS; i++) {
		__u64 de, dr;

		if (i >= n)
			break;
		de = after[i].enabled - before[i].enabled;
		dr = after[i].running - before[i].running;
		a->enabled[i] += de;
		a->running[i] += dr;
		if (de != dr)
			complete = 0;
	}
	if (!complete) {
		a->partial++;
		return;
	}
	for (i = 0; i < PROF_MAX_EVENTS; i++) {
		if (i >= n)
			break;
		a->counter[i] += after[i].counter - before[i].counter;
	}
}

#endif
