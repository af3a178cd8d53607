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
	jw_string_field(w, "level", isa_level_str(p->isa.level));
	jw_uint_field(w, "insns", p->isa.insns);
	jw_key(w, "needs");
	jw_begin_object(w);
	jw_uint_field(w, "v2", p->isa.needs[2]);
	jw_uint_field(w, "v3", p->isa.needs[3]);
	jw_uint_field(w, "v4", p->isa.needs[4]);
	jw_end_object(w);
	jw_uint_field(w, "kernel", p->isa.kernel);
	jw_end_object(w);
}

void insights_json_subprogs(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const struct insight_subprog *s = &p->subprogs[i];

		jw_begin_object(w);
		jw_string_field(w, "name", s->name);
		jw_uint_field(w, "insns", s->insns);
		jw_uint_field(w, "jited_bytes", s->jited_len);
		jw_uint_field(w, "calls", s->calls);
		jw_end_object(w);
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
	for (uint32_t i = 0; i < p->nr_calls; i++) {
		jw_begin_object(w);
		jw_string_field(w, "name", p->calls[i].name);
		jw_uint_field(w, "calls", p->calls[i].calls);
		jw_string_field(w, "kind", p->calls[i].kind == INSIGHT_KFUNC ?
						   "kfunc" : "helper");
		jw_end_object(w);
	}
	jw_end_array(w);
}

void insights_json_maps(struct jw *w, const struct prog_insights *p)
{
	if (!readable(w, p))
		return;
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_maps; i++) {
		const struct insight_map *m = &p->maps[i];

		jw_begin_object(w);
		jw_uint_field(w, "id", m->id);
		jw_string_field(w, "name", m->name[0] ? m->name : NULL);
		jw_string_field(w, "type", m->type_name);
		jw_uint_field(w, "key_size", m->key_size);
		jw_uint_field(w, "value_size", m->value_size);
		jw_uint_field(w, "max_entries", m->max_entries);
		jw_end_object(w);
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

void insights_json_members(struct jw *w, const struct prog_insights *p)
{
	static const struct {
		const char *key;
		void (*fn)(struct jw *w, const struct prog_insights *p);
	} m[] = {
		{ "isa", insights_json_isa },
		{ "subprogs", insights_json_subprogs },
		{ "tail_calls", insights_json_tail_calls },
		{ "helpers", insights_json_helpers },
		{ "maps", insights_json_maps },
		{ "xlated_bytes", insights_json_xlated },
		{ "jited_bytes", insights_json_jited },
		{ "jit_pages", insights_json_pages },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		jw_key(w, m[i].key);
		m[i].fn(w, p);
	}
}
