// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/json_writer.h"
#include "util/decimal.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw__flush(struct jw *w)
{
	fwrite_unlocked(w->buf, 1, w->len, w->f);
	w->len = 0;
}

void jw__put_long(struct jw *w, const char *s, size_t n)
{
	while (n > JW_BUF_SIZE / 2) {	/* in pieces */
		memcpy(jw__room(w, JW_BUF_SIZE / 2), s, JW_BUF_SIZE / 2);
		w->len += JW_BUF_SIZE / 2;
		s += JW_BUF_SIZE / 2;
		n -= JW_BUF_SIZE / 2;
	}
	memcpy(jw__room(w, n), s, n);
	w->len += n;
}

/* @v in decimal, written without printf. */
void jw__put_u64(struct jw *w, uint64_t v)
{
	char tmp[20], *end = tmp + sizeof(tmp), *start;
	char *p = jw__room(w, 20);

	if (v < 10) {		/* counts of 0, the common case */
		*p = (char)('0' + v);
		w->len++;
		return;
	}
	start = dec_u64_end(end, v);
	copy_small(p, start, (size_t)(end - start));
	w->len += (size_t)(end - start);
}

void jw_init(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 0;
	w->sep = '\0';
	w->len = 0;
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

/* Bytes that a JSON string holds as they are: printable ASCII but '"' and '\'. */
static const bool plain[256] = {
	[0x20 ... 0x21] = true, [0x23 ... 0x5b] = true, [0x5d ... 0x7e] = true,
};

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether a byte of @x is 0 (exact as a whole, not byte by byte). */
static inline uint64_t has_zero(uint64_t x)
{
	return (x - ONES) & ~x & HIGHS;
}

/* Whether all 8 bytes of @x are plain: in 0x20..0x7e, neither '"' nor '\'. */
static inline bool plain8(uint64_t x)
{
	uint64_t below = (x - ONES * 0x20) & ~x & HIGHS;
	uint64_t above = ((x + ONES) | x) & HIGHS;	/* 0x7f and up */

	return !(below | above | has_zero(x ^ (ONES * '"')) |
		 has_zero(x ^ (ONES * '\\')));
}

/*
 * Whether the @n bytes at @s are plain, 8 at a time (the last 8 overlap
 * the ones before); shorter runs padded with spaces.
 */
bool jw_plain(const char *s, size_t n)
{
	uint64_t x;
	size_t i;

	if (n < 8) {
		char pad[8];

		memset(pad, ' ', sizeof(pad));

		copy_small(pad, s, n);
		memcpy(&x, pad, 8);
		return plain8(x);
	}
	for (i = 0; i + 8 < n; i += 8) {
		memcpy(&x, s + i, 8);
		if (!plain8(x))
			return false;
	}
	memcpy(&x, s + n - 8, 8);
	return plain8(x);
}

/* @s quoted, then @tail unless it is 0. */
static void put_quoted(struct jw *w, const char *s, char tail)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(s);

	/* Plain strings (keys, names, tags), the common case: one copy. */
	if (n <= JW_BUF_SIZE / 2 && jw_plain(s, n)) {
		char *d = jw__room(w, n + 3);

		d[0] = '"';
		copy_small(d + 1, s, n);
		d[n + 1] = '"';
		d[n + 2] = tail;
		w->len += n + 2 + (tail != 0);
		return;
	}
	jw__put_c(w, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *run = p;
		const char *esc;
		char u[6];

		/* Runs of printable ASCII go out in one copy. */
		while (plain[*p])
			p++;
		if (p > run)
			jw__put_n(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		if (*p >= 0x80) {
			int ul = utf8_len(p);

			/* Process names are bytes, JSON is UTF-8. */
			if (!ul) {
				jw__put_n(w, "\\ufffd", 6);
				continue;
			}
			jw__put_n(w, (const char *)p, (size_t)ul);
			p += ul - 1;
			continue;
		}
		switch (*p) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		default:	/* other controls and DEL */
			memcpy(u, "\\u00", 4);
			u[4] = hex[*p >> 4];
			u[5] = hex[*p & 0xf];
			jw__put_n(w, u, 6);
			continue;
		}
		jw__put_n(w, esc, 2);
	}
	jw__put_c(w, '"');
	if (tail)
		jw__put_c(w, tail);
}

void jw_key(struct jw *w, const char *key)
{
	jw__value_start(w);
	put_quoted(w, key, ':');
	w->sep = '\0';
}

void jw_string(struct jw *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	jw__value_start(w);
	put_quoted(w, s, 0);
	jw__done(w);
}

__extension__ typedef unsigned __int128 u128;

/*
 * @v as printf's "%.15g" writes it, by hand, into @out (24 bytes):
 * returns the length, or 0 when @v is outside what this covers exactly
 * (|v| from 1e-4 to below 1e15, where %.15g writes no exponent). The 15
 * digits are @v times a power of ten rounded to the nearest integer, ties
 * to even, computed exactly from @v's bits: what glibc prints.
 */
static size_t put_g15(char *out, double v)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000,
		1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000,
	};
	const uint64_t lo = pow10[14], hi = pow10[15];
	double a = fabs(v);
	char dig[16], *p = out;
	uint64_t bits, m, q;
	int e, x, nd;
	u128 n;

	if (!(a >= 1e-4 && a < 1e15))
		return 0;
	/* a = m * 2^e exactly; e is in -66..-3 here. */
	memcpy(&bits, &a, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff) - 1075;
	m = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
	/* The decimal exponent, estimated from the binary one, then made exact. */
	x = ((e + 52) * 78913) >> 18;
	if (x < -4)
		x = -4;
	if (x > 14)
		x = 14;
	for (;;) {
		u128 rem, half;

		n = (u128)m * pow10[14 - x];
		q = (uint64_t)(n >> -e);
		if (q >= hi && x < 14) {
			x++;
			continue;
		}
		if (q < lo && x > -4) {
			x--;
			continue;
		}
		if (q < lo || q >= hi)
			return 0;
		rem = n & (((u128)1 << -e) - 1);
		half = (u128)1 << (-e - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
		break;
	}
	if (q == hi) {		/* 999...95 rounded up: one digit more */
		q = lo;
		if (++x > 14)	/* 1e+15: exponent form */
			return 0;
	}
	dec_u64_end(dig + 15, q);
	for (nd = 15; dig[nd - 1] == '0'; nd--)
		;
	if (signbit(v))
		*p++ = '-';
	if (x >= 0) {
		memcpy(p, dig, (size_t)x + 1);
		p += x + 1;
		if (nd > x + 1) {
			*p++ = '.';
			memcpy(p, dig + x + 1, (size_t)(nd - x - 1));
			p += nd - x - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (int i = -1; i > x; i--)
			*p++ = '0';
		memcpy(p, dig, (size_t)nd);
		p += nd;
	}
	return (size_t)(p - out);
}

/*
 * A finite @v as a JSON number at @out (40 bytes); its length. 15
 * significant digits: every value is a measurement far coarser than
 * that, and 17 would print 0.1 as 0.10000000000000001. By hand where that
 * is exact (a table of 10,000 programs holds 30,000), by printf elsewhere.
 */
size_t jw_number_text(char *out, double v)
{
	size_t n;

	if (v >= 0.0 && v < 1e15 && v == floor(v) && !signbit(v)) {
		/* Whole numbers (idle programs: rates of 0). */
		uint64_t u = (uint64_t)v;

		if (u < 10) {
			out[0] = (char)('0' + u);
			return 1;
		}
		return (size_t)(dec_u64(out, u) - out);
	}
	n = put_g15(out, v);
	if (!n)
		n = (size_t)snprintf(out, 40, "%.15g", v);
	return n;
}

void jw_double(struct jw *w, double v)
{
	char buf[40];	/* put_g15: 24; %.15g: at most 23 */
	size_t n;

	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	jw__value_start(w);
	n = jw_number_text(buf, v);
	jw__put_n(w, buf, n);
	jw__done(w);
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
		jw_key_raw(w, f->key, f->key_len);
		switch ((enum jw_kind)f->kind) {
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
