// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/msg.h"

#include <stdarg.h>
#include <stdio.h>

int msg_fail(char *msg, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && len) {
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return err;
}
