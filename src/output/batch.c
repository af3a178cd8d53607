// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/batch.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/columns.h"
#include "analysis/format.h"
#include "analysis/regress.h"
#include "util/json_writer.h"
#include "output/json_record.h"
#include "output/profile_out.h"
#include "hot/report.h"
#include "util/copy.h"
#include "util/decimal.h"
#include "util/text.h"

/* Worst regression first, then by id. */
static int cmp_change(const void *pa, const void *pb)
{
	const struct prog_row *a = *(const struct prog_row *const *)pa;
	const struct prog_row *b = *(const struct prog_row *const *)pb;

	if (a->reg.change_pct != b->reg.change_pct)
		return a->reg.change_pct > b->reg.change_pct ? -1 : 1;
	return a->s->id < b->s->id ? -1 : a->s->id > b->s->id;
}

/* "REGRESSION: name +240% ns/run (...)" for every flagged row. */
static void print_regressions(FILE *f, const struct prog_row *rows, size_t n)
{
	const struct prog_row **v;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += rows[i].reg.active;
	if (!k)
		return;
	v = malloc(k * sizeof(*v));
	if (!v)
		return;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].reg.active)
			v[k++] = &rows[i];
	}
	qsort(v, k, sizeof(*v), cmp_change);
	for (size_t i = 0; i < k; i++) {
		const struct prog_regression *g = &v[i]->reg;
		time_t t = (time_t)g->since;
		char chg[32], when[16] = "?", name[4 * PROG_NAME_MAX];
		struct tm tm;

		if (!isnan(g->since) && localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%H:%M:%S", &tm);
		fprintf(f, "REGRESSION: %s %s ns/run (id %u, baseline %.1f ns, now %.1f ns, since %s)\n",
			text_escape(name, sizeof(name), display_name(v[i]->s)),
			regress_fmt_change(chg, sizeof(chg), g->change_pct),
			v[i]->s->id, g->baseline_ns, g->current_ns, when);
	}
	free(v);
}

static void print_demo_text(FILE *f, const struct batch_demo *d)
{
	fprintf(f, "demo: program %u", d->prog_id);
	for (size_t i = 0; i < d->nr_classes && i < BATCH_DEMO_CLASSES_MAX; i++)
		fprintf(f, "  %s %" PRIu64, d->names[i], d->counts[i]);
	fprintf(f, "  regressed: %s\n", d->regressed ? "yes" : "no");
}

void batch_print_text(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	batch_print_text_x(f, snap, rows, n, NULL);
}

#define TEXT_CELL_MAX 2048
#define TEXT_OUT_SIZE 65536

/*
 * The text table is built in a buffer and written in large pieces: a
 * write per cell, or printf per cell, was most of a 10,000-row table's
 * cost.
 */
struct text_out {
	FILE *f;
	size_t len;
	char buf[];	/* TEXT_OUT_SIZE and a line */
};

static void out_flush(struct text_out *o)
{
	if (o->len)
		fwrite_unlocked(o->buf, 1, o->len, o->f);
	o->len = 0;
}

/* A column of the text table as its rows are written. */
struct text_col {
	enum col col;
	col_cell_fn *cell;
	col_text_fn *text;	/* plain cells, measured as written */
	const char *label;
	size_t w;		/* padded to this */
	bool right;		/* padding before the text */
	bool free;		/* after two spaces, unpadded */
	bool plain;		/* written as it is, not escaped */
};

static const struct col_fmt text_fmt = { .text = true };

/* Bytes text_escape() leaves as they are: printable ASCII but '\'. */
static const bool plain_byte[256] = {
	[0x20 ... 0x5b] = true, [0x5d ... 0x7e] = true,
};

/*
 * The text of a cell as the text table prints it, at @dst (TEXT_CELL_MAX
 * bytes, no NUL): names and owners are chosen by whoever loads a
 * program, so every cell is escaped (text_escape) but those of
 * text_plain columns. Returns its length.
 */
static size_t text_cell(char *dst, const struct text_col *c,
			const struct prog_row *row)
{
	char raw[512];
	const char *cell;
	size_t n;

	if (c->plain) {
		/* Formatted in place, mostly. */
		cell = c->cell(dst, TEXT_CELL_MAX, row, &text_fmt);
		n = strlen(cell);
		if (cell != dst)
			memcpy(dst, cell, n);
		return n;
	}
	cell = c->cell(raw, sizeof(raw), row, &text_fmt);
	/* Copied as it is while it is plain, then escaped. */
	for (n = 0; n < TEXT_CELL_MAX - 1 && plain_byte[(unsigned char)cell[n]];
	     n++)
		dst[n] = cell[n];
	if (!cell[n])
		return n;
	return (size_t)(text_escape_end(dst + n, TEXT_CELL_MAX - n, cell + n) -
			dst);
}

/*
 * The OWNERS cell of @row written at @dst as text_cell() writes it, when
 * that is the cell as it comes, "comm(pid), ...": every comm plain, and
 * too few owners for cell_owners() to cut (29 bytes each at most, in
 * 512). Returns its length, or -1 when text_cell() must write it.
 */
static long text_owners(char *dst, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;
	char *p = dst;

	if (s->nr_owners > 16)
		return -1;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		const char *comm = s->owners[i].comm;
		char num[10], *end = num + sizeof(num), *start;
		size_t k;

		if (i) {
			*p++ = ',';
			*p++ = ' ';
		}
		for (k = 0; k < PROG_COMM_LEN && comm[k]; k++) {
			if (!plain_byte[(unsigned char)comm[k]])
				return -1;
			p[k] = comm[k];
		}
		p += k;
		*p++ = '(';
		start = dec_u64_end(end, s->owners[i].pid);
		copy_small(p, start, (size_t)(end - start));
		p += end - start;
		*p++ = ')';
	}
	return p - dst;
}

/* The escaped length of a cell, for the widths. */
static size_t text_cell_len(const struct text_col *c,
			    const struct prog_row *row)
{
	char raw[512], buf[TEXT_CELL_MAX];
	const unsigned char *s;

	if (c->plain)
		return text_cell(buf, c, row);
	s = (const unsigned char *)c->cell(raw, sizeof(raw), row, &text_fmt);
	/* Names are mostly plain: their length is their escaped length. */
	for (size_t n = 0; n < TEXT_CELL_MAX; n++) {
		if (!s[n])
			return n;
		if (!plain_byte[s[n]])
			break;
	}
	return (size_t)(text_escape_end(buf, sizeof(buf), (const char *)s) -
			buf);
}

/*
 * The text table's columns, widths measured (names are never cut: the
 * column is as wide as the longest one). Returns how many; *@line_max:
 * the longest a line can be.
 */
static int text_cols(struct text_col cols[COL__MAX], const struct prog_row *rows,
		     size_t n, size_t *line_max)
{
	int k = 0;

	*line_max = 1;
	for (int i = 0; i < COL__MAX; i++) {
		const struct col_def *d = col_def(i);
		struct text_col *c = &cols[k];

		if (!d->label)
			continue;
		c->col = (enum col)i;
		c->cell = d->cell;
		c->text = d->text_plain ? d->text : NULL;
		c->label = d->text_label ? d->text_label : d->label;
		c->w = (size_t)(d->text_width < 0 ? -d->text_width : d->text_width);
		c->right = d->text_width >= 0;
		c->free = d->text_free;
		c->plain = d->text_plain;
		for (size_t r = 0; d->text_fit && r < n; r++) {
			size_t len = text_cell_len(c, &rows[r]);

			if (len > c->w)
				c->w = len;
		}
		*line_max += 2 + (c->w > TEXT_CELL_MAX ? c->w : TEXT_CELL_MAX);
		k++;
	}
	return k;
}

/* PAD_RUN spaces, and the string's NUL, which no copy takes. */
#define PAD_RUN 32
static const char spaces[PAD_RUN + 1] = "                                ";

/*
 * @pad spaces at @p; returns the end. Short runs by a fixed 32-byte copy:
 * the room each cell has in the buffer covers the spare bytes, which
 * what follows overwrites.
 */
static inline char *put_pad(char *p, size_t pad)
{
	if (pad <= PAD_RUN)
		memcpy(p, spaces, PAD_RUN);
	else
		memset(p, ' ', pad);
	return p + pad;
}

/* The column titles. */
static void print_text_header(struct text_out *o, const struct text_col *cols,
			      int nr_cols)
{
	char *p = o->buf + o->len;

	for (int i = 0; i < nr_cols; i++) {
		const struct text_col *c = &cols[i];
		size_t len = strlen(c->label);
		size_t pad = !c->free && len < c->w ? c->w - len : 0;

		if (i) {
			*p++ = ' ';
			if (c->free)
				*p++ = ' ';
		}
		if (c->right)
			p = put_pad(p, pad);
		memcpy(p, c->label, len);
		p += len;
		if (!c->right)
			p = put_pad(p, pad);
	}
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
}

/* One row of the text table. */
static void print_text_line(struct text_out *o, const struct text_col *cols,
			    int nr_cols, const struct prog_row *row)
{
	char *p = o->buf + o->len;

	for (int i = 0; i < nr_cols; i++) {
		const struct text_col *c = &cols[i];
		char tmp[TEXT_CELL_MAX];
		size_t len, pad;

		if (i) {
			*p++ = ' ';
			if (c->free)
				*p++ = ' ';
		}
		if (c->text && c->right) {
			/* Numbers: written aside, placed after the padding. */
			len = c->text(tmp, sizeof(tmp), row);
			if (len < c->w)
				p = put_pad(p, c->w - len);
			copy_small(p, tmp, len);
			p += len;
			continue;
		}
		if (c->text)
			len = c->text(p, TEXT_CELL_MAX, row);
		else
			len = text_cell(p, c, row);
		p += len;
		pad = !c->free && len < c->w ? c->w - len : 0;
		if (!pad)
			continue;
		if (c->right) {		/* escaped text on the right */
			memmove(p - len + pad, p - len, len);
			memset(p - len, ' ', pad);
			p += pad;
		} else {
			p = put_pad(p, pad);
		}
	}
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
}

/* The table: titles and rows, a line at a time into the buffer. */
/* The columns of the text table written by hand, in their order. */
static const struct {
	enum col col;
	bool right, free;
} text_known[] = {
	{ COL_ID, true, false },	{ COL_TYPE, false, false },
	{ COL_NAME, false, false },	{ COL_NSRUN, true, false },
	{ COL_RUNS, true, false },	{ COL_CPU, true, false },
	{ COL_RUNCNT, true, false },	{ COL_RUNTIME, true, false },
	{ COL_ISA, true, false },	{ COL_FLAG, true, false },
	{ COL_OWNERS, true, true },	/* free: no padding either side */
};
#define TEXT_KNOWN (sizeof(text_known) / sizeof(text_known[0]))

/*
 * Whether the table's columns are those print_text_line_fast() writes:
 * the same, in the same order and alignment, the plain ones with their
 * col_text_fn.
 */
static bool text_cols_known(const struct text_col *cols, int k)
{
	if (k != (int)TEXT_KNOWN)
		return false;
	for (size_t i = 0; i < TEXT_KNOWN; i++) {
		const struct text_col *c = &cols[i];

		if (c->col != text_known[i].col ||
		    c->right != text_known[i].right ||
		    c->free != text_known[i].free ||
		    (c->right && !c->free && !c->text) || (i == 1 && !c->text))
			return false;
	}
	return true;
}

bool batch_text_by_hand(void)
{
	struct text_col cols[COL__MAX];
	size_t line_max;
	int k = text_cols(cols, NULL, 0, &line_max);

	return text_cols_known(cols, k);
}

/* @len bytes of @text after the padding to @w; returns the end. */
static inline char *put_right(char *p, const char *text, size_t len, size_t w)
{
	if (len < w)
		p = put_pad(p, w - len);
	copy_small(p, text, len);
	return p + len;
}

static inline char *put_right_u64(char *p, uint64_t v, size_t w)
{
	char tmp[20], *end = tmp + sizeof(tmp);
	char *start = dec_u64_end(end, v);

	return put_right(p, start, (size_t)(end - start), w);
}

/*
 * A plain right-aligned cell: "-" for no value, "0.0" and "0.00" for an
 * idle program's rates, the column's col_text_fn for the rest.
 */
static inline char *put_right_rate(char *p, const struct text_col *c,
				   const struct prog_row *row, double v)
{
	char tmp[TEXT_CELL_MAX];

	if (isnan(v))
		return put_right(p, "-", 1, c->w);
	if (v == 0.0 && !signbit(v)) {
		if (c->col == COL_CPU)
			return put_right(p, "0.00", 4, c->w);
		return put_right(p, "0.0", 3, c->w);
	}
	return put_right(p, tmp, c->text(tmp, sizeof(tmp), row), c->w);
}

/* An escaped cell on the left, padded unless free. */
static inline char *put_left_escaped(char *p, const struct text_col *c,
				     const struct prog_row *row, long len)
{
	size_t n = len >= 0 ? (size_t)len : text_cell(p, c, row);

	p += n;
	if (!c->free && n < c->w)
		p = put_pad(p, c->w - n);
	return p;
}

/*
 * A row of the known columns (text_cols_known()), by hand: what
 * print_text_line() writes, for fewer instructions a row.
 */
static void print_text_line_fast(struct text_out *o, const struct text_col *c,
				 const struct prog_row *row)
{
	const struct prog_sample *s = row->s;
	const struct prog_insights *ins = row->ins;
	char *p = o->buf + o->len;
	char tmp[TEXT_CELL_MAX];
	const char *name;
	size_t n;

	p = put_right_u64(p, s->id, c[0].w);
	*p++ = ' ';
	n = c[1].text(p, TEXT_CELL_MAX, row);	/* TYPE */
	p += n;
	if (n < c[1].w)
		p = put_pad(p, c[1].w - n);
	*p++ = ' ';
	/* NAME: plain names go as they are. */
	name = display_name(s);
	for (n = 0; n < PROG_NAME_MAX && plain_byte[(unsigned char)name[n]];
	     n++)
		p[n] = name[n];
	p = put_left_escaped(p, &c[2], row, name[n] ? -1 : (long)n);
	*p++ = ' ';
	p = put_right_rate(p, &c[3], row, row->r.ns_per_run);
	*p++ = ' ';
	p = put_right_rate(p, &c[4], row, row->r.runs_per_s);
	*p++ = ' ';
	p = put_right_rate(p, &c[5], row, row->r.cpu_pct);
	*p++ = ' ';
	p = put_right_u64(p, s->run_cnt, c[6].w);
	*p++ = ' ';
	p = put_right_u64(p, s->run_time_ns, c[7].w);
	*p++ = ' ';
	if (ins && !ins->err && ins->have_isa && ins->isa.level >= 1 &&
	    ins->isa.level <= 4) {
		char level[2] = { 'v', (char)('0' + ins->isa.level) };

		p = put_right(p, level, 2, c[8].w);
	} else {
		p = put_right(p, tmp, c[8].text(tmp, sizeof(tmp), row), c[8].w);
	}
	*p++ = ' ';
	if (!row->reg.active)
		p = put_right(p, "-", 1, c[9].w);
	else
		p = put_right(p, tmp, c[9].text(tmp, sizeof(tmp), row), c[9].w);
	*p++ = ' ';
	*p++ = ' ';
	p = put_left_escaped(p, &c[10], row, text_owners(p, row));
	*p++ = '\n';
	o->len = (size_t)(p - o->buf);
}

/*
 * The table: titles and rows, a line at a time into the buffer; with
 * @by_hand, the rows of the known columns by print_text_line_fast().
 */
static void print_text_table(FILE *f, const struct prog_row *rows, size_t n,
			     bool by_hand)
{
	struct text_col cols[COL__MAX];
	struct text_out *o;
	size_t line_max;
	int k = text_cols(cols, rows, n, &line_max);

	by_hand = by_hand && text_cols_known(cols, k);
	/* Padding copies may write up to PAD_RUN bytes past a line. */
	o = malloc(sizeof(*o) + TEXT_OUT_SIZE + line_max + PAD_RUN);
	if (!o) {
		fputs("ebpftop: out of memory\n", stderr);
		return;
	}
	o->f = f;
	o->len = 0;
	print_text_header(o, cols, k);
	for (size_t i = 0; i < n; i++) {
		/* There is room for a line past TEXT_OUT_SIZE. */
		if (o->len > TEXT_OUT_SIZE)
			out_flush(o);
		if (by_hand)
			print_text_line_fast(o, cols, &rows[i]);
		else
			print_text_line(o, cols, k, &rows[i]);
	}
	out_flush(o);
	free(o);
}

static void print_text(FILE *f, const struct snapshot *snap,
		       const struct prog_row *rows, size_t n,
		       const struct batch_extra *x, bool by_hand)
{
	char when[32], share[16];
	time_t t = (time_t)snap->time;
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fmt_pct(share, sizeof(share), snapshot_total_share(snap), "-");
	fprintf(f, "ebpftop %s  kernel %s  stats %s  programs %zu  bpf cpu %s%s of %u cpus\n",
		when, snap->kernel, snap->stats ? snap->stats : "off", snap->nr_rows,
		share, strcmp(share, "-") ? "%" : "", snap->ncpus);
	if (x && x->demo)
		print_demo_text(f, x->demo);
	print_regressions(f, rows, n);
	print_text_table(f, rows, n, by_hand);
	fputc('\n', f);
	profile_print_text(f, snap->profile);
	hot_print_text(f, snap->hot, 10);
}

void batch_print_text_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x)
{
	print_text(f, snap, rows, n, x, true);
}

void batch_print_text_cells(FILE *f, const struct snapshot *snap,
			    const struct prog_row *rows, size_t n)
{
	print_text(f, snap, rows, n, NULL, false);
}

static void print_demo_json(struct jw *w, const struct batch_demo *d)
{
	jw_key(w, "demo");
	jw_begin_object(w);
	jw_bool_field(w, "regressed", d->regressed);
	jw_uint_field(w, "prog_id", d->prog_id);
	jw_key(w, "classes");
	jw_begin_object(w);
	for (size_t i = 0; i < d->nr_classes && i < BATCH_DEMO_CLASSES_MAX; i++) {
		jw_uint_field(w, d->names[i], d->counts[i]);
	}
	jw_end_object(w);
	jw_end_object(w);
}

void batch_print_json(FILE *f, const struct snapshot *snap,
		      const struct prog_row *rows, size_t n)
{
	batch_print_json_x(f, snap, rows, n, NULL);
}

void batch_print_json_x(FILE *f, const struct snapshot *snap,
			const struct prog_row *rows, size_t n,
			const struct batch_extra *x)
{
	struct jw w;

	jw_init(&w, f);
	jw_begin_object(&w);
	jw_double_field(&w, "time", snap->time);
	jw_double_field(&w, "interval_s", snap->interval_s);
	jw_bool_field(&w, "stats_enabled", snap->stats_on);
	jw_key(&w, "programs");
	jw_begin_array(&w);
	for (size_t i = 0; i < n; i++)
		json_record(&w, &rows[i]);
	jw_end_array(&w);
	jw_key(&w, "profile");
	profile_print_json(&w, snap->profile);
	jw_key(&w, "hot");
	hot_print_json(&w, snap->hot);
	if (x && x->demo)
		print_demo_json(&w, x->demo);
	jw_end_object(&w);
	fputc('\n', f);
}
