/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_MSORT_H
#define EBPFTOP_UTIL_MSORT_H

#include <stddef.h>
#include <string.h>

/* <0, 0 or >0 as element @a sorts before, with or after @b. */
typedef int (*msort_cmp)(const void *a, const void *b, const void *ctx);

/* The end of the ascending run of @n elements at @a that starts at @i. */
static inline size_t msort_run_end(const char *a, size_t i, size_t n,
				   size_t size, msort_cmp cmp, const void *ctx)
{
	for (i++; i < n; i++) {
		if (cmp(a + (i - 1) * size, a + i * size, ctx) > 0)
			break;
	}
	return i;
}

/*
 * Sort @n elements of @size bytes at @a with @tmp as scratch for as many:
 * a natural merge sort, stable, that merges the ascending runs it finds,
 * so input already in order (or in a few runs, as the tables here mostly
 * are from one refresh to the next) costs one pass. Returns @a or @tmp,
 * whichever holds the result. Inline, so that each caller gets its own
 * copy with its comparison and element size known.
 */
static inline void *msort_natural(void *a, void *tmp, size_t n, size_t size,
				  msort_cmp cmp, const void *ctx)
{
	char *src = a, *dst = tmp, *t;

	if (n < 2 || msort_run_end(src, 0, n, size, cmp, ctx) == n)
		return a;
	for (;;) {
		size_t i = 0, runs = 0;

		while (i < n) {
			size_t mid = msort_run_end(src, i, n, size, cmp, ctx);
			size_t end, p, q, o = i;

			runs++;
			if (mid == n) {
				memcpy(dst + i * size, src + i * size,
				       (n - i) * size);
				break;
			}
			end = msort_run_end(src, mid, n, size, cmp, ctx);
			/* The right run's element goes first only if smaller. */
			for (p = i, q = mid; p < mid && q < end; o++) {
				if (cmp(src + q * size, src + p * size, ctx) < 0)
					memcpy(dst + o * size, src + q++ * size, size);
				else
					memcpy(dst + o * size, src + p++ * size, size);
			}
			memcpy(dst + o * size, src + p * size, (mid - p) * size);
			o += mid - p;
			memcpy(dst + o * size, src + q * size, (end - q) * size);
			i = end;
		}
		t = src;
		src = dst;
		dst = t;
		if (runs == 1)
			return src;
	}
}

#endif
