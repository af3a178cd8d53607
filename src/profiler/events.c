// SPDX-License-Identifier: GPL-2.0-only
/* Profiler events: named events, presets and the raw table resolved into perf_event_attr. */
#include "config.h"

#include "profiler/events_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profiler/pfm_lib.h"

/* ---- named events ---------------------------------------------------------- */

/* A perf generic event, for CPUs whose own names we do not carry. */
struct generic {
	uint32_t type;
	uint64_t config;
};

#define HW(c) { PERF_TYPE_HARDWARE, (c) }
#define HWC(cache, op, res)                                                 \
	{ PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_##cache) |               \
				      (PERF_COUNT_HW_CACHE_OP_##op << 8) |  \
				      (PERF_COUNT_HW_CACHE_RESULT_##res << 16) }
#define SW(c) { PERF_TYPE_SOFTWARE, (c) }

/*
 * Events the presets are made of, by the name users see, with the libpfm4
 * 4.13 spelling for each CPU family (encoded for that PMU only) and a perf
 * generic fallback. Which event stands for "LLC misses" or "dTLB misses"
 * differs by vendor; the man page lists the choices.
 */
struct named_event {
	const char *name;
	enum prof_metric metric;
	enum td_role role;
	const char *pfm[FAM__MAX];
	bool has_generic;
	struct generic generic;
	bool software;			/* the same on every CPU, no libpfm4 */
};

#define INTEL3(s) [FAM_SKL] = (s), [FAM_ICL] = (s), [FAM_SPR] = (s)

static const struct named_event named_events[] = {
	{ "cycles", PM_CYCLES, TDR_CYCLES,
	  { INTEL3("UNHALTED_CORE_CYCLES"), [FAM_ZEN4] = "CYCLES_NOT_IN_HALT" },
	  true, HW(PERF_COUNT_HW_CPU_CYCLES) },
	{ "instructions", PM_INSTRUCTIONS, TDR_NONE,
	  { INTEL3("INSTRUCTION_RETIRED"),
	    [FAM_ZEN4] = "RETIRED_INSTRUCTIONS" },
	  true, HW(PERF_COUNT_HW_INSTRUCTIONS) },
	/* Zen 4: demand fills served from beyond the local L3. */
	{ "llc_misses", PM_LLC_MISSES, TDR_NONE,
	  { INTEL3("LONGEST_LAT_CACHE:MISS"),
	    [FAM_ZEN4] = "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR" },
	  true, HWC(LL, READ, MISS) },
	{ "l1d_loads", PM_L1D_LOADS, TDR_NONE,
	  { INTEL3("MEM_INST_RETIRED:ALL_LOADS"),
	    [FAM_ZEN4] = "LS_DISPATCH:LD_DISPATCH" },
	  true, HWC(L1D, READ, ACCESS) },
	{ "l1d_misses", PM_L1D_MISSES, TDR_NONE,
	  { INTEL3("L1D:REPLACEMENT"),
	    [FAM_ZEN4] = "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR" },
	  true, HWC(L1D, READ, MISS) },
	/* Misses that needed a page walk. */
	{ "itlb_misses", PM_ITLB_MISSES, TDR_NONE,
	  { INTEL3("ITLB_MISSES:WALK_COMPLETED"),
	    [FAM_ZEN4] = "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K" },
	  true, HWC(ITLB, READ, MISS) },
	{ "dtlb_misses", PM_DTLB_MISSES, TDR_NONE,
	  { INTEL3("DTLB_LOAD_MISSES:WALK_COMPLETED"),
	    [FAM_ZEN4] = "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS" },
	  true, HWC(DTLB, READ, MISS) },
	/* Top-Down inputs: CPU-specific, no generic form. */
	{ "slots", PM_OTHER, TDR_SLOTS,
	  { [FAM_ICL] = "TOPDOWN:SLOTS", [FAM_SPR] = "TOPDOWN:SLOTS" } },
	{ "uops_issued", PM_OTHER, TDR_UOPS_ISSUED,
	  { [FAM_SKL] = "UOPS_ISSUED:ANY" } },
	{ "uops_retired", PM_OTHER, TDR_RETIRED,
	  { [FAM_SKL] = "UOPS_RETIRED:RETIRE_SLOTS",
	    [FAM_ICL] = "UOPS_RETIRED:SLOTS", [FAM_SPR] = "UOPS_RETIRED:SLOTS",
	    [FAM_ZEN4] = "RETIRED_OPS" } },
	{ "frontend_bubbles", PM_OTHER, TDR_FE_BUBBLES,
	  { INTEL3("IDQ_UOPS_NOT_DELIVERED:CORE"),
	    [FAM_ZEN4] = "DISPATCH_STALLS_1:FE_NO_OPS" } },
	{ "recovery_cycles", PM_OTHER, TDR_RECOVERY,
	  { INTEL3("INT_MISC:RECOVERY_CYCLES") } },
	{ "uop_dropping", PM_OTHER, TDR_UOP_DROPPING,
	  { [FAM_ICL] = "INT_MISC:UOP_DROPPING",
	    [FAM_SPR] = "INT_MISC:UOP_DROPPING" } },
	{ "backend_slots", PM_OTHER, TDR_BE_SLOTS,
	  { [FAM_ICL] = "TOPDOWN:BACKEND_BOUND_SLOTS",
	    [FAM_SPR] = "TOPDOWN:BACKEND_BOUND_SLOTS",
	    [FAM_ZEN4] = "DISPATCH_STALLS_1:BE_STALLS" } },
	{ "clears_count", PM_OTHER, TDR_CLEARS,
	  { [FAM_ICL] = "INT_MISC:CLEARS_COUNT",
	    [FAM_SPR] = "INT_MISC:CLEARS_COUNT" } },
	{ "ops_dispatched", PM_OTHER, TDR_DISPATCHED,
	  { [FAM_ZEN4] = "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER" } },
	/* Software events: every kernel has them, PMU or not. */
	{ "cpu-clock", PM_CPU_CLOCK, TDR_NONE, { NULL }, true,
	  SW(PERF_COUNT_SW_CPU_CLOCK), true },
	{ "task-clock", PM_TASK_CLOCK, TDR_NONE, { NULL }, true,
	  SW(PERF_COUNT_SW_TASK_CLOCK), true },
	{ "page-faults", PM_OTHER, TDR_NONE, { NULL }, true,
	  SW(PERF_COUNT_SW_PAGE_FAULTS), true },
	{ "context-switches", PM_OTHER, TDR_NONE, { NULL }, true,
	  SW(PERF_COUNT_SW_CONTEXT_SWITCHES), true },
	{ "cpu-migrations", PM_OTHER, TDR_NONE, { NULL }, true,
	  SW(PERF_COUNT_SW_CPU_MIGRATIONS), true },
};

#define NR_NAMED (sizeof(named_events) / sizeof(named_events[0]))

/* ---- presets ----------------------------------------------------------------- */

#define PRESET_MAX 8

struct preset {
	const char *name;
	/* Events by name; per family when it differs (topdown). */
	const char *events[FAM__MAX][PRESET_MAX];
	bool per_family;
};

#define SAME(...) { [FAM_GENERIC] = { __VA_ARGS__ } }

static const struct preset presets[] = {
	{ "default", SAME("cycles", "instructions", "llc_misses"), false },
	{ "topdown",
	  { [FAM_SKL] = { "cycles", "uops_issued", "uops_retired",
			  "frontend_bubbles", "recovery_cycles" },
	    [FAM_ICL] = { "slots", "frontend_bubbles", "uop_dropping",
			  "backend_slots", "clears_count", "uops_retired" },
	    [FAM_SPR] = { "slots", "frontend_bubbles", "uop_dropping",
			  "backend_slots", "uops_retired" },
	    [FAM_ZEN4] = { "cycles", "uops_retired", "frontend_bubbles",
			   "backend_slots", "ops_dispatched" } },
	  true },
	{ "cache", SAME("instructions", "l1d_loads", "l1d_misses", "llc_misses"),
	  false },
	{ "tlb", SAME("instructions", "itlb_misses", "dtlb_misses"), false },
	{ "sw", SAME("cpu-clock", "task-clock"), false },
};

#define NR_PRESETS (sizeof(presets) / sizeof(presets[0]))

/* ---- the raw table ----------------------------------------------------------- */

#define F(x) (1u << (x))

/*
 * What libpfm4 4.13 gets wrong or lacks, by upper-case event string:
 * ICL/SPR TOPDOWN.*_SLOTS lack their event code 0xa4 (4.13 encodes
 * 0x200/0x400/0x800/0x1000), the PERF_METRICS pseudo events (slots group
 * members) are missing, and SPR's IDQ_BUBBLES.CORE has no name.
 */
static const struct raw_entry {
	const char *name;
	unsigned int families;
	uint64_t config;
} raw_table[] = {
	{ "TOPDOWN:BACKEND_BOUND_SLOTS", F(FAM_ICL) | F(FAM_SPR), 0x2a4 },
	{ "TOPDOWN:BAD_SPEC_SLOTS", F(FAM_SPR), 0x4a4 },
	{ "TOPDOWN:BR_MISPREDICT_SLOTS", F(FAM_SPR), 0x8a4 },
	{ "TOPDOWN:MEMORY_BOUND_SLOTS", F(FAM_SPR), 0x10a4 },
	{ "IDQ_BUBBLES:CORE", F(FAM_SPR), 0x19c },
	{ "TOPDOWN:RETIRING", F(FAM_ICL) | F(FAM_SPR), 0x8000 },
	{ "TOPDOWN-RETIRING", F(FAM_ICL) | F(FAM_SPR), 0x8000 },
	{ "TOPDOWN:BAD_SPEC", F(FAM_ICL) | F(FAM_SPR), 0x8100 },
	{ "TOPDOWN-BAD-SPEC", F(FAM_ICL) | F(FAM_SPR), 0x8100 },
	{ "TOPDOWN:FE_BOUND", F(FAM_ICL) | F(FAM_SPR), 0x8200 },
	{ "TOPDOWN-FE-BOUND", F(FAM_ICL) | F(FAM_SPR), 0x8200 },
	{ "TOPDOWN:BE_BOUND", F(FAM_ICL) | F(FAM_SPR), 0x8300 },
	{ "TOPDOWN-BE-BOUND", F(FAM_ICL) | F(FAM_SPR), 0x8300 },
	{ "TOPDOWN:HEAVY_OPS", F(FAM_SPR), 0x8400 },
	{ "TOPDOWN-HEAVY-OPS", F(FAM_SPR), 0x8400 },
	{ "TOPDOWN:BR_MISPREDICT", F(FAM_SPR), 0x8500 },
	{ "TOPDOWN-BR-MISPREDICT", F(FAM_SPR), 0x8500 },
	{ "TOPDOWN:FETCH_LAT", F(FAM_SPR), 0x8600 },
	{ "TOPDOWN-FETCH-LAT", F(FAM_SPR), 0x8600 },
	{ "TOPDOWN:MEM_BOUND", F(FAM_SPR), 0x8700 },
	{ "TOPDOWN-MEM-BOUND", F(FAM_SPR), 0x8700 },
};

/* ---- resolution ------------------------------------------------------------------ */

static void attr_init(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	/* Count the BPF program, not the user space around it. */
	a->exclude_user = 1;
}

/* Upper case, '.' as ':', without our PMU's "pmu::" prefix. */
static void normalize(char *out, size_t len, const char *s)
{
	size_t pl = strlen(events_pfm.pmu), o = 0;

	if (events_pfm.done && !strncasecmp(s, events_pfm.pmu, pl) && !strncmp(s + pl, "::", 2))
		s += pl + 2;
	for (; *s && o + 1 < len; s++)
		out[o++] = *s == '.' ? ':' : (char)toupper((unsigned char)*s);
	out[o] = '\0';
}

static const struct raw_entry *raw_lookup(const char *s)
{
	char norm[128];

	normalize(norm, sizeof(norm), s);
	for (size_t i = 0; i < sizeof(raw_table) / sizeof(raw_table[0]); i++) {
		if ((raw_table[i].families & F(events_pfm.fam)) &&
		    !strcmp(norm, raw_table[i].name))
			return &raw_table[i];
	}
	return NULL;
}

/*
 * libpfm4 4.13 encodes some ICL/SPR events as fixed-counter pseudo events
 * (event code 0) that the kernel does not schedule; only the ones the
 * kernel knows (0x100, 0x300, slots 0x400) are real.
 */
static bool bogus_fixed(const struct perf_event_attr *a)
{
	if ((events_pfm.fam != FAM_ICL && events_pfm.fam != FAM_SPR) ||
	    a->type != PERF_TYPE_RAW || (a->config & 0xff))
		return false;
	switch (a->config & 0xffff) {
	case 0x100:
	case 0x300:
	case 0x400:
		return false;
	default:
		return (a->config & 0xff00) != 0;
	}
}

/*
 * Encode @str: raw table, then libpfm4 (kernel only). @prefix asks for our
 * core PMU explicitly. 0, or -EINVAL with the reason (-ELIBACC: libpfm4
 * cannot be loaded).
 */
static int encode(const char *str, bool prefix, struct prof_event *e,
		  char *msg, size_t len)
{
	const struct raw_entry *raw = raw_lookup(str);
	pfm_perf_encode_arg_t arg;
	char full[256], *fstr = NULL;
	int ret;

	if (raw) {
		attr_init(&e->attr, PERF_TYPE_RAW, raw->config);
		e->attr.exclude_guest = 1;
		snprintf(e->source, sizeof(e->source),
			 "%s::%s (raw table: libpfm4 4.13 has it wrong or not at all)",
			 events_pfm.pmu, raw->name);
		return 0;
	}
	/* perf's rNNNN: a raw config for the core PMU, whatever libpfm4 knows. */
	if (str[0] == 'r' && str[1] && strlen(str) <= 17 &&
	    strspn(str + 1, "0123456789abcdefABCDEF") == strlen(str + 1)) {
		attr_init(&e->attr, PERF_TYPE_RAW, strtoull(str + 1, NULL, 16));
		e->attr.exclude_guest = 1;
		snprintf(e->source, sizeof(e->source), "raw config");
		return 0;
	}
	if (events_pfm.err) {
		snprintf(msg, len, "cannot encode '%s': %s", str, events_pfm.msg);
		/* No libpfm4 at all is the machine's fault, not the user's. */
		return events_pfm.err == -ELIBACC ? -ELIBACC : -EINVAL;
	}
	if (prefix)
		snprintf(full, sizeof(full), "%s::%s", events_pfm.pmu, str);
	else
		snprintf(full, sizeof(full), "%s", str);
	memset(&e->attr, 0, sizeof(e->attr));
	e->attr.size = sizeof(e->attr);
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &e->attr;
	arg.fstr = &fstr;
	ret = libpfm.pfm_get_os_event_encoding(full, PFM_PLM0, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(msg, len, "unknown event '%s' for PMU %s (libpfm4: %s)",
			 str, events_pfm.pmu, libpfm.pfm_strerror(ret));
		free(fstr);
		return -EINVAL;
	}
	snprintf(e->source, sizeof(e->source), "%s", fstr ? fstr : full);
	free(fstr);
	if (bogus_fixed(&e->attr)) {
		snprintf(msg, len,
			 "libpfm4 encodes '%s' as config 0x%llx, a fixed-counter pseudo event the kernel does not count: give the raw event (r<umask><code>) instead",
			 str, (unsigned long long)e->attr.config);
		return -EINVAL;
	}
	/* Unless the string said otherwise, PFM_PLM0 made it kernel-only. */
	e->attr.size = sizeof(e->attr);
	return 0;
}

static const struct named_event *named_lookup(const char *s)
{
	for (size_t i = 0; i < NR_NAMED; i++) {
		if (!strcasecmp(s, named_events[i].name))
			return &named_events[i];
	}
	return NULL;
}

/* Resolve named event @n for this CPU. */
static int resolve_named(const struct named_event *n, struct prof_event *e,
			 char *msg, size_t len)
{
	const char *s = n->pfm[events_pfm.fam];

	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", n->name);
	e->metric = n->metric;
	e->role = n->role;
	if (s && !events_pfm.err)
		return encode(s, true, e, msg, len);
	if (n->has_generic) {
		attr_init(&e->attr, n->generic.type, n->generic.config);
		snprintf(e->source, sizeof(e->source), "%s",
			 n->software ? "software event" : "perf generic event");
		return 0;
	}
	snprintf(msg, len, "event '%s' has no encoding for PMU %s", n->name,
		 events_pfm.pmu);
	return -EINVAL;
}

static bool same_event(const struct perf_event_attr *a,
		       const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2;
}

/*
 * An event given as a libpfm4 string that encodes like one of our named
 * events measures the same thing: give it that metric and role, so that
 * IPC or Top-Down work whichever way the user spelled the events.
 */
static void adopt_role(struct prof_event *e)
{
	char msg[8];

	for (size_t i = 0; i < NR_NAMED; i++) {
		struct prof_event n;

		if (resolve_named(&named_events[i], &n, msg, sizeof(msg)))
			continue;
		if (same_event(&n.attr, &e->attr)) {
			e->metric = n.metric;
			e->role = n.role;
			return;
		}
	}
}

static int add_event(struct event_set *set, const struct prof_event *e,
		     char *msg, size_t len)
{
	for (size_t i = 0; i < set->n; i++) {
		if (same_event(&set->ev[i].attr, &e->attr))
			return 0;	/* asked twice (two presets): once */
	}
	if (set->n >= PROFILE_MAX_EVENTS) {
		snprintf(msg, len, "too many events: at most %d at a time",
			 PROFILE_MAX_EVENTS);
		return -EINVAL;
	}
	set->ev[set->n++] = *e;
	return 0;
}

static const struct preset *preset_lookup(const char *s)
{
	for (size_t i = 0; i < NR_PRESETS; i++) {
		if (!strcasecmp(s, presets[i].name))
			return &presets[i];
	}
	return NULL;
}

static int add_preset(struct event_set *set, const struct preset *p,
		      char *msg, size_t len)
{
	const char *const *names = p->events[p->per_family ? events_pfm.fam : 0];
	struct prof_event e;
	int err;

	if (p->per_family && !names[0]) {
		snprintf(msg, len, "no Top-Down formula for %s%s", events_pfm.pmu,
			 strcmp(events_pfm.pmu, "perf") ? "" :
			 " (libpfm4 found no core PMU here)");
		return -EINVAL;
	}
	for (int i = 0; i < PRESET_MAX && names[i]; i++) {
		err = resolve_named(named_lookup(names[i]), &e, msg, len);
		if (!err)
			err = add_event(set, &e, msg, len);
		if (err)
			return err;
	}
	return 0;
}

static void set_topdown(struct event_set *set)
{
	enum td_model m = events_td_model(events_pfm.fam);
	unsigned int have = 0, need = topdown_needs(m);

	set->td = TD_NONE;
	snprintf(set->pmu, sizeof(set->pmu), "%s", events_pfm.pmu);
	if (m == TD_NONE) {
		snprintf(set->td_note, sizeof(set->td_note),
			 "no Top-Down formula for %s", events_pfm.pmu);
		return;
	}
	for (size_t i = 0; i < set->n; i++)
		have |= 1u << set->ev[i].role;
	if ((have & need) != need) {
		snprintf(set->td_note, sizeof(set->td_note),
			 "Top-Down needs the topdown preset (-e topdown)");
		return;
	}
	set->td = m;
	set->td_note[0] = '\0';
}

int events_parse(const char *list, struct event_set *set, char *msg,
		 size_t len)
{
	char *copy, *save = NULL, *tok;
	int err = 0;

	memset(set, 0, sizeof(*set));
	events_init(NULL, 0);	/* without libpfm4, generic events still work */
	if (!list || !*list) {
		snprintf(msg, len, "empty event list");
		return -EINVAL;
	}
	copy = strdup(list);
	if (!copy) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	if (list[strlen(list) - 1] == ',' || list[0] == ',' || strstr(list, ",,")) {
		snprintf(msg, len, "empty event name in '%s'", list);
		free(copy);
		return -EINVAL;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct preset *p;
		const struct named_event *n;
		struct prof_event e;

		while (isspace((unsigned char)*tok))
			tok++;
		for (size_t l = strlen(tok); l && isspace((unsigned char)tok[l - 1]);)
			tok[--l] = '\0';
		if (!*tok) {
			snprintf(msg, len, "empty event name in '%s'", list);
			err = -EINVAL;
			break;
		}
		if ((p = preset_lookup(tok))) {
			err = add_preset(set, p, msg, len);
			if (err && p->per_family) {
				/* Say which preset could not be had. */
				char why[256];

				snprintf(why, sizeof(why), "%s", msg);
				snprintf(msg, len, "preset '%s': %s", p->name, why);
			}
			continue;
		}
		if ((n = named_lookup(tok))) {
			err = resolve_named(n, &e, msg, len);
		} else {
			memset(&e, 0, sizeof(e));
			snprintf(e.name, sizeof(e.name), "%s", tok);
			err = encode(tok, false, &e, msg, len);
			if (!err)
				adopt_role(&e);
		}
		if (!err)
			err = add_event(set, &e, msg, len);
	}
	free(copy);
	if (err)
		return err;
	set_topdown(set);
	return 0;
}

int events_list(FILE *f, char *msg, size_t len)
{
	int err = events_init(msg, len);

	if (err)
		return err;
	for (size_t i = 0; i < NR_PRESETS; i++) {
		struct event_set set = {};
		char why[256];

		if (add_preset(&set, &presets[i], why, sizeof(why))) {
			fprintf(f, "%s unavailable: %s\n", presets[i].name, why);
			continue;
		}
		for (size_t k = 0; k < set.n; k++) {
			const struct perf_event_attr *a = &set.ev[k].attr;

			fprintf(f, "%s %s type=%u config=0x%llx", presets[i].name,
				set.ev[k].name, a->type,
				(unsigned long long)a->config);
			if (a->config1)
				fprintf(f, " config1=0x%llx",
					(unsigned long long)a->config1);
			if (a->config2)
				fprintf(f, " config2=0x%llx",
					(unsigned long long)a->config2);
			fputc('\n', f);
		}
	}
	return 0;
}
