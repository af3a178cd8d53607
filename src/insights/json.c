// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/json.h"

static void null_fields(struct jw *w)
{
	static const char *const keys[] = { "isa", "subprogs", "tail_calls",
					    "helpers", "maps", "xlated_bytes",
					    "jited_bytes", "jit_pages" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		jw_key(w, keys[i]);
		jw_null(w);
	}
}

void insights_json_members(struct jw *w, const struct prog_insights *p)
{
	if (!p || p->err) {
		null_fields(w);
		return;
	}
	jw_key(w, "isa");
	if (p->have_isa) {
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
	} else {
		jw_null(w);
	}
	jw_key(w, "subprogs");
	jw_begin_array(w);
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const struct insight_subprog *s = &p->subprogs[i];

		jw_begin_object(w);
		jw_string_field(w, "name", s->name && s->name[0] ? s->name : NULL);
		jw_uint_field(w, "insns", s->insns);
		jw_uint_field(w, "jited_bytes", s->jited_len);
		jw_uint_field(w, "calls", s->calls);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_uint_field(w, "tail_calls", p->tail_calls);
	jw_key(w, "helpers");
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
	jw_key(w, "maps");
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
	jw_uint_field(w, "xlated_bytes", p->xlated_len);
	jw_uint_field(w, "jited_bytes", p->jited_len);
	jw_key(w, "jit_pages");
	if (p->jit_pages)
		jw_uint(w, p->jit_pages);
	else
		jw_null(w);
}
