// SPDX-License-Identifier: GPL-2.0-only
/*
 * Insights against the kernel: one source built with -mcpu=v1 .. v4 is
 * loaded, and what ebpftop reads from the kernel's translation of each
 * program (ISA level and counts, subprograms, calls, tail calls, maps)
 * must agree with the object's own instructions, counted two ways:
 * ebpftop's classifier on the instructions libbpf loaded, and a count of
 * llvm-objdump's disassembly.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "insights/reader.h"
#include "insights/reader_impl.h"
#include "testutil.h"
#include "util/prog_info.h"

#define NLEVELS 4

static struct bpf_object *objs[NLEVELS + 1];
static struct insights *ins;
static struct btf *vmlinux;

static uint32_t prog_id(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	assert_int_equal(bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len), 0);
	return info.id;
}

static struct bpf_program *prog(int level, const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(objs[level], name);

	assert_non_null(p);
	return p;
}

static const struct prog_insights *read_prog(int level, const char *name,
					     uint32_t *idp)
{
	uint32_t id = prog_id(prog(level, name));
	const struct prog_insights *pi;

	assert_int_equal(insights__sync(ins, &id, 1), 0);
	pi = insights__find(ins, id);
	assert_non_null(pi);
	assert_int_equal(pi->err, 0);
	if (idp)
		*idp = id;
	return pi;
}

/* Level of one line of llvm-objdump's BPF disassembly. */
static int text_level(const char *t)
{
	static const char *const v4[] = { "(s8", "(s16", "(s32", "bswap",
					  " s/= ", " s%= ", "gotol",
					  "load_acquire", "store_release" };

	for (size_t i = 0; i < sizeof(v4) / sizeof(v4[0]); i++)
		if (strstr(t, v4[i]))
			return 4;
	if (!strncmp(t, "if w", 4) || strstr(t, "atomic_fetch") ||
	    strstr(t, "xchg"))
		return 3;
	/* 32-bit ALU writes a w register; a load into one is still v1. */
	if (t[0] == 'w' && t[1] >= '0' && t[1] <= '9' && !strstr(t, "= *("))
		return 3;
	if (!strncmp(t, "if r", 4) &&
	    (strstr(t, " < ") || strstr(t, " <= ") || strstr(t, " s< ") ||
	     strstr(t, " s<= ")))
		return 2;
	return 1;
}

/* Per-level counts of function @fn in @obj_path from llvm-objdump. */
static void objdump_counts(const char *obj_path, const char *fn,
			   uint32_t needs[NLEVELS + 1], uint32_t *insns)
{
	const char *od = getenv("LLVM_OBJDUMP_V4");
	char cmd[1024], line[512], want[128];
	bool in = false;
	FILE *f;

	if (!od || !*od)
		tu_skip("no llvm-objdump that decodes ISA v4 (install llvm-19)");
	snprintf(cmd, sizeof(cmd), "%s -d --no-show-raw-insn '%s'", od, obj_path);
	snprintf(want, sizeof(want), "<%s>:", fn);
	memset(needs, 0, sizeof(uint32_t) * (NLEVELS + 1));
	*insns = 0;
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *tab;
		int l;

		if (strchr(line, '<') && strstr(line, ">:")) {
			/* a label inside the function does not end it */
			if (strstr(line, want))
				in = true;
			else if (!strstr(line, "<LBB"))
				in = false;
			continue;
		}
		tab = strchr(line, '\t');
		if (!in || !tab || !strchr(line, ':'))
			continue;
		tab[strcspn(tab, "\n")] = '\0';
		(*insns)++;
		l = text_level(tab + 1);
		if (l > 1)
			needs[l]++;
	}
	assert_int_equal(pclose(f), 0);
	assert_true(*insns > 0);
}

static const char *obj_path(int level, char *buf, size_t len)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "tests/bpf/isa_v%d.bpf.o", level);
	return tu_builddir_path(rel, buf, len);
}

/*
 * The level read from the kernel equals the object's: by the classifier
 * on the loaded instructions and by llvm-objdump; counts agree exactly.
 */
static void check_level(int level, const char *name)
{
	const struct bpf_program *p = prog(level, name);
	const struct prog_insights *pi = read_prog(level, name, NULL);
	struct isa_counts elf;
	uint32_t od[NLEVELS + 1], od_insns;
	char path[512];
	int od_level = 1;

	isa_classify(bpf_program__insns(p), bpf_program__insn_cnt(p), 0, &elf);
	objdump_counts(obj_path(level, path, sizeof(path)), name, od, &od_insns);
	for (int l = 2; l <= NLEVELS; l++)
		if (od[l])
			od_level = l;
	print_message("v%d %-8s xlated %s (%u insns, v2 %u v3 %u v4 %u, kernel %u); "
		      "object %s (%u insns, v2 %u v3 %u v4 %u); objdump v%d (%u insns)\n",
		      level, name, isa_level_str(pi->isa.level), pi->isa.insns,
		      pi->isa.needs[2], pi->isa.needs[3], pi->isa.needs[4],
		      pi->isa.kernel, isa_level_str(elf.level), elf.insns,
		      elf.needs[2], elf.needs[3], elf.needs[4], od_level, od_insns);
	assert_true(pi->have_isa);
	assert_int_equal(pi->isa.level, elf.level);
	assert_int_equal(od_level, elf.level);
	assert_int_equal(od_insns, elf.insns);
	for (int l = 2; l <= NLEVELS; l++) {
		assert_int_equal(pi->isa.needs[l], elf.needs[l]);
		assert_int_equal(od[l], elf.needs[l]);
	}
	assert_true(pi->isa.needs[2] + pi->isa.needs[3] + pi->isa.needs[4] +
			    pi->isa.kernel <= pi->isa.insns);
}

static void test_isa_levels(void **state)
{
	(void)state;
	for (int l = 1; l <= NLEVELS; l++) {
		if (!objs[l])
			continue;
		check_level(l, "isa_mix");
		/* built for vN, isa_mix uses what vN adds */
		assert_int_equal(read_prog(l, "isa_mix", NULL)->isa.level, l);
		check_level(l, "isa_div");
	}
}

/* -mcpu=v1 division: the verifier adds `w ^= w`; the program stays v1. */
static void test_v1_division(void **state)
{
	const struct prog_insights *pi = read_prog(1, "isa_div", NULL);

	(void)state;
	assert_int_equal(pi->isa.level, 1);
	assert_string_equal(isa_level_str(pi->isa.level), "v1");
	assert_true(pi->isa.kernel >= 3);	/* the guard: test, xor, jump */
}

static const char *helper_name(int id, char *buf, size_t len)
{
	uint32_t n = btf__type_cnt(vmlinux);

	for (uint32_t t = 1; t < n; t++) {
		const struct btf_type *ty = btf__type_by_id(vmlinux, t);
		const struct btf_enum *e;

		if (!btf_is_enum(ty) ||
		    strcmp(btf__name_by_offset(vmlinux, ty->name_off), "bpf_func_id"))
			continue;
		e = btf_enum(ty);
		for (uint16_t i = 0; i < btf_vlen(ty); i++)
			if (e[i].val == id) {
				snprintf(buf, len, "bpf_%s",
					 btf__name_by_offset(vmlinux, e[i].name_off) + 9);
				return buf;
			}
	}
	fail_msg("helper %d not in the kernel's enum bpf_func_id", id);
	return NULL;
}

/* Subprogram, tail calls, helpers, maps: names and counts exact. */
static void test_structure(void **state)
{
	for (int l = 1; l <= NLEVELS; l++) {
		const struct bpf_program *p;
		const struct prog_insights *pi;
		const struct bpf_insn *in;
		struct { char name[64]; uint32_t calls; } want[16];
		uint32_t nwant = 0, tails = 0, sub_calls = 0, slots = 0, jited = 0;
		struct bpf_map *m;
		size_t n;

		(void)state;
		if (!objs[l])
			continue;
		p = prog(l, "isa_calls");
		pi = read_prog(l, "isa_calls", NULL);
		in = bpf_program__insns(p);
		n = bpf_program__insn_cnt(p);
		for (size_t i = 0; i < n; i++) {
			char buf[64];
			uint32_t j;

			if (in[i].code != (BPF_JMP | BPF_CALL))
				continue;
			if (in[i].src_reg == BPF_PSEUDO_CALL) {
				sub_calls++;
				continue;
			}
			if (in[i].imm == BPF_FUNC_tail_call)
				tails++;
			helper_name(in[i].imm, buf, sizeof(buf));
			for (j = 0; j < nwant && strcmp(want[j].name, buf); j++)
				;
			if (j == nwant) {
				assert_true(nwant < 16);
				snprintf(want[nwant].name, sizeof(want[0].name), "%s", buf);
				want[nwant++].calls = 0;
			}
			want[j].calls++;
		}
		assert_int_equal(pi->tail_calls, tails);
		assert_int_equal(tails, 2);
		assert_int_equal(pi->nr_calls, nwant);
		for (uint32_t j = 0; j < nwant; j++) {
			bool found = false;

			for (uint32_t k = 0; k < pi->nr_calls; k++) {
				if (strcmp(pi->calls[k].name, want[j].name))
					continue;
				found = true;
				assert_int_equal(pi->calls[k].calls, want[j].calls);
				assert_int_equal(pi->calls[k].kind, INSIGHT_HELPER);
			}
			if (!found)
				fail_msg("v%d: helper %s not reported", l, want[j].name);
		}
		/* the main program and isa_note, called twice */
		assert_int_equal(pi->nr_subprogs, 2);
		assert_string_equal(pi->subprogs[0].name, "isa_calls");
		assert_string_equal(pi->subprogs[1].name, "isa_note");
		assert_int_equal(pi->subprogs[1].calls, sub_calls);
		assert_int_equal(sub_calls, 2);
		for (uint32_t k = 0; k < pi->nr_subprogs; k++) {
			slots += pi->subprogs[k].insns;
			jited += pi->subprogs[k].jited_len;
		}
		assert_int_equal(slots, pi->isa.insns);
		assert_true(slots * 8 <= pi->xlated_len);
		assert_int_equal(jited, pi->jited_len);
		assert_true(pi->jit_pages >= 1);
		assert_true(pi->jit_pages <= pi->jited_len / 4096 + 2 * pi->nr_subprogs);
		/* the two maps it uses, as the object declares them */
		assert_int_equal(pi->nr_maps, 2);
		bpf_object__for_each_map(m, objs[l]) {
			const char *mn = bpf_map__name(m);
			bool found = false;

			if (strcmp(mn, "isa_jumps") && strcmp(mn, "isa_seen"))
				continue;
			for (uint32_t k = 0; k < pi->nr_maps; k++) {
				if (strcmp(pi->maps[k].name, mn))
					continue;
				found = true;
				assert_int_equal(pi->maps[k].type, bpf_map__type(m));
				assert_int_equal(pi->maps[k].key_size, bpf_map__key_size(m));
				assert_int_equal(pi->maps[k].value_size, bpf_map__value_size(m));
				assert_int_equal(pi->maps[k].max_entries, bpf_map__max_entries(m));
			}
			assert_true(found);
		}
		if (l == 1) {
			for (uint32_t k = 0; k < pi->nr_calls; k++)
				print_message("  %s x%u\n", pi->calls[k].name,
					      pi->calls[k].calls);
			print_message("  subprogs %s (%u insns, %u B) %s (%u insns, %u B, %u calls), %u pages\n",
				      pi->subprogs[0].name, pi->subprogs[0].insns,
				      pi->subprogs[0].jited_len, pi->subprogs[1].name,
				      pi->subprogs[1].insns, pi->subprogs[1].jited_len,
				      pi->subprogs[1].calls, pi->jit_pages);
		}
	}
}

/* ebpftop -b -j: the same insights, for every loaded object's programs. */
static void test_json_record(void **state)
{
	char bin[512], *out = NULL, *err = NULL;
	char b[] = "-b", j[] = "-j", n[] = "-n", one[] = "1", f[] = "-f",
	     pat[] = "isa_";
	char *argv[] = { bin, b, j, n, one, f, pat, NULL };
	struct json_object *rec;
	int checked = 0;

	(void)state;
	tu_builddir_path("ebpftop", bin, sizeof(bin));
	assert_int_equal(tu_run(argv, NULL, 60000, &out, &err), 0);
	rec = json_tokener_parse(out);
	assert_non_null(rec);
	for (int l = 1; l <= NLEVELS; l++) {
		static const char *const names[] = { "isa_mix", "isa_div", "isa_calls" };

		if (!objs[l])
			continue;
		for (size_t k = 0; k < 3; k++) {
			uint32_t id;
			const struct prog_insights *pi = read_prog(l, names[k], &id);
			struct json_object *p = tu_record_prog(rec, id), *isa, *needs,
					   *helpers, *maps;

			assert_non_null(p);
			isa = tu_get(p, "isa");
			assert_string_equal(json_object_get_string(tu_get(isa, "level")),
					    isa_level_str(pi->isa.level));
			assert_int_equal(tu_num(isa, "insns"), pi->isa.insns);
			needs = tu_get(isa, "needs");
			assert_int_equal(tu_num(needs, "v2"), pi->isa.needs[2]);
			assert_int_equal(tu_num(needs, "v3"), pi->isa.needs[3]);
			assert_int_equal(tu_num(needs, "v4"), pi->isa.needs[4]);
			assert_int_equal(tu_num(p, "tail_calls"), pi->tail_calls);
			assert_int_equal(tu_num(p, "xlated_bytes"), pi->xlated_len);
			assert_int_equal(json_object_array_length(tu_get(p, "subprogs")),
					 pi->nr_subprogs);
			helpers = tu_get(p, "helpers");
			assert_int_equal(json_object_array_length(helpers), pi->nr_calls);
			for (uint32_t i = 0; i < pi->nr_calls; i++) {
				struct json_object *h = json_object_array_get_idx(helpers, i);

				assert_string_equal(json_object_get_string(tu_get(h, "name")),
						    pi->calls[i].name);
				assert_int_equal(tu_num(h, "calls"), pi->calls[i].calls);
			}
			maps = tu_get(p, "maps");
			assert_int_equal(json_object_array_length(maps), pi->nr_maps);
			for (uint32_t i = 0; i < pi->nr_maps; i++) {
				struct json_object *m = json_object_array_get_idx(maps, i);

				assert_int_equal(tu_num(m, "id"), pi->maps[i].id);
				assert_int_equal(tu_num(m, "key_size"), pi->maps[i].key_size);
				assert_int_equal(tu_num(m, "value_size"), pi->maps[i].value_size);
				assert_int_equal(tu_num(m, "max_entries"), pi->maps[i].max_entries);
			}
			checked++;
		}
	}
	assert_true(checked >= 9);
	json_object_put(rec);
	free(out);
	free(err);
}

/* Two readings of one program say the same, field by field. */
static void assert_same(const struct prog_insights *a,
			const struct prog_insights *b)
{
	assert_int_equal(a->id, b->id);
	assert_int_equal(a->err, b->err);
	assert_int_equal(a->have_isa, b->have_isa);
	assert_int_equal(a->calls_hidden, b->calls_hidden);
	assert_memory_equal(&a->isa, &b->isa, sizeof(a->isa));
	assert_int_equal(a->xlated_len, b->xlated_len);
	assert_int_equal(a->jited_len, b->jited_len);
	assert_int_equal(a->jit_pages, b->jit_pages);
	assert_int_equal(a->tail_calls, b->tail_calls);
	assert_int_equal(a->nr_subprogs, b->nr_subprogs);
	for (uint32_t i = 0; i < a->nr_subprogs; i++) {
		const struct insight_subprog *x = &a->subprogs[i], *y = &b->subprogs[i];

		assert_string_equal(x->name ? x->name : "-", y->name ? y->name : "-");
		assert_int_equal(x->insns, y->insns);
		assert_int_equal(x->jited_len, y->jited_len);
		assert_int_equal(x->calls, y->calls);
	}
	assert_int_equal(a->nr_calls, b->nr_calls);
	for (uint32_t i = 0; i < a->nr_calls; i++) {
		assert_string_equal(a->calls[i].name, b->calls[i].name);
		assert_int_equal(a->calls[i].calls, b->calls[i].calls);
		assert_int_equal(a->calls[i].kind, b->calls[i].kind);
	}
	assert_int_equal(a->nr_maps, b->nr_maps);
	assert_memory_equal(a->maps, b->maps, a->nr_maps * sizeof(*a->maps));
}

/*
 * What ebpftop does with a new program: the program table reads its whole
 * info once and hands it to insights__add(). The insights equal those the
 * sync reads itself, also when the buffers start too small for the
 * program (the read grows them and asks again), and a program added but
 * not loaded any more at the sync is let go.
 */
static void test_added(void **state)
{
	static const char *const names[] = { "isa_mix", "isa_div", "isa_calls" };
	struct insights *own = insights__new(), *added = insights__new();
	struct prog_info_full f = {};
	uint32_t ids[3 * NLEVELS + 1];
	size_t n = 0;

	(void)state;
	assert_non_null(own);
	assert_non_null(added);
	/* One entry of room: every array but the smallest must grow. */
	f.insns = calloc(1, sizeof(*f.insns));
	f.func_info = calloc(1, sizeof(*f.func_info));
	f.jited_ksyms = calloc(1, sizeof(*f.jited_ksyms));
	f.jited_func_lens = calloc(1, sizeof(*f.jited_func_lens));
	f.map_ids = calloc(1, sizeof(*f.map_ids));
	assert_true(f.insns && f.func_info && f.jited_ksyms &&
		    f.jited_func_lens && f.map_ids);
	f.cap_insns = f.cap_func_info = f.cap_jited_ksyms = 1;
	f.cap_jited_func_lens = f.cap_map_ids = 1;
	/* Added from the last one down, as the program table does. */
	for (int l = NLEVELS; l >= 1; l--) {
		if (!objs[l])
			continue;
		for (int k = 2; k >= 0; k--) {
			int fd = bpf_program__fd(prog(l, names[k]));

			assert_int_equal(prog_info_full_read(fd, &f), 0);
			assert_int_equal(f.nr_insns * sizeof(*f.insns),
					 f.info.xlated_prog_len);
			assert_int_equal(f.nr_map_ids, f.info.nr_map_ids);
			assert_int_equal(insights__add(added, &f), 0);
			ids[n++] = f.info.id;
		}
	}
	assert_true(f.cap_insns > 1 && f.cap_map_ids > 1);
	/* One more, gone by the sync: its insights must not stay. */
	assert_int_equal(prog_info_full_read(bpf_program__fd(prog(1, "isa_mix")), &f), 0);
	f.info.id = ids[0] + 100000;
	assert_int_equal(insights__add(added, &f), 0);
	prog_info_full_free(&f);
	for (size_t i = 0; i < n; i++)		/* ascending */
		for (size_t j = i + 1; j < n; j++)
			if (ids[j] < ids[i]) {
				uint32_t t = ids[i];

				ids[i] = ids[j];
				ids[j] = t;
			}
	assert_int_equal(insights__sync(own, ids, n), 0);
	assert_int_equal(insights__sync(added, ids, n), 0);
	assert_int_equal(insights__count(added), n);
	for (size_t i = 0; i < n; i++) {
		const struct prog_insights *a = insights__find(own, ids[i]);
		const struct prog_insights *b = insights__find(added, ids[i]);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->err, 0);
		assert_same(a, b);
	}
	insights__free(own);
	insights__free(added);
}

/*
 * Call targets are named by the kernel's symbol lookup, through a BPF
 * program (EBPFTOP_NO_KSYM_PROG=1: by reading /proc/kallsyms instead):
 * both name every call of every program alike, and on this kernel the
 * program path is the one taken.
 */
static void test_names(void **state)
{
	static const char *const names[] = { "isa_mix", "isa_div", "isa_calls" };
	struct insights *fast = insights__new(), *scan;
	uint32_t ids[3 * NLEVELS];
	size_t n = 0;

	(void)state;
	assert_int_equal(setenv("EBPFTOP_NO_KSYM_PROG", "1", 1), 0);
	scan = insights__new();
	assert_int_equal(unsetenv("EBPFTOP_NO_KSYM_PROG"), 0);
	assert_non_null(fast);
	assert_non_null(scan);
	assert_false(fast->kallsyms_only);
	assert_true(scan->kallsyms_only);
	for (int l = 1; l <= NLEVELS; l++) {
		if (!objs[l])
			continue;
		for (int k = 0; k < 3; k++)
			ids[n++] = prog_id(prog(l, names[k]));
	}
	assert_int_equal(insights__sync(fast, ids, n), 0);
	assert_int_equal(insights__sync(scan, ids, n), 0);
	assert_false(fast->kallsyms_only);
	assert_true(fast->call_base != 0);
	assert_int_equal(fast->call_base, scan->call_base);
	for (size_t i = 0; i < n; i++) {
		const struct prog_insights *a = insights__find(fast, ids[i]);
		const struct prog_insights *b = insights__find(scan, ids[i]);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->err, 0);
		assert_same(a, b);
		for (uint32_t c = 0; c < a->nr_calls; c++)
			if (!strncmp(a->calls[c].name, "0x", 2) ||
			    !strcmp(a->calls[c].name, "?"))
				fail_msg("program %u: call target %s not named",
					 ids[i], a->calls[c].name);
	}
	insights__free(fast);
	insights__free(scan);
}

/* Programs that go away are dropped; sync keeps the rest. */
static void test_sync(void **state)
{
	uint32_t ids[3], one;

	(void)state;
	ids[0] = prog_id(prog(1, "isa_mix"));
	ids[1] = prog_id(prog(1, "isa_div"));
	ids[2] = prog_id(prog(1, "isa_calls"));
	/* ids ascend in load order */
	assert_int_equal(insights__sync(ins, ids, 3), 0);
	assert_int_equal(insights__count(ins), 3);
	one = ids[1];
	assert_int_equal(insights__sync(ins, &one, 1), 0);
	assert_int_equal(insights__count(ins), 1);
	assert_null(insights__find(ins, ids[0]));
	assert_non_null(insights__find(ins, ids[1]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_levels),
		cmocka_unit_test(test_v1_division),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_json_record),
		cmocka_unit_test(test_added),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sync),
	};
	char path[512];
	int rc;

	tu_require_bpf();
	tu_lock();
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	for (int l = 1; l <= NLEVELS; l++) {
		obj_path(l, path, sizeof(path));
		if (l == 4 && access(path, R_OK))
			tu_skip("no ISA v4 object: configure found no clang-19 (install clang-19 and llvm-19)");
		objs[l] = bpf_object__open_file(path, NULL);
		if (!objs[l] || bpf_object__load(objs[l]))
			tu_die("cannot load %s: %s", path, strerror(errno));
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux)
		tu_skip("no kernel BTF");
	ins = insights__new();
	if (!ins)
		tu_die("out of memory");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	insights__free(ins);
	btf__free(vmlinux);
	for (int l = 1; l <= NLEVELS; l++)
		bpf_object__close(objs[l]);
	return rc;
}
