/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_PROFILER_PFM_LIB_H
#define EBPFTOP_PROFILER_PFM_LIB_H

/*
 * The libpfm4 functions the profiler calls, through libpfm loaded at first
 * use (util/lazy_lib.h): a plain run never maps it. Call them as
 * libpfm.pfm_initialize() once pfm_lib_load() returned 0.
 */

#include <stddef.h>

/* The kernel's struct first: libpfm4 then skips its own copy. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "util/lazy_lib.h"

struct pfm_lib {
	LAZY_FN(pfm_initialize);
	LAZY_FN(pfm_strerror);
	LAZY_FN(pfm_get_pmu_info);
	LAZY_FN(pfm_get_os_event_encoding);
};

extern struct pfm_lib libpfm;

/* 0, or -ELIBACC with one line in @msg (lazy_lib_load()). */
int pfm_lib_load(char *msg, size_t len);

#endif
