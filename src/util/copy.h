/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_COPY_H
#define EBPFTOP_UTIL_COPY_H

#include <stddef.h>
#include <string.h>

/*
 * @n bytes from @s to @d by fixed-size copies that may overlap each
 * other, touching no byte outside either range: numbers, keys and short
 * words, for which a call to memcpy costs more than the copy.
 */
static inline void copy_small(char *d, const char *s, size_t n)
{
	if (n > 32) {
		memcpy(d, s, n);
	} else if (n >= 16) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n) {
		/* 1 to 3: first, middle and last (some the same). */
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

#endif
