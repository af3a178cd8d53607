/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Profile one BPF program with hardware (or software) counters: an fentry
 * and an fexit program around it read the selected counters at both ends
 * of every run. Everything the profiler holds is fd-owned, so nothing
 * stays attached after ebpftop exits, however it exits.
 */
#ifndef EBPFTOP_PROFILER_PROFILER_H
#define EBPFTOP_PROFILER_PROFILER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/profile.h"
#include "profiler/events.h"

struct profiler;

enum profiler_flags {
	PROFILER_NO_CALIBRATE = 1 << 0,	/* skip measuring our own cost */
};

/*
 * Attach to program @prog_id, counting @ev: check the target, load the
 * fentry/fexit pair for it, calibrate the profiler's own cost on an empty
 * program of the same type, open the counters and attach. Returns 0, or a
 * negative errno with the reason, ready to show, in @msg.
 */
int profiler__new(struct profiler **out, uint32_t prog_id,
		  const struct event_set *ev, unsigned int flags, char *msg,
		  size_t len);

/* Everything measured since attach. 0 or -errno. */
int profiler__read(struct profiler *p, struct profile_report *r);

/* Detach and free; nothing of the profiler stays loaded. NULL is fine. */
void profiler__free(struct profiler *p);

/* Ids of the profiler's own fentry and fexit programs (for tests). */
void profiler__own_ids(const struct profiler *p, uint32_t ids[2]);

#endif
