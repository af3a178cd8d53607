// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/columns.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/format.h"
#include "analysis/regress.h"
#include "insights/json.h"
#include "util/copy.h"
#include "util/decimal.h"
#include "util/json_writer.h"

/* ---- comparators ----------------------------------------------------------- */

/* -1, 0 or 1 without subtracting (u64 differences do not fit an int). */
#define CMP3(a, b) (((a) > (b)) - ((a) < (b)))

/* Larger first; NAN after every number. */
static int cmp_desc_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return CMP3(b, a);
}

static int cmp_text(const char *a, const char *b)
{
	/* Unnamed programs sort after named ones. */
	if (!*a || !*b)
		return (!*a) - (!*b);
	return strcmp(a, b);
}

static int cmp_id(const struct prog_row *a, const struct prog_row *b)
{
	return CMP3(a->s->id, b->s->id);
}

static int cmp_type(const struct prog_row *a, const struct prog_row *b)
{
	return cmp_text(a->s->type_name ? a->s->type_name : "",
			b->s->type_name ? b->s->type_name : "");
}

static int cmp_name(const struct prog_row *a, const struct prog_row *b)
{
	return cmp_text(a->s->name, b->s->name);
}

static int cmp_nsrun(const struct prog_row *a, const struct prog_row *b)
{
	return cmp_desc_double(a->r.ns_per_run, b->r.ns_per_run);
}

static int cmp_runs(const struct prog_row *a, const struct prog_row *b)
{
	return cmp_desc_double(a->r.runs_per_s, b->r.runs_per_s);
}

static int cmp_cpu(const struct prog_row *a, const struct prog_row *b)
{
	return cmp_desc_double(a->r.cpu_pct, b->r.cpu_pct);
}

static int cmp_runcnt(const struct prog_row *a, const struct prog_row *b)
{
	return CMP3(b->s->run_cnt, a->s->run_cnt);
}

static int cmp_runtime(const struct prog_row *a, const struct prog_row *b)
{
	return CMP3(b->s->run_time_ns, a->s->run_time_ns);
}

/* ---- batch text cells ------------------------------------------------------ */

/* A rate, a share: "-" in batch text when there is no value, else blank. */
static const char *blank(const struct col_fmt *f)
{
	return f->text ? "-" : "";
}

/* @n bytes of @src as the cell, cut to @len - 1 bytes; its length. */
static size_t text_put(char *buf, size_t len, const char *src, size_t n)
{
	if (!len)
		return 0;
	if (n >= len)
		n = len - 1;
	copy_small(buf, src, n);
	buf[n] = '\0';
	return n;
}

static size_t text_str(char *buf, size_t len, const char *s)
{
	return text_put(buf, len, s, strlen(s));
}

/* A whole number in decimal. */
static size_t text_u64(char *buf, size_t len, uint64_t v)
{
	char tmp[20], *end = tmp + sizeof(tmp);
	char *start;

	if (v < 10 && len > 1) {	/* idle programs' counters */
		buf[0] = (char)('0' + v);
		buf[1] = '\0';
		return 1;
	}
	start = dec_u64_end(end, v);
	return text_put(buf, len, start, (size_t)(end - start));
}

static size_t text_id(char *buf, size_t len, const struct prog_row *row)
{
	return text_u64(buf, len, row->s->id);
}

static size_t text_type(char *buf, size_t len, const struct prog_row *row)
{
	return text_str(buf, len, row->s->type_name ? row->s->type_name : "?");
}

/* "-" with no value; one decimal below 100, none above. */
static size_t text_rate(char *buf, size_t len, double v)
{
	if (isnan(v))
		return text_put(buf, len, "-", 1);
	return fmt_fixed_len(buf, len, v, v < 100.0 ? 1 : 0);
}

static size_t text_nsrun(char *buf, size_t len, const struct prog_row *row)
{
	return text_rate(buf, len, row->r.ns_per_run);
}

static size_t text_runs(char *buf, size_t len, const struct prog_row *row)
{
	return text_rate(buf, len, row->r.runs_per_s);
}

static size_t text_cpu(char *buf, size_t len, const struct prog_row *row)
{
	if (isnan(row->r.cpu_pct))
		return text_put(buf, len, "-", 1);
	return fmt_fixed_len(buf, len, row->r.cpu_pct, 2);
}

static size_t text_runcnt(char *buf, size_t len, const struct prog_row *row)
{
	return text_u64(buf, len, row->s->run_cnt);
}

static size_t text_runtime(char *buf, size_t len, const struct prog_row *row)
{
	return text_u64(buf, len, row->s->run_time_ns);
}

/* "+240%"; "-" unflagged. */
static size_t text_flag(char *buf, size_t len, const struct prog_row *row)
{
	if (!row->reg.active)
		return text_put(buf, len, "-", 1);
	regress_fmt_change(buf, len, row->reg.change_pct);
	return strnlen(buf, len);
}

/* The ISA level; "-" when the insights could not be read. */
static size_t text_isa(char *buf, size_t len, const struct prog_row *row)
{
	if (!row->ins || row->ins->err || !row->ins->have_isa)
		return text_put(buf, len, "-", 1);
	return text_str(buf, len, isa_level_str(row->ins->isa.level));
}

/* ---- cells ----------------------------------------------------------------- */

static const char *cell_id(char *buf, size_t len, const struct prog_row *row,
			   const struct col_fmt *f)
{
	(void)f;
	text_id(buf, len, row);
	return buf;
}

static const char *cell_type(char *buf, size_t len, const struct prog_row *row,
			     const struct col_fmt *f)
{
	(void)buf, (void)len, (void)f;
	return row->s->type_name ? row->s->type_name : "?";
}

static const char *cell_name(char *buf, size_t len, const struct prog_row *row,
			     const struct col_fmt *f)
{
	(void)buf, (void)len, (void)f;
	return display_name(row->s);
}

static const char *cell_nsrun(char *buf, size_t len, const struct prog_row *row,
			      const struct col_fmt *f)
{
	return fmt_rate(buf, len, row->r.ns_per_run, blank(f));
}

static const char *cell_runs(char *buf, size_t len, const struct prog_row *row,
			     const struct col_fmt *f)
{
	return fmt_rate(buf, len, row->r.runs_per_s, blank(f));
}

static const char *cell_cpu(char *buf, size_t len, const struct prog_row *row,
			    const struct col_fmt *f)
{
	return fmt_pct(buf, len, row->r.cpu_pct, blank(f));
}

/* The exact count in batch text; scaled to the column on screen. */
static const char *cell_runcnt(char *buf, size_t len,
			       const struct prog_row *row,
			       const struct col_fmt *f)
{
	if (f->text && len >= 21)
		text_runcnt(buf, len, row);
	else
		fmt_count(buf, len, row->s->run_cnt, f->width);
	return buf;
}

/* Nanoseconds in batch text; "1.25s", "3h07m" on screen. */
static const char *cell_runtime(char *buf, size_t len,
				const struct prog_row *row,
				const struct col_fmt *f)
{
	if (f->text && len >= 21)
		text_runtime(buf, len, row);
	else
		fmt_duration(buf, len, row->s->run_time_ns);
	return buf;
}

/* "+240%" in batch text ("-" unflagged); "▲+240%" on screen ("" unflagged). */
static const char *cell_flag(char *buf, size_t len, const struct prog_row *row,
			     const struct col_fmt *f)
{
	if (!row->reg.active)
		return blank(f);
	if (f->text)
		return regress_fmt_change(buf, len, row->reg.change_pct);
	fmt_flag(buf, len, row->reg.change_pct, f->utf8, f->width);
	return buf;
}

static const char *cell_owners(char *buf, size_t len,
			       const struct prog_row *row,
			       const struct col_fmt *f)
{
	(void)f;
	return fmt_owners(buf, len, row->s);
}

static const char *cell_tag(char *buf, size_t len, const struct prog_row *row,
			    const struct col_fmt *f)
{
	(void)buf, (void)len, (void)f;
	return row->s->tag;
}

/* ---- JSON values ----------------------------------------------------------- */

static void json_id(struct jw *w, const struct prog_row *row)
{
	jw_uint(w, row->s->id);
}

static void json_type(struct jw *w, const struct prog_row *row)
{
	jw_string(w, row->s->type_name);
}

static void json_name(struct jw *w, const struct prog_row *row)
{
	jw_string(w, row->s->name[0] ? row->s->name : NULL);
}

static void json_tag(struct jw *w, const struct prog_row *row)
{
	jw_string(w, row->s->tag);
}

static void json_runcnt(struct jw *w, const struct prog_row *row)
{
	jw_uint(w, row->s->run_cnt);
}

static void json_runtime(struct jw *w, const struct prog_row *row)
{
	jw_uint(w, row->s->run_time_ns);
}

static void json_runs(struct jw *w, const struct prog_row *row)
{
	jw_double(w, row->r.runs_per_s);
}

static void json_nsrun(struct jw *w, const struct prog_row *row)
{
	jw_double(w, row->r.ns_per_run);
}

static void json_cpu(struct jw *w, const struct prog_row *row)
{
	jw_double(w, row->r.cpu_pct);
}

/* [{"pid", "comm"}, ...] */
static void json_owners(struct jw *w, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;

	jw_begin_array(w);
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		jw_begin_object(w);
		JW_KEY(w, "pid");
		jw_uint(w, s->owners[i].pid);
		JW_KEY(w, "comm");
		jw_string(w, s->owners[i].comm);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* null unless flagged, then exactly these four members. */
static const char *cell_isa(char *buf, size_t len, const struct prog_row *row,
			    const struct col_fmt *f)
{
	(void)buf, (void)len;
	if (!row->ins || row->ins->err || !row->ins->have_isa)
		return blank(f);
	return isa_level_str(row->ins->isa.level);
}

/* JSON-only insights members have no cell of their own. */
static const char *cell_none(char *buf, size_t len, const struct prog_row *row,
			     const struct col_fmt *f)
{
	(void)buf, (void)len, (void)row, (void)f;
	return "";
}

static void json_isa(struct jw *w, const struct prog_row *row)
{
	insights_json_isa(w, row->ins);
}

static void json_subprogs(struct jw *w, const struct prog_row *row)
{
	insights_json_subprogs(w, row->ins);
}

static void json_tail_calls(struct jw *w, const struct prog_row *row)
{
	insights_json_tail_calls(w, row->ins);
}

static void json_helpers(struct jw *w, const struct prog_row *row)
{
	insights_json_helpers(w, row->ins);
}

static void json_maps(struct jw *w, const struct prog_row *row)
{
	insights_json_maps(w, row->ins);
}

static void json_xlated(struct jw *w, const struct prog_row *row)
{
	insights_json_xlated(w, row->ins);
}

static void json_jited(struct jw *w, const struct prog_row *row)
{
	insights_json_jited(w, row->ins);
}

static void json_jit_pages(struct jw *w, const struct prog_row *row)
{
	insights_json_pages(w, row->ins);
}

static void json_flag(struct jw *w, const struct prog_row *row)
{
	if (!row->reg.active) {
		jw_null(w);
		return;
	}
	JW_OBJECT(w, JW_D("baseline_ns", row->reg.baseline_ns),
		  JW_D("current_ns", row->reg.current_ns),
		  JW_D("change_pct", row->reg.change_pct),
		  JW_D("since", row->reg.since));
}

/* ---- the table ------------------------------------------------------------- */

/*
 * Fixed widths leave room for the label plus the one-column sort marker;
 * numbers wider than their column are scaled (fmt_count, fmt_duration).
 * On narrow screens OWNERS goes first and the regression marker last:
 * with NAME it says what is on fire.
 */
const struct col_def col_table[COL__MAX] = {
	[COL_ID] = {
		.label = "ID", .sort_name = "id", .cmp = cmp_id,
		.ascending = true, .right = true,
		.width = COL_MEASURED, .min_w = 5, .drop = 9,
		.text_width = 7, .text_plain = true, .text = text_id,
		.json_key = "id", .json_pos = 0, .json = json_id,
		.cell = cell_id,
	},
	[COL_TYPE] = {
		.label = "TYPE", .sort_name = "type", .cmp = cmp_type,
		.ascending = true,
		.width = COL_MEASURED, .min_w = 5, .max_w = 16, .drop = 5,
		.text_width = -16, .text_plain = true, .text = text_type,
		.json_key = "type", .json_pos = 1, .json = json_type,
		.cell = cell_type,
	},
	[COL_NAME] = {
		/* Below 24 columns NAME is hard to read: others go first. */
		.label = "NAME", .sort_name = "name", .cmp = cmp_name,
		.ascending = true,
		.width = COL_MEASURED, .min_w = 5, .flex = true, .keep_w = 24,
		.squeeze_w = 12,
		.text_width = -4, .text_fit = true,
		.json_key = "name", .json_pos = 2, .json = json_name,
		.cell = cell_name,
	},
	[COL_NSRUN] = {
		.label = "NS/RUN", .sort_name = "nsrun", .cmp = cmp_nsrun,
		.right = true, .width = 8, .drop = 6,
		.text_width = 10, .text_plain = true, .text = text_nsrun,
		.json_key = "ns_per_run", .json_pos = 7, .json = json_nsrun,
		.cell = cell_nsrun,
		.help = "NS/RUN   average cost of one run over the last interval",
	},
	[COL_RUNS] = {
		.label = "RUNS/S", .sort_name = "runs", .cmp = cmp_runs,
		.right = true, .width = 9, .drop = 7,
		.text_width = 10, .text_plain = true, .text = text_runs,
		.json_key = "runs_per_s", .json_pos = 6, .json = json_runs,
		.cell = cell_runs,
		.help = "RUNS/S   runs per second over the last interval",
	},
	[COL_CPU] = {
		.label = "CPU%", .sort_name = "cpu", .cmp = cmp_cpu,
		.right = true, .width = 7, .drop = 8,
		.text_width = 7, .text_plain = true, .text = text_cpu,
		.json_key = "cpu_pct", .json_pos = 8, .json = json_cpu,
		.cell = cell_cpu,
		.help = "CPU%     share of one CPU (can pass 100 on several CPUs)",
	},
	[COL_RUNCNT] = {
		.label = "RUN_CNT", .sort_name = "runcnt", .cmp = cmp_runcnt,
		.right = true, .width = 10, .drop = 4,
		.text_width = 12, .text_plain = true, .text = text_runcnt,
		.json_key = "run_cnt", .json_pos = 4, .json = json_runcnt,
		.cell = cell_runcnt,
		.help = "RUN_CNT  RUN_TIME  the kernel's totals since the program loaded",
	},
	[COL_RUNTIME] = {
		.label = "RUN_TIME", .text_label = "RUN_TIME_NS",
		.sort_name = "runtime", .cmp = cmp_runtime,
		.right = true, .width = 9, .drop = 3,
		.text_width = 15, .text_plain = true, .text = text_runtime,
		.json_key = "run_time_ns", .json_pos = 5, .json = json_runtime,
		.cell = cell_runtime,
	},
	[COL_ISA] = {
		/* Narrow, and the first to go on a small screen. */
		.label = "ISA", .width = 3, .drop = 1,
		.text_width = 4, .text_plain = true, .text = text_isa,
		.json_key = "isa", .json_pos = 10, .json = json_isa,
		.cell = cell_isa,
		.help = "ISA      BPF instruction-set level the program needs (Enter: details)",
	},
	[COL_FLAG] = {
		/* As wide as its widest marker; only while something is flagged. */
		.label = "FLAG",
		.width = COL_MEASURED, .min_w = 4, .max_w = 8, .drop = 10,
		.outranks = true, .hide_empty = true, .marker = true,
		.text_width = 7, .text_plain = true, .text = text_flag,
		.json_key = "regression", .json_pos = 18, .json = json_flag,
		.cell = cell_flag,
		.help = "FLAG     ns/run regressed: change against the program's baseline (l: log)",
	},
	[COL_OWNERS] = {
		/* Narrower than 8 it shows nothing useful ("testloa~"). */
		.label = "OWNERS",
		.width = COL_MEASURED, .min_w = 7, .flex = true, .keep_w = 8,
		.drop = 2,
		.text_free = true,
		.json_key = "pids", .json_pos = 9, .json = json_owners,
		.cell = cell_owners,
	},
	[COL_TAG] = {
		.json_key = "tag", .json_pos = 3, .json = json_tag,
		.cell = cell_tag,
	},
	[COL_SUBPROGS] = {
		.json_key = "subprogs", .json_pos = 11, .json = json_subprogs,
		.cell = cell_none,
	},
	[COL_TAIL_CALLS] = {
		.json_key = "tail_calls", .json_pos = 12, .json = json_tail_calls,
		.cell = cell_none,
	},
	[COL_HELPERS] = {
		.json_key = "helpers", .json_pos = 13, .json = json_helpers,
		.cell = cell_none,
	},
	[COL_MAPS] = {
		.json_key = "maps", .json_pos = 14, .json = json_maps,
		.cell = cell_none,
	},
	[COL_XLATED] = {
		.json_key = "xlated_bytes", .json_pos = 15, .json = json_xlated,
		.cell = cell_none,
	},
	[COL_JITED] = {
		.json_key = "jited_bytes", .json_pos = 16, .json = json_jited,
		.cell = cell_none,
	},
	[COL_JIT_PAGES] = {
		.json_key = "jit_pages", .json_pos = 17, .json = json_jit_pages,
		.cell = cell_none,
	},
};

const char *col_label(enum col c)
{
	return c < COL__MAX && col_table[c].label ? col_table[c].label : "";
}

bool col_right(enum col c)
{
	return c < COL__MAX && col_table[c].right;
}

const char *col_sort_name(enum col c)
{
	return c < COL__MAX && col_table[c].sort_name ? col_table[c].sort_name :
							"?";
}

int col_parse_sort(const char *s, enum col *c)
{
	for (int i = 0; i < COL__MAX; i++) {
		if (col_table[i].sort_name && !strcmp(s, col_table[i].sort_name)) {
			*c = (enum col)i;
			return 0;
		}
	}
	return -EINVAL;
}

char *col_sort_names(char *buf, size_t len, enum col dflt)
{
	size_t off = 0;

	buf[0] = '\0';
	if (dflt < COL__MAX && col_table[dflt].sort_name)
		off = (size_t)snprintf(buf, len, "%s (default)",
				       col_table[dflt].sort_name);
	for (int i = 0; i < COL__MAX && off < len; i++) {
		int n;

		if (!col_table[i].sort_name || i == (int)dflt)
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
			     col_table[i].sort_name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
	return buf;
}

enum col col_sort_step(enum col c, int dir)
{
	int i = c < COL__MAX ? (int)c : 0;

	for (int k = 0; k < COL__MAX; k++) {
		i = (i + (dir < 0 ? COL__MAX - 1 : 1)) % COL__MAX;
		if (col_table[i].sort_name)
			return (enum col)i;
	}
	return c;
}

const enum col *col_json_order(void)
{
	static enum col order[COL__MAX + 1];
	static bool done;
	size_t n = 0;

	if (done)
		return order;
	for (int pos = 0; pos < COL__MAX; pos++) {
		for (int i = 0; i < COL__MAX; i++) {
			if (col_table[i].json_key && col_table[i].json_pos == pos)
				order[n++] = (enum col)i;
		}
	}
	order[n] = COL__MAX;
	done = true;
	return order;
}
