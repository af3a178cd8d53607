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
#include "util/prog_info.h"

/* A call target's kernel address and the name shown for it. */
struct ksym {
	uint64_t addr;
	const char *name;	/* interned; NULL until looked up */
};

/*
 * One call site kind of a program while it is being read: a target
 * __bpf_call_base + @imm until resolved, then its address @addr.
 */
struct raw_call {
	uint64_t addr;
	int32_t imm;
	uint32_t calls;
	uint8_t kind;
};

/* A program read by insights__add(), until the next sync takes it. */
struct pending_prog {
	struct prog_insights *p;
	struct raw_call *rc;
	uint32_t nrc;
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
	/*
	 * The BPF program that names addresses (ksym_names.bpf.c), loaded
	 * for one sync; kallsyms_only once it failed to load, or when
	 * told so (EBPFTOP_NO_KSYM_PROG): then /proc/kallsyms is read.
	 */
	struct ksym_names_bpf *namer;
	bool kallsyms_only;
	/* insights__sync()'s arrays, grown as needed and kept. */
	struct prog_insights **spare;	/* the next progs array */
	size_t spare_cap;
	struct raw_call **rc;		/* call targets of each new program */
	uint32_t *nrc;
	size_t rc_cap;
	/* read_prog()'s buffers, grown as needed and kept for the next. */
	struct prog_info_full full;
	void *scratch[1];
	size_t scratch_len[1];
	/* Programs added since the last sync, in the order added. */
	struct pending_prog *incoming;
	size_t nr_incoming, cap_incoming;
};

struct ksym_names_bpf;

/* Look up __bpf_call_base, the first time only. */
void insights_syms_base(struct insights *in);

/* A call target to name: 0 or -ENOMEM. */
int insights_syms_add(struct insights *in, uint64_t addr);

/*
 * Name every call target added so far (helper names first, once), then
 * let go of what naming them needed.
 */
void insights_syms_name_all(struct insights *in);

/* Let go of the naming program (insights__free()). */
void insights_syms_free(struct insights *in);

/* The interned display name of a call site; NULL on ENOMEM. */
const char *insights_call_name(struct insights *in, const struct raw_call *rc);

#endif
