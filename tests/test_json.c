// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON writer, and batch output: the JSON Lines record that ebpftop(8)
 * describes, parsed back with json-c, and the text table.
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
#include <json-c/json.h>

#include "json_keys.h"

#include "analysis/format.h"
#include "output/batch.h"
#include "util/json_writer.h"

/* ---- a memory stream ----------------------------------------------------- */

struct membuf {
	char *s;
	size_t len;
	FILE *f;
};

static void mb_open(struct membuf *m)
{
	m->s = NULL;
	m->len = 0;
	m->f = open_memstream(&m->s, &m->len);
	assert_non_null(m->f);
}

static char *mb_close(struct membuf *m)
{
	assert_int_equal(fclose(m->f), 0);
	return m->s;
}

/* Write one string value with the writer, return the text. */
static char *quoted(const char *s)
{
	struct jw w;
	struct membuf m;

	mb_open(&m);
	jw_init(&w, m.f);
	jw_string(&w, s);
	return mb_close(&m);
}

#define assert_quoted(in, want)                                   \
	do {                                                       \
		char *got_ = quoted(in);                           \
		if (strcmp(got_, want))                            \
			fail_msg("quote: got [%s], want [%s]", got_, \
				 want);                            \
		free(got_);                                        \
	} while (0)

/* The text parses as a JSON string equal to @want (as bytes). */
static void assert_roundtrip(const char *in, const char *want)
{
	char *q = quoted(in);
	struct json_object *o = json_tokener_parse(q);

	if (!o)
		fail_msg("json-c rejects [%s]", q);
	assert_true(json_object_is_type(o, json_type_string));
	assert_string_equal(json_object_get_string(o), want);
	json_object_put(o);
	free(q);
}

/* ---- writer -------------------------------------------------------------- */

static void test_escaping(void **state)
{
	assert_quoted("plain", "\"plain\"");
	assert_quoted("", "\"\"");
	assert_quoted("a\"b", "\"a\\\"b\"");
	assert_quoted("a\\b", "\"a\\\\b\"");
	assert_quoted("\\\"", "\"\\\\\\\"\"");
	assert_quoted("/", "\"/\"");
	assert_quoted("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"");
	assert_quoted("\x01\x1f", "\"\\u0001\\u001f\"");
	assert_quoted("a\x7f", "\"a\\u007f\"");
	assert_quoted(" ~", "\" ~\"");

	/* Every control character comes out escaped and reads back. */
	for (int c = 1; c < 0x20; c++) {
		char in[2] = { (char)c, 0 };
		char *q = quoted(in);

		for (char *p = q; *p; p++)
			assert_true((unsigned char)*p >= 0x20);
		assert_roundtrip(in, in);
		free(q);
	}
	assert_roundtrip("quote\" back\\slash", "quote\" back\\slash");
}

static void test_utf8(void **state)
{
	/* Valid multibyte sequences are kept as they are. */
	assert_quoted("caf\xc3\xa9", "\"caf\xc3\xa9\"");		/* é */
	assert_quoted("\xe2\x82\xac", "\"\xe2\x82\xac\"");		/* € */
	assert_quoted("\xf0\x9f\x90\x9d", "\"\xf0\x9f\x90\x9d\"");	/* 🐝 */
	assert_quoted("\xef\xbf\xbf", "\"\xef\xbf\xbf\"");		/* U+FFFF */
	assert_quoted("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");	/* U+10FFFF */
	assert_quoted("\xc2\x80", "\"\xc2\x80\"");			/* U+0080 */
	assert_roundtrip("caf\xc3\xa9", "caf\xc3\xa9");

	/* Invalid bytes become U+FFFD, one per bad byte; the rest is kept. */
	assert_quoted("\xff", "\"\\ufffd\"");
	assert_quoted("\x80", "\"\\ufffd\"");
	assert_quoted("a\xc3", "\"a\\ufffd\"");			/* truncated */
	assert_quoted("\xc3(", "\"\\ufffd(\"");			/* bad continuation */
	assert_quoted("\xc0\xaf", "\"\\ufffd\\ufffd\"");		/* overlong / */
	assert_quoted("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");	/* overlong */
	assert_quoted("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");	/* surrogate */
	assert_quoted("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	assert_quoted("\xf5\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	assert_quoted("\xe2\x82", "\"\\ufffd\\ufffd\"");		/* truncated € */
	assert_quoted("ok\xfe\xc3\xa9!", "\"ok\\ufffd\xc3\xa9!\"");
	assert_roundtrip("x\xffy", "x\xef\xbf\xbdy");
}

static void test_numbers_and_nulls(void **state)
{
	static const double vals[] = { 0.1, 1.0 / 3.0, 123456.789, 5e-324,
				       1.5e300, 4999.999999999 };
	struct jw w;
	struct membuf m;
	char *s;

	mb_open(&m);
	jw_init(&w, m.f);
	jw_begin_array(&w);
	jw_double(&w, NAN);
	jw_double(&w, INFINITY);
	jw_double(&w, -INFINITY);
	jw_double(&w, 0.0);
	jw_double(&w, 1.5);
	jw_double(&w, 0.1);
	jw_double(&w, 1e300);
	jw_double(&w, 1795240123.25);
	jw_uint(&w, 0);
	jw_uint(&w, UINT64_MAX);
	jw_bool(&w, true);
	jw_bool(&w, false);
	jw_null(&w);
	jw_string(&w, NULL);
	jw_end_array(&w);
	s = mb_close(&m);
	assert_string_equal(s, "[null,null,null,0,1.5,0.1,1e+300,1795240123.25,"
			       "0,18446744073709551615,true,false,null,null]");
	free(s);

	/*
	 * Doubles read back within the 15 significant digits the writer
	 * keeps (measurements are far coarser), as plain JSON numbers.
	 */
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		double back;
		char *end;

		mb_open(&m);
		jw_init(&w, m.f);
		jw_double(&w, vals[i]);
		s = mb_close(&m);
		back = strtod(s, &end);
		assert_true(*end == '\0');
		if (fabs(back - vals[i]) > 1e-14 * fabs(vals[i]))
			fail_msg("%.17g printed as %s", vals[i], s);
		assert_null(strpbrk(s, "iInN"));	/* no inf or nan */
		free(s);
	}
	/* Short values stay short: no 0.10000000000000001. */
	mb_open(&m);
	jw_init(&w, m.f);
	jw_double(&w, 0.1);
	jw_double(&w, 4999.5);
	s = mb_close(&m);
	assert_string_equal(s, "0.1,4999.5");
	free(s);
}

static void test_nesting_and_commas(void **state)
{
	struct jw w;
	struct membuf m;
	char *s;

	mb_open(&m);
	jw_init(&w, m.f);
	jw_begin_object(&w);
	jw_key(&w, "a");
	jw_uint(&w, 1);
	jw_key(&w, "b");
	jw_begin_array(&w);
	jw_begin_object(&w);
	jw_end_object(&w);
	jw_begin_array(&w);
	jw_end_array(&w);
	jw_begin_object(&w);
	jw_key(&w, "x");
	jw_null(&w);
	jw_key(&w, "y");
	jw_begin_array(&w);
	jw_uint(&w, 2);
	jw_uint(&w, 3);
	jw_end_array(&w);
	jw_end_object(&w);
	jw_string(&w, "s");
	jw_end_array(&w);
	jw_key(&w, "c");
	jw_begin_object(&w);
	jw_end_object(&w);
	jw_key(&w, "k\"ey");
	jw_bool(&w, false);
	jw_end_object(&w);
	s = mb_close(&m);
	assert_string_equal(s, "{\"a\":1,\"b\":[{},[],{\"x\":null,\"y\":[2,3]},\"s\"],"
			       "\"c\":{},\"k\\\"ey\":false}");
	free(s);

	/* Nesting as deep as the writer allows stays balanced. */
	mb_open(&m);
	jw_init(&w, m.f);
	for (int i = 0; i < JW_MAX_DEPTH - 1; i++) {
		jw_begin_array(&w);
		jw_uint(&w, (uint64_t)i);
	}
	for (int i = 0; i < JW_MAX_DEPTH - 1; i++)
		jw_end_array(&w);
	s = mb_close(&m);
	{
		struct json_object *o = json_tokener_parse(s);

		if (!o)
			fail_msg("nested output does not parse: %s", s);
		json_object_put(o);
	}
	free(s);
}

/* Keys quoted at compile time write what keys quoted at run time write. */
static void test_literal_keys(void **state)
{
	struct jw w;
	struct membuf m;
	char *by_hand, *literal;

	(void)state;
	mb_open(&m);
	jw_init(&w, m.f);
	jw_begin_object(&w);
	jw_string_field(&w, "name", "a");
	jw_key(&w, "rec");
	jw_begin_object(&w);
	jw_uint_field(&w, "id", 7);
	jw_double_field(&w, "pct", 0.5);
	jw_string_field(&w, "tag", NULL);
	jw_end_object(&w);
	jw_key(&w, "n");
	jw_uint(&w, 3);
	jw_end_object(&w);
	by_hand = mb_close(&m);

	mb_open(&m);
	jw_init(&w, m.f);
	jw_begin_object(&w);
	JW_FIELDS(&w, JW_S("name", "a"));
	JW_KEY(&w, "rec");
	JW_OBJECT(&w, JW_U("id", 7), JW_D("pct", 0.5), JW_S("tag", NULL));
	JW_KEY(&w, "n");
	jw_uint(&w, 3);
	jw_end_object(&w);
	literal = mb_close(&m);

	assert_string_equal(by_hand,
			    "{\"name\":\"a\",\"rec\":{\"id\":7,\"pct\":0.5,"
			    "\"tag\":null},\"n\":3}");
	assert_string_equal(literal, by_hand);
	free(by_hand);
	free(literal);
}

/* ---- batch JSON ---------------------------------------------------------- */

static struct prog_owner owners[] = {
	{ 4242, "loader\"x" },
	{ 17, "bad\xff" },
};
static struct prog_sample samples[3];
static struct prog_row rows[3];
static struct snapshot snap;

static int batch_setup(void **state)
{
	memset(samples, 0, sizeof(samples));
	samples[0].id = 101;
	samples[0].type_name = "xdp";
	snprintf(samples[0].name, sizeof(samples[0].name), "%s",
		 "a_very_long_program_name_from_btf");
	snprintf(samples[0].tag, sizeof(samples[0].tag), "0123456789abcdef");
	samples[0].run_cnt = 9007199254740993ull;	/* 2^53 + 1 */
	samples[0].run_time_ns = UINT64_MAX;
	samples[0].owners = owners;
	samples[0].nr_owners = 2;
	rows[0].s = &samples[0];
	rows[0].r.runs_per_s = 5000.25;
	rows[0].r.ns_per_run = 42.5;
	rows[0].r.cpu_pct = 0.0212625;

	samples[1].id = 102;
	samples[1].type_name = "socket_filter";
	snprintf(samples[1].tag, sizeof(samples[1].tag), "fedcba9876543210");
	rows[1].s = &samples[1];	/* unnamed, no owners, no rates */
	rows[1].r.runs_per_s = NAN;
	rows[1].r.ns_per_run = NAN;
	rows[1].r.cpu_pct = NAN;

	samples[2].id = 103;
	samples[2].type_name = "tracing";
	snprintf(samples[2].name, sizeof(samples[2].name), "%s", "zero");
	snprintf(samples[2].tag, sizeof(samples[2].tag), "00000000000000ff");
	samples[2].run_cnt = 12;
	samples[2].run_time_ns = 345;
	rows[2].s = &samples[2];	/* no runs this interval */
	rows[2].r.runs_per_s = 0.0;
	rows[2].r.ns_per_run = NAN;
	rows[2].r.cpu_pct = 0.0;

	memset(&snap, 0, sizeof(snap));
	snap.time = 1795240123.25;
	snap.interval_s = 0.5;
	snap.stats_on = true;
	snap.stats = "on";
	snap.kernel = "6.18.0-test";
	snap.ncpus = 2;
	snap.nr_rows = 3;
	snap.rows = rows;
	snap.total_cpu_pct = 0.0212625;
	snap.seq = 2;
	return 0;
}

static char *print_json(const struct snapshot *s, const struct prog_row *r,
			size_t n)
{
	struct membuf m;

	mb_open(&m);
	batch_print_json(m.f, s, r, n);
	return mb_close(&m);
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("key \"%s\" missing", key);
	return v;
}

static bool is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_double) ||
	       json_object_is_type(o, json_type_int);
}

static void assert_number_or_null(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	if (v && !is_number(v))
		fail_msg("\"%s\" is a %s, not a number or null", key,
			 json_type_to_name(json_object_get_type(v)));
}

static void test_batch_json_record(void **state)
{
	static const char *const top_keys[] = { "time", "interval_s",
						"stats_enabled", "programs",
						"profile", "hot" };
	static const char *const prog_keys[] = {
		"id", "type", "name", "tag", "run_cnt", "run_time_ns",
		"runs_per_s", "ns_per_run", "cpu_pct", "pids", "isa",
		"subprogs", "tail_calls", "helpers", "maps", "xlated_bytes",
		"jited_bytes", "jit_pages", "regression",
	};
	struct json_object *o, *progs, *p, *pids, *v;
	char *s = print_json(&snap, rows, 3);
	size_t len = strlen(s);

	/* One line: one object, one newline at the end, none inside. */
	assert_true(len > 2 && s[len - 1] == '\n');
	assert_null(memchr(s, '\n', len - 1));
	o = json_tokener_parse(s);
	if (!o)
		fail_msg("does not parse: %s", s);
	assert_true(json_object_is_type(o, json_type_object));
	assert_keys(o, top_keys, 6);

	v = get(o, "time");
	assert_true(is_number(v));
	assert_true(json_object_get_double(v) == 1795240123.25);
	v = get(o, "interval_s");
	assert_true(is_number(v));
	assert_true(json_object_get_double(v) == 0.5);
	v = get(o, "stats_enabled");
	assert_true(json_object_is_type(v, json_type_boolean));
	assert_true(json_object_get_boolean(v));
	assert_null(get(o, "profile"));
	assert_true(json_object_object_get_ex(o, "hot", &v));
	assert_null(v);
	progs = get(o, "programs");
	assert_true(json_object_is_type(progs, json_type_array));
	assert_int_equal(json_object_array_length(progs), 3);

	for (size_t i = 0; i < 3; i++) {
		p = json_object_array_get_idx(progs, i);
		assert_true(json_object_is_type(p, json_type_object));
		assert_keys(p, prog_keys, sizeof(prog_keys) / sizeof(prog_keys[0]));
		v = get(p, "id");
		assert_true(json_object_is_type(v, json_type_int));
		assert_int_equal(json_object_get_int64(v), rows[i].s->id);
		v = get(p, "type");
		assert_true(json_object_is_type(v, json_type_string));
		assert_string_equal(json_object_get_string(v), rows[i].s->type_name);
		v = get(p, "tag");
		assert_true(json_object_is_type(v, json_type_string));
		assert_string_equal(json_object_get_string(v), rows[i].s->tag);
		assert_int_equal(strlen(json_object_get_string(v)), 16);
		assert_true(json_object_is_type(get(p, "run_cnt"), json_type_int));
		assert_true(json_object_is_type(get(p, "run_time_ns"), json_type_int));
		assert_int_equal(json_object_get_uint64(get(p, "run_cnt")),
				 rows[i].s->run_cnt);
		assert_int_equal(json_object_get_uint64(get(p, "run_time_ns")),
				 rows[i].s->run_time_ns);
		assert_number_or_null(p, "runs_per_s");
		assert_number_or_null(p, "ns_per_run");
		assert_number_or_null(p, "cpu_pct");
		pids = get(p, "pids");
		assert_true(json_object_is_type(pids, json_type_array));
		assert_int_equal(json_object_array_length(pids),
				 rows[i].s->nr_owners);
		for (size_t j = 0; j < rows[i].s->nr_owners; j++) {
			static const char *const owner_keys[] = { "pid", "comm" };
			struct json_object *ow = json_object_array_get_idx(pids, j);

			assert_keys(ow, owner_keys, 2);
			assert_true(json_object_is_type(get(ow, "pid"), json_type_int));
			assert_int_equal(json_object_get_int64(get(ow, "pid")),
					 rows[i].s->owners[j].pid);
			assert_true(json_object_is_type(get(ow, "comm"),
							json_type_string));
		}
		assert_null(get(p, "regression"));
	}

	/* Program 0: rates as numbers, owners' names escaped. */
	p = json_object_array_get_idx(progs, 0);
	assert_string_equal(json_object_get_string(get(p, "name")),
			    "a_very_long_program_name_from_btf");
	assert_true(json_object_get_double(get(p, "runs_per_s")) == 5000.25);
	assert_true(json_object_get_double(get(p, "ns_per_run")) == 42.5);
	assert_true(json_object_get_double(get(p, "cpu_pct")) == 0.0212625);
	pids = get(p, "pids");
	assert_string_equal(json_object_get_string(get(json_object_array_get_idx(pids, 0), "comm")),
			    "loader\"x");
	assert_string_equal(json_object_get_string(get(json_object_array_get_idx(pids, 1), "comm")),
			    "bad\xef\xbf\xbd");

	/* Program 1: unnamed is null (not ""), no rates are null. */
	p = json_object_array_get_idx(progs, 1);
	assert_null(get(p, "name"));
	assert_null(get(p, "runs_per_s"));
	assert_null(get(p, "ns_per_run"));
	assert_null(get(p, "cpu_pct"));

	/* Program 2: no runs is 0 runs/s, 0 % and a null ns/run. */
	p = json_object_array_get_idx(progs, 2);
	assert_string_equal(json_object_get_string(get(p, "name")), "zero");
	assert_non_null(get(p, "runs_per_s"));
	assert_true(json_object_get_double(get(p, "runs_per_s")) == 0.0);
	assert_true(json_object_get_double(get(p, "cpu_pct")) == 0.0);
	assert_null(get(p, "ns_per_run"));

	/* Counters above 2^53 print as exact integers, not doubles. */
	assert_non_null(strstr(s, "\"run_cnt\":9007199254740993,"));
	assert_non_null(strstr(s, "\"run_time_ns\":18446744073709551615,"));
	assert_null(strstr(s, "e+"));
	json_object_put(o);
	free(s);
}

static void test_batch_json_first_and_empty(void **state)
{
	struct snapshot first = snap;
	struct json_object *o;
	char *s;

	/* First refresh: no interval; stats off; no programs at all. */
	first.interval_s = NAN;
	first.stats_on = false;
	first.stats = "off";
	first.nr_rows = 0;
	s = print_json(&first, NULL, 0);
	o = json_tokener_parse(s);
	if (!o)
		fail_msg("does not parse: %s", s);
	assert_null(get(o, "interval_s"));
	assert_false(json_object_get_boolean(get(o, "stats_enabled")));
	assert_true(json_object_is_type(get(o, "stats_enabled"), json_type_boolean));
	assert_true(json_object_is_type(get(o, "programs"), json_type_array));
	assert_int_equal(json_object_array_length(get(o, "programs")), 0);
	assert_null(get(o, "profile"));
	json_object_put(o);
	free(s);

	/* Stats on by someone else, or by the sysctl: still true. */
	first.stats_on = true;
	first.stats = "on (system-wide)";
	s = print_json(&first, NULL, 0);
	assert_non_null(strstr(s, "\"stats_enabled\":true"));
	free(s);
	first.stats = "on (sysctl)";
	s = print_json(&first, NULL, 0);
	assert_non_null(strstr(s, "\"stats_enabled\":true"));
	free(s);
}

/* ---- batch text ---------------------------------------------------------- */

/* Split @line on blanks into at most @max fields; returns how many. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *t = strtok(line, " "); t && n < max; t = strtok(NULL, " "))
		f[n++] = t;
	return n;
}

static void test_batch_text(void **state)
{
	struct snapshot s = snap;
	struct membuf m;
	char *out, *line, *save = NULL, *f[16];
	int nlines = 0, n;

	s.total_cpu_pct = NAN;
	mb_open(&m);
	batch_print_text(m.f, &s, rows, 3);
	out = mb_close(&m);
	/* Header, column line, three rows, then a blank line. */
	assert_true(strlen(out) > 2);
	assert_string_equal(out + strlen(out) - 2, "\n\n");
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), nlines++) {
		char copy[1024];

		snprintf(copy, sizeof(copy), "%s", line);
		n = fields(copy, f, 16);
		if (nlines == 0) {
			assert_non_null(strstr(line, "6.18.0-test"));
			/* Unknown total share is "-" too. */
			assert_non_null(strstr(line, "bpf cpu - of"));
			continue;
		}
		if (nlines == 1) {
			assert_true(n >= 9);
			assert_string_equal(f[0], "ID");
			assert_string_equal(f[3], "NS/RUN");
			assert_string_equal(f[4], "RUNS/S");
			assert_string_equal(f[5], "CPU%");
			continue;
		}
		assert_true(n >= 8);
		if (!strcmp(f[0], "101")) {
			assert_string_equal(f[2], "a_very_long_program_name_from_btf");
			assert_string_equal(f[3], "42.5");
			assert_string_equal(f[4], "5000");
			assert_string_equal(f[5], "0.02");
			assert_string_equal(f[6], "9007199254740993");
			assert_string_equal(f[7], "18446744073709551615");
			assert_non_null(strstr(line, "(4242)"));
		} else if (!strcmp(f[0], "102")) {
			/* Unnamed program, every rate blank: "-". */
			assert_string_equal(f[1], "socket_filter");
			assert_string_equal(f[2], "(unnamed)");
			assert_string_equal(f[3], "-");
			assert_string_equal(f[4], "-");
			assert_string_equal(f[5], "-");
			assert_string_equal(f[6], "0");
			assert_string_equal(f[7], "0");
		} else if (!strcmp(f[0], "103")) {
			/* No runs: ns/run blank, the rest zero. */
			assert_string_equal(f[3], "-");
			assert_string_equal(f[4], "0.0");
			assert_string_equal(f[5], "0.00");
		} else {
			fail_msg("unexpected line: %s", line);
		}
	}
	assert_int_equal(nlines, 5);
	free(out);
}

/* Whole numbers skip printf: the text must be what %.15g prints, exactly. */
static void test_whole_numbers(void **state)
{
	static const double vals[] = { 0.0, -0.0, 1.0, 7.0, 10.0, 1000.0,
				       123456789.0, 999999999999999.0, 1e15,
				       4.5e15, 1e16, -1.0, -1000.0, 0.5,
				       1e300, 2147483648.0, 4294967296.0 };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct membuf m;
		struct jw w;
		char want[64], *s;

		snprintf(want, sizeof(want), "%.15g", vals[i]);
		mb_open(&m);
		jw_init(&w, m.f);
		jw_double(&w, vals[i]);
		s = mb_close(&m);
		assert_string_equal(s, want);
		free(s);
	}
}

static void test_format_helpers(void **state)
{
	char buf[64];
	struct prog_sample s;

	assert_string_equal(fmt_rate(buf, sizeof(buf), NAN, "-"), "-");
	assert_string_equal(fmt_rate(buf, sizeof(buf), 0.0, "-"), "0.0");
	assert_string_equal(fmt_rate(buf, sizeof(buf), -0.0, "-"), "-0.0");
	assert_string_equal(fmt_pct(buf, sizeof(buf), 0.0, "-"), "0.00");
	assert_string_equal(fmt_pct(buf, sizeof(buf), -0.0, "-"), "-0.00");
	assert_string_equal(fmt_rate(buf, sizeof(buf), 99.94, "-"), "99.9");
	assert_string_equal(fmt_rate(buf, sizeof(buf), 123456.7, "-"), "123457");
	assert_string_equal(fmt_pct(buf, sizeof(buf), NAN, ""), "");
	assert_string_equal(fmt_pct(buf, sizeof(buf), 12.3456, ""), "12.35");

	memset(&s, 0, sizeof(s));
	assert_string_equal(display_name(&s), "(unnamed)");
	assert_string_equal(fmt_owners(buf, sizeof(buf), &s), "");
	s.owners = owners;
	s.nr_owners = 2;
	assert_string_equal(fmt_owners(buf, sizeof(buf), &s),
			    "loader\"x(4242), bad\xff(17)");
	/* Truncated, still terminated, no overflow. */
	assert_string_equal(fmt_owners(buf, 8, &s), "loader\"");
	snprintf(s.name, sizeof(s.name), "n");
	assert_string_equal(display_name(&s), "n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_numbers_and_nulls),
		cmocka_unit_test(test_whole_numbers),
		cmocka_unit_test(test_nesting_and_commas),
		cmocka_unit_test(test_literal_keys),
		cmocka_unit_test_setup(test_batch_json_record, batch_setup),
		cmocka_unit_test_setup(test_batch_json_first_and_empty, batch_setup),
		cmocka_unit_test_setup(test_batch_text, batch_setup),
		cmocka_unit_test(test_format_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
