/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_READER_H
#define EBPFTOP_INSIGHTS_READER_H

/*
 * Reads programs' insights from the kernel, once per program, and keeps
 * them while the program is loaded. Call targets are named from
 * /proc/kallsyms; helper names are checked against the kernel BTF's enum
 * bpf_func_id; subprogram names come from the program's BTF func_info.
 */

#include <stddef.h>
#include <stdint.h>

#include "insights/insights.h"

struct insights;

/* NULL on ENOMEM. Nothing is read until the first sync. */
struct insights *insights__new(void);
void insights__free(struct insights *in);

/*
 * Keep insights for exactly the programs @ids (ascending): read the ones
 * not seen before, drop the ones gone. 0 or -ENOMEM; a program that
 * cannot be read gets an entry with err set.
 */
int insights__sync(struct insights *in, const uint32_t *ids, size_t n);

/*
 * Insights of a program from its whole info (as the program table reads a
 * new program): the next sync takes them rather than reading the program
 * again. 0 or -ENOMEM (then the sync reads it).
 */
struct prog_info_full;
int insights__add(struct insights *in, struct prog_info_full *f);

/* The insights of program @id, or NULL if it was not synced. */
const struct prog_insights *insights__find(const struct insights *in,
					   uint32_t id);

/*
 * The same, for the @i-th id given to the last insights__sync(): found
 * in one step when every program of that sync was read.
 */
const struct prog_insights *insights__at(const struct insights *in, size_t i,
					 uint32_t id);

/* Programs held. */
size_t insights__count(const struct insights *in);

#endif
