/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A writer for the two text expositions Prometheus reads: OpenMetrics 1.0
 * and the Prometheus text format 0.0.4. Samples are formatted once into a
 * body; the metadata of each family (# TYPE, # UNIT, # HELP) and the final
 * # EOF are added per format when the exposition is rendered, so serving
 * both costs one formatting pass and two copies. Pure: no I/O.
 */
#ifndef EBPFTOP_EXPORT_OPENMETRICS_H
#define EBPFTOP_EXPORT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum om_format {
	OM_FORMAT_TEXT,		/* Prometheus text format 0.0.4 */
	OM_FORMAT_OPENMETRICS,	/* OpenMetrics 1.0.0 */
};

#define OM_CONTENT_TYPE_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define OM_CONTENT_TYPE_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

const char *om_content_type(enum om_format f);

/*
 * The format to answer a request whose Accept header is @accept (NULL if
 * none): OpenMetrics 1.0.0 when the client accepts it at least as much as
 * the text format, the text format otherwise (it is the fallback every
 * Prometheus reads).
 */
enum om_format om_negotiate(const char *accept);

enum om_type {
	OM_GAUGE,
	OM_COUNTER,	/* samples are <family>_total */
	OM_INFO,	/* samples are <family>_info, value 1 */
};

/* A growable byte buffer; a failed allocation sticks in @oom. */
struct om_buf {
	char *p;
	size_t len;
	size_t cap;
	bool oom;
};

void om_buf_free(struct om_buf *b);
void om_buf_put(struct om_buf *b, const char *s, size_t n);
void om_buf_puts(struct om_buf *b, const char *s);

#define OM_MAX_FAMILIES 48

struct om_family {
	const char *name;	/* without the _total / _info suffix */
	enum om_type type;
	const char *unit;	/* "seconds" etc., NULL if none */
	const char *help;
	size_t body_start;	/* this family's samples in the body */
	size_t body_end;
	bool always;		/* metadata even without samples */
};

struct om_writer {
	struct om_buf body;
	size_t nr_families;
	struct om_family fam[OM_MAX_FAMILIES];
	bool labels_open;	/* a sample's label set is open */
	bool overflow;		/* more families than OM_MAX_FAMILIES */
};

void om_writer_init(struct om_writer *w);
void om_writer_free(struct om_writer *w);
/* Forget the families and samples, keep the memory. */
void om_writer_reset(struct om_writer *w);

/*
 * Start a family; the samples that follow belong to it. @name, @unit and
 * @help must outlive the writer's use (string literals). A family with
 * a unit must end with _<unit>. @always: print its metadata even if it
 * has no samples.
 */
void om_family(struct om_writer *w, const char *name, enum om_type type,
	       const char *unit, const char *help, bool always);

/* A sample of the current family: labels, then exactly one value. */
void om_sample(struct om_writer *w);
void om_label(struct om_writer *w, const char *name, const char *value);
void om_label_u64(struct om_writer *w, const char *name, uint64_t value);
void om_value_u64(struct om_writer *w, uint64_t v);
void om_value_double(struct om_writer *w, double v);
/* @ns nanoseconds written exactly as decimal seconds: 1.000000002. */
void om_value_ns_as_s(struct om_writer *w, uint64_t ns);

/*
 * Append the exposition in format @f to @out: per family its metadata and
 * its samples, then "# EOF" for OpenMetrics. Returns 0, or -ENOMEM (any
 * allocation failed, here or while writing) or -E2BIG (too many
 * families).
 */
int om_render(const struct om_writer *w, enum om_format f,
	      struct om_buf *out);

/*
 * Helpers, public for the tests: a label value (or HELP text, @help true)
 * escaped for format @f, with invalid UTF-8 replaced by U+FFFD; a double
 * as its shortest text that reads back the same (NaN, +Inf, -Inf).
 */
void om_escape(struct om_buf *b, const char *s, bool help, enum om_format f);
void om_format_double(char *buf, size_t len, double v);

#endif
