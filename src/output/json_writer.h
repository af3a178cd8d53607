/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_OUTPUT_JSON_WRITER_H
#define EBPFTOP_OUTPUT_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

/* A streaming JSON writer: commas, quoting and nulls are its business. */
struct json_writer {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;		/* a key was written; its value comes next */
};

void json_init(struct json_writer *w, FILE *f);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);	/* NULL: null */
void json_uint(struct json_writer *w, uint64_t v);
void json_double(struct json_writer *w, double v);	/* NAN/inf: null */
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

#endif
