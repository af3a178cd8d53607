// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event encodings: every preset event under LIBPFM_FORCE_PMU=skl, icl,
 * spr and amd64_fam19h_zen4 against the configs Intel's and AMD's event
 * lists give (checked against libpfm4 4.13 itself), the raw table's
 * fixes for what 4.13 gets wrong, --list-events, and the CPU detection
 * helpers. No PMU is needed.
 *
 * libpfm4 reads LIBPFM_FORCE_PMU once per process, so each PMU is checked
 * in a child of its own; the child reports each mismatch on stderr.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "profiler/events.h"

struct expect {
	const char *preset;
	const char *event;
	uint32_t type;
	uint64_t config;
};

#define RAW PERF_TYPE_RAW
#define SWT PERF_TYPE_SOFTWARE

#define SW_ROWS { "sw", "cpu-clock", SWT, 0 }, { "sw", "task-clock", SWT, 1 }

/* Intel's event lists (EventCode | UMask << 8 | CMask << 24 ...). */
static const struct expect skl[] = {
	{ "default", "cycles", RAW, 0x3c },
	{ "default", "instructions", RAW, 0xc0 },
	{ "default", "llc_misses", RAW, 0x412e },
	{ "topdown", "cycles", RAW, 0x3c },
	{ "topdown", "uops_issued", RAW, 0x10e },	/* UOPS_ISSUED.ANY */
	{ "topdown", "uops_retired", RAW, 0x2c2 },	/* UOPS_RETIRED.RETIRE_SLOTS */
	{ "topdown", "frontend_bubbles", RAW, 0x19c },	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	{ "topdown", "recovery_cycles", RAW, 0x10d },	/* INT_MISC.RECOVERY_CYCLES */
	{ "cache", "instructions", RAW, 0xc0 },
	{ "cache", "l1d_loads", RAW, 0x81d0 },
	{ "cache", "l1d_misses", RAW, 0x151 },
	{ "cache", "llc_misses", RAW, 0x412e },
	{ "tlb", "instructions", RAW, 0xc0 },
	{ "tlb", "itlb_misses", RAW, 0xe85 },
	{ "tlb", "dtlb_misses", RAW, 0xe08 },
	SW_ROWS,
	{ NULL },
};

static const struct expect icl[] = {
	{ "default", "cycles", RAW, 0x3c },
	{ "default", "instructions", RAW, 0xc0 },
	{ "default", "llc_misses", RAW, 0x412e },
	{ "topdown", "slots", RAW, 0x400 },		/* TOPDOWN.SLOTS, fixed 3 */
	{ "topdown", "frontend_bubbles", RAW, 0x19c },
	{ "topdown", "uop_dropping", RAW, 0x100d },	/* INT_MISC.UOP_DROPPING */
	{ "topdown", "backend_slots", RAW, 0x2a4 },	/* never 0x200 */
	{ "topdown", "clears_count", RAW, 0x104010d },	/* INT_MISC.CLEARS_COUNT c1 e1 */
	{ "topdown", "uops_retired", RAW, 0x2c2 },	/* UOPS_RETIRED.SLOTS */
	{ "cache", "instructions", RAW, 0xc0 },
	{ "cache", "l1d_loads", RAW, 0x81d0 },
	{ "cache", "l1d_misses", RAW, 0x151 },
	{ "cache", "llc_misses", RAW, 0x412e },
	{ "tlb", "instructions", RAW, 0xc0 },
	{ "tlb", "itlb_misses", RAW, 0xe85 },
	{ "tlb", "dtlb_misses", RAW, 0xe08 },
	SW_ROWS,
	{ NULL },
};

static const struct expect spr[] = {
	{ "default", "cycles", RAW, 0x3c },
	{ "default", "instructions", RAW, 0xc0 },
	{ "default", "llc_misses", RAW, 0x412e },
	{ "topdown", "slots", RAW, 0x400 },
	{ "topdown", "frontend_bubbles", RAW, 0x19c },	/* IDQ_BUBBLES.CORE */
	{ "topdown", "uop_dropping", RAW, 0x10ad },
	{ "topdown", "backend_slots", RAW, 0x2a4 },
	{ "topdown", "uops_retired", RAW, 0x2c2 },
	{ "cache", "instructions", RAW, 0xc0 },
	{ "cache", "l1d_loads", RAW, 0x81d0 },
	{ "cache", "l1d_misses", RAW, 0x151 },
	{ "cache", "llc_misses", RAW, 0x412e },
	{ "tlb", "instructions", RAW, 0xc0 },
	{ "tlb", "itlb_misses", RAW, 0xe11 },
	{ "tlb", "dtlb_misses", RAW, 0xe12 },
	SW_ROWS,
	{ NULL },
};

/* AMD: extended event-select bits 11:8 land in config bits 35:32. */
static const struct expect zen4[] = {
	{ "default", "cycles", RAW, 0x76 },		/* ls_not_halted_cyc */
	{ "default", "instructions", RAW, 0xc0 },	/* ex_ret_instr */
	{ "default", "llc_misses", RAW, 0xdc43 },
	{ "topdown", "cycles", RAW, 0x76 },
	{ "topdown", "uops_retired", RAW, 0xc1 },	/* ex_ret_ops */
	{ "topdown", "frontend_bubbles", RAW, 0x1000001a0 },
	{ "topdown", "backend_slots", RAW, 0x100001ea0 },
	{ "topdown", "ops_dispatched", RAW, 0x7aa },	/* de_src_op_disp.all */
	{ "cache", "instructions", RAW, 0xc0 },
	{ "cache", "l1d_loads", RAW, 0x129 },
	{ "cache", "l1d_misses", RAW, 0xdf44 },
	{ "cache", "llc_misses", RAW, 0xdc43 },
	{ "tlb", "instructions", RAW, 0xc0 },
	{ "tlb", "itlb_misses", RAW, 0xf85 },
	{ "tlb", "dtlb_misses", RAW, 0xf045 },
	SW_ROWS,
	{ NULL },
};

/* Single event strings: what they must encode to, or 0: refused. */
struct string_expect {
	const char *str;
	uint64_t config;
};

static const struct string_expect skl_strings[] = {
	{ "UOPS_ISSUED:ANY", 0x10e },
	{ "uops_issued.any", 0x10e },
	{ "skl::UOPS_RETIRED:RETIRE_SLOTS", 0x2c2 },
	{ "INT_MISC:RECOVERY_CYCLES_ANY", 0x20010d },
	{ "TOPDOWN:BACKEND_BOUND_SLOTS", 0 },
	{ "r2a4", 0x2a4 },
	{ NULL },
};

static const struct string_expect icl_strings[] = {
	{ "TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4 },
	{ "topdown.backend_bound_slots", 0x2a4 },
	{ "icl::TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4 },
	{ "TOPDOWN:SLOTS", 0x400 },
	{ "TOPDOWN:SLOTS_P", 0x1a4 },
	{ "topdown-retiring", 0x8000 },
	{ "TOPDOWN:BAD_SPEC", 0x8100 },
	{ "TOPDOWN:FE_BOUND", 0x8200 },
	{ "topdown-be-bound", 0x8300 },
	/* 4.13 says 0x800: event code 0, which nothing counts. */
	{ "TOPDOWN:BR_MISPREDICT_SLOTS", 0 },
	{ NULL },
};

static const struct string_expect spr_strings[] = {
	{ "TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4 },
	{ "TOPDOWN:BAD_SPEC_SLOTS", 0x4a4 },
	{ "TOPDOWN:BR_MISPREDICT_SLOTS", 0x8a4 },
	{ "TOPDOWN:MEMORY_BOUND_SLOTS", 0x10a4 },
	{ "IDQ_BUBBLES:CORE", 0x19c },
	{ "topdown-heavy-ops", 0x8400 },
	{ "TOPDOWN:FETCH_LAT", 0x8600 },
	{ "topdown-mem-bound", 0x8700 },
	{ "INT_MISC:CLEARS_COUNT", 0x10401ad },
	/* 4.13 encodes it 0x200, a fixed-counter pseudo event. */
	{ "CPU_CLK_UNHALTED:THREAD", 0 },
	{ NULL },
};

static const struct string_expect zen4_strings[] = {
	{ "RETIRED_OPS", 0xc1 },
	{ "amd64_fam19h_zen4::CYCLES_NOT_IN_HALT", 0x76 },
	{ "DISPATCH_STALLS_1:SMT_CONTENTION", 0x1000060a0 },
	{ NULL },
};

/* ---- checks run in a child, one PMU per process ------------------------- */

static int failures;

__attribute__((format(printf, 1, 2)))
static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "  %s: ", getenv("LIBPFM_FORCE_PMU"));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

static void check_presets(const struct expect *want)
{
	static const char *const names[] = { "default", "topdown", "cache",
					     "tlb", "sw" };
	char *listing = NULL, line[256], msg[256];
	size_t len = 0, k = 0, off = 0;
	FILE *f;

	for (size_t p = 0; p < sizeof(names) / sizeof(names[0]); p++) {
		struct event_set set;
		size_t i = 0;

		if (events_parse(names[p], &set, msg, sizeof(msg))) {
			bad("preset %s: %s", names[p], msg);
			continue;
		}
		for (const struct expect *w = want; w->preset; w++) {
			const struct perf_event_attr *a;

			if (strcmp(w->preset, names[p]))
				continue;
			if (i >= set.n) {
				bad("preset %s lacks %s", names[p], w->event);
				break;
			}
			a = &set.ev[i].attr;
			if (strcmp(set.ev[i].name, w->event))
				bad("preset %s event %zu is %s, want %s", names[p],
				    i, set.ev[i].name, w->event);
			if (a->type != w->type || a->config != w->config)
				bad("%s %s: type=%u config=0x%llx, want type=%u config=0x%llx",
				    names[p], w->event, a->type,
				    (unsigned long long)a->config, w->type,
				    (unsigned long long)w->config);
			/* Kernel-only: the BPF program, not the task around it. */
			if (!a->exclude_user || a->exclude_kernel)
				bad("%s %s is not kernel-only", names[p], w->event);
			i++;
		}
		if (i != set.n)
			bad("preset %s has %zu events, want %zu", names[p], set.n,
			    i);
	}

	/* --list-events prints the same, one line per event. */
	f = open_memstream(&listing, &len);
	if (!f || events_list(f, msg, sizeof(msg)) || fclose(f)) {
		bad("events_list failed");
		return;
	}
	for (const struct expect *w = want; w->preset; w++, k++) {
		int n = snprintf(line, sizeof(line), "%s %s type=%u config=0x%llx\n",
				 w->preset, w->event, w->type,
				 (unsigned long long)w->config);

		if (strncmp(listing + off, line, (size_t)n)) {
			bad("--list-events line %zu: want \"%.*s\", got \"%.*s\"",
			    k + 1, n - 1, line, (int)strcspn(listing + off, "\n"),
			    listing + off);
			break;
		}
		off += (size_t)n;
	}
	if (!failures && listing[off])
		bad("--list-events has more: %s", listing + off);
	free(listing);
}

static void check_strings(const struct string_expect *want)
{
	for (const struct string_expect *w = want; w->str; w++) {
		struct event_set set;
		char msg[256];
		int err = events_parse(w->str, &set, msg, sizeof(msg));

		if (!w->config) {
			if (!err)
				bad("%s encoded (config 0x%llx), want it refused",
				    w->str, (unsigned long long)set.ev[0].attr.config);
			else if (!msg[0] || strchr(msg, '\n'))
				bad("%s: refused without a one-line reason", w->str);
			continue;
		}
		if (err) {
			bad("%s: %s", w->str, msg);
			continue;
		}
		if (set.n != 1 || set.ev[0].attr.config != w->config ||
		    set.ev[0].attr.type != PERF_TYPE_RAW)
			bad("%s: type=%u config=0x%llx, want raw 0x%llx", w->str,
			    set.ev[0].attr.type,
			    (unsigned long long)set.ev[0].attr.config,
			    (unsigned long long)w->config);
	}
}

static void check_topdown(enum td_model model)
{
	struct event_set set;
	char msg[256];

	if (events_parse("topdown", &set, msg, sizeof(msg)) || set.td != model)
		bad("topdown preset: model %d, want %d", set.td, model);
	if (events_parse("default", &set, msg, sizeof(msg)) || set.td != TD_NONE ||
	    !strstr(set.td_note, "-e topdown"))
		bad("default preset: Top-Down %d (%s), want none", set.td,
		    set.td_note);
	/* Presets combine with events and other presets. */
	if (events_parse("instructions,topdown", &set, msg, sizeof(msg)))
		bad("instructions,topdown: %s", msg);
	else if (set.td != model || set.ev[0].metric != PM_INSTRUCTIONS)
		bad("instructions,topdown loses Top-Down");
	/* An event in two presets is counted once. */
	if (events_parse("default,tlb", &set, msg, sizeof(msg)) || set.n != 5)
		bad("default,tlb: %zu events (%s), want 5", set.n, msg);
	for (size_t i = 0; i < set.n; i++) {
		for (size_t j = i + 1; j < set.n; j++) {
			if (set.ev[i].attr.config == set.ev[j].attr.config &&
			    set.ev[i].attr.type == set.ev[j].attr.type)
				bad("default,tlb has %s twice", set.ev[i].name);
		}
	}
}

static int run_pmu_checks(const char *pmu)
{
	char msg[256];

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	if (events_init(msg, sizeof(msg))) {
		bad("libpfm4: %s", msg);
		return failures;
	}
	if (strcmp(events_pmu_name(), pmu))
		bad("core PMU is %s", events_pmu_name());
	if (!strcmp(pmu, "skl")) {
		struct event_set set;

		check_presets(skl);
		check_strings(skl_strings);
		check_topdown(TD_SKL);
		/* Spelled the libpfm4 way, the events still make Top-Down. */
		if (events_parse("UNHALTED_CORE_CYCLES,UOPS_ISSUED:ANY,UOPS_RETIRED:RETIRE_SLOTS,IDQ_UOPS_NOT_DELIVERED:CORE,INT_MISC:RECOVERY_CYCLES",
				 &set, msg, sizeof(msg)) ||
		    set.td != TD_SKL || set.ev[0].metric != PM_CYCLES)
			bad("libpfm4 names give no Top-Down (%s)", msg);
		if (!events_parse("default,topdown,cache", &set, msg, sizeof(msg)) ||
		    !strstr(msg, "at most 8"))
			bad("9 events accepted (%s)", msg);
		if (!events_parse("cycles,bogus_event", &set, msg, sizeof(msg)) ||
		    !strstr(msg, "bogus_event"))
			bad("bogus_event: message \"%s\" does not name it", msg);
		if (!events_parse("cycles,,instructions", &set, msg, sizeof(msg)))
			bad("an empty name is accepted");
	} else if (!strcmp(pmu, "icl")) {
		check_presets(icl);
		check_strings(icl_strings);
		check_topdown(TD_ICL);
	} else if (!strcmp(pmu, "spr")) {
		check_presets(spr);
		check_strings(spr_strings);
		check_topdown(TD_SPR);
	} else if (!strcmp(pmu, "amd64_fam19h_zen4")) {
		check_presets(zen4);
		check_strings(zen4_strings);
		check_topdown(TD_ZEN4);
	} else if (!strcmp(pmu, "amd64_fam19h_zen3")) {
		struct event_set set;
		char *listing = NULL;
		size_t len = 0;
		FILE *f;

		/* No formula: topdown is refused, the rest falls back. */
		if (!events_parse("topdown", &set, msg, sizeof(msg)) ||
		    !strstr(msg, "no Top-Down formula for amd64_fam19h_zen3"))
			bad("zen3 topdown: \"%s\"", msg);
		if (events_parse("default", &set, msg, sizeof(msg)) ||
		    set.ev[0].attr.type != PERF_TYPE_HARDWARE ||
		    strcmp(set.td_note, "no Top-Down formula for amd64_fam19h_zen3"))
			bad("zen3 default: %s / %s", msg, set.td_note);
		f = open_memstream(&listing, &len);
		if (!f || events_list(f, msg, sizeof(msg)) || fclose(f) ||
		    !strstr(listing, "\ntopdown unavailable: no Top-Down formula for amd64_fam19h_zen3\n") ||
		    !strstr(listing, "\nsw cpu-clock type=1 config=0x0\n"))
			bad("zen3 listing:\n%s", listing ? listing : "");
		free(listing);
	}
	return failures;
}

static void in_child(const char *pmu)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(run_pmu_checks(pmu) ? 1 : 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("encodings for %s are wrong (see above)", pmu);
}

static void test_skl(void **state)
{
	in_child("skl");
}

static void test_icl(void **state)
{
	in_child("icl");
}

static void test_spr(void **state)
{
	in_child("spr");
}

static void test_zen4(void **state)
{
	in_child("amd64_fam19h_zen4");
}

static void test_zen3(void **state)
{
	in_child("amd64_fam19h_zen3");
}

/* ---- pure helpers --------------------------------------------------------- */

static void test_zen4_models(void **state)
{
	/* Family 19h: Zen 4 is 10h-1Fh and 60h up; 4.13 knew 11h only. */
	assert_true(events_cpu_is_zen4(0x19, 0x11));	/* Genoa */
	assert_true(events_cpu_is_zen4(0x19, 0x10));
	assert_true(events_cpu_is_zen4(0x19, 0x18));
	assert_true(events_cpu_is_zen4(0x19, 0x61));	/* Raphael */
	assert_true(events_cpu_is_zen4(0x19, 0x74));	/* Phoenix */
	assert_true(events_cpu_is_zen4(0x19, 0xa0));	/* Bergamo */
	assert_false(events_cpu_is_zen4(0x19, 0x01));	/* Milan: Zen 3 */
	assert_false(events_cpu_is_zen4(0x19, 0x21));	/* Vermeer */
	assert_false(events_cpu_is_zen4(0x19, 0x50));	/* Cezanne */
	assert_false(events_cpu_is_zen4(0x17, 0x31));	/* Zen 2 */
	assert_false(events_cpu_is_zen4(0x1a, 0x11));	/* Zen 5 */
}

static void test_families(void **state)
{
	assert_int_equal(events_family_of("skl"), FAM_SKL);
	assert_int_equal(events_family_of("skx"), FAM_SKL);
	assert_int_equal(events_family_of("clx"), FAM_SKL);
	assert_int_equal(events_family_of("icl"), FAM_ICL);
	assert_int_equal(events_family_of("icx"), FAM_ICL);
	assert_int_equal(events_family_of("spr"), FAM_SPR);
	assert_int_equal(events_family_of("amd64_fam19h_zen4"), FAM_ZEN4);
	assert_int_equal(events_family_of("amd64_fam19h_zen3"), FAM_GENERIC);
	assert_int_equal(events_family_of("perf"), FAM_GENERIC);
	assert_int_equal(events_family_of(NULL), FAM_GENERIC);
	assert_int_equal(events_td_model(FAM_SKL), TD_SKL);
	assert_int_equal(events_td_model(FAM_ICL), TD_ICL);
	assert_int_equal(events_td_model(FAM_SPR), TD_SPR);
	assert_int_equal(events_td_model(FAM_ZEN4), TD_ZEN4);
	assert_int_equal(events_td_model(FAM_GENERIC), TD_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zen4_models),
		cmocka_unit_test(test_families),
		cmocka_unit_test(test_skl),
		cmocka_unit_test(test_icl),
		cmocka_unit_test(test_spr),
		cmocka_unit_test(test_zen4),
		cmocka_unit_test(test_zen3),
	};

	/* The parent never starts libpfm4: each child forces its own PMU. */
	unsetenv("LIBPFM_ENCODE_INACTIVE");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
