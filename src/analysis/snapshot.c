// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/snapshot.h"

#include <math.h>

const char *stats_state_str(enum stats_state s)
{
	switch (s) {
	case STATS_ON_FD:
		return "on";
	case STATS_ON_SYSCTL:
		return "on (sysctl)";
	case STATS_ON_SYSTEM:
		return "on (system-wide)";
	case STATS_OFF:
	default:
		return "off";
	}
}

double snapshot_total_share(const struct snapshot *snap)
{
	if (!snap->ncpus || isnan(snap->total_cpu_pct))
		return NAN;
	return snap->total_cpu_pct / snap->ncpus;
}
