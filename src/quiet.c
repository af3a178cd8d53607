// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "quiet.h"

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	return 0;
}

libbpf_print_fn_t libbpf_quiet(void)
{
	return libbpf_set_print(silent_print);
}
