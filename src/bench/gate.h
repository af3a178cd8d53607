/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_GATE_H
#define EBPFTOP_BENCH_GATE_H

/*
 * The CI gate: --bench on an object, and the same --bmf/--record/--compare
 * at the end of a live batch run (-b -n N), where each refresh is a round.
 */

#include <stddef.h>

#include "analysis/snapshot.h"
#include "cli.h"

/* Exit status of a --compare that found a regression. */
#define EXIT_REGRESSED 3

/* Run ebpftop --bench; returns the exit status (0, 1, 2 or 3). */
int bench_main(const struct ebpftop_opts *o);

struct live_gate;

/*
 * Start gathering the live rounds for @o's --bmf/--record/--compare. The
 * baseline is read now, so a bad one stops ebpftop before it measures:
 * 0, -EINVAL (bad usage: @msg says why) or another negative errno.
 */
int live_gate__new(const struct ebpftop_opts *o, const char *kernel,
		   struct live_gate **out, char *msg, size_t msglen);
/* One refresh: the rows the batch output shows (filtered). */
void live_gate__refresh(struct live_gate *g, const struct snapshot *snap,
			const struct prog_row *rows, size_t n);
/* Write what was asked for; returns the exit status (0, 1 or 3). */
int live_gate__finish(struct live_gate *g);
void live_gate__free(struct live_gate *g);

#endif
