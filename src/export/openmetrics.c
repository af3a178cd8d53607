// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "export/openmetrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *om_content_type(enum om_format f)
{
	return f == OM_FORMAT_OPENMETRICS ? OM_CONTENT_TYPE_OPENMETRICS :
					    OM_CONTENT_TYPE_TEXT;
}

/* ---- Accept ------------------------------------------------------------ */

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *trim_end(const char *start, const char *end)
{
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

/* The first @c in [p, e), or NULL. */
static const char *find(const char *p, const char *e, char c)
{
	for (; p < e; p++)
		if (*p == c)
			return p;
	return NULL;
}

static bool token_is(const char *s, const char *e, const char *want)
{
	size_t n = strlen(want);

	return (size_t)(e - s) == n && !strncasecmp(s, want, n);
}

/* A q value: 0 to 1 with up to three decimals (RFC 9110); bad: -1. */
static double parse_q(const char *s, const char *e)
{
	char tmp[8];
	char *end;
	double q;

	if (e - s <= 0 || e - s >= (long)sizeof(tmp))
		return -1;
	memcpy(tmp, s, (size_t)(e - s));
	tmp[e - s] = '\0';
	if (strspn(tmp, "0123456789.") != strlen(tmp))
		return -1;
	q = strtod(tmp, &end);
	if (*end || q < 0 || q > 1)
		return -1;
	return q;
}

/*
 * One media range "type/sub; p=v; q=0.5" in [s, e): whether it is
 * OpenMetrics 1.0.0, the text format, or neither, and its q.
 */
static void media_range(const char *s, const char *e, double *q_om,
			double *q_text)
{
	const char *semi = find(s, e, ';');
	const char *type_end = trim_end(s, semi ? semi : e);
	bool om = false, text = false, version_ok = true;
	const char *version = NULL, *version_end = NULL;
	double q = 1.0;

	s = skip_ws(s, type_end);
	if (token_is(s, type_end, "application/openmetrics-text"))
		om = true;
	else if (token_is(s, type_end, "text/plain") ||
		 token_is(s, type_end, "text/*") ||
		 token_is(s, type_end, "*/*"))
		text = true;
	else
		return;
	while (semi) {
		const char *p = skip_ws(semi + 1, e), *eq, *pe;

		semi = find(p, e, ';');
		pe = trim_end(p, semi ? semi : e);
		eq = find(p, pe, '=');
		if (!eq)
			continue;
		if (token_is(p, trim_end(p, eq), "q")) {
			q = parse_q(skip_ws(eq + 1, pe), pe);
			if (q < 0)
				return;	/* malformed: ignore the range */
		} else if (token_is(p, trim_end(p, eq), "version")) {
			version = skip_ws(eq + 1, pe);
			version_end = pe;
		}
	}
	if (version && om)
		version_ok = token_is(version, version_end, "1.0.0");
	if (om && version_ok && q > *q_om)
		*q_om = q;
	if (text && q > *q_text)
		*q_text = q;
}

enum om_format om_negotiate(const char *accept)
{
	double q_om = 0, q_text = 0;
	const char *p = accept, *end;

	if (!accept)
		return OM_FORMAT_TEXT;
	end = accept + strlen(accept);
	while (p < end) {
		const char *comma = find(p, end, ',');
		const char *e = comma ? comma : end;

		media_range(p, e, &q_om, &q_text);
		p = comma ? comma + 1 : end;
	}
	return q_om > 0 && q_om >= q_text ? OM_FORMAT_OPENMETRICS :
					    OM_FORMAT_TEXT;
}

/* ---- buffer --------------------------------------------------------------- */

void om_buf_free(struct om_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static bool om_buf_reserve(struct om_buf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void om_buf_put(struct om_buf *b, const char *s, size_t n)
{
	if (!n || !om_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void om_buf_puts(struct om_buf *b, const char *s)
{
	om_buf_put(b, s, strlen(s));
}

static void om_buf_putc(struct om_buf *b, char c)
{
	if (om_buf_reserve(b, 1))
		b->p[b->len++] = c;
}

static void om_buf_u64(struct om_buf *b, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	om_buf_put(b, tmp + i, sizeof(tmp) - i);
}

/* ---- escaping and numbers ------------------------------------------------- */

/* Length of the valid UTF-8 sequence at @s (1 to 4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : 0xbf;

		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;

		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		return 4;
	}
	return 0;
}

void om_escape(struct om_buf *b, const char *s, bool help, enum om_format f)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		const unsigned char *run = p;
		size_t n;

		/* Plain ASCII needs no care: copy runs of it in one go. */
		while (*p >= 0x20 && *p < 0x7f && *p != '\\' && *p != '"')
			p++;
		if (p > run)
			om_buf_put(b, (const char *)run, (size_t)(p - run));
		switch (*p) {
		case '\0':
			return;
		case '\\':
			om_buf_put(b, "\\\\", 2);
			p++;
			continue;
		case '\n':
			om_buf_put(b, "\\n", 2);
			p++;
			continue;
		case '"':
			/* The text format's HELP takes a quote as it is. */
			if (help && f == OM_FORMAT_TEXT)
				om_buf_putc(b, '"');
			else
				om_buf_put(b, "\\\"", 2);
			p++;
			continue;
		default:
			break;
		}
		n = utf8_len(p);
		if (!n) {
			om_buf_put(b, "\xef\xbf\xbd", 3);	/* U+FFFD */
			p++;
			continue;
		}
		om_buf_put(b, (const char *)p, n);
		p += n;
	}
}

void om_format_double(char *buf, size_t len, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sInf", v > 0 ? "+" : "-");
		return;
	}
	/* The shortest of 15 to 17 digits that reads back as the same value. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* ---- writer ---------------------------------------------------------------- */

void om_writer_init(struct om_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void om_writer_free(struct om_writer *w)
{
	om_buf_free(&w->body);
	memset(w, 0, sizeof(*w));
}

void om_writer_reset(struct om_writer *w)
{
	w->body.len = 0;
	w->body.oom = false;
	w->nr_families = 0;
	w->labels_open = false;
	w->overflow = false;
}

static struct om_family *cur_family(struct om_writer *w)
{
	return w->nr_families ? &w->fam[w->nr_families - 1] : NULL;
}

void om_family(struct om_writer *w, const char *name, enum om_type type,
	       const char *unit, const char *help, bool always)
{
	struct om_family *f;

	if (w->nr_families >= OM_MAX_FAMILIES) {
		w->overflow = true;
		return;
	}
	f = &w->fam[w->nr_families++];
	f->name = name;
	f->type = type;
	f->unit = unit;
	f->help = help;
	f->always = always;
	f->body_start = f->body_end = w->body.len;
}

static const char *sample_suffix(enum om_type t)
{
	return t == OM_COUNTER ? "_total" : t == OM_INFO ? "_info" : "";
}

void om_sample(struct om_writer *w)
{
	struct om_family *f = cur_family(w);

	if (!f || w->overflow)
		return;
	om_buf_puts(&w->body, f->name);
	om_buf_puts(&w->body, sample_suffix(f->type));
	w->labels_open = false;
}

/* Open label @name up to its value's opening quote; false: write nothing. */
static bool label_begin(struct om_writer *w, const char *name)
{
	if (w->overflow)
		return false;
	om_buf_putc(&w->body, w->labels_open ? ',' : '{');
	w->labels_open = true;
	om_buf_puts(&w->body, name);
	om_buf_put(&w->body, "=\"", 2);
	return true;
}

void om_label(struct om_writer *w, const char *name, const char *value)
{
	if (!label_begin(w, name))
		return;
	/* Label values escape the same way in both formats. */
	om_escape(&w->body, value ? value : "", false, OM_FORMAT_OPENMETRICS);
	om_buf_putc(&w->body, '"');
}

void om_label_u64(struct om_writer *w, const char *name, uint64_t value)
{
	if (!label_begin(w, name))
		return;
	om_buf_u64(&w->body, value);
	om_buf_putc(&w->body, '"');
}

static void end_sample(struct om_writer *w)
{
	struct om_family *f = cur_family(w);

	om_buf_putc(&w->body, '\n');
	w->labels_open = false;
	if (f)
		f->body_end = w->body.len;
}

static void begin_value(struct om_writer *w)
{
	if (w->labels_open)
		om_buf_putc(&w->body, '}');
	om_buf_putc(&w->body, ' ');
}

void om_value_u64(struct om_writer *w, uint64_t v)
{
	if (w->overflow)
		return;
	begin_value(w);
	om_buf_u64(&w->body, v);
	end_sample(w);
}

void om_value_double(struct om_writer *w, double v)
{
	char tmp[40];

	if (w->overflow)
		return;
	begin_value(w);
	om_format_double(tmp, sizeof(tmp), v);
	om_buf_puts(&w->body, tmp);
	end_sample(w);
}

void om_value_ns_as_s(struct om_writer *w, uint64_t ns)
{
	char frac[10];
	uint64_t r = ns % 1000000000u;

	if (w->overflow)
		return;
	begin_value(w);
	om_buf_u64(&w->body, ns / 1000000000u);
	for (int i = 8; i >= 0; i--) {
		frac[1 + i] = (char)('0' + r % 10);
		r /= 10;
	}
	frac[0] = '.';
	om_buf_put(&w->body, frac, sizeof(frac));
	end_sample(w);
}

static const char *type_word(enum om_type t, enum om_format f)
{
	switch (t) {
	case OM_COUNTER:
		return "counter";
	case OM_INFO:
		/* The text format has no info type: a gauge of value 1. */
		return f == OM_FORMAT_OPENMETRICS ? "info" : "gauge";
	case OM_GAUGE:
	default:
		return "gauge";
	}
}

static void metadata(struct om_buf *out, const struct om_family *fam,
		     enum om_format f)
{
	/* OpenMetrics names the family; the text format names the samples. */
	const char *suffix = f == OM_FORMAT_TEXT ? sample_suffix(fam->type) : "";

	if (f == OM_FORMAT_TEXT) {
		om_buf_puts(out, "# HELP ");
		om_buf_puts(out, fam->name);
		om_buf_puts(out, suffix);
		om_buf_putc(out, ' ');
		om_escape(out, fam->help, true, f);
		om_buf_putc(out, '\n');
	}
	om_buf_puts(out, "# TYPE ");
	om_buf_puts(out, fam->name);
	om_buf_puts(out, suffix);
	om_buf_putc(out, ' ');
	om_buf_puts(out, type_word(fam->type, f));
	om_buf_putc(out, '\n');
	if (f == OM_FORMAT_OPENMETRICS) {
		if (fam->unit) {
			om_buf_puts(out, "# UNIT ");
			om_buf_puts(out, fam->name);
			om_buf_putc(out, ' ');
			om_buf_puts(out, fam->unit);
			om_buf_putc(out, '\n');
		}
		om_buf_puts(out, "# HELP ");
		om_buf_puts(out, fam->name);
		om_buf_putc(out, ' ');
		om_escape(out, fam->help, true, f);
		om_buf_putc(out, '\n');
	}
}

int om_render(const struct om_writer *w, enum om_format f, struct om_buf *out)
{
	if (w->overflow)
		return -E2BIG;
	if (w->body.oom)
		return -ENOMEM;
	/* Metadata is small: reserve for the body in one go. */
	om_buf_reserve(out, w->body.len + w->nr_families * 256 + 8);
	for (size_t i = 0; i < w->nr_families; i++) {
		const struct om_family *fam = &w->fam[i];

		if (fam->body_end == fam->body_start && !fam->always)
			continue;
		metadata(out, fam, f);
		om_buf_put(out, w->body.p + fam->body_start,
			   fam->body_end - fam->body_start);
	}
	if (f == OM_FORMAT_OPENMETRICS)
		om_buf_puts(out, "# EOF\n");
	return out->oom ? -ENOMEM : 0;
}
