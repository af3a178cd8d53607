// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/format.h"
#include "util/decimal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* @src (@n bytes) into @buf as snprintf(buf, len, "%s", src) would. */
static char *put_trunc(char *buf, size_t len, const char *src, size_t n)
{
	if (!len)
		return buf;
	if (n >= len)
		n = len - 1;
	memcpy(buf, src, n);
	buf[n] = '\0';
	return buf;
}

/*
 * @a * @scale rounded to the nearest integer, ties to even, computed
 * exactly from the bits of @a (0 <= @a < 2^53, @scale <= 1000): what
 * printf's "%.Nf" rounds, without its cost.
 */
static uint64_t round_scaled(double a, uint64_t scale)
{
	uint64_t bits, m, n, q, rem, half;
	int e, s;

	memcpy(&bits, &a, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	if (e) {
		m |= UINT64_C(1) << 52;
		e -= 1075;
	} else {
		e = -1074;
	}
	n = m * scale;		/* below 2^53 * 1024 = 2^63 */
	if (e >= 0)		/* only e == 0: a below 2^53 */
		return n << e;
	s = -e;
	if (s >= 64)		/* n < 2^63 <= half of 2^s */
		return 0;
	q = n >> s;
	rem = n & ((UINT64_C(1) << s) - 1);
	half = UINT64_C(1) << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return q;
}

size_t fmt_fixed_len(char *buf, size_t len, double v, int prec)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000 };
	char tmp[48], *p = tmp;
	double a = fabs(v);
	uint64_t q, ip, fp;
	size_t n;

	if (!len)
		return 0;
	/* Beyond what the exact path covers (and inf): printf itself. */
	if (!(a < 0x1p53) || prec < 0 || prec > 3) {
		int r = snprintf(buf, len, "%.*f", prec, v);

		if (r < 0) {
			buf[0] = '\0';
			return 0;
		}
		return (size_t)r < len ? (size_t)r : len - 1;
	}
	if (v == 0.0 && !signbit(v) && len >= 8) {
		/* Idle programs: "0.0", "0.00", in one 8-byte copy. */
		memcpy(buf, "0.000\0\0", 8);
		n = prec ? (size_t)prec + 2 : 1;
		buf[n] = '\0';
		return n;
	}
	q = round_scaled(a, pow10[prec]);
	if (signbit(v))
		*p++ = '-';
	ip = q / pow10[prec];
	fp = q % pow10[prec];
	p = dec_u64(p, ip);
	if (prec) {
		*p++ = '.';
		for (int i = prec - 1; i >= 0; i--) {
			p[i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		p += prec;
	}
	n = (size_t)(p - tmp);
	put_trunc(buf, len, tmp, n);
	return n < len ? n : len - 1;
}

char *fmt_fixed(char *buf, size_t len, double v, int prec)
{
	fmt_fixed_len(buf, len, v, prec);
	return buf;
}

char *fmt_rate(char *buf, size_t len, double v, const char *blank)
{
	if (isnan(v))
		return put_trunc(buf, len, blank, strlen(blank));
	return fmt_fixed(buf, len, v, v < 100.0 ? 1 : 0);
}

char *fmt_pct(char *buf, size_t len, double v, const char *blank)
{
	if (isnan(v))
		return put_trunc(buf, len, blank, strlen(blank));
	return fmt_fixed(buf, len, v, 2);
}

char *fmt_owners(char *buf, size_t len, const struct prog_sample *s)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	/* As successive snprintf calls would write it, cut where they cut. */
	for (uint32_t i = 0; i < s->nr_owners && off < len; i++) {
		char piece[2 + PROG_COMM_LEN + 13], *p = piece;
		size_t n = strnlen(s->owners[i].comm, PROG_COMM_LEN);

		if (i) {
			memcpy(p, ", ", 2);
			p += 2;
		}
		memcpy(p, s->owners[i].comm, n);
		p += n;
		*p++ = '(';
		p = dec_u64(p, s->owners[i].pid);
		*p++ = ')';
		put_trunc(buf + off, len - off, piece, (size_t)(p - piece));
		off += (size_t)(p - piece);
	}
	return buf;
}

const char *display_name(const struct prog_sample *s)
{
	return s->name[0] ? s->name : "(unnamed)";
}

char *fmt_count(char *buf, size_t len, uint64_t v, int width)
{
	static const char units[] = "kMGTPE";
	double d = (double)v;

	snprintf(buf, len, "%" PRIu64, v);
	for (size_t u = 0; u < sizeof(units) - 1; u++) {
		if ((int)strlen(buf) <= width)
			break;
		d /= 1000.0;
		snprintf(buf, len, "%.1f%c", d, units[u]);
		if ((int)strlen(buf) > width)
			snprintf(buf, len, "%.0f%c", d, units[u]);
	}
	return buf;
}

char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000u;

	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (s < 60)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%um%02us", (unsigned int)(s / 60),
			 (unsigned int)(s % 60));
	else if (s < 100 * 3600)
		snprintf(buf, len, "%uh%02um", (unsigned int)(s / 3600),
			 (unsigned int)(s / 60 % 60));
	else if (s / 86400 < 100000)
		snprintf(buf, len, "%" PRIu64 "d%02uh", s / 86400,
			 (unsigned int)(s / 3600 % 24));
	else	/* Julian years: 584y at most */
		snprintf(buf, len, "%" PRIu64 "y", s / 31557600);
	return buf;
}

int fmt_flag(char *buf, size_t len, double pct, bool utf8, int width)
{
	/* U+25B2 ▲: three bytes, one column. */
	const char *arrow = utf8 ? "\xe2\x96\xb2" : "^";
	char num[32];
	int n;

	if (isnan(pct))
		snprintf(num, sizeof(num), "?");
	else if (pct < 9999.5)
		snprintf(num, sizeof(num), "%+.0f%%", pct);
	else if (pct < 999499.0)
		snprintf(num, sizeof(num), "+%.0fk%%", pct / 1000.0);
	else
		snprintf(num, sizeof(num), "+>999k%%");
	n = (int)strlen(num);
	if (width > n) {
		snprintf(buf, len, "%s%s", arrow, num);
		return n + 1;
	}
	/* No room for the arrow: the number alone (cut if it must be). */
	if (width < 0)
		width = 0;
	snprintf(buf, len, "%.*s", width, num);
	return (int)strlen(buf);
}

char *fmt_clock(char *buf, size_t len, double unix_s)
{
	time_t tt = (time_t)unix_s;
	struct tm tm;

	snprintf(buf, len, "?");
	if (!isnan(unix_s) && localtime_r(&tt, &tm))
		strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}
