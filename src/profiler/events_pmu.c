// SPDX-License-Identifier: GPL-2.0-only
/* Which core PMU this CPU has: libpfm4 start-up, the CPU family, its Top-Down model. */
#include "config.h"

#include "profiler/events_impl.h"
#include "profiler/pfm_lib.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

struct events_pfm events_pfm;

enum pmu_family events_family_of(const char *pmu_name)
{
	static const struct {
		const char *name;
		enum pmu_family fam;
	} map[] = {
		{ "skl", FAM_SKL },	  { "skx", FAM_SKL },
		{ "clx", FAM_SKL },	  { "icl", FAM_ICL },
		{ "icx", FAM_ICL },	  { "spr", FAM_SPR },
		{ "emr", FAM_SPR },	  { "amd64_fam19h_zen4", FAM_ZEN4 },
	};

	for (size_t i = 0; pmu_name && i < sizeof(map) / sizeof(map[0]); i++) {
		if (!strcmp(pmu_name, map[i].name))
			return map[i].fam;
	}
	return FAM_GENERIC;
}

enum td_model events_td_model(enum pmu_family f)
{
	switch (f) {
	case FAM_SKL:
		return TD_SKL;
	case FAM_ICL:
		return TD_ICL;
	case FAM_SPR:
		return TD_SPR;
	case FAM_ZEN4:
		return TD_ZEN4;
	case FAM_GENERIC:
	default:
		return TD_NONE;
	}
}

bool events_cpu_is_zen4(unsigned int family, unsigned int model)
{
	/* Family 19h: Zen 4 is models 10h-1Fh and 60h and up (Zen 3 the rest). */
	return family == 0x19 &&
	       ((model >= 0x10 && model <= 0x1f) || model >= 0x60);
}

/* Whether this CPU is a Zen 4 that libpfm4 4.13 may not recognise. */
static bool cpu_is_zen4(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, family, model;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	/* "AuthenticAMD" */
	if (b != 0x68747541 || d != 0x69746e65 || c != 0x444d4163)
		return false;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf) {
		family += (a >> 20) & 0xff;
		model |= ((a >> 16) & 0xf) << 4;
	}
	return events_cpu_is_zen4(family, model);
#else
	return false;
#endif
}

/* The first present core PMU, preferring one whose events we know. */
static void pick_core_pmu(void)
{
	char fallback[32] = "";
	pfm_pmu_info_t pi;
	int p;

	snprintf(events_pfm.pmu, sizeof(events_pfm.pmu), "perf");
	events_pfm.fam = FAM_GENERIC;
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (libpfm.pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type != PFM_PMU_TYPE_CORE || !pi.name)
			continue;
		if (events_family_of(pi.name) != FAM_GENERIC) {
			snprintf(events_pfm.pmu, sizeof(events_pfm.pmu), "%s", pi.name);
			events_pfm.fam = events_family_of(pi.name);
			return;
		}
		/* The architectural PMUs are the last resort. */
		if (!fallback[0] || !strcmp(fallback, "ix86arch") ||
		    !strcmp(fallback, "amd64"))
			snprintf(fallback, sizeof(fallback), "%s", pi.name);
	}
	if (fallback[0])
		snprintf(events_pfm.pmu, sizeof(events_pfm.pmu), "%s", fallback);
}

int events_init(char *msg, size_t len)
{
	bool zen4 = false;
	int ret;

	if (events_pfm.done)
		goto out;
	events_pfm.done = true;
	/*
	 * libpfm4 4.13 activates its Zen 4 PMU for model 11h only: on other
	 * Zen 4 models, encode for it anyway (unless the user forces a PMU).
	 */
	if (!getenv("LIBPFM_FORCE_PMU") && cpu_is_zen4()) {
		zen4 = true;
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	}
	/* Loaded now, not at start: a plain run never needs it. */
	ret = pfm_lib_load(events_pfm.msg, sizeof(events_pfm.msg));
	if (ret) {
		events_pfm.err = ret;
		goto out;
	}
	ret = libpfm.pfm_initialize();
	if (ret != PFM_SUCCESS) {
		events_pfm.err = -ENODEV;
		snprintf(events_pfm.msg, sizeof(events_pfm.msg),
			 "libpfm4 does not start here: %s",
			 libpfm.pfm_strerror(ret));
		goto out;
	}
	pick_core_pmu();
	if (zen4 && events_pfm.fam != FAM_ZEN4) {
		snprintf(events_pfm.pmu, sizeof(events_pfm.pmu), "amd64_fam19h_zen4");
		events_pfm.fam = FAM_ZEN4;
	}
out:
	if (events_pfm.err && msg && len)
		snprintf(msg, len, "%s", events_pfm.msg);
	return events_pfm.err;
}

const char *events_pmu_name(void)
{
	return events_pfm.done && !events_pfm.err ? events_pfm.pmu : "perf";
}

