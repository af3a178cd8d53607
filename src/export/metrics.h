/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ebpftop exports to Prometheus, built from one refresh: the metric
 * families and their samples (see ebpftop(8), EXPORT). Pure: no I/O.
 */
#ifndef EBPFTOP_EXPORT_METRICS_H
#define EBPFTOP_EXPORT_METRICS_H

#include "analysis/snapshot.h"
#include "export/openmetrics.h"

/*
 * Describe @snap into @w (reset first): globals, one set of series per
 * program keyed by prog_id, and the profile when one runs. @refresh_s is
 * how long the refresh took (NAN: unknown). Returns 0 or -ENOMEM.
 */
int metrics_build(struct om_writer *w, const struct snapshot *snap,
		  double refresh_s);

#endif
