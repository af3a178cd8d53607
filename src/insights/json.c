// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/json.h"

static bool readable(struct jw *w, const struct prog_insights *p)
{
	if (p && !p->err)
		return true;
	jw_null(w);
	return false;
}

void insights_json_isa(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	if (!p->have_isa) {
		jw_null(w);
		return;
	}
	jw_begin_object(w);
	JW_FIELDS(w, JW_S("level", isa_level_str(p->isa.level)),
		  JW_U("insns", p->isa.insns));
	JW_KEY(w, "needs");
	JW_OBJECT(w, JW_U("v2", p->isa.needs[2]), JW_U("v3", p->isa.needs[3]),
		  JW_U("v4", p->isa.needs[4]));
	JW_KEY(w, "kernel");
	jw_uint(w, p->isa.kernel);
	jw_end_object(w);
}

void insights_json_subprogs(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const struct insight_subprog *s = &p->subprogs[i];

		JW_OBJECT(w, JW_S("name", s->name), JW_U("insns", s->insns),
			  JW_U("jited_bytes", s->jited_len),
			  JW_U("calls", s->calls));
	}
	jw_end_array(w);
}

void insights_json_tail_calls(struct jw *w, const struct prog_insights *p)
{
	if (readable(w, p))
		jw_uint(w, p->tail_calls);
}

void insights_json_helpers(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_calls; i++)
		JW_OBJECT(w, JW_S("name", p->calls[i].name),
			  JW_U("calls", p->calls[i].calls),
			  JW_S("kind", p->calls[i].kind == INSIGHT_KFUNC ?
					       "kfunc" : "helper"));
	jw_end_array(w);
}

void insights_json_maps(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_maps; i++) {
		const struct insight_map *m = &p->maps[i];

		JW_OBJECT(w, JW_U("id", m->id),
			  JW_S("name", m->name[0] ? m->name : NULL),
			  JW_S("type", m->type_name),
			  JW_U("key_size", m->key_size),
			  JW_U("value_size", m->value_size),
			  JW_U("max_entries", m->max_entries));
	}
	jw_end_array(w);
}

void insights_json_xlated(struct jw *w, const struct prog_insights *p)
{
	if (readable(w, p))
		jw_uint(w, p->xlated_len);
}

void insights_json_jited(struct jw *w, const struct prog_insights *p)
{
	if (readable(w, p))
		jw_uint(w, p->jited_len);
}

void insights_json_pages(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	if (p->jit_pages)
		jw_uint(w, p->jit_pages);
	else
		jw_null(w);
}

#define MEMBER(k, fn) { JW_QUOTED(k), sizeof(JW_QUOTED(k)) - 1, (fn) }

void insights_json_members(struct jw *w, const struct prog_insights *p)
{
	static const struct {
		const char *key;	/* quoted, with its colon */
		size_t len;
		void (*fn)(struct jw *w, const struct prog_insights *p);
	} m[] = {
		MEMBER("isa", insights_json_isa),
		MEMBER("subprogs", insights_json_subprogs),
		MEMBER("tail_calls", insights_json_tail_calls),
		MEMBER("helpers", insights_json_helpers),
		MEMBER("maps", insights_json_maps),
		MEMBER("xlated_bytes", insights_json_xlated),
		MEMBER("jited_bytes", insights_json_jited),
		MEMBER("jit_pages", insights_json_pages),
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		jw_key_raw(w, m[i].key, m[i].len);
		m[i].fn(w, p);
	}
}

#undef MEMBER
