/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A program's map from kernel addresses to source lines: the JIT ranges
 * of its functions (jited_ksyms, jited_func_lens), its line info (BTF
 * strings for file and text) and libbpf's bpf_prog_linfo for the
 * address lookup; and the rule that charges a sample to a line, through
 * the callchain when the sample landed in a helper or kfunc.
 */
#ifndef EBPFTOP_HOT_LINES_H
#define EBPFTOP_HOT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bpf_prog_info;

/* One distinct source line of a program (or a function's "no line" bucket). */
struct hot_line_def {
	uint32_t func;		/* index into the program's functions */
	const char *file;	/* NULL for the no-line bucket */
	uint32_t line;		/* 0 for the no-line bucket */
	uint32_t col;		/* the first column seen on the line */
	const char *source;	/* the line's text; NULL if none */
};

struct hot_prog {
	uint32_t id;
	char name[64];		/* full name (BTF), else the kernel's 15 characters */
	char tag[17];
	uint64_t load_time;	/* bpf_prog_info.load_time: a reload changes it */
	bool has_line_info;
	uint32_t nr_funcs;
	uint64_t *func_start;	/* JIT address of each function */
	uint32_t *func_len;
	char **func_name;
	size_t nr_lines;	/* distinct lines, then one no-line bucket per function */
	struct hot_line_def *lines;
	/* line info records, sorted by instruction offset, and their line */
	uint32_t nr_linfo;
	uint32_t *linfo_insn;
	uint32_t *linfo_line;
	struct bpf_prog_linfo *linfo;
};

/*
 * Build the map from @info (as bpf_prog_get_info_by_fd filled it, its
 * arrays in user memory). @str resolves a BTF string offset (NULL when
 * unknown); @func_names names each function (NULL entries or a NULL
 * array: "<name>" for function 0, "func<i>" for the others). Strings are
 * copied. 0 or -ENOMEM / -EINVAL (inconsistent arrays).
 */
int hot_prog__build(const struct bpf_prog_info *info,
		    const char *(*str)(void *ctx, uint32_t off), void *ctx,
		    const char *const *func_names, struct hot_prog **out);

/*
 * Load program @id from the kernel and build its map. Refusals (not
 * JIT-compiled, addresses hidden by kernel.kptr_restrict, the program is
 * gone) return a negative errno with a one-line message in @msg. A
 * program without line info is not refused here: has_line_info says so.
 */
int hot_prog__load(uint32_t id, struct hot_prog **out, char *msg, size_t len);

void hot_prog__free(struct hot_prog *p);

/* The function whose JIT range holds @addr, or -1. */
int hot_prog__func_of(const struct hot_prog *p, uint64_t addr);

/*
 * The line of @addr: its function's index (or -1 when @addr is outside
 * every range of the program) and in *@line the index into p->lines
 * (the function's no-line bucket when line info has no record for it).
 */
int hot_prog__lookup(const struct hot_prog *p, uint64_t addr, size_t *line);

/* Kernel text ranges that mark an interrupt boundary in a callchain. */
#define HOT_IRQ_RANGES_MAX 4
struct hot_irq_ranges {
	unsigned int n;
	uint64_t start[HOT_IRQ_RANGES_MAX], end[HOT_IRQ_RANGES_MAX];
};

/* Read them from /proc/kallsyms (none found: n == 0). */
void hot_irq_ranges_load(struct hot_irq_ranges *r);

enum hot_hit {
	HOT_MISS,	/* not this program's time */
	HOT_OWN,	/* the sample's address is in the program */
	HOT_HELPER,	/* in a helper or kfunc the program called */
};

/*
 * Charge one sample: its @ip and kernel callchain (@chain, @n entries,
 * context markers included). HOT_HELPER when the first frame inside the
 * program is reached through return addresses (looked up at address - 1)
 * without crossing an interrupt entry (@irq, may be NULL) or leaving the
 * kernel part of the chain. *@line is set for HOT_OWN and HOT_HELPER.
 */
enum hot_hit hot_prog__classify(const struct hot_prog *p,
				const struct hot_irq_ranges *irq, uint64_t ip,
				const uint64_t *chain, uint32_t n,
				size_t *line);

#endif
