// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/insights.h"

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
