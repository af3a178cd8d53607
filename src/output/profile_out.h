/* SPDX-License-Identifier: GPL-2.0-only */
/* The profile of a program in batch output: JSON value and text lines. */
#ifndef EBPFTOP_OUTPUT_PROFILE_OUT_H
#define EBPFTOP_OUTPUT_PROFILE_OUT_H

#include <stdio.h>

#include "analysis/profile.h"
#include "util/json_writer.h"

/*
 * The record's "profile" value: null when @r is NULL, else
 * {"id", "runs", "partial_runs", "events": [{"name", "total", "per_run",
 * "enabled_pct"}], "topdown": null | {"retiring", "bad_speculation",
 * "frontend_bound", "backend_bound"}, "overhead_ns_per_run"}.
 */
void profile_print_json(struct jw *w, const struct profile_report *r);

/* A few text lines after the table; nothing when @r is NULL. */
void profile_print_text(FILE *f, const struct profile_report *r);

#endif
