// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/json_writer.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/*
 * A record of 10,000 programs is some 100,000 small writes: stdio's
 * per-call locking would cost more than the formatting. Only one thread
 * writes a given stream, so the unlocked calls are safe.
 */
#define fputc fputc_unlocked
#define fputs fputs_unlocked
#define fwrite fwrite_unlocked

/* @v in decimal, written without printf. */
static void put_u64(FILE *f, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), f);
}

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->need_comma[0] = false;
	w->after_key = false;
}

/* Separate this value from the previous one, unless it follows a key. */
static void value_start(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->need_comma[w->depth])
		fputc(',', w->f);
	w->need_comma[w->depth] = true;
}

static void open_level(struct jw *w, int c)
{
	value_start(w);
	fputc(c, w->f);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_level(struct jw *w, int c)
{
	fputc(c, w->f);
	if (w->depth > 0)
		w->depth--;
}

void jw_begin_object(struct jw *w)
{
	open_level(w, '{');
}

void jw_end_object(struct jw *w)
{
	close_level(w, '}');
}

void jw_begin_array(struct jw *w)
{
	open_level(w, '[');
}

void jw_end_array(struct jw *w)
{
	close_level(w, ']');
}

/* Length of the valid UTF-8 sequence at @p, or 0 if it is not one. */
static int utf8_len(const unsigned char *p)
{
	int n;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

static bool plain_byte(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *run = p;

		/* Runs of printable ASCII go out in one write. */
		while (plain_byte(*p))
			p++;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (!*p)
			break;
		if (*p >= 0x80) {
			int n = utf8_len(p);

			/* Process names are bytes, JSON is UTF-8. */
			if (!n) {
				fputs("\\ufffd", f);
				continue;
			}
			fwrite(p, 1, (size_t)n, f);
			p += n - 1;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void jw_key(struct jw *w, const char *key)
{
	value_start(w);
	put_quoted(w->f, key);
	fputc(':', w->f);
	w->after_key = true;
}

void jw_string(struct jw *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	value_start(w);
	put_quoted(w->f, s);
}

void jw_uint(struct jw *w, uint64_t v)
{
	value_start(w);
	put_u64(w->f, v);
}

void jw_double(struct jw *w, double v)
{
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	value_start(w);
	/*
	 * A whole number below 10^15 prints as %.15g would print it (idle
	 * programs: rates of 0), without printf.
	 */
	if (v >= 0.0 && v < 1e15 && v == floor(v) && !signbit(v)) {
		put_u64(w->f, (uint64_t)v);
		return;
	}
	/*
	 * 15 significant digits: every value is a measurement far coarser
	 * than that, and 17 would print 0.1 as 0.10000000000000001.
	 */
	fprintf(w->f, "%.15g", v);
}

void jw_bool(struct jw *w, bool v)
{
	value_start(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w)
{
	value_start(w);
	fputs("null", w->f);
}

void jw_string_field(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_uint_field(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_uint(w, v);
}

void jw_double_field(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	jw_double(w, v);
}

void jw_bool_field(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}

void jw_fields(struct jw *w, const struct jw_field *f)
{
	for (; f->key; f++) {
		jw_key(w, f->key);
		switch (f->kind) {
		case JW_KIND_STRING:
			jw_string(w, f->v.s);
			break;
		case JW_KIND_UINT:
			jw_uint(w, f->v.u);
			break;
		case JW_KIND_DOUBLE:
			jw_double(w, f->v.d);
			break;
		case JW_KIND_BOOL:
			jw_bool(w, f->v.b);
			break;
		}
	}
}

void jw_object(struct jw *w, const struct jw_field *f)
{
	jw_begin_object(w);
	jw_fields(w, f);
	jw_end_object(w);
}
