// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/decimal.h"

#include <string.h>

/* "00" to "99": two digits per division. */
static const char digits2[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

char *dec_u64_end(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digits2 + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

char *dec_u64(char *p, uint64_t v)
{
	static const uint64_t pow10[] = {
		10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
		1000000000, 10000000000, 100000000000, 1000000000000,
		10000000000000, 100000000000000, 1000000000000000,
		10000000000000000, 100000000000000000, 1000000000000000000,
		10000000000000000000u,
	};
	size_t n = 1;

	while (n < 20 && v >= pow10[n - 1])
		n++;
	dec_u64_end(p + n, v);
	return p + n;
}
