// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/json_record.h"

#include <math.h>
#include <string.h>

#include "analysis/columns.h"
#include "insights/isa.h"
#include "util/copy.h"
#include "util/decimal.h"

/* ---- member by member --------------------------------------------------- */

void json_record_members(struct jw *w, const struct prog_row *row)
{
	jw_begin_object(w);
	for (const enum col *c = col_json_order(); *c < COL__MAX; c++) {
		jw_key(w, col_def(*c)->json_key);
		col_def(*c)->json(w, row);
	}
	jw_end_object(w);
}

/* ---- by hand ------------------------------------------------------------ */

/* The members written by hand, in their order, with their keys. */
static const struct {
	enum col col;
	const char *key;
} known[] = {
	{ COL_ID, "id" },		{ COL_TYPE, "type" },
	{ COL_NAME, "name" },		{ COL_TAG, "tag" },
	{ COL_RUNCNT, "run_cnt" },	{ COL_RUNTIME, "run_time_ns" },
	{ COL_RUNS, "runs_per_s" },	{ COL_NSRUN, "ns_per_run" },
	{ COL_CPU, "cpu_pct" },		{ COL_OWNERS, "pids" },
	{ COL_ISA, "isa" },		{ COL_SUBPROGS, "subprogs" },
	{ COL_TAIL_CALLS, "tail_calls" }, { COL_HELPERS, "helpers" },
	{ COL_MAPS, "maps" },		{ COL_XLATED, "xlated_bytes" },
	{ COL_JITED, "jited_bytes" },	{ COL_JIT_PAGES, "jit_pages" },
	{ COL_FLAG, "regression" },
};

bool json_record_known(void)
{
	const enum col *c = col_json_order();
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++, c++) {
		if (*c != known[i].col ||
		    strcmp(col_def(*c)->json_key, known[i].key))
			return false;
	}
	return *c == COL__MAX;
}

/*
 * The text goes straight into the writer's buffer at p; room is made
 * before each piece (the most any one piece takes), sending what is
 * there to the stream when it runs short, as the writer itself does.
 */
struct out {
	struct jw *w;
	char *p;
};

/* Room for what a piece can take at most: keys, numbers, short strings. */
#define PIECE_MAX 256

static inline void need(struct out *o, size_t n)
{
	struct jw *w = o->w;

	if ((size_t)(w->buf + JW_BUF_SIZE - o->p) < n) {
		w->len = (size_t)(o->p - w->buf);
		jw__flush(w);
		o->p = w->buf;
	}
}

/* A literal (keys with their quotes, colon and the comma before). */
#define LIT(o, s)                                         \
	do {                                              \
		memcpy((o)->p, (s), sizeof(s) - 1);       \
		(o)->p += sizeof(s) - 1;                  \
	} while (0)

/* Room for element @i of an array, after the comma if it is not the first. */
static inline void element_open(struct out *o, uint32_t i)
{
	need(o, PIECE_MAX);
	if (i)
		*o->p++ = ',';
}

static inline void put_u64(struct out *o, uint64_t v)
{
	char tmp[20], *end = tmp + sizeof(tmp), *start;

	if (v < 10) {
		*o->p++ = (char)('0' + v);
		return;
	}
	start = dec_u64_end(end, v);
	copy_small(o->p, start, (size_t)(end - start));
	o->p += end - start;
}

/* jw_double(): null when not finite. */
static inline void put_double(struct out *o, double v)
{
	if (!isfinite(v)) {
		LIT(o, "null");
		return;
	}
	o->p += jw_number_text(o->p, v);
}

/* jw_string(): null for NULL; escaped by the writer when not plain. */
static void put_string(struct out *o, const char *s)
{
	struct jw *w = o->w;
	size_t n;

	if (!s) {
		LIT(o, "null");
		return;
	}
	n = strlen(s);
	if (n <= PIECE_MAX - 8 && jw_plain(s, n)) {
		need(o, n + 2);
		*o->p++ = '"';
		copy_small(o->p, s, n);
		o->p += n;
		*o->p++ = '"';
		return;
	}
	/* The writer escapes it; the key before it is written already. */
	w->len = (size_t)(o->p - w->buf);
	w->sep = '\0';
	jw_string(w, s);
	o->p = w->buf + w->len;
}

static void put_owners(struct out *o, const struct prog_sample *s)
{
	*o->p++ = '[';
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		element_open(o, i);
		LIT(o, "{\"pid\":");
		put_u64(o, s->owners[i].pid);
		LIT(o, ",\"comm\":");
		put_string(o, s->owners[i].comm);
		*o->p++ = '}';
	}
	need(o, PIECE_MAX);
	*o->p++ = ']';
}

/* The insights members, from "isa" to "jit_pages". */
static void put_insights(struct out *o, const struct prog_insights *p)
{
	if (!p || p->err) {
		LIT(o, ",\"isa\":null,\"subprogs\":null,\"tail_calls\":null,"
		       "\"helpers\":null,\"maps\":null,\"xlated_bytes\":null,"
		       "\"jited_bytes\":null,\"jit_pages\":null");
		return;
	}
	if (!p->have_isa) {
		LIT(o, ",\"isa\":null");
	} else {
		LIT(o, ",\"isa\":{\"level\":");
		put_string(o, isa_level_str(p->isa.level));
		need(o, PIECE_MAX);
		LIT(o, ",\"insns\":");
		put_u64(o, p->isa.insns);
		LIT(o, ",\"needs\":{\"v2\":");
		put_u64(o, p->isa.needs[2]);
		LIT(o, ",\"v3\":");
		put_u64(o, p->isa.needs[3]);
		LIT(o, ",\"v4\":");
		put_u64(o, p->isa.needs[4]);
		LIT(o, "},\"kernel\":");
		put_u64(o, p->isa.kernel);
		*o->p++ = '}';
	}
	LIT(o, ",\"subprogs\":[");
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const struct insight_subprog *s = &p->subprogs[i];

		element_open(o, i);
		LIT(o, "{\"name\":");
		put_string(o, s->name);
		need(o, PIECE_MAX);
		LIT(o, ",\"insns\":");
		put_u64(o, s->insns);
		LIT(o, ",\"jited_bytes\":");
		put_u64(o, s->jited_len);
		LIT(o, ",\"calls\":");
		put_u64(o, s->calls);
		*o->p++ = '}';
	}
	need(o, PIECE_MAX);
	LIT(o, "],\"tail_calls\":");
	put_u64(o, p->tail_calls);
	LIT(o, ",\"helpers\":[");
	for (uint32_t i = 0; i < p->nr_calls; i++) {
		const struct insight_call *c = &p->calls[i];

		element_open(o, i);
		LIT(o, "{\"name\":");
		put_string(o, c->name);
		need(o, PIECE_MAX);
		LIT(o, ",\"calls\":");
		put_u64(o, c->calls);
		if (c->kind == INSIGHT_KFUNC)
			LIT(o, ",\"kind\":\"kfunc\"}");
		else
			LIT(o, ",\"kind\":\"helper\"}");
	}
	need(o, PIECE_MAX);
	LIT(o, "],\"maps\":[");
	for (uint32_t i = 0; i < p->nr_maps; i++) {
		const struct insight_map *m = &p->maps[i];

		element_open(o, i);
		LIT(o, "{\"id\":");
		put_u64(o, m->id);
		LIT(o, ",\"name\":");
		put_string(o, m->name[0] ? m->name : NULL);
		need(o, PIECE_MAX);
		LIT(o, ",\"type\":");
		put_string(o, m->type_name);
		need(o, PIECE_MAX);
		LIT(o, ",\"key_size\":");
		put_u64(o, m->key_size);
		LIT(o, ",\"value_size\":");
		put_u64(o, m->value_size);
		LIT(o, ",\"max_entries\":");
		put_u64(o, m->max_entries);
		*o->p++ = '}';
	}
	need(o, PIECE_MAX);
	LIT(o, "],\"xlated_bytes\":");
	put_u64(o, p->xlated_len);
	LIT(o, ",\"jited_bytes\":");
	put_u64(o, p->jited_len);
	LIT(o, ",\"jit_pages\":");
	if (p->jit_pages)
		put_u64(o, p->jit_pages);
	else
		LIT(o, "null");
}

bool json_record_fast(struct jw *w, const struct prog_row *row)
{
	static int is_known = -1;
	const struct prog_sample *s = row->s;
	struct out o = { .w = w };

	if (is_known < 0)
		is_known = json_record_known();
	if (!is_known)
		return false;
	jw__value_start(w);
	o.p = w->buf + w->len;
	need(&o, PIECE_MAX);
	LIT(&o, "{\"id\":");
	put_u64(&o, s->id);
	LIT(&o, ",\"type\":");
	put_string(&o, s->type_name);
	need(&o, PIECE_MAX);
	LIT(&o, ",\"name\":");
	put_string(&o, s->name[0] ? s->name : NULL);
	need(&o, PIECE_MAX);
	LIT(&o, ",\"tag\":");
	put_string(&o, s->tag);
	need(&o, PIECE_MAX);
	LIT(&o, ",\"run_cnt\":");
	put_u64(&o, s->run_cnt);
	LIT(&o, ",\"run_time_ns\":");
	put_u64(&o, s->run_time_ns);
	LIT(&o, ",\"runs_per_s\":");
	put_double(&o, row->r.runs_per_s);
	LIT(&o, ",\"ns_per_run\":");
	put_double(&o, row->r.ns_per_run);
	LIT(&o, ",\"cpu_pct\":");
	put_double(&o, row->r.cpu_pct);
	LIT(&o, ",\"pids\":");
	put_owners(&o, s);
	put_insights(&o, row->ins);
	need(&o, PIECE_MAX);
	if (!row->reg.active) {
		LIT(&o, ",\"regression\":null}");
	} else {
		LIT(&o, ",\"regression\":{\"baseline_ns\":");
		put_double(&o, row->reg.baseline_ns);
		LIT(&o, ",\"current_ns\":");
		put_double(&o, row->reg.current_ns);
		LIT(&o, ",\"change_pct\":");
		put_double(&o, row->reg.change_pct);
		LIT(&o, ",\"since\":");
		put_double(&o, row->reg.since);
		LIT(&o, "}}");
	}
	w->len = (size_t)(o.p - w->buf);
	jw__done(w);
	return true;
}

void json_record(struct jw *w, const struct prog_row *row)
{
	if (!json_record_fast(w, row))
		json_record_members(w, row);
}
