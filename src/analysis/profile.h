/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the profiler measured, as plain data: the profiler fills it, the
 * TUI and the batch writers print it, and none of them talk to each other.
 * Also the pure arithmetic behind it (per-run values, enabled share,
 * Top-Down level 1), so that it is unit-tested without a PMU.
 */
#ifndef EBPFTOP_ANALYSIS_PROFILE_H
#define EBPFTOP_ANALYSIS_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROFILE_MAX_EVENTS 8
#define PROFILE_NAME_MAX 64

/* What an event measures, for the derived figures (IPC, per 1k insns). */
enum prof_metric {
	PM_OTHER,
	PM_CYCLES,
	PM_INSTRUCTIONS,
	PM_LLC_MISSES,
	PM_L1D_LOADS,
	PM_L1D_MISSES,
	PM_ITLB_MISSES,
	PM_DTLB_MISSES,
	PM_CPU_CLOCK,
	PM_TASK_CLOCK,
	PM__MAX,
};

/* Which Top-Down level-1 formula a CPU family gets (ebpftop(8), "Top-Down level 1"). */
enum td_model {
	TD_NONE,
	TD_SKL,		/* Skylake-class, 4 wide: SKL/KBL/CFL, SKX/CLX */
	TD_ICL,		/* Ice Lake, 5 wide, generic counters */
	TD_SPR,		/* Sapphire Rapids, 6 wide, generic counters */
	TD_ZEN4,	/* AMD Zen 4, 6 dispatch slots */
};

/* The part an event plays in a Top-Down formula. */
enum td_role {
	TDR_NONE,
	TDR_CYCLES,		/* unhalted core cycles */
	TDR_SLOTS,		/* TOPDOWN.SLOTS */
	TDR_UOPS_ISSUED,	/* UOPS_ISSUED.ANY */
	TDR_RETIRED,		/* UOPS_RETIRED.RETIRE_SLOTS / .SLOTS, Zen 4 ex_ret_ops */
	TDR_FE_BUBBLES,		/* IDQ_UOPS_NOT_DELIVERED.CORE, Zen 4 no_ops_from_frontend */
	TDR_RECOVERY,		/* INT_MISC.RECOVERY_CYCLES */
	TDR_UOP_DROPPING,	/* INT_MISC.UOP_DROPPING */
	TDR_BE_SLOTS,		/* TOPDOWN.BACKEND_BOUND_SLOTS, Zen 4 backend_stalls */
	TDR_CLEARS,		/* INT_MISC.CLEARS_COUNT */
	TDR_DISPATCHED,		/* Zen 4 de_src_op_disp.all */
	TDR__MAX,
};

/* Top-Down level 1, as fractions of all pipeline slots (0..1 each). */
struct topdown {
	double retiring;
	double bad_speculation;
	double frontend_bound;
	double backend_bound;
};

/* Short name of a model's CPU family: "Skylake-class", "Zen 4". */
const char *td_model_name(enum td_model m);

/*
 * Top-Down level 1 of @m from event totals indexed by role (NAN for a role
 * not measured). Each share is clamped to 0..1: counts taken over short
 * windows are noisy. Returns 0, or -EINVAL when an input the formula needs
 * is missing or there were no slots.
 */
int topdown_compute(enum td_model m, const double in[TDR__MAX],
		    struct topdown *out);

/* The roles formula @m needs, as a bit mask of (1 << role). */
unsigned int topdown_needs(enum td_model m);

/* One event of a profile. */
struct profile_event {
	char name[PROFILE_NAME_MAX];	/* as the user named it: "cycles" */
	enum prof_metric metric;
	enum td_role role;
	uint64_t total;			/* summed over complete runs */
	double per_run;			/* total / complete runs; NAN: none yet */
	double enabled_pct;		/* running / enabled time; NAN: never enabled */
	double baseline_per_run;	/* the profiler's own window (calibration); NAN */
};

/* A profile since attach: what output/ and ui/ print. */
struct profile_report {
	uint32_t id;			/* the profiled program */
	char prog_name[128];		/* its full (BTF) name */
	uint64_t runs;			/* every run seen since attach */
	uint64_t partial_runs;		/* counted but not measured in full */
	uint64_t read_errors;		/* runs where a counter could not be read */
	uint64_t unpaired;		/* exits without a matching entry */
	size_t nr_events;
	struct profile_event ev[PROFILE_MAX_EVENTS];
	bool has_topdown;
	struct topdown td;
	char topdown_note[96];		/* why there is no Top-Down, "" if there is */
	double overhead_ns_per_run;	/* calibrated cost per run; NAN: unknown */
	char overhead_note[128];	/* why it is unknown, "" otherwise */
	char pmu[32];			/* libpfm4 PMU the events were encoded for */
	enum td_model td_model;
};

/* Sums over every CPU of what the BPF side accumulated. */
struct profile_totals {
	uint64_t runs;
	uint64_t partial;
	uint64_t read_errors;
	uint64_t unpaired;
	uint64_t counter[PROFILE_MAX_EVENTS];	/* complete runs only */
	uint64_t enabled[PROFILE_MAX_EVENTS];	/* every measured run */
	uint64_t running[PROFILE_MAX_EVENTS];
};

/*
 * Fill the numbers of @r (whose names, metrics and roles are set) from
 * @t: totals, per-run values, enabled shares and Top-Down.
 */
void profile_report_fill(struct profile_report *r,
			 const struct profile_totals *t);

/* Index of the first event measuring @m, or -1. */
int profile_find(const struct profile_report *r, enum prof_metric m);

/* Instructions per cycle over complete runs; NAN when not measured. */
double profile_ipc(const struct profile_report *r);

/* Events of metric @m per 1,000 instructions; NAN when not measured. */
double profile_per_kinsn(const struct profile_report *r, enum prof_metric m);

#endif
