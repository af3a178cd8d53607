/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OUTPUT_BATCH_H
#define EBPFTOP_OUTPUT_BATCH_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/snapshot.h"

/*
 * One refresh as a plain text table: a header line, a column line and a
 * row per program, then a blank line. Rates with no value print as "-".
 */
void batch_print_text(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n);

/* One refresh as one JSON object on one line (JSON Lines). */
void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n);

#endif
