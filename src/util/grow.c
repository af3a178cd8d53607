// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int array_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first ? first : 1;
	void *old, *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	/* The caller's pointer is typed; copy it as bytes, not through a cast. */
	memcpy(&old, pp, sizeof(old));
	p = realloc(old, n * size);
	if (!p)
		return -ENOMEM;
	memcpy(pp, &p, sizeof(p));
	*cap = n;
	return 0;
}
