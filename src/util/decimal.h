/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_DECIMAL_H
#define EBPFTOP_UTIL_DECIMAL_H

#include <stdint.h>

/*
 * Whole numbers in decimal without printf (a refresh of 10,000 programs
 * writes some 100,000 of them), two digits per division.
 */

/* @v at @p (at most 20 bytes, no NUL); returns the end. */
char *dec_u64(char *p, uint64_t v);
/* @v ending just before @end; returns where it starts. */
char *dec_u64_end(char *end, uint64_t v);

#endif
