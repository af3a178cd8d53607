// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/isa.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Encodings newer than the uapi headers the build may have. */
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif
#define ISA_MODE_MEMSX 0x80	/* sign-extending load */
#define ISA_MODE_PROBE_MEMSX 0x40 /* the verifier's form of it for BTF pointers */
#define ISA_MODE_NOSPEC 0xc0	/* BPF_ST: the verifier's speculation barrier */
#define ISA_ATOMIC_LOAD_ACQ 0x100
#define ISA_ATOMIC_STORE_REL 0x110
#define ISA_REG_AX 11		/* the verifier's scratch register, not in the ISA */
#define ISA_MAX_LOOPS (1 << 23) /* bpf_loop's limit, in its inlined check */
#define ISA_E2BIG 7

const char *isa_level_str(int level)
{
	static const char *const s[] = { "?", "v1", "v2", "v3", "v4" };

	return level >= 1 && level <= ISA_LEVEL_MAX ? s[level] : s[0];
}

static bool is_ld_imm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_DW | BPF_IMM);
}

static bool is_movsx_off(int16_t off, bool alu64)
{
	return off == 8 || off == 16 || (alu64 && off == 32);
}

int isa_insn_level(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	uint8_t mode = BPF_MODE(in->code);
	bool x = BPF_SRC(in->code) == BPF_X;

	switch (cls) {
	case BPF_LDX:
		return mode == ISA_MODE_MEMSX || mode == ISA_MODE_PROBE_MEMSX ?
			       4 : 1;
	case BPF_STX:
		if (mode != BPF_ATOMIC || in->imm == BPF_ADD)
			return 1;
		if (in->imm == ISA_ATOMIC_LOAD_ACQ ||
		    in->imm == ISA_ATOMIC_STORE_REL)
			return 4;
		return 3;	/* fetch, and/or/xor, xchg, cmpxchg */
	case BPF_ALU:
		if (op == BPF_END)
			return 1;	/* le/be conversions were always there */
		if ((op == BPF_MOV && x && is_movsx_off(in->off, false)) ||
		    ((op == BPF_DIV || op == BPF_MOD) && in->off == 1))
			return 4;
		return 3;
	case BPF_ALU64:
		if (op == BPF_END)
			return 4;	/* unconditional bswap */
		if ((op == BPF_MOV && x && is_movsx_off(in->off, true)) ||
		    ((op == BPF_DIV || op == BPF_MOD) && in->off == 1))
			return 4;
		return 1;
	case BPF_JMP:
		if (op == BPF_JLT || op == BPF_JLE || op == BPF_JSLT ||
		    op == BPF_JSLE)
			return 2;
		if (op == BPF_JA && x)
			return 4;	/* gotox */
		return 1;
	case BPF_JMP32:
		return op == BPF_JA ? 4 : 3;	/* gotol : 32-bit jumps */
	default:			/* BPF_LD, BPF_ST */
		return 1;
	}
}

static bool is_code(const struct bpf_insn *in, uint8_t code)
{
	return in->code == code;
}

static bool uses_ax(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);

	if (cls == BPF_LD)
		return false;	/* src_reg carries pseudo kinds there */
	if ((cls == BPF_JMP || cls == BPF_JMP32) &&
	    (BPF_OP(in->code) == BPF_CALL || BPF_OP(in->code) == BPF_EXIT))
		return false;
	return in->dst_reg == ISA_REG_AX || in->src_reg == ISA_REG_AX;
}

/* `if (w|r)reg op 0 goto +off`, the first half of a division guard. */
static bool is_zero_test(const struct bpf_insn *in, uint8_t op, uint8_t reg,
			 int16_t off)
{
	uint8_t cls = BPF_CLASS(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) &&
	       in->code == (cls | op | BPF_K) && in->dst_reg == reg &&
	       in->imm == 0 && in->off == off;
}

static bool is_ja(const struct bpf_insn *in, int16_t off)
{
	return is_code(in, BPF_JMP | BPF_JA) && in->off == off;
}

/* `wD = wD` or `wD ^= wD` on the division's destination. */
static bool is_self32(const struct bpf_insn *in, uint8_t op, uint8_t reg)
{
	return is_code(in, BPF_ALU | op | BPF_X) && in->dst_reg == reg &&
	       in->src_reg == reg && in->imm == 0 && in->off == 0;
}

static void mark(bool *k, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		k[i] = true;
}

/*
 * The guards do_misc_fixups() wraps around a division or modulo by a
 * register: `if rS != 0 goto +2; wD ^= wD; goto +1; rD /= rS` and
 * `if rS == 0 goto +1|+2; rD %= rS [; goto +1; wD = wD]`, and the longer
 * signed forms that start by copying the divisor to the scratch register.
 */
static void mark_div_guard(const struct bpf_insn *p, size_t n, size_t i,
			   bool *k)
{
	const struct bpf_insn *in = &p[i];
	bool div = BPF_OP(in->code) == BPF_DIV, is32 = BPF_CLASS(in->code) == BPF_ALU;
	uint8_t d = in->dst_reg, s = in->src_reg;

	if (in->off == 1) {
		size_t back = div ? 7 : 6;

		if (i >= back &&
		    is_code(&p[i - back], BPF_ALU64 | BPF_MOV | BPF_X) &&
		    p[i - back].dst_reg == ISA_REG_AX && p[i - back].src_reg == s)
			mark(k, i - back, i);
	} else if (div) {
		if (i >= 3 && is_zero_test(&p[i - 3], BPF_JNE, s, 2) &&
		    is_self32(&p[i - 2], BPF_XOR, d) && is_ja(&p[i - 1], 1))
			mark(k, i - 3, i);
		return;
	} else if (i >= 1 && is_zero_test(&p[i - 1], BPF_JEQ, s, is32 ? 2 : 1)) {
		k[i - 1] = true;
	} else {
		return;
	}
	/* A 32-bit modulo ends with the zero extension of its result. */
	if (!div && is32 && i + 2 < n && is_ja(&p[i + 1], 1) &&
	    is_self32(&p[i + 2], BPF_MOV, d))
		mark(k, i + 1, i + 3);
}

/*
 * Mark what the verifier wrote: the scratch register, zero extension,
 * speculation barriers, division guards, the index mask of an inlined
 * array lookup, bpf_loop's inlined limit check, bpf_get_func_arg's bound.
 */
static void mark_kernel(const struct bpf_insn *p, size_t n, bool *k)
{
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &p[i];
		uint8_t code = in->code;

		if (is_ld_imm64(in)) {
			i++;
			continue;
		}
		if (uses_ax(in) ||
		    (code == (BPF_ALU | BPF_MOV | BPF_X) && in->imm == 1) ||
		    (BPF_CLASS(code) == BPF_ST &&
		     BPF_MODE(code) == ISA_MODE_NOSPEC))
			k[i] = true;
		if ((BPF_CLASS(code) == BPF_ALU || BPF_CLASS(code) == BPF_ALU64) &&
		    (BPF_OP(code) == BPF_DIV || BPF_OP(code) == BPF_MOD) &&
		    BPF_SRC(code) == BPF_X)
			mark_div_guard(p, n, i, k);
		/*
		 * if rI >= max goto ...; wI &= mask: the index mask of an
		 * inlined array lookup or of a tail call (Spectre v1).
		 */
		if (code == (BPF_ALU | BPF_AND | BPF_K) && i >= 1 &&
		    is_code(&p[i - 1], BPF_JMP | BPF_JGE | BPF_K) &&
		    p[i - 1].dst_reg == in->dst_reg && p[i - 1].off >= 2 &&
		    p[i - 1].off <= 6)
			k[i] = true;
		/* if r1 <= BPF_MAX_LOOPS goto +2; w0 = -E2BIG: bpf_loop */
		if (code == (BPF_JMP | BPF_JLE | BPF_K) && in->dst_reg == 1 &&
		    in->imm == ISA_MAX_LOOPS && in->off == 2 && i + 1 < n &&
		    is_code(&p[i + 1], BPF_ALU | BPF_MOV | BPF_K) &&
		    p[i + 1].dst_reg == 0 && p[i + 1].imm == -ISA_E2BIG)
			mark(k, i, i + 2);
		/* r0 = *(u64 *)(r1 - 8) ...; if w2 >= w0 goto: get_func_arg */
		if (code == (BPF_JMP32 | BPF_JGE | BPF_X) && in->dst_reg == 2 &&
		    in->src_reg == 0) {
			for (size_t b = 1; b <= 2 && b <= i; b++) {
				const struct bpf_insn *l = &p[i - b];

				if (is_code(l, BPF_LDX | BPF_MEM | BPF_DW) &&
				    l->dst_reg == 0 && l->src_reg == 1 &&
				    l->off == -8)
					k[i] = true;
			}
		}
	}
}

void isa_classify(const struct bpf_insn *insns, size_t n, int xlated,
		  struct isa_counts *c)
{
	/* Most programs are small: their marks fit on the stack. */
	bool small[512], *k = NULL;

	memset(c, 0, sizeof(*c));
	c->level = 1;
	if (xlated && n) {
		k = n <= sizeof(small) / sizeof(small[0]) ?
			    memset(small, 0, n * sizeof(*k)) :
			    calloc(n, sizeof(*k));
		if (k)
			mark_kernel(insns, n, k);
	}
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &insns[i];
		int l;

		c->insns++;
		if (is_ld_imm64(in)) {
			i++;	/* the second slot is not an instruction */
			continue;
		}
		if (k && k[i]) {
			c->kernel++;
			continue;
		}
		l = isa_insn_level(in);
		if (l > 1)
			c->needs[l]++;
		if (l > c->level)
			c->level = l;
	}
	if (k != small)
		free(k);
}
