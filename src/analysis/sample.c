// SPDX-License-Identifier: GPL-2.0-only
/* What identifies a program across reloads, as numbers computed once. */
#include "config.h"

#include "analysis/sample.h"

#include <stddef.h>

uint64_t prog_name_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t prog_tag_key(const char *s)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; s && s[i] && i < 16; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return prog_name_key(s);
		v = v << 4 | d;
	}
	return i == 16 && !s[i] ? v : prog_name_key(s);
}
