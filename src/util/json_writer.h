/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_JSON_WRITER_H
#define EBPFTOP_UTIL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/copy.h"

#define JW_MAX_DEPTH 16
#define JW_BUF_SIZE 8192

/*
 * A streaming JSON writer: commas, quoting and nulls are its business.
 * It gathers its text in buf and writes it to the stream when buf fills
 * and whenever a top-level value is complete.
 */
struct jw {
	FILE *f;
	int depth;
	/*
	 * What goes before the next value: ',' after a value, nothing at
	 * the start of an object or array or after a key.
	 */
	char sep;
	size_t len;		/* bytes in buf */
	char buf[JW_BUF_SIZE];
};

/*
 * The writer's own steps, inline below so that a record of many members
 * costs a few instructions a member (a refresh of 10,000 programs writes
 * some 300,000 of them); not for callers.
 */
void jw__flush(struct jw *w);
void jw__put_long(struct jw *w, const char *s, size_t n);
void jw__put_u64(struct jw *w, uint64_t v);

/* Make room for @n more bytes in the buffer (@n <= JW_BUF_SIZE). */
static inline char *jw__room(struct jw *w, size_t n)
{
	if (__builtin_expect(JW_BUF_SIZE - w->len < n, 0))
		jw__flush(w);
	return w->buf + w->len;
}

static inline void jw__put_c(struct jw *w, char c)
{
	*jw__room(w, 1) = c;
	w->len++;
}

static inline void jw__put_n(struct jw *w, const char *s, size_t n)
{
	if (n <= 32) {
		copy_small(jw__room(w, 32), s, n);
		w->len += n;
		return;
	}
	if (__builtin_expect(n > JW_BUF_SIZE / 2, 0)) {
		jw__put_long(w, s, n);
		return;
	}
	memcpy(jw__room(w, n), s, n);
	w->len += n;
}

/*
 * The text goes out when a top-level value is complete, so that callers
 * may write to the stream between values, and when the buffer fills.
 */
static inline void jw__done(struct jw *w)
{
	w->sep = ',';
	if (w->depth == 0)
		jw__flush(w);
}

/* Separate this value from the previous one, unless it follows a key. */
static inline void jw__value_start(struct jw *w)
{
	if (w->sep)
		jw__put_c(w, w->sep);
}

static inline void jw__open(struct jw *w, char c)
{
	jw__value_start(w);
	jw__put_c(w, c);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->sep = '\0';
}

static inline void jw__close(struct jw *w, char c)
{
	jw__put_c(w, c);
	if (w->depth > 0)
		w->depth--;
	jw__done(w);
}

void jw_init(struct jw *w, FILE *f);

static inline void jw_begin_object(struct jw *w)
{
	jw__open(w, '{');
}

static inline void jw_end_object(struct jw *w)
{
	jw__close(w, '}');
}

static inline void jw_begin_array(struct jw *w)
{
	jw__open(w, '[');
}

static inline void jw_end_array(struct jw *w)
{
	jw__close(w, ']');
}

void jw_key(struct jw *w, const char *key);

/*
 * A key given already quoted with its colon, @n bytes ("\"id\":"): for
 * keys written many times, quoted once.
 */
static inline void jw_key_raw(struct jw *w, const char *quoted, size_t n)
{
	jw__value_start(w);
	jw__put_n(w, quoted, n);
	w->sep = '\0';
}

void jw_string(struct jw *w, const char *s);	/* NULL: null */

static inline void jw_uint(struct jw *w, uint64_t v)
{
	jw__value_start(w);
	if (v < 10) {		/* counts of 0, the common case */
		*jw__room(w, 1) = (char)('0' + v);
		w->len++;
	} else {
		jw__put_u64(w, v);
	}
	jw__done(w);
}

void jw_double(struct jw *w, double v);	/* NAN/inf: null */
/*
 * For writers that put a value's text in buf themselves: a finite @v as
 * jw_double() writes it, at @out (40 bytes), and its length; whether the
 * @n bytes at @s go in a JSON string as they are (printable ASCII but '"'
 * and '\\').
 */
size_t jw_number_text(char *out, double v);
bool jw_plain(const char *s, size_t n);

static inline void jw_bool(struct jw *w, bool v)
{
	jw__value_start(w);
	if (v)
		jw__put_n(w, "true", 4);
	else
		jw__put_n(w, "false", 5);
	jw__done(w);
}

static inline void jw_null(struct jw *w)
{
	jw__value_start(w);
	jw__put_n(w, "null", 4);
	jw__done(w);
}

/* A key and its value in one call. */
void jw_string_field(struct jw *w, const char *key, const char *s);
void jw_uint_field(struct jw *w, const char *key, uint64_t v);
void jw_double_field(struct jw *w, const char *key, double v);
void jw_bool_field(struct jw *w, const char *key, bool v);

/*
 * A literal key, quoted with its colon by the compiler: JW_KEY(w, "id")
 * writes what jw_key(w, "id") does without looking at the key's bytes.
 * @k must be a string literal that JSON holds as it is (no '"', '\\' or
 * control characters).
 */
#define JW_QUOTED(k) "\"" k "\":"
#define JW_KEY(w, k) jw_key_raw((w), JW_QUOTED(k), sizeof(JW_QUOTED(k)) - 1)

/*
 * Several keys and values in one call, for the records every writer
 * writes: JW_OBJECT(w, JW_U("id", id), JW_S("name", name)) writes
 * {"id":...,"name":...}; JW_FIELDS() writes the same keys and values into
 * the object already open. Keys are string literals, quoted at compile
 * time as JW_KEY's are.
 */
enum jw_kind { JW_KIND_STRING, JW_KIND_UINT, JW_KIND_DOUBLE, JW_KIND_BOOL };

struct jw_field {
	const char *key;	/* quoted, with its colon; NULL ends a list */
	unsigned char key_len;
	unsigned char kind;	/* enum jw_kind */
	union {
		const char *s;
		uint64_t u;
		double d;
		bool b;
	} v;
};

#define JW_FIELD_(k, knd) \
	.key = JW_QUOTED(k), .key_len = sizeof(JW_QUOTED(k)) - 1, .kind = (knd)
#define JW_S(k, x) { JW_FIELD_(k, JW_KIND_STRING), .v.s = (x) }
#define JW_U(k, x) { JW_FIELD_(k, JW_KIND_UINT), .v.u = (x) }
#define JW_D(k, x) { JW_FIELD_(k, JW_KIND_DOUBLE), .v.d = (x) }

/* The fields of @f up to the one whose key is NULL. */
void jw_fields(struct jw *w, const struct jw_field *f);
void jw_object(struct jw *w, const struct jw_field *f);

#define JW_FIELDS(w, ...) \
	jw_fields((w), (const struct jw_field[]){ __VA_ARGS__, { .key = NULL } })
#define JW_OBJECT(w, ...) \
	jw_object((w), (const struct jw_field[]){ __VA_ARGS__, { .key = NULL } })

#endif
