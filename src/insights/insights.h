/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_INSIGHTS_H
#define EBPFTOP_INSIGHTS_INSIGHTS_H

/*
 * What a program is made of, read once per program from the kernel's
 * translated (post-verifier) instructions and its info: ISA level,
 * subprograms, tail calls, helper and kfunc calls, maps, code sizes.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insights/isa.h"

enum insight_call_kind {
	INSIGHT_HELPER,
	INSIGHT_KFUNC,
};

struct insight_call {
	const char *name;	/* "bpf_map_lookup_elem"; owned by the cache */
	uint32_t calls;		/* call sites in the program */
	uint8_t kind;		/* enum insight_call_kind */
};

struct insight_subprog {
	char *name;		/* from BTF func_info; NULL without BTF */
	uint32_t insns;		/* translated instructions (a 64-bit load counts once) */
	uint32_t jited_len;	/* bytes of JIT code; 0 if unknown */
	uint32_t calls;		/* bpf2bpf call sites that reach it */
};

struct insight_map {
	uint32_t id;
	uint32_t type;		/* enum bpf_map_type */
	const char *type_name;	/* "hash", "array", ...; static */
	char name[16];
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
};

struct prog_insights {
	uint32_t id;
	int err;		/* 0, or -errno when nothing could be read */
	bool have_isa;		/* false: the kernel showed no instructions */
	bool calls_hidden;	/* the kernel hid call targets (no raw dumps) */
	struct isa_counts isa;
	uint32_t xlated_len;	/* bytes */
	uint32_t jited_len;	/* bytes */
	uint32_t jit_pages;	/* 4 KiB pages the JIT image touches; 0 unknown */
	uint32_t tail_calls;	/* tail call sites */
	uint32_t nr_subprogs;	/* the main program is subprogram 0 */
	struct insight_subprog *subprogs;
	uint32_t nr_calls;	/* distinct helpers and kfuncs, most called first */
	struct insight_call *calls;
	uint32_t nr_maps;
	struct insight_map *maps;
};

/* Free what @p owns (not the names the cache owns). */
void prog_insights_clear(struct prog_insights *p);

/* Programs shorter than this get no ISA advice. */
#define ISA_ADVICE_MIN_INSNS 32

/*
 * The one line of advice for the ISA level, or NULL: programs of some
 * size that use nothing beyond v1 or v2.
 */
const char *isa_advice(const struct prog_insights *p);

/* Lines insights_describe() writes at most. */
#define INSIGHT_LINES_MAX 8

/* One "label  text" line of the details pane. */
#define INSIGHT_LINE_MAX 1024
struct insight_line {
	const char *label;
	char text[INSIGHT_LINE_MAX];
};

/*
 * The details pane's lines for @p: ISA level and counts, the advice if
 * any, subprograms, calls, maps, code size. Returns the number of lines
 * written to @out (at most @max).
 */
size_t insights_describe(const struct prog_insights *p,
			 struct insight_line *out, size_t max);

#endif
