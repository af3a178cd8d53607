// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/quiet.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char captured[256];

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	return 0;
}

libbpf_print_fn_t libbpf_quiet(void)
{
	return libbpf_set_print(silent_print);
}

__attribute__((format(printf, 2, 0)))
static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	char line[256];
	size_t n;

	if (level == LIBBPF_DEBUG || captured[0])
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	/* The first warning says what failed; the rest repeat it. */
	if (n)
		snprintf(captured, sizeof(captured), "%s",
			 strncmp(line, "libbpf: ", 8) ? line : line + 8);
	return 0;
}

libbpf_print_fn_t libbpf_capture(void)
{
	libbpf_print_fn_t old;

	captured[0] = '\0';
	/* libbpf's callback type has no format attribute; ours does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsuggest-attribute=format"
	old = libbpf_set_print(capture_print);
#pragma GCC diagnostic pop
	return old;
}

const char *libbpf_captured(void)
{
	return captured;
}
