// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/format.h"

#include <math.h>
#include <string.h>
#include <stdio.h>

char *fmt_rate(char *buf, size_t len, double v, const char *blank)
{
	if (isnan(v))
		snprintf(buf, len, "%s", blank);
	else if (v == 0.0 && !signbit(v) && len >= 4)
		memcpy(buf, "0.0", 4);	/* idle programs: no printf per row */
	else if (v < 100.0)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

char *fmt_pct(char *buf, size_t len, double v, const char *blank)
{
	if (isnan(v))
		snprintf(buf, len, "%s", blank);
	else if (v == 0.0 && !signbit(v) && len >= 5)
		memcpy(buf, "0.00", 5);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

char *fmt_owners(char *buf, size_t len, const struct prog_sample *s)
{
	size_t off = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < s->nr_owners && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s(%u)",
				 i ? ", " : "", s->owners[i].comm,
				 s->owners[i].pid);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	return buf;
}

const char *display_name(const struct prog_sample *s)
{
	return s->name[0] ? s->name : "(unnamed)";
}
