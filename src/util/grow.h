/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_GROW_H
#define EBPFTOP_UTIL_GROW_H

#include <stddef.h>

/*
 * Make room for @need elements of @size bytes in the array *@pp (a pointer
 * to the array's pointer) of capacity *@cap: the capacity starts at @first
 * and doubles until it is enough. 0, or -ENOMEM with the array and its
 * capacity as they were.
 */
int array_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first);

/* array_grow() for the array pointer @p: ARRAY_GROW(t->ids, t->cap, t->n + 1, 64) */
#define ARRAY_GROW(p, cap, need, first) \
	array_grow(&(p), &(cap), (need), sizeof(*(p)), (first))

#endif
