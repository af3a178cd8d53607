/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_COLLECT_STATS_H
#define EBPFTOP_COLLECT_STATS_H

#include <stdbool.h>

#define STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

/* Whether run-time stats are on, and who turned them on. */
enum stats_state {
	STATS_OFF,
	STATS_ON_FD,		/* ebpftop holds a BPF_ENABLE_STATS fd */
	STATS_ON_SYSCTL,	/* ebpftop set kernel.bpf_stats_enabled */
	STATS_ON_SYSTEM,	/* already on system-wide before ebpftop */
};

/* "on", "on (sysctl)", "on (system-wide)" or "off". */
const char *stats_state_str(enum stats_state s);
static inline bool stats_state_on(enum stats_state s)
{
	return s != STATS_OFF;
}

struct stats_ctl;

/*
 * Take charge of run-time stats. With @enable, turn them on: through a
 * BPF_ENABLE_STATS fd (dropped by the kernel when ebpftop dies, however it
 * dies), or, where that call is missing or @force_sysctl is set, by
 * writing the sysctl (restored by stats_ctl__free and by
 * stats_emergency_restore). Returns 0 or a negative errno.
 */
int stats_ctl__new(struct stats_ctl **out, bool enable, bool force_sysctl);
/* Give back what ebpftop turned on; restore the sysctl if it changed it. */
void stats_ctl__free(struct stats_ctl *c);

/* Current state; reads the sysctl, which its owner may change at any time. */
enum stats_state stats_ctl__state(struct stats_ctl *c);

/*
 * Turn stats on or off. Returns 0, or -EBUSY when they are on system-wide
 * and only their owner may turn them off, or another negative errno.
 */
int stats_ctl__toggle(struct stats_ctl *c);

/* Async-signal-safe: undo ebpftop's sysctl write, if any. */
void stats_emergency_restore(void);

#endif
