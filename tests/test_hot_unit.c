// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hot lines without a kernel: the perf ring reader on synthetic buffers
 * (records across the end of the ring, lost records, cut-short data),
 * the address-to-line map on synthetic JIT line info through libbpf's
 * bpf_prog_linfo (function boundaries, subprograms, addresses outside
 * every range, line-0 records), the callchain rule, the windows and the
 * percentage math.
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

#include <cmocka.h>
#include <linux/bpf.h>

#include "hot/agg.h"
#include "hot/lines.h"
#include "hot/report.h"
#include "hot/ring.h"

/* ---- the ring ---------------------------------------------------------------- */

#define RING 256

struct seen {
	int n;
	struct hot_record r[16];
	uint64_t chain[16][8];
};

static void collect(const struct hot_record *r, void *ctx)
{
	struct seen *s = ctx;

	if (s->n >= 16)
		return;
	s->r[s->n] = *r;
	/* The chain points into the ring or the scratch: keep a copy. */
	for (uint32_t i = 0; i < r->nr_chain && i < 8; i++)
		s->chain[s->n][i] = r->chain[i];
	s->n++;
}

/* Write @len bytes at free-running position @pos of the ring, wrapping. */
static void ring_put(uint8_t *ring, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		ring[(pos + i) % RING] = ((const uint8_t *)src)[i];
}

static size_t make_sample(uint8_t *buf, uint64_t ip, uint64_t time,
			  const uint64_t *chain, uint64_t nr)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 0 };
	uint32_t pidtid[2] = { 42, 43 };
	size_t o = sizeof(h);

	memcpy(buf + o, &ip, 8);
	memcpy(buf + o + 8, pidtid, 8);
	memcpy(buf + o + 16, &time, 8);
	memcpy(buf + o + 24, &nr, 8);
	memcpy(buf + o + 32, chain, nr * 8);
	o += 32 + nr * 8;
	h.size = (uint16_t)o;
	memcpy(buf, &h, sizeof(h));
	return o;
}

static size_t make_lost(uint8_t *buf, uint64_t lost)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST,
				       .size = sizeof(h) + 16 + 16 };
	uint64_t id = 1;

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &id, 8);
	memcpy(buf + 16, &lost, 8);
	return h.size;
}

static size_t make_ksym(uint8_t *buf, uint64_t addr, uint16_t flags,
			uint64_t time)
{
	struct perf_event_header h = { .type = PERF_RECORD_KSYMBOL,
				       .size = sizeof(h) + 16 + 16 + 16 };
	uint32_t len = 64, pidtid[2] = { 0, 0 };
	uint16_t type = PERF_RECORD_KSYMBOL_TYPE_BPF;

	memset(buf, 0, h.size);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + 8, &addr, 8);
	memcpy(buf + 16, &len, 4);
	memcpy(buf + 20, &type, 2);
	memcpy(buf + 22, &flags, 2);
	memcpy(buf + 24, "bpf_x\0\0\0\0\0\0\0\0\0\0\0", 16); /* name, padded */
	memcpy(buf + 40, pidtid, 8);
	memcpy(buf + 48, &time, 8);
	return h.size;
}

static void test_ring_wrap_and_lost(void **state)
{
	uint8_t ring[RING] = { 0 }, rec[128];
	uint64_t scratch[64];
	uint64_t chain[3] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffffc0001010ull,
			      0xffffffff81000123ull };
	struct hot_ring_stats st = {};
	struct seen seen = {};
	/* Start near the end: the second record crosses it. */
	uint64_t start = 1000 * RING + RING - 72, pos = start, tail;
	size_t n;

	n = make_sample(rec, 0xffffffffc0001010ull, 111, chain, 3);
	assert_int_equal(n, 8 + 32 + 24);
	ring_put(ring, pos, rec, n);
	pos += n;
	n = make_sample(rec, 0xffffffffc0002000ull, 222, chain, 3);
	ring_put(ring, pos, rec, n);	/* 8 bytes before the end, 56 after */
	pos += n;
	n = make_lost(rec, 17);
	ring_put(ring, pos, rec, n);
	pos += n;
	n = make_ksym(rec, 0xffffffffc0001000ull,
		      PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, 333);
	ring_put(ring, pos, rec, n);
	pos += n;

	tail = hot_ring_read(ring, RING, start, pos, (uint8_t *)scratch,
			     sizeof(scratch), collect, &seen, &st);
	assert_int_equal(tail, pos);
	assert_int_equal(seen.n, 4);
	assert_int_equal(st.records, 4);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 17);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(seen.r[0].type, PERF_RECORD_SAMPLE);
	assert_true(seen.r[0].ip == 0xffffffffc0001010ull);
	assert_int_equal(seen.r[0].time, 111);
	assert_int_equal(seen.r[0].pid, 42);
	assert_int_equal(seen.r[0].tid, 43);
	/* The wrapped record reads whole: ip, time, chain. */
	assert_true(seen.r[1].ip == 0xffffffffc0002000ull);
	assert_int_equal(seen.r[1].time, 222);
	assert_int_equal(seen.r[1].nr_chain, 3);
	assert_true(seen.chain[1][0] == (uint64_t)PERF_CONTEXT_KERNEL);
	assert_true(seen.chain[1][2] == 0xffffffff81000123ull);
	assert_int_equal(seen.r[2].type, PERF_RECORD_LOST);
	assert_int_equal(seen.r[2].lost, 17);
	assert_int_equal(seen.r[3].type, PERF_RECORD_KSYMBOL);
	assert_true(seen.r[3].ksym_addr == 0xffffffffc0001000ull);
	assert_int_equal(seen.r[3].ksym_flags, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER);
	assert_int_equal(seen.r[3].time, 333);

	/* Nothing new: nothing read. */
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(hot_ring_read(ring, RING, pos, pos, (uint8_t *)scratch,
				       sizeof(scratch), collect, &seen, &st),
			 pos);
	assert_int_equal(seen.n, 0);
}

static void test_ring_malformed(void **state)
{
	uint8_t ring[RING] = { 0 }, rec[128];
	uint64_t scratch[4];	/* too small for a 64-byte record */
	uint64_t chain[3] = { 1, 2, 3 };
	struct hot_ring_stats st = {};
	struct seen seen = {};
	struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = 4 };
	uint64_t start = RING - 16, pos = start;
	size_t n = make_sample(rec, 5, 6, chain, 3);

	/* A wrapped record longer than the scratch is skipped, counted. */
	ring_put(ring, pos, rec, n);
	pos += n;
	assert_int_equal(hot_ring_read(ring, RING, start, pos, (uint8_t *)scratch,
				       sizeof(scratch), collect, &seen, &st),
			 pos);
	assert_int_equal(seen.n, 0);
	assert_int_equal(st.malformed, 1);

	/* A size below the header's: everything up to head is dropped. */
	memset(&st, 0, sizeof(st));
	ring_put(ring, pos, &bad, sizeof(bad));
	assert_int_equal(hot_ring_read(ring, RING, pos, pos + 64, (uint8_t *)scratch,
				       sizeof(scratch), collect, &seen, &st),
			 pos + 64);
	assert_int_equal(st.malformed, 1);

	/* A sample whose chain claims more than the record holds. */
	n = make_sample(rec, 5, 6, chain, 3);
	rec[8 + 24] = 200;	/* nr */
	memset(&st, 0, sizeof(st));
	memset(&seen, 0, sizeof(seen));
	ring_put(ring, 0, rec, n);
	assert_int_equal(hot_ring_read(ring, RING, 0, n, (uint8_t *)scratch,
				       sizeof(scratch), collect, &seen, &st),
			 n);
	assert_int_equal(st.malformed, 1);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.r[0].type, 0);
}

/* ---- the line map ------------------------------------------------------------- */

/*
 * Two functions: main at 0x1000 (0x40 bytes), sub at 0x2000 (0x20).
 * Records: insn 0 line 10 @0x1000, insn 3 line 11 @0x1010, insn 5 line 0
 * @0x1020 (no line: charged to 11), insn 8 line 20 @0x2000, insn 10
 * line 21 @0x2010. String offsets: 1 file, 2..6 texts.
 */
static const char *const strs[] = { "", "/src/prog.bpf.c", "a = 1;",
				    "for (;;) a++;", "", "int sub(void)",
				    "return a;" };

static const char *str_of(void *ctx, uint32_t off)
{
	return off < sizeof(strs) / sizeof(strs[0]) ? strs[off] : NULL;
}

static struct hot_prog *synthetic(void)
{
	static uint64_t ksyms[2] = { 0x1000, 0x2000 };
	static uint32_t lens[2] = { 0x40, 0x20 };
	static struct bpf_line_info li[5] = {
		{ 0, 1, 2, (10 << 10) | 2 },
		{ 3, 1, 3, (11 << 10) | 5 },
		{ 5, 1, 4, 0 },
		{ 8, 1, 5, (20 << 10) | 1 },
		{ 10, 1, 6, (21 << 10) | 9 },
	};
	static uint64_t jli[5] = { 0x1000, 0x1010, 0x1020, 0x2000, 0x2010 };
	static struct bpf_func_info fi[2] = { { 0, 1 }, { 8, 2 } };
	static const char *const names[2] = { "main_prog", "sub" };
	struct bpf_prog_info info = {
		.id = 9,
		.nr_jited_ksyms = 2,
		.nr_jited_func_lens = 2,
		.jited_ksyms = (uintptr_t)ksyms,
		.jited_func_lens = (uintptr_t)lens,
		.nr_line_info = 5,
		.line_info_rec_size = sizeof(li[0]),
		.line_info = (uintptr_t)li,
		.nr_jited_line_info = 5,
		.jited_line_info_rec_size = sizeof(jli[0]),
		.jited_line_info = (uintptr_t)jli,
		.nr_func_info = 2,
		.func_info_rec_size = sizeof(fi[0]),
		.func_info = (uintptr_t)fi,
	};
	struct hot_prog *p;

	assert_int_equal(hot_prog__build(&info, str_of, NULL, names, &p), 0);
	return p;
}

/* The line number at @addr, or -1 outside; *@func the function. */
static long line_at(const struct hot_prog *p, uint64_t addr, int *func)
{
	size_t l;

	*func = hot_prog__lookup(p, addr, &l);
	if (*func < 0)
		return -1;
	assert_true(l < p->nr_lines);
	assert_int_equal(p->lines[l].func, *func);
	return p->lines[l].line;
}

static void test_lookup_boundaries(void **state)
{
	struct hot_prog *p = synthetic();
	int f;

	assert_int_equal(p->nr_funcs, 2);
	assert_true(p->has_line_info);
	assert_string_equal(p->func_name[0], "main_prog");
	assert_string_equal(p->func_name[1], "sub");
	/* Four distinct lines plus a no-line bucket per function. */
	assert_int_equal(p->nr_lines, 4 + 2);
	assert_int_equal(line_at(p, 0x0fff, &f), -1);
	assert_int_equal(line_at(p, 0x1000, &f), 10);
	assert_int_equal(f, 0);
	assert_int_equal(line_at(p, 0x100f, &f), 10);
	assert_int_equal(line_at(p, 0x1010, &f), 11);
	/* The line-0 record's code goes to the line before it. */
	assert_int_equal(line_at(p, 0x1020, &f), 11);
	assert_int_equal(line_at(p, 0x103f, &f), 11);
	assert_int_equal(line_at(p, 0x1040, &f), -1);
	assert_int_equal(line_at(p, 0x1fff, &f), -1);
	assert_int_equal(line_at(p, 0x2000, &f), 20);
	assert_int_equal(f, 1);
	assert_int_equal(line_at(p, 0x200f, &f), 20);
	assert_int_equal(line_at(p, 0x2010, &f), 21);
	assert_int_equal(line_at(p, 0x201f, &f), 21);
	assert_int_equal(line_at(p, 0x2020, &f), -1);
	assert_int_equal(line_at(p, UINT64_MAX, &f), -1);
	{
		size_t l;

		hot_prog__lookup(p, 0x2010, &l);
		assert_string_equal(p->lines[l].file, "/src/prog.bpf.c");
		assert_string_equal(p->lines[l].source, "return a;");
		assert_int_equal(p->lines[l].col, 9);
	}
	hot_prog__free(p);
}

static void test_classify(void **state)
{
	struct hot_prog *p = synthetic();
	struct hot_irq_ranges irq = { .n = 1, .start = { 0x9000 }, .end = { 0x9100 } };
	const uint64_t K = (uint64_t)PERF_CONTEXT_KERNEL,
		       U = (uint64_t)PERF_CONTEXT_USER;
	/* In a helper called from line 11: the return address is 0x1015. */
	const uint64_t helper[] = { K, 0x5000, 0x5100, 0x1015, 0x7000 };
	/* Returning to the first byte of line 20's code: charged to line 11? no: 0x2000 - 1 is outside. */
	const uint64_t edge[] = { K, 0x5000, 0x1010, 0x7000 };
	const uint64_t via_irq[] = { K, 0x5000, 0x9050, 0x1015 };
	const uint64_t user[] = { K, 0x5000, U, 0x1015 };
	size_t l;

	assert_int_equal(hot_prog__classify(p, &irq, 0x1011, NULL, 0, &l), HOT_OWN);
	assert_int_equal(p->lines[l].line, 11);
	assert_int_equal(hot_prog__classify(p, &irq, 0x5000, helper, 5, &l),
			 HOT_HELPER);
	assert_int_equal(p->lines[l].line, 11);
	/* A return address at a line's first byte belongs to the line before. */
	assert_int_equal(hot_prog__classify(p, &irq, 0x5000, edge, 4, &l),
			 HOT_HELPER);
	assert_int_equal(p->lines[l].line, 10);
	assert_int_equal(hot_prog__classify(p, &irq, 0x5000, via_irq, 4, &l),
			 HOT_MISS);
	assert_int_equal(hot_prog__classify(p, &irq, 0x9001, helper, 5, &l),
			 HOT_MISS);
	assert_int_equal(hot_prog__classify(p, &irq, 0x5000, user, 4, &l),
			 HOT_MISS);
	assert_int_equal(hot_prog__classify(p, NULL, 0x5000, NULL, 0, &l),
			 HOT_MISS);
	hot_prog__free(p);
}

static void test_no_line_info(void **state)
{
	static uint64_t ksyms[1] = { 0x1000 };
	static uint32_t lens[1] = { 0x10 };
	struct bpf_prog_info info = {
		.nr_jited_ksyms = 1,
		.nr_jited_func_lens = 1,
		.jited_ksyms = (uintptr_t)ksyms,
		.jited_func_lens = (uintptr_t)lens,
	};
	struct hot_prog *p;
	size_t l;

	memcpy(info.name, "bare", 5);
	assert_int_equal(hot_prog__build(&info, NULL, NULL, NULL, &p), 0);
	assert_false(p->has_line_info);
	assert_string_equal(p->func_name[0], "bare");
	assert_int_equal(p->nr_lines, 1);
	assert_int_equal(hot_prog__lookup(p, 0x1008, &l), 0);
	assert_int_equal(l, 0);
	assert_null(p->lines[l].file);
	assert_int_equal(hot_prog__lookup(p, 0x1010, &l), -1);
	hot_prog__free(p);
	/* Counts that disagree are refused. */
	info.nr_jited_func_lens = 2;
	assert_int_equal(hot_prog__build(&info, NULL, NULL, NULL, &p), -EINVAL);
}

/* ---- counts, windows, percentages ------------------------------------------------ */

static void test_pct(void **state)
{
	assert_true(hot_pct(0, 0) == 0.0);
	assert_true(hot_pct(1, 3) == 33.33);
	assert_true(hot_pct(2, 3) == 66.67);
	assert_true(hot_pct(1, 8) == 12.5);
	assert_true(hot_pct(5, 5) == 100.0);
	assert_true(hot_pct(1, 200000) == 0.0);
	assert_true(hot_pct(1, 20000) == 0.01);
}

static void test_windows_and_report(void **state)
{
	struct hot_prog *p = synthetic();
	struct hot_agg a;
	struct hot_counts c = { 0 };
	struct hot_report r = { 0 };
	const uint64_t S = 1000000000ull;
	double w, sum = 0.0, sub = 0.0;
	size_t l10, l11, l20;

	hot_prog__lookup(p, 0x1000, &l10);
	hot_prog__lookup(p, 0x1010, &l11);
	hot_prog__lookup(p, 0x2000, &l20);
	assert_int_equal(hot_agg_init(&a, p->nr_lines, 100 * S), 0);
	c.own = calloc(p->nr_lines, sizeof(*c.own));
	c.helper = calloc(p->nr_lines, sizeof(*c.helper));
	/* One own sample on line 10 per second for 10 s, helpers on 11. */
	for (uint64_t s = 0; s < 10; s++) {
		hot_agg_add(&a, (100 + s) * S + S / 2, HOT_OWN, l10);
		hot_agg_add(&a, (100 + s) * S + S / 2, HOT_HELPER, l11);
		hot_agg_add(&a, (100 + s) * S + S / 2, HOT_MISS, 0);
	}
	hot_agg_add(&a, 109 * S, HOT_OWN, l20);
	/* Late: its second's slot now holds a newer second. */
	hot_agg_add(&a, 101 * S, HOT_OWN, l20);
	w = hot_agg_sum(&a, false, 109 * S + S / 2, &c);
	assert_true(w > 4.49 && w < 4.51);	/* seconds 105..109.5 */
	assert_int_equal(c.own[l10], 5);
	assert_int_equal(c.helper[l11], 5);
	assert_int_equal(c.own[l20], 1);
	assert_int_equal(c.in_prog, 11);
	assert_int_equal(c.total, 16);
	w = hot_agg_sum(&a, true, 110 * S, &c);
	assert_true(w > 9.99 && w < 10.01);
	assert_int_equal(c.own[l10], 10);
	assert_int_equal(c.own[l20], 2);
	assert_int_equal(c.in_prog, 22);
	assert_int_equal(c.total, 32);

	assert_int_equal(hot_report_fill(&r, p, &c, false), 0);
	/* Hottest first: 10 and 11 tie at 10, source order breaks it. */
	assert_int_equal(r.lines[0].line, 10);
	assert_int_equal(r.lines[1].line, 11);
	assert_int_equal(r.lines[1].helper_samples, 10);
	assert_int_equal(r.lines[2].line, 20);
	assert_string_equal(r.lines[2].subprog, "sub");
	/* Line 21 (no samples) is listed, the empty no-line buckets are not. */
	assert_int_equal(r.nr_lines, 4);
	assert_int_equal(r.lines[3].line, 21);
	assert_int_equal(r.lines[3].samples, 0);
	for (size_t i = 0; i < r.nr_lines; i++)
		sum += r.lines[i].pct;
	assert_true(sum > 99.98 && sum < 100.02);
	assert_true(r.lines[0].pct == 45.45);
	assert_int_equal(r.nr_subprogs, 2);
	assert_int_equal(r.subprogs[0].samples, 20);
	assert_int_equal(r.subprogs[1].samples, 2);
	for (size_t i = 0; i < r.nr_subprogs; i++)
		sub += r.subprogs[i].pct;
	assert_true(sub > 99.99 && sub < 100.01);
	hot_lines_sort(r.lines, r.nr_lines, true);
	assert_int_equal(r.lines[0].line, 10);
	assert_int_equal(r.lines[2].line, 20);
	assert_int_equal(r.lines[3].line, 21);
	hot_report_free(&r);
	free(c.own);
	free(c.helper);
	hot_agg_free(&a);
	hot_prog__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_wrap_and_lost),
		cmocka_unit_test(test_ring_malformed),
		cmocka_unit_test(test_lookup_boundaries),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_no_line_info),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_windows_and_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
