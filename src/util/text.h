/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_TEXT_H
#define EBPFTOP_UTIL_TEXT_H

#include <stddef.h>

/*
 * Copy @src into @dst (@len bytes, NUL-terminated) so that it is safe to
 * write on a terminal: process names and BTF names are chosen by whoever
 * loads a program, and may hold escape sequences. Printable ASCII and
 * well-formed UTF-8 of printable code points stay as they are; a
 * backslash becomes "\\"; any other byte (controls such as ESC and BEL,
 * C1 controls, broken UTF-8) becomes "\xHH". An escape is never cut in
 * half when @dst is too small. Returns @dst.
 */
char *text_escape(char *dst, size_t len, const char *src);
/* The same; returns the end of the text in @dst (its NUL). */
char *text_escape_end(char *dst, size_t len, const char *src);

#endif
