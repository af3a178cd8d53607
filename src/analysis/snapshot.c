// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/snapshot.h"

#include <math.h>

double snapshot_total_share(const struct snapshot *snap)
{
	if (!snap->ncpus || isnan(snap->total_cpu_pct))
		return NAN;
	return snap->total_cpu_pct / snap->ncpus;
}
