/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_READER_IMPL_H
#define EBPFTOP_INSIGHTS_READER_IMPL_H

/*
 * Private to the insights reader: its state, shared by reader.c (reading
 * programs) and ksyms.c (naming their call targets).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insights/reader.h"

/* A call target's kernel address and the name shown for it. */
struct ksym {
	uint64_t addr;
	const char *name;	/* interned; NULL until looked up */
};

/* One call site kind of a program while it is being read. */
struct raw_call {
	uint64_t addr;
	uint32_t calls;
	uint8_t kind;
};

struct insights {
	struct prog_insights **progs;	/* ascending id */
	size_t nr, cap;
	/*
	 * Their ids alongside, the first nids of them (all, unless memory
	 * ran out): a steady refresh compares these, not the programs.
	 */
	uint32_t *ids;
	size_t nids, ids_cap;
	/* Call targets seen so far, ascending address. */
	struct ksym *syms;
	size_t nr_syms, cap_syms;
	/* Interned names, each allocated once. */
	char **names;
	size_t nr_names, cap_names;
	/* Helper names from the kernel BTF's enum bpf_func_id, sorted. */
	char **helpers;
	size_t nr_helpers;
	bool helpers_read;
	uint64_t call_base;		/* address of __bpf_call_base; 0 unknown */
	bool base_read;
	/* insights__sync()'s arrays, grown as needed and kept. */
	struct prog_insights **spare;	/* the next progs array */
	size_t spare_cap;
	struct raw_call **rc;		/* call targets of each new program */
	uint32_t *nrc;
	size_t rc_cap;
	/* read_prog()'s buffers, grown as needed and kept for the next. */
	void *scratch[6];
	size_t scratch_len[6];
	/* Per program call targets until the batch's names are resolved. */
	struct raw_call **pending;	/* parallel to the new programs */
};

/* Look up __bpf_call_base in /proc/kallsyms, the first time only. */
void insights_syms_base(struct insights *in);

/* A call target to name: 0 or -ENOMEM. */
int insights_syms_add(struct insights *in, uint64_t addr);

/* Name every call target added so far (helper names first, once). */
void insights_syms_name_all(struct insights *in);

/* The interned display name of a call site; NULL on ENOMEM. */
const char *insights_call_name(struct insights *in, const struct raw_call *rc);

#endif
