/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_JSON_H
#define EBPFTOP_INSIGHTS_JSON_H

#include "insights/insights.h"
#include "util/json_writer.h"

/*
 * The JSON values of a program's insights, one member each (the key is
 * written already); each is null when @p is NULL or could not be read.
 */
void insights_json_isa(struct jw *w, const struct prog_insights *p);
void insights_json_subprogs(struct jw *w, const struct prog_insights *p);
void insights_json_tail_calls(struct jw *w, const struct prog_insights *p);
void insights_json_helpers(struct jw *w, const struct prog_insights *p);
void insights_json_maps(struct jw *w, const struct prog_insights *p);
void insights_json_xlated(struct jw *w, const struct prog_insights *p);
void insights_json_jited(struct jw *w, const struct prog_insights *p);
void insights_json_pages(struct jw *w, const struct prog_insights *p);

/* All of them with their keys: "isa", "subprogs", ... "jit_pages". */
void insights_json_members(struct jw *w, const struct prog_insights *p);

#endif
