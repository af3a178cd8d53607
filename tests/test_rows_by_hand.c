// SPDX-License-Identifier: GPL-2.0-only
/*
 * Batch output's rows written by hand against the same rows written
 * through the column table: the JSON record (json_record_fast against
 * member by member) and the text table (batch_print_text against
 * batch_print_text_cells), byte for byte, over random programs with every
 * kind of value (no value, odd numbers, names to escape, long ones, many
 * owners, subprograms, helpers and maps, flagged or not), many rows at a
 * time so that buffers fill in the middle of rows.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/batch.h"
#include "output/json_record.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * UINT64_C(2685821657736338717)) >> 33) % n;
}

static const char *const words[] = {
	"xdp", "socket_filter", "", "bpf_map_lookup_elem", "v1",
	"caf\xc3\xa9", "evil\x1b[2J\"q\\", "tab\there", "\xff\xfe broken",
	"del\x7f", "exactly_eight", "a",
	"a_name_long_enough_to_take_more_than_one_word_of_eight_bytes",
};
#define NR_WORDS (sizeof(words) / sizeof(words[0]))

static double rnd_double(void)
{
	static const double v[] = {
		NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, 0.1, 99.95, 1e15,
		1e-5, 123456.789, 1e300, -42.5, 0x1p53, 5e-324,
	};

	if (rnd(3))
		return v[rnd(sizeof(v) / sizeof(v[0]))];
	return (double)rnd(1000000) / (double)(1 + rnd(1000));
}

static uint64_t rnd_u64(void)
{
	switch (rnd(4)) {
	case 0:
		return rnd(10);
	case 1:
		return UINT64_MAX - rnd(3);
	default:
		return ((uint64_t)rnd(UINT32_MAX) << rnd(32)) + rnd(1000);
	}
}

/* A long string of @n bytes (names longer than a piece of the record). */
static char long_name[600];

static const char *rnd_word(void)
{
	if (!rnd(40)) {
		size_t n = 200 + rnd(sizeof(long_name) - 201);

		memset(long_name, 'n', n);
		long_name[n] = '\0';
		if (rnd(2))
			long_name[rnd((uint32_t)n)] = '"';
		return long_name;
	}
	return words[rnd(NR_WORDS)];
}

struct prog {
	struct prog_sample s;
	struct prog_owner owners[40];
	struct prog_insights ins;
	struct insight_subprog subprogs[12];
	struct insight_call calls[12];
	struct insight_map maps[12];
	char sub_names[12][64];
};

static void fill(struct prog *p, struct prog_row *row)
{
	bool plain_crowd;

	memset(p, 0, sizeof(*p));
	memset(row, 0, sizeof(*row));
	p->s.id = (uint32_t)rnd_u64();
	p->s.type_name = rnd(8) ? words[rnd(NR_WORDS)] : NULL;
	if (rnd(20)) {
		snprintf(p->s.name, sizeof(p->s.name), "%s", words[rnd(NR_WORDS)]);
	} else {	/* the longest a name is */
		memset(p->s.name, 'm', sizeof(p->s.name) - 1);
		p->s.name[sizeof(p->s.name) - 1] = '\0';
	}
	snprintf(p->s.tag, sizeof(p->s.tag), "%s",
		 rnd(4) ? "59f4a931744dcdc6" : words[rnd(NR_WORDS)]);
	p->s.run_cnt = rnd_u64();
	p->s.run_time_ns = rnd_u64();
	p->s.nr_owners = rnd(8) ? rnd(3) : rnd(40);
	p->s.owners = p->owners;
	/* Half the crowds plain: long enough for the owners cell to be cut. */
	plain_crowd = p->s.nr_owners > 16 && rnd(2);
	for (uint32_t i = 0; i < p->s.nr_owners; i++) {
		p->owners[i].pid = (uint32_t)rnd_u64();
		snprintf(p->owners[i].comm, sizeof(p->owners[i].comm), "%s",
			 plain_crowd ? "systemd-journal" : words[rnd(NR_WORDS)]);
	}
	row->s = &p->s;
	row->r.ns_per_run = rnd_double();
	row->r.runs_per_s = rnd_double();
	row->r.cpu_pct = rnd_double();
	row->reg.active = !rnd(4);
	row->reg.baseline_ns = rnd_double();
	row->reg.current_ns = rnd_double();
	row->reg.change_pct = rnd_double();
	row->reg.since = rnd(2) ? 1795700000.25 : rnd_double();

	p->ins.err = rnd(6) ? 0 : -1;
	p->ins.have_isa = rnd(5);
	p->ins.isa.level = (int)rnd(6);
	p->ins.isa.insns = (uint32_t)rnd_u64();
	for (int l = 0; l <= ISA_LEVEL_MAX; l++)
		p->ins.isa.needs[l] = rnd(3) ? rnd(10) : rnd(100000);
	p->ins.isa.kernel = rnd(20);
	p->ins.xlated_len = rnd(100000);
	p->ins.jited_len = rnd(100000);
	p->ins.jit_pages = rnd(3) ? rnd(40) : 0;
	p->ins.tail_calls = rnd(5);
	p->ins.nr_subprogs = rnd(4) ? rnd(3) : rnd(12);
	p->ins.subprogs = p->subprogs;
	for (uint32_t i = 0; i < p->ins.nr_subprogs; i++) {
		snprintf(p->sub_names[i], sizeof(p->sub_names[i]), "%s",
			 words[rnd(NR_WORDS)]);
		p->subprogs[i].name = rnd(3) ? p->sub_names[i] : NULL;
		if (!rnd(10))
			p->subprogs[i].name = (char *)rnd_word();
		p->subprogs[i].insns = rnd(5000);
		p->subprogs[i].jited_len = rnd(50000);
		p->subprogs[i].calls = rnd(10);
	}
	p->ins.nr_calls = rnd(3) ? rnd(3) : rnd(12);
	p->ins.calls = p->calls;
	for (uint32_t i = 0; i < p->ins.nr_calls; i++) {
		p->calls[i].name = rnd_word();
		p->calls[i].calls = rnd(100);
		p->calls[i].kind = (uint8_t)rnd(2);
	}
	p->ins.nr_maps = rnd(3) ? rnd(3) : rnd(12);
	p->ins.maps = p->maps;
	for (uint32_t i = 0; i < p->ins.nr_maps; i++) {
		struct insight_map *m = &p->maps[i];

		m->id = (uint32_t)rnd_u64();
		snprintf(m->name, sizeof(m->name), "%s", words[rnd(NR_WORDS)]);
		m->type_name = rnd(6) ? words[rnd(NR_WORDS)] : NULL;
		m->key_size = rnd(64);
		m->value_size = rnd(4096);
		m->max_entries = (uint32_t)rnd_u64();
	}
	row->ins = rnd(8) ? &p->ins : NULL;
}

/* @n records in an array, the fast way or member by member. */
static char *render(const struct prog_row *rows, size_t n, bool fast,
		    size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct jw w;

	assert_non_null(f);
	jw_init(&w, f);
	jw_begin_array(&w);
	for (size_t i = 0; i < n; i++) {
		if (fast)
			assert_true(json_record_fast(&w, &rows[i]));
		else
			json_record_members(&w, &rows[i]);
	}
	jw_end_array(&w);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_known(void **state)
{
	(void)state;
	/*
	 * The column table's JSON members and text columns are those written
	 * by hand: a new column fails here until output/json_record.c and
	 * text_known[] in output/batch.c write it too.
	 */
	assert_true(json_record_known());
	assert_true(batch_text_by_hand());
}

static void test_same_bytes(void **state)
{
	enum { ROWS = 64 };
	struct prog *p = calloc(ROWS, sizeof(*p));
	struct prog_row rows[ROWS];

	(void)state;
	assert_non_null(p);
	for (int round = 0; round < 300; round++) {
		size_t la, lb;
		char *a, *b;

		for (size_t i = 0; i < ROWS; i++)
			fill(&p[i], &rows[i]);
		a = render(rows, ROWS, true, &la);
		b = render(rows, ROWS, false, &lb);
		if (la != lb || memcmp(a, b, la)) {
			size_t i = 0;

			while (i < la && i < lb && a[i] == b[i])
				i++;
			fail_msg("round %d differs at byte %zu:\nfast: %.160s\n"
				 "each: %.160s", round, i,
				 a + (i > 60 ? i - 60 : 0),
				 b + (i > 60 ? i - 60 : 0));
		}
		free(a);
		free(b);
	}
	free(p);
}

static char *render_text(const struct prog_row *rows, size_t n, bool fast,
			 size_t *len)
{
	struct snapshot snap = {
		.time = 1795700000.0, .interval_s = 0.1, .stats_on = true,
		.stats = "on", .kernel = "6.18.0-test", .ncpus = 2,
		.nr_rows = n,
	};
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (fast)
		batch_print_text(f, &snap, rows, n);
	else
		batch_print_text_cells(f, &snap, rows, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_text_same_bytes(void **state)
{
	enum { ROWS = 400 };
	struct prog *p = calloc(ROWS, sizeof(*p));
	struct prog_row *rows = calloc(ROWS, sizeof(*rows));

	(void)state;
	assert_non_null(p);
	assert_non_null(rows);
	for (int round = 0; round < 60; round++) {
		/* Now and then a table of a few rows: other widths. */
		size_t n = round % 4 ? ROWS : 1 + rnd(5);
		size_t la, lb;
		char *a, *b;

		for (size_t i = 0; i < n; i++)
			fill(&p[i], &rows[i]);
		a = render_text(rows, n, true, &la);
		b = render_text(rows, n, false, &lb);
		if (la != lb || memcmp(a, b, la)) {
			size_t i = 0;

			while (i < la && i < lb && a[i] == b[i])
				i++;
			fail_msg("round %d differs at byte %zu:\nfast:  %.160s\n"
				 "cells: %.160s", round, i,
				 a + (i > 60 ? i - 60 : 0),
				 b + (i > 60 ? i - 60 : 0));
		}
		free(a);
		free(b);
	}
	free(rows);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_text_same_bytes),
	};

	/* Flagged rows print their start in local time. */
	setenv("TZ", "UTC", 1);

	return cmocka_run_group_tests(tests, NULL, NULL);
}
