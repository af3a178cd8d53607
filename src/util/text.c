// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * Bytes of the well-formed UTF-8 sequence at @s of a code point that
 * prints (U+00A0 and above: not a C1 control), or 0.
 */
static size_t utf8_printable(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF, C1 controls. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff || cp < 0xa0)
		return 0;
	return n;
}

/* Bytes written as they are: printable ASCII but the backslash. */
static const bool plain[256] = {
	[0x20 ... 0x5b] = true, [0x5d ... 0x7e] = true,
};

char *text_escape(char *dst, size_t len, const char *src)
{
	text_escape_end(dst, len, src);
	return dst;
}

char *text_escape_end(char *dst, size_t len, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (!len)
		return dst;
	while (*s) {
		const unsigned char *run = s;
		char esc[4];
		const char *out = (const char *)s;
		size_t n;

		/* A run of printable ASCII, the common case, in one copy. */
		while (plain[*s])
			s++;
		if (s > run) {
			n = (size_t)(s - run);
			if (o + n >= len) {
				memcpy(dst + o, run, len - 1 - o);
				o = len - 1;
				break;
			}
			memcpy(dst + o, run, n);
			o += n;
			continue;
		}
		n = utf8_printable(s);
		if (*s == '\\') {
			out = "\\\\";
			n = 2;
		} else if (!n) {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[*s >> 4];
			esc[3] = hex[*s & 0xf];
			out = esc;
			n = 4;
		}
		if (o + n >= len)
			break;
		memcpy(dst + o, out, n);
		o += n;
		/* An escape stands for one byte; UTF-8 is copied whole. */
		s += out == (const char *)s ? n : 1;
	}
	dst[o] = '\0';
	return dst + o;
}
