/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OUTPUT_JSON_RECORD_H
#define EBPFTOP_OUTPUT_JSON_RECORD_H

/*
 * A program's JSON record: the members of the columns with a JSON key, in
 * their order, each as its column's col_json_fn writes it. A refresh of
 * 10,000 programs writes 10,000 of them, some 190,000 members: written
 * member by member through the writer that is most of JSON output's cost,
 * so the record as the table has it today is also written by hand,
 * straight into the writer's buffer, and the same bytes.
 */

#include <stdbool.h>

#include "analysis/snapshot.h"
#include "util/json_writer.h"

/* The record, member by member from the column table. */
void json_record_members(struct jw *w, const struct prog_row *row);

/*
 * The same record written by hand, when the column table's JSON members
 * are those it knows (json_record_known()); returns false, having written
 * nothing, when they are not.
 */
bool json_record_fast(struct jw *w, const struct prog_row *row);

/* Whether the column table's JSON members are the ones written by hand. */
bool json_record_known(void);

/* The record, the fast way when it can. */
void json_record(struct jw *w, const struct prog_row *row);

#endif
