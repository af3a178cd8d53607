// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-written number formatters against printf: batch output writes
 * rates, shares, counters and JSON doubles without printf, and must write
 * exactly what printf would (rounding boundaries, ties, huge and tiny
 * values, negative zero, inf).
 */
#include "config.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "util/decimal.h"
#include "util/json_writer.h"

/* A fixed sequence of pseudo-random numbers (xorshift64). */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A double of any sign and magnitude, from its bits (not NAN). */
static double rnd_bits_double(void)
{
	uint64_t b = rnd();
	double d;

	memcpy(&d, &b, sizeof(d));
	return isnan(d) ? 1.0 : d;
}

/* A value from 0 to @max, with few or many digits. */
static double rnd_scaled(double max)
{
	double d = (double)(rnd() >> 11) / 9007199254740992.0 * max;

	switch (rnd() % 4) {
	case 0:
		return round(d * 1000.0) / 1000.0;	/* ties close by */
	case 1:
		return round(d * 20.0) / 20.0;		/* x.x5 */
	default:
		return d;
	}
}

/* Values where rounding is decided: k / 10^p, halves, and their neighbours. */
static void boundary_values(double *v, size_t *n, size_t max)
{
	static const double scales[] = { 1, 10, 100, 1000, 10000 };

	for (size_t s = 0; s < sizeof(scales) / sizeof(scales[0]); s++) {
		for (int k = 0; k < 2100 && *n + 6 < max; k += 1 + k / 50) {
			double a = (double)k / scales[s];
			double h = ((double)k + 0.5) / scales[s];

			v[(*n)++] = a;
			v[(*n)++] = h;
			v[(*n)++] = nextafter(h, 0.0);
			v[(*n)++] = nextafter(h, INFINITY);
			v[(*n)++] = -h;
			v[(*n)++] = nextafter(a, INFINITY);
		}
	}
}

static const double specials[] = {
	0.0, -0.0, INFINITY, -INFINITY, DBL_MIN, -DBL_MIN, 4.9e-324, DBL_MAX,
	-DBL_MAX, 0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.35, 0.005, 0.125, 0.375,
	99.95, 99.94999999999999, 99.96, 100.0, 100.5, 101.5, 999.5, 1e15,
	4503599627370495.5, 4503599627370496.0, 9007199254740991.0,
	9007199254740992.0, 9007199254740993.0, 1.8446744073709552e19, 1e300,
	-1e300, 1e-300, 0.0001, 0.00049999999999999999, 123456.785,
	1234567.125, 0.045, 0.055, 1.005, 2.675,
};

#define NR_SPECIALS (sizeof(specials) / sizeof(specials[0]))

static void check_fixed(double v, int prec)
{
	char want[512], got[512];

	snprintf(want, sizeof(want), "%.*f", prec, v);
	fmt_fixed(got, sizeof(got), v, prec);
	if (strcmp(got, want))
		fail_msg("fmt_fixed(%a, %d): [%s], printf [%s]", v, prec, got,
			 want);
	/* fmt_fixed_len: the same text, and its length. */
	if (fmt_fixed_len(got, sizeof(got), v, prec) != strlen(want) ||
	    strcmp(got, want))
		fail_msg("fmt_fixed_len(%a, %d): [%s], printf [%s]", v, prec,
			 got, want);
}

static void test_fixed(void **state)
{
	static double v[40000];
	size_t n = 0;

	(void)state;
	boundary_values(v, &n, sizeof(v) / sizeof(v[0]));
	for (size_t i = 0; i < n; i++) {
		for (int prec = 0; prec <= 3; prec++)
			check_fixed(v[i], prec);
	}
	for (size_t i = 0; i < NR_SPECIALS; i++) {
		for (int prec = 0; prec <= 3; prec++)
			check_fixed(specials[i], prec);
	}
	for (int i = 0; i < 50000; i++) {
		double r = rnd_scaled(i % 2 ? 200.0 : 1e7);

		for (int prec = 0; prec <= 3; prec++) {
			check_fixed(r, prec);
			check_fixed(-r, prec);
		}
		check_fixed(rnd_bits_double(), (int)(rnd() % 4));
		check_fixed(ldexp(1.0, (int)(rnd() % 120) - 60) * (double)(rnd() % 1000),
			    (int)(rnd() % 4));
	}
}

/* fmt_rate, fmt_pct: printf's formats, and its truncation in short buffers. */
static void test_rate_pct(void **state)
{
	char want[64], got[64];

	(void)state;
	for (int i = 0; i < 20000; i++) {
		double v = i < (int)NR_SPECIALS ? specials[i] :
			   rnd_scaled(i % 3 ? 150.0 : 1e9);
		size_t len = i % 5 ? sizeof(got) : 1 + rnd() % 8;

		if (i % 7 == 0)
			v = -v;
		snprintf(want, len, v < 100.0 ? "%.1f" : "%.0f", v);
		memset(got, 'x', sizeof(got));
		fmt_rate(got, len, v, "-");
		if (strcmp(got, want))
			fail_msg("fmt_rate(%a) in %zu: [%s], want [%s]", v, len,
				 got, want);
		snprintf(want, len, "%.2f", v);
		fmt_pct(got, len, v, "-");
		if (strcmp(got, want))
			fail_msg("fmt_pct(%a) in %zu: [%s], want [%s]", v, len,
				 got, want);
	}
	assert_string_equal(fmt_rate(got, sizeof(got), NAN, "-"), "-");
	assert_string_equal(fmt_pct(got, sizeof(got), NAN, ""), "");
	assert_string_equal(fmt_rate(got, 2, NAN, "abc"), "a");
	assert_string_equal(fmt_rate(got, sizeof(got), 99.95, "-"), "100.0");
	assert_string_equal(fmt_rate(got, sizeof(got), 0.25, "-"), "0.2");
	assert_string_equal(fmt_pct(got, sizeof(got), 0.125, "-"), "0.12");
}

static void test_u64(void **state)
{
	char want[32], got[32];

	(void)state;
	for (int i = 0; i < 20000; i++) {
		uint64_t v;

		if (i < 64 * 3) {	/* around every power of two */
			v = (UINT64_C(1) << (i / 3)) + (uint64_t)(i % 3) - 1;
		} else if (i < 64 * 3 + 20 * 3) {	/* of ten */
			uint64_t p = 1;

			for (int k = 0; k < (i - 192) / 3; k++)
				p *= 10;
			v = p + (uint64_t)((i - 192) % 3) - 1;
		} else {
			v = rnd() >> (rnd() % 64);
		}
		snprintf(want, sizeof(want), "%" PRIu64, v);
		*dec_u64(got, v) = '\0';
		if (strcmp(got, want))
			fail_msg("dec_u64: [%s], want [%s]", got, want);
	}
	*dec_u64(got, UINT64_MAX) = '\0';
	assert_string_equal(got, "18446744073709551615");
	*dec_u64(got, 0) = '\0';
	assert_string_equal(got, "0");
}

/* The owners cell as successive snprintf calls wrote it, cut where they cut. */
static void owners_ref(char *buf, size_t len, const struct prog_sample *s)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < s->nr_owners && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s(%u)", i ? ", " : "",
				 s->owners[i].comm, s->owners[i].pid);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void test_owners(void **state)
{
	static struct prog_owner o[40];
	struct prog_sample s = { .owners = o };
	char want[600], got[600];

	(void)state;
	for (size_t i = 0; i < sizeof(o) / sizeof(o[0]); i++) {
		o[i].pid = i ? (uint32_t)(rnd() >> (rnd() % 64)) : UINT32_MAX;
		snprintf(o[i].comm, sizeof(o[i].comm), "%.*s",
			 (int)(rnd() % 16), "c\xc3\xa9\x1b[x\\y_worker/12345");
	}
	for (uint32_t nr = 0; nr <= 40; nr++) {
		s.nr_owners = nr;
		for (size_t len = 1; len < sizeof(got); len += 1 + len / 8) {
			owners_ref(want, len, &s);
			fmt_owners(got, len, &s);
			if (strcmp(got, want))
				fail_msg("%u owners in %zu: [%s], want [%s]", nr,
					 len, got, want);
		}
	}
}

/* One JSON double as the writer writes it. */
static void json_double(char *out, size_t len, double v)
{
	FILE *f = fmemopen(out, len, "w");
	struct jw w;

	assert_non_null(f);
	jw_init(&w, f);
	jw_double(&w, v);
	assert_int_equal(fclose(f), 0);
}

static void check_g15(double v)
{
	char want[64], got[64];

	if (!isfinite(v))
		snprintf(want, sizeof(want), "null");
	else
		snprintf(want, sizeof(want), "%.15g", v);
	json_double(got, sizeof(got), v);
	if (strcmp(got, want))
		fail_msg("jw_double(%a): [%s], printf [%s]", v, got, want);
}

static void test_json_double(void **state)
{
	static double v[40000];
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < NR_SPECIALS; i++)
		check_g15(specials[i]);
	/* Around every power of ten the exact path covers, and past it. */
	for (int e = -6; e <= 16; e++) {
		double p = pow(10.0, e);

		check_g15(p);
		check_g15(nextafter(p, 0.0));
		check_g15(nextafter(p, INFINITY));
		check_g15(p * (1.0 - 5e-16));
		check_g15(-p * (1.0 + 5e-16));
	}
	check_g15(999999999999999.4);
	check_g15(999999999999999.5);
	check_g15(99999999999999.95);
	check_g15(0.000099999999999999995);
	check_g15(0.1);
	check_g15(1795240123.25);
	boundary_values(v, &n, sizeof(v) / sizeof(v[0]));
	for (size_t i = 0; i < n; i++)
		check_g15(v[i] * 1.2345678901234567);
	for (int i = 0; i < 100000; i++) {
		check_g15(rnd_scaled(1e6) + 1.0 / (double)(1 + rnd() % 1000));
		check_g15(ldexp((double)(rnd() >> 11), (int)(rnd() % 120) - 100));
		check_g15(rnd_bits_double());
	}
}

/*
 * The batch text cells as the text table writes them (col_text_fn) are
 * the cells as every other writer gets them (col_cell_fn with .text),
 * with their lengths; in short buffers, cut as snprintf cuts.
 */
static void test_text_cells(void **state)
{
	static const double rates[] = {
		NAN, 0.0, -0.0, 0.04, 0.05, 0.15, 99.94, 99.95, 99.96, 100.0,
		100.5, 101.5, 1234.5, 9.88, 1e15, 0x1p53, 1e300, -3.25,
		INFINITY, -INFINITY,
	};
	static const uint64_t counts[] = {
		0, 1, 9, 10, 99, 100, 12345, 4294967295u, 4294967296u,
		UINT64_MAX,
	};
	static const char *const types[] = { "xdp", "socket_filter", NULL,
					     "a_type_name_longer_than_16" };
	struct prog_insights ins = { .have_isa = true };
	struct prog_sample s = { .name = "p" };
	struct prog_row row = { .s = &s };
	const struct col_fmt text = { .text = true };
	size_t cols = 0;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		row.r.ns_per_run = i % 3 ? rates[rnd() % 20] : rnd_scaled(1e6);
		row.r.runs_per_s = rates[rnd() % 20];
		row.r.cpu_pct = i % 2 ? rates[rnd() % 20] : rnd_scaled(300.0);
		s.id = (uint32_t)counts[rnd() % 10];
		s.run_cnt = i % 4 ? counts[rnd() % 10] : rnd();
		s.run_time_ns = counts[rnd() % 10];
		s.type_name = types[rnd() % 4];
		row.reg.active = rnd() % 2;
		row.reg.change_pct = i % 5 ? rnd_scaled(20000.0) : (double)NAN;
		ins.err = rnd() % 4 == 0 ? -1 : 0;
		ins.have_isa = rnd() % 4 != 0;
		ins.isa.level = (int)(rnd() % 6);
		row.ins = rnd() % 5 ? &ins : NULL;
		for (int c = 0; c < COL__MAX; c++) {
			const struct col_def *d = col_def((enum col)c);
			char want[2048], got[2048];
			const char *cell;
			size_t n, len;

			if (!d->text)
				continue;
			cols += i == 0;
			cell = d->cell(want, sizeof(want), &row, &text);
			len = strlen(cell);
			n = d->text(got, sizeof(got), &row);
			if (n != len || strcmp(got, cell))
				fail_msg("column %d: [%s] (%zu), cell [%s]", c, got,
					 n, cell);
			for (size_t room = 1; room < 26; room++) {
				memset(got, 'x', sizeof(got));
				n = d->text(got, room, &row);
				assert_int_equal(n, len < room ? len : room - 1);
				assert_memory_equal(got, cell, n);
				assert_int_equal(got[n], '\0');
			}
		}
	}
	/* ID and TYPE to FLAG, the plain columns: all written so. */
	assert_int_equal(cols, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_rate_pct),
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_owners),
		cmocka_unit_test(test_json_double),
		cmocka_unit_test(test_text_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
