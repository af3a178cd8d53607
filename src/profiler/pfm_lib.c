// SPDX-License-Identifier: GPL-2.0-only
/* libpfm4, opened when the profiler first needs it (pfm_lib.h). */
#include "config.h"

#include "profiler/pfm_lib.h"

struct pfm_lib libpfm;

static const struct lazy_sym pfm_syms[] = {
	LAZY_SYM(struct pfm_lib, pfm_initialize),
	LAZY_SYM(struct pfm_lib, pfm_strerror),
	LAZY_SYM(struct pfm_lib, pfm_get_pmu_info),
	LAZY_SYM(struct pfm_lib, pfm_get_os_event_encoding),
};

static struct lazy_lib pfm_lazy = {
	.soname = EBPFTOP_LIBPFM_SONAME,
	.package = "libpfm4",
	.syms = pfm_syms,
	.nr_syms = sizeof(pfm_syms) / sizeof(pfm_syms[0]),
	.table = &libpfm,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

int pfm_lib_load(char *msg, size_t len)
{
	return lazy_lib_load(&pfm_lazy, msg, len);
}
