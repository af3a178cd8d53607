// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/format.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

char *fmt_count(char *buf, size_t len, uint64_t v, int width)
{
	static const char units[] = "kMGTPE";
	double d = (double)v;

	snprintf(buf, len, "%" PRIu64, v);
	for (size_t u = 0; u < sizeof(units) - 1; u++) {
		if ((int)strlen(buf) <= width)
			break;
		d /= 1000.0;
		snprintf(buf, len, "%.1f%c", d, units[u]);
		if ((int)strlen(buf) > width)
			snprintf(buf, len, "%.0f%c", d, units[u]);
	}
	return buf;
}

char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000u;

	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (s < 60)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%um%02us", (unsigned int)(s / 60),
			 (unsigned int)(s % 60));
	else if (s < 100 * 3600)
		snprintf(buf, len, "%uh%02um", (unsigned int)(s / 3600),
			 (unsigned int)(s / 60 % 60));
	else if (s / 86400 < 100000)
		snprintf(buf, len, "%" PRIu64 "d%02uh", s / 86400,
			 (unsigned int)(s / 3600 % 24));
	else	/* Julian years: 584y at most */
		snprintf(buf, len, "%" PRIu64 "y", s / 31557600);
	return buf;
}

int fmt_flag(char *buf, size_t len, double pct, bool utf8, int width)
{
	/* U+25B2 ▲: three bytes, one column. */
	const char *arrow = utf8 ? "\xe2\x96\xb2" : "^";
	char num[32];
	int n;

	if (isnan(pct))
		snprintf(num, sizeof(num), "?");
	else if (pct < 9999.5)
		snprintf(num, sizeof(num), "%+.0f%%", pct);
	else if (pct < 999499.0)
		snprintf(num, sizeof(num), "+%.0fk%%", pct / 1000.0);
	else
		snprintf(num, sizeof(num), "+>999k%%");
	n = (int)strlen(num);
	if (width > n) {
		snprintf(buf, len, "%s%s", arrow, num);
		return n + 1;
	}
	/* No room for the arrow: the number alone (cut if it must be). */
	if (width < 0)
		width = 0;
	snprintf(buf, len, "%.*s", width, num);
	return (int)strlen(buf);
}

char *fmt_clock(char *buf, size_t len, double unix_s)
{
	time_t tt = (time_t)unix_s;
	struct tm tm;

	snprintf(buf, len, "?");
	if (!isnan(unix_s) && localtime_r(&tt, &tm))
		strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}
