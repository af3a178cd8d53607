// SPDX-License-Identifier: GPL-2.0-only
/* The table's column widths: layout_measure() against every cell measured. */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/layout.h"

#define ROWS 2000

/* Every cell of every measured column formatted and measured. */
static void measure_all(const struct prog_row *view, size_t n, bool utf8,
			int want[COL__MAX])
{
	char buf[512];

	for (int c = 0; c < COL__MAX; c++) {
		const struct col_def *d = col_def(c);
		const struct col_fmt fmt = { .utf8 = utf8, .width = d->max_w };

		want[c] = 0;
		if (!d->label || d->width != COL_MEASURED)
			continue;
		for (size_t i = 0; i < n; i++) {
			int w = (int)layout_width(d->cell(buf, sizeof(buf), &view[i], &fmt));

			if (w > want[c])
				want[c] = w;
		}
	}
}

/*
 * Rows with shared and distinct owners, types, flags, names in UTF-8 and
 * ids of every width: the same widths as measuring every cell, for every
 * prefix of the table (the widest cell first, last, or in between).
 */
static void test_measure_agrees(void **state)
{
	static const char *const types[] = { "xdp", "tracing", NULL, "sched_cls" };
	static const char *const names[] = { "bench_", "", "caf\xc3\xa9_", "\xe6\xbc\xa2\xe5\xad\x97",
					     "a_much_longer_program_name_" };
	static struct prog_owner own[] = { { 1, "systemd" }, { 4242, "loadprogs" },
					   { 77, "sshd" }, { 4242, "loadprogs" },
					   { 123456, "x" } };
	/* Wider alone than any two of the others, and as many as one. */
	static struct prog_owner wide = { 4000000000u, "averylongcomm15" };
	struct prog_sample *s = calloc(ROWS, sizeof(*s));
	struct prog_row *r = calloc(ROWS, sizeof(*r));
	int got[COL__MAX], want[COL__MAX];

	assert_non_null(s);
	assert_non_null(r);
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		skip();
	srand(7);
	for (size_t i = 0; i < ROWS; i++) {
		int k = rand() % 8;

		s[i].id = k == 0 ? (uint32_t)rand() * 3u : (uint32_t)(rand() % 100000);
		s[i].type_name = types[rand() % 4];
		snprintf(s[i].name, sizeof(s[i].name), "%s%d", names[rand() % 5],
			 rand() % 1000);
		/* Runs of rows with the same owners, as a loader gives. */
		if (i && rand() % 4) {
			s[i].owners = s[i - 1].owners;
			s[i].nr_owners = s[i - 1].nr_owners;
		} else {
			int o = rand() % 4;	/* and up to two from there */

			s[i].owners = &own[o];
			s[i].nr_owners = (uint32_t)(rand() % 3);
		}
		if (i == ROWS / 2 || i == 9) {
			/* After a row with one other owner. */
			s[i - 1].owners = &own[4];
			s[i - 1].nr_owners = 1;
			s[i].owners = &wide;
			s[i].nr_owners = 1;
		}
		r[i].s = &s[i];
		r[i].reg.active = rand() % 50 == 0;
		r[i].reg.change_pct = rand() % 2 ? 12.5 * (rand() % 100) : (double)NAN;
	}
	for (int utf8 = 0; utf8 < 2; utf8++) {
		for (size_t n = 0; n <= ROWS; n += n < 20 ? 1 : 97) {
			layout_measure(r, n, utf8, got);
			measure_all(r, n, utf8, want);
			for (int c = 0; c < COL__MAX; c++) {
				if (got[c] != want[c])
					fail_msg("%zu rows, utf8 %d, column %s: width %d, want %d",
						 n, utf8, col_label(c), got[c], want[c]);
			}
		}
	}
	setlocale(LC_CTYPE, "C");
	free(r);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure_agrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
