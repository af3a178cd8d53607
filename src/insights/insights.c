// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/insights.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prog_insights_clear(struct prog_insights *p)
{
	for (uint32_t i = 0; i < p->nr_subprogs; i++)
		free(p->subprogs[i].name);
	free(p->subprogs);
	free(p->calls);
	free(p->maps);
	memset(p, 0, sizeof(*p));
}

const char *isa_advice(const struct prog_insights *p)
{
	/*
	 * A short program may use no 32-bit operation even when built for
	 * v3; from this size on a v3 build nearly always shows some.
	 */
	if (!p || !p->have_isa || p->err || p->isa.insns < ISA_ADVICE_MIN_INSNS)
		return NULL;
	switch (p->isa.level) {
	case 1:
		return "built for ISA v1: -mcpu=v3 typically saves the branch reversals and shift pairs";
	case 2:
		return "built for ISA v2: -mcpu=v3 adds 32-bit jumps and ALU, typically saving shift pairs";
	default:
		return NULL;
	}
}

/* printf to the end of @l's text; the text stays NUL-terminated. */
__attribute__((format(printf, 2, 3)))
static void add(struct insight_line *l, const char *fmt, ...)
{
	size_t off = strlen(l->text);
	va_list ap;

	if (off >= sizeof(l->text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text + off, sizeof(l->text) - off, fmt, ap);
	va_end(ap);
}

static struct insight_line *next_line(struct insight_line *out, size_t *n,
				      size_t max, const char *label)
{
	struct insight_line *l;

	if (*n >= max)
		return NULL;
	l = &out[(*n)++];
	l->label = label;
	l->text[0] = '\0';
	return l;
}

size_t insights_describe(const struct prog_insights *p,
			 struct insight_line *out, size_t max)
{
	struct insight_line *l;
	const char *adv;
	size_t n = 0;

	if (!p)
		return 0;
	if (p->err) {
		if ((l = next_line(out, &n, max, "isa")))
			add(l, "cannot read the program: %s", strerror(-p->err));
		return n;
	}
	if ((l = next_line(out, &n, max, "isa"))) {
		if (!p->have_isa)
			add(l, "unknown: the kernel shows no translated instructions");
		else
			add(l, "%s, read after the verifier: %" PRIu32
			    " insns, %" PRIu32 " need v2, %" PRIu32 " v3, %" PRIu32
			    " v4; %" PRIu32 " written by the verifier, not counted",
			    isa_level_str(p->isa.level), p->isa.insns,
			    p->isa.needs[2], p->isa.needs[3], p->isa.needs[4],
			    p->isa.kernel);
	}
	adv = isa_advice(p);
	if (adv && (l = next_line(out, &n, max, "")))
		add(l, "%s", adv);
	if ((l = next_line(out, &n, max, "subprogs"))) {
		for (uint32_t i = 0; i < p->nr_subprogs; i++) {
			const struct insight_subprog *s = &p->subprogs[i];

			add(l, "%s%s %" PRIu32 " insns", i ? ", " : "",
			    s->name && s->name[0] ? s->name : "(no BTF name)",
			    s->insns);
			if (s->jited_len)
				add(l, " %" PRIu32 " B", s->jited_len);
			if (i)
				add(l, " (%" PRIu32 " calls)", s->calls);
		}
		add(l, "; tail calls %" PRIu32, p->tail_calls);
	}
	if ((l = next_line(out, &n, max, "calls"))) {
		for (uint32_t i = 0; i < p->nr_calls; i++)
			add(l, "%s%s%s x%" PRIu32, i ? ", " : "",
			    p->calls[i].kind == INSIGHT_KFUNC ? "kfunc " : "",
			    p->calls[i].name, p->calls[i].calls);
		if (!p->nr_calls)
			add(l, "none");
		if (p->calls_hidden)
			add(l, " (the kernel hides call targets from this user)");
	}
	if ((l = next_line(out, &n, max, "maps"))) {
		for (uint32_t i = 0; i < p->nr_maps; i++) {
			const struct insight_map *m = &p->maps[i];

			add(l, "%s%" PRIu32 " %s %s key %" PRIu32 " B value %" PRIu32
			    " B x%" PRIu32, i ? ", " : "", m->id,
			    m->name[0] ? m->name : "(unnamed)",
			    m->type_name ? m->type_name : "?", m->key_size,
			    m->value_size, m->max_entries);
		}
		if (!p->nr_maps)
			add(l, "none");
	}
	if ((l = next_line(out, &n, max, "code"))) {
		add(l, "xlated %" PRIu32 " B, jited %" PRIu32 " B", p->xlated_len,
		    p->jited_len);
		if (p->jit_pages)
			add(l, " on %" PRIu32 " page%s of 4 KiB", p->jit_pages,
			    p->jit_pages == 1 ? "" : "s");
	}
	return n;
}
