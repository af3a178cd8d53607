/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_DEMO_DEMO_H
#define EBPFTOP_DEMO_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The workshop demo: an XDP classifier on a private veth pair inside a
 * network namespace only ebpftop's fds hold, fed by a traffic generator
 * thread, with a switch that lands and reverts a per-packet regression.
 */

/* Traffic classes the classifier counts, in display order. */
enum demo_class {
	DEMO_FIZZBUZZ,
	DEMO_FIZZ,
	DEMO_BUZZ,
	DEMO_FIBONACCI,
	DEMO_OTHER,
	DEMO__CLASSES,
};

struct demo;

struct demo_params {
	unsigned int pps;		/* packets per second sent (--demo-pps) */
	double regress_after_s;		/* land the regression after this; 0: never */
};

/* Names of the classes: "fizzbuzz", "fizz", "buzz", "fibonacci", "other". */
const char *demo_class_name(enum demo_class c);

/*
 * Build the workload and start the traffic. Returns 0 or a negative errno,
 * with a one-line explanation in @msg.
 */
int demo__new(struct demo **out, const struct demo_params *p, char *msg,
		size_t msglen);
/* Stop the traffic and tear everything down (also safe on NULL). */
void demo__free(struct demo *d);

/* Land (true) or revert (false) the regression. 0 or -errno. */
int demo__set_regressed(struct demo *d, bool on);
bool demo__regressed(const struct demo *d);
/* Call once per refresh: lands the regression when --demo-regress-after is due. */
void demo__tick(struct demo *d);

/* The classifier's program id (to highlight its row). */
uint32_t demo__prog_id(const struct demo *d);
/* Packets per class since the start, summed over CPUs. 0 or -errno. */
int demo__counts(struct demo *d, uint64_t counts[DEMO__CLASSES]);

#endif
