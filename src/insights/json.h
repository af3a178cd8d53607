/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_JSON_H
#define EBPFTOP_INSIGHTS_JSON_H

#include "insights/insights.h"
#include "output/json_writer.h"

/*
 * The insights members of one program's JSON object: "isa", "subprogs",
 * "tail_calls", "helpers", "maps", "xlated_bytes", "jited_bytes",
 * "jit_pages". @p NULL or unreadable: each is null.
 */
void insights_json_members(struct jw *w, const struct prog_insights *p);

#endif
