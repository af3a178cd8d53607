/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OUTPUT_BATCH_H
#define EBPFTOP_OUTPUT_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/snapshot.h"

#define BATCH_DEMO_CLASSES_MAX 8

/* The demo workload's state, as plain data (src/demo fills it). */
struct batch_demo {
	bool regressed;			/* the regression is landed */
	uint32_t prog_id;		/* the classifier's program id */
	size_t nr_classes;
	const char *names[BATCH_DEMO_CLASSES_MAX]; /* "fizzbuzz", ... */
	uint64_t counts[BATCH_DEMO_CLASSES_MAX];   /* packets per class */
};

/* What a record may carry besides the programs; NULL members are left out. */
struct batch_extra {
	const struct batch_demo *demo;	/* with --demo only */
};

/*
 * One refresh as a plain text table: a header line, a "REGRESSION:" line
 * per flagged program (worst first), a column line and a row per program,
 * then a blank line. Rates with no value print as "-".
 */
void batch_print_text(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n);
/*
 * The same with the extras: a "demo: program ID  fizzbuzz N ...
 * regressed: no" line under the header.
 */
void batch_print_text_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x);

/*
 * The same table written cell by cell through the column table, which
 * batch_print_text() writes by hand for the columns it knows: the same
 * bytes (tests compare them), and what it falls back to.
 */
void batch_print_text_cells(FILE *f, const struct snapshot *snap,
			    const struct prog_row *rows, size_t n);
/* Whether batch_print_text() writes the column table's rows by hand. */
bool batch_text_by_hand(void);

/* One refresh as one JSON object on one line (JSON Lines). */
void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n);
/*
 * The same with the extras: a top-level "demo" object,
 * {"regressed", "prog_id", "classes": {name: count, ...}}.
 */
void batch_print_json_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x);

#endif
