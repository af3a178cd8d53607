/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_ISA_H
#define EBPFTOP_INSIGHTS_ISA_H

/*
 * The BPF instruction-set level a program needs, read from its
 * instructions. Pure: no I/O, no libbpf.
 *
 * Levels follow the instruction groups the compilers' -mcpu versions
 * enable: v2 adds the JLT/JLE/JSLT/JSLE jumps, v3 the JMP32 class, 32-bit
 * ALU operations and the atomic operations beyond a plain add, v4 the
 * sign-extending loads and moves, unconditional byte swaps, signed
 * division and modulo, the 32-bit-offset gotol, gotox and load-acquire /
 * store-release. Instructions the kernel's verifier writes itself (the
 * division guards, zero extension, inlined map lookups and bpf_loop, any
 * use of its scratch register) are recognised and counted apart, so that a
 * program is not said to need what the kernel added.
 */

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#define ISA_LEVEL_MAX 4

struct isa_counts {
	int level;		/* 1..4: the lowest level with every instruction */
	uint32_t insns;		/* instructions (a 64-bit load counts once) */
	uint32_t needs[ISA_LEVEL_MAX + 1]; /* [2..4]: instructions needing vN */
	uint32_t kernel;	/* written by the verifier: counted toward no level */
};

/*
 * The level of @insn on its own (1..4), ignoring context. @insn must not
 * be the second half of a 64-bit immediate load.
 */
int isa_insn_level(const struct bpf_insn *insn);

/*
 * Count @n instruction slots of a program. @xlated: the instructions are
 * the kernel's translation, so recognise what the verifier inserted; false
 * for a compiler's own output (an object file), where nothing is skipped.
 */
void isa_classify(const struct bpf_insn *insns, size_t n, int xlated,
		  struct isa_counts *c);

/* "v1" .. "v4"; "?" for anything else. */
const char *isa_level_str(int level);

#endif
