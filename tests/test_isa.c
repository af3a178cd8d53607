// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ISA classifier on hand-made instructions: each level's encodings,
 * and the sequences the kernel's verifier writes into translated code
 * (division guards, zero extension, the scratch register, inlined
 * lookups), which must not raise a program's level.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insights/insights.h"
#include "insights/isa.h"
#include "insights/json.h"

#define AX 11

static struct bpf_insn I(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
			 int32_t imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src,
				  .off = off, .imm = imm };
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int level_of(struct bpf_insn in)
{
	return isa_insn_level(&in);
}

static void test_levels(void **state)
{
	(void)state;
	/* v1: 64-bit ALU and jumps, loads, stores, le/be, plain atomic add */
	assert_int_equal(level_of(I(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 0)), 1);
	assert_int_equal(level_of(I(BPF_JMP | BPF_JGT | BPF_X, 1, 2, 3, 0)), 1);
	assert_int_equal(level_of(I(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16)), 1);
	assert_int_equal(level_of(I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, BPF_ADD)), 1);
	assert_int_equal(level_of(I(BPF_LDX | BPF_MEM | BPF_W, 1, 2, 0, 0)), 1);
	assert_int_equal(level_of(I(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 5)), 1);
	/* the per-CPU address move (off -1) is not a sign-extending move */
	assert_int_equal(level_of(I(BPF_ALU64 | BPF_MOV | BPF_X, 1, 1, -1, 0)), 1);
	/* v2: the four new conditional jumps, immediate or register */
	assert_int_equal(level_of(I(BPF_JMP | BPF_JLT | BPF_X, 1, 2, 3, 0)), 2);
	assert_int_equal(level_of(I(BPF_JMP | BPF_JLE | BPF_K, 1, 0, 3, 9)), 2);
	assert_int_equal(level_of(I(BPF_JMP | BPF_JSLT | BPF_K, 1, 0, 3, 9)), 2);
	assert_int_equal(level_of(I(BPF_JMP | BPF_JSLE | BPF_X, 1, 2, 3, 0)), 2);
	/* v3: JMP32, 32-bit ALU, atomics beyond add */
	assert_int_equal(level_of(I(BPF_JMP32 | BPF_JEQ | BPF_K, 1, 0, 3, 0)), 3);
	assert_int_equal(level_of(I(BPF_ALU | BPF_ADD | BPF_K, 1, 0, 0, 1)), 3);
	assert_int_equal(level_of(I(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 0, 0)), 3);
	assert_int_equal(level_of(I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0,
				    BPF_ADD | BPF_FETCH)), 3);
	assert_int_equal(level_of(I(BPF_STX | BPF_ATOMIC | BPF_W, 1, 2, 0, BPF_CMPXCHG)), 3);
	/* v4: sign extension, bswap, signed div/mod, gotol, acquire/release */
	assert_int_equal(level_of(I(BPF_LDX | 0x80 | BPF_B, 1, 2, 0, 0)), 4);
	assert_int_equal(level_of(I(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 32, 0)), 4);
	assert_int_equal(level_of(I(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 8, 0)), 4);
	assert_int_equal(level_of(I(BPF_ALU64 | BPF_END | BPF_TO_LE, 1, 0, 0, 64)), 4);
	assert_int_equal(level_of(I(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0)), 4);
	assert_int_equal(level_of(I(BPF_ALU | BPF_MOD | BPF_K, 1, 0, 1, 7)), 4);
	assert_int_equal(level_of(I(BPF_JMP32 | BPF_JA, 0, 0, 0, 100)), 4);
	assert_int_equal(level_of(I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, 0x100)), 4);
	assert_int_equal(level_of(I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 0, 0x110)), 4);
	assert_string_equal(isa_level_str(1), "v1");
	assert_string_equal(isa_level_str(4), "v4");
	assert_string_equal(isa_level_str(0), "?");
}

/* A -mcpu=v1 division by a register, as the verifier leaves it. */
static void test_div_guard_v1(void **state)
{
	struct bpf_insn p[] = {
		I(BPF_LDX | BPF_MEM | BPF_DW, 1, 1, 0, 0),
		I(BPF_JMP | BPF_JNE | BPF_K, 2, 0, 2, 0),
		I(BPF_ALU | BPF_XOR | BPF_X, 1, 1, 0, 0),	/* w1 ^= w1 */
		I(BPF_JMP | BPF_JA, 0, 0, 1, 0),
		I(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct isa_counts c;

	(void)state;
	isa_classify(p, N(p), 1, &c);
	assert_int_equal(c.level, 1);
	assert_int_equal(c.kernel, 3);
	assert_int_equal(c.needs[3], 0);
	assert_int_equal(c.insns, 7);
	/* The same instructions from a compiler: the xor is the program's. */
	isa_classify(p, N(p), 0, &c);
	assert_int_equal(c.level, 3);
	assert_int_equal(c.needs[3], 1);
	assert_int_equal(c.kernel, 0);
	/* A lone w1 ^= w1 in translated code is the program's too. */
	isa_classify(&p[2], 1, 1, &c);
	assert_int_equal(c.level, 3);
}

/* 32-bit modulo: a JMP32 test before it, a zero extension after it. */
static void test_mod32_guard(void **state)
{
	struct bpf_insn p[] = {
		I(BPF_JMP32 | BPF_JEQ | BPF_K, 2, 0, 2, 0),
		I(BPF_ALU | BPF_MOD | BPF_X, 1, 2, 0, 0),
		I(BPF_JMP | BPF_JA, 0, 0, 1, 0),
		I(BPF_ALU | BPF_MOV | BPF_X, 1, 1, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpf_insn q[] = {	/* 64-bit: only the test */
		I(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1, 0),
		I(BPF_ALU64 | BPF_MOD | BPF_X, 1, 2, 0, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct isa_counts c;

	(void)state;
	isa_classify(p, N(p), 1, &c);
	assert_int_equal(c.kernel, 3);
	assert_int_equal(c.needs[3], 1);	/* the 32-bit modulo itself */
	isa_classify(q, N(q), 1, &c);
	assert_int_equal(c.kernel, 1);
	assert_int_equal(c.level, 1);
}

/* Signed division: the guard copies the divisor into the scratch register. */
static void test_sdiv_guard(void **state)
{
	struct bpf_insn p[] = {
		I(BPF_ALU64 | BPF_MOV | BPF_X, AX, 2, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, AX, 0, 0, 1),
		I(BPF_JMP | BPF_JGT | BPF_K, AX, 0, 4, 1),
		I(BPF_JMP | BPF_JEQ | BPF_K, AX, 0, 1, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0),
		I(BPF_ALU64 | BPF_NEG | BPF_K, 1, 0, 0, 0),
		I(BPF_JMP | BPF_JA, 0, 0, 1, 0),
		I(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0),
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct isa_counts c;

	(void)state;
	isa_classify(p, N(p), 1, &c);
	assert_int_equal(c.kernel, 7);
	assert_int_equal(c.level, 4);
	assert_int_equal(c.needs[4], 1);
}

/* Zero extension, the scratch register, array lookups, bpf_loop, a wide load. */
static void test_other_kernel_forms(void **state)
{
	struct bpf_insn p[] = {
		I(BPF_ALU | BPF_MOV | BPF_X, 3, 3, 0, 1),	/* zext */
		I(BPF_ALU | BPF_ADD | BPF_K, AX, 0, 0, 5),	/* blinding */
		I(BPF_LDX | BPF_MEM | BPF_W, 0, 2, 0, 0),	/* array lookup */
		I(BPF_JMP | BPF_JGE | BPF_K, 0, 0, 4, 16),
		I(BPF_ALU | BPF_AND | BPF_K, 0, 0, 0, 15),
		I(BPF_JMP | BPF_JLE | BPF_K, 1, 0, 2, 1 << 23), /* bpf_loop */
		I(BPF_ALU | BPF_MOV | BPF_K, 0, 0, 0, -7),
		I(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, 1),
		I(BPF_JMP32 | BPF_JA, 0, 0, 0, 0),	/* second slot: no insn */
		I(BPF_ST | 0xc0, 0, 0, 0, 0),		/* nospec */
		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct isa_counts c;

	(void)state;
	isa_classify(p, N(p), 1, &c);
	assert_int_equal(c.insns, 10);
	assert_int_equal(c.kernel, 6);
	assert_int_equal(c.level, 1);
	assert_int_equal(c.needs[2] + c.needs[3] + c.needs[4], 0);
}

static void test_advice(void **state)
{
	struct prog_insights p = { .have_isa = true };

	(void)state;
	p.isa.level = 1;
	p.isa.insns = ISA_ADVICE_MIN_INSNS;
	assert_non_null(isa_advice(&p));
	p.isa.insns = ISA_ADVICE_MIN_INSNS - 1;	/* too short to tell */
	assert_null(isa_advice(&p));
	p.isa.insns = 500;
	p.isa.level = 3;
	assert_null(isa_advice(&p));
	p.have_isa = false;
	p.isa.level = 1;
	assert_null(isa_advice(&p));
}

static char sub0[] = "main_prog", sub1[] = "helper_fn";

static void fill(struct prog_insights *p, struct insight_subprog *subs,
		 struct insight_call *calls, struct insight_map *maps)
{
	memset(p, 0, sizeof(*p));
	p->id = 42;
	p->have_isa = true;
	p->isa = (struct isa_counts){ .level = 3, .insns = 120,
				      .needs = { 0, 0, 2, 30, 0 }, .kernel = 3 };
	p->xlated_len = 960;
	p->jited_len = 700;
	p->jit_pages = 1;
	p->tail_calls = 2;
	subs[0] = (struct insight_subprog){ sub0, 80, 500, 0 };
	subs[1] = (struct insight_subprog){ sub1, 40, 200, 3 };
	p->nr_subprogs = 2;
	p->subprogs = subs;
	calls[0] = (struct insight_call){ "bpf_map_lookup_elem", 4, INSIGHT_HELPER };
	calls[1] = (struct insight_call){ "bpf_rcu_read_lock", 1, INSIGHT_KFUNC };
	p->nr_calls = 2;
	p->calls = calls;
	maps[0] = (struct insight_map){ .id = 9, .type = 1, .type_name = "hash",
					.name = "flows", .key_size = 16,
					.value_size = 8, .max_entries = 1024 };
	p->nr_maps = 1;
	p->maps = maps;
}

static void test_describe(void **state)
{
	struct insight_subprog subs[2];
	struct insight_call calls[2];
	struct insight_map maps[1];
	struct insight_line l[8];
	struct prog_insights p;
	size_t n;

	(void)state;
	fill(&p, subs, calls, maps);
	n = insights_describe(&p, l, 8);
	assert_int_equal(n, 5);		/* v3: no advice line */
	assert_string_equal(l[0].label, "isa");
	assert_non_null(strstr(l[0].text, "v3, read after the verifier: 120 insns, 2 need v2, 30 v3, 0 v4; 3 written by the verifier"));
	assert_string_equal(l[1].text, "main_prog 80 insns 500 B, helper_fn 40 insns 200 B (3 calls); tail calls 2");
	assert_string_equal(l[2].text, "bpf_map_lookup_elem x4, kfunc bpf_rcu_read_lock x1");
	assert_string_equal(l[3].text, "9 flows hash key 16 B value 8 B x1024");
	assert_string_equal(l[4].text, "xlated 960 B, jited 700 B on 1 page of 4 KiB");
	p.isa.level = 1;
	n = insights_describe(&p, l, 8);
	assert_int_equal(n, 6);
	assert_non_null(strstr(l[1].text, "-mcpu=v3"));
	/* a short array: lines stop there */
	assert_int_equal(insights_describe(&p, l, 2), 2);
}

static void test_json(void **state)
{
	struct insight_subprog subs[2];
	struct insight_call calls[2];
	struct insight_map maps[1];
	struct prog_insights p;
	struct json_object *o, *v, *e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct jw w;

	(void)state;
	fill(&p, subs, calls, maps);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f);
	jw_begin_object(&w);
	insights_json_members(&w, &p);
	jw_end_object(&w);
	fclose(f);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "isa", &v));
	assert_true(json_object_object_get_ex(v, "level", &e));
	assert_string_equal(json_object_get_string(e), "v3");
	assert_true(json_object_object_get_ex(v, "insns", &e));
	assert_int_equal(json_object_get_int(e), 120);
	assert_true(json_object_object_get_ex(v, "needs", &v));
	assert_true(json_object_object_get_ex(v, "v3", &e));
	assert_int_equal(json_object_get_int(e), 30);
	assert_true(json_object_object_get_ex(o, "helpers", &v));
	assert_int_equal(json_object_array_length(v), 2);
	e = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(e, "name", &e));
	assert_string_equal(json_object_get_string(e), "bpf_map_lookup_elem");
	assert_true(json_object_object_get_ex(o, "maps", &v));
	e = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(e, "key_size", &e));
	assert_int_equal(json_object_get_int(e), 16);
	assert_true(json_object_object_get_ex(o, "subprogs", &v));
	assert_int_equal(json_object_array_length(v), 2);
	assert_true(json_object_object_get_ex(o, "tail_calls", &v));
	assert_int_equal(json_object_get_int(v), 2);
	json_object_put(o);
	free(buf);
	/* nothing read: everything null */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f);
	jw_begin_object(&w);
	insights_json_members(&w, NULL);
	jw_end_object(&w);
	fclose(f);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "isa", &v));
	assert_null(v);
	json_object_put(o);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_div_guard_v1),
		cmocka_unit_test(test_mod32_guard),
		cmocka_unit_test(test_sdiv_guard),
		cmocka_unit_test(test_other_kernel_forms),
		cmocka_unit_test(test_advice),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
