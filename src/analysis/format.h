/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_FORMAT_H
#define EBPFTOP_ANALYSIS_FORMAT_H

#include <stddef.h>

#include "analysis/sample.h"

/*
 * Text for one rate cell: @blank when @v is NAN (no value yet), otherwise
 * digits sized to the value. Returns @buf.
 */
char *fmt_rate(char *buf, size_t len, double v, const char *blank);
/* CPU percent with two decimals, or @blank. */
char *fmt_pct(char *buf, size_t len, double v, const char *blank);
/* "comm(pid), comm(pid)" for a program's owners; "" when none. */
char *fmt_owners(char *buf, size_t len, const struct prog_sample *s);
/* The name to show: the full name, or "(unnamed)". */
const char *display_name(const struct prog_sample *s);

#endif
