/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_FORMAT_H
#define EBPFTOP_ANALYSIS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/sample.h"

/*
 * Text for one rate cell: @blank when @v is NAN (no value yet), otherwise
 * digits sized to the value. Returns @buf.
 */
char *fmt_rate(char *buf, size_t len, double v, const char *blank);
/* CPU percent with two decimals, or @blank. */
char *fmt_pct(char *buf, size_t len, double v, const char *blank);
/*
 * @v as printf's "%.<prec>f" writes it (@prec 0 to 3), NUL-terminated in
 * @len bytes, by hand: exact, ties to even, like glibc. Returns @buf.
 */
char *fmt_fixed(char *buf, size_t len, double v, int prec);
/* The same; returns the length of the text (below @len). */
size_t fmt_fixed_len(char *buf, size_t len, double v, int prec);
/* "comm(pid), comm(pid)" for a program's owners; "" when none. */
char *fmt_owners(char *buf, size_t len, const struct prog_sample *s);
/* The name to show: the full name, or "(unnamed)". */
const char *display_name(const struct prog_sample *s);

/* A counter in at most @width columns: digits, or scaled with k/M/G/T/P/E. */
char *fmt_count(char *buf, size_t len, uint64_t v, int width);

/* A duration in nanoseconds in at most 9 columns: "850ns", "1.25s", "3h07m". */
char *fmt_duration(char *buf, size_t len, uint64_t ns);

/*
 * The flag cell of a regression of @pct percent in at most @width columns:
 * "▲+240%" (with @utf8) or "^+240%"; large changes are scaled ("^+12k%").
 * Returns the number of columns used.
 */
int fmt_flag(char *buf, size_t len, double pct, bool utf8, int width);

/* Local time of day of a unix time, "14:03:59"; "?" when it is NAN. */
char *fmt_clock(char *buf, size_t len, double unix_s);

#endif
