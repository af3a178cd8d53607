// SPDX-License-Identifier: GPL-2.0-only
/*
 * The profiler against a real kernel, through ebpftop -p and through the
 * profiler library, on testload's programs.
 *
 * Where the kernel refuses fentry/fexit (the project's hosts: lockdown or
 * an LSM policy), it checks that the refusal is clear and leaves nothing
 * loaded. Where fentry works (the VM tier boots a kernel that allows it,
 * tests/test_profile_vm.sh), it checks the whole feature: the run count
 * equals the test runs made while attached, software counters give a
 * per-run value, nothing stays attached after detach, exit, SIGTERM or
 * SIGKILL, a target without BTF or a tracing target is refused with its
 * reason, and a target unloaded while profiled ends the profile. The key
 * p in the TUI is tests/test_profile_tui.sh's.
 *
 * EBPFTOP_VM_GUEST=1 (the VM tier sets it) makes the refusal a failure.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <bpf/bpf.h>

#include "profiler/events.h"
#include "profiler/profiler.h"
#include "testutil.h"

#define RUNS 1000 /* test runs while attached: TCG is slow, keep it modest */

static char ebpftop[4096];
static struct testload tl;
static uint32_t func;	/* the BTF function of testload's XDP program */

/* What a test holds; teardown frees it, however the test ended. */
static struct tu_proc live;
static struct json_object *cur_rec;
static struct profiler *cur_prof;
static char *cur_err;

/* End the live ebpftop, if any. */
static void live_free(void)
{
	if (live.pid)
		tu_proc_free(&live);
	live.pid = 0;
}

static int teardown(void **state)
{
	live_free();
	json_object_put(cur_rec);
	cur_rec = NULL;
	profiler__free(cur_prof);
	cur_prof = NULL;
	free(cur_err);
	cur_err = NULL;
	return 0;
}

/* Nothing of the profiler left on testload's XDP program within @ms. */
static bool nothing_left(int ms)
{
	return tu_profiler_gone(tl.ids[TL_XDP], func, ms);
}

/* ebpftop ARGS... on @id's place ("%u" in ARGS); its stderr in cur_err. */
static int run_on(uint32_t id, int timeout_ms, const char *const args[])
{
	char ids[16], *argv[16] = { ebpftop };
	int argc = 1;

	snprintf(ids, sizeof(ids), "%u", id);
	for (size_t i = 0; args[i] && argc < 15; i++)
		argv[argc++] = strcmp(args[i], "%u") ? (char *)args[i] : ids;
	argv[argc] = NULL;
	free(cur_err);
	cur_err = NULL;
	return tu_run(argv, NULL, timeout_ms, NULL, &cur_err);
}

/* ---- ebpftop -b -j -p ---------------------------------------------------- */

/* ebpftop -b -j -d @delay -p @id -e @events, as the test's live process. */
static void start_ebpftop(uint32_t id, const char *events, const char *delay)
{
	char ids[16];
	char *argv[] = { ebpftop,      (char *)"-b",  (char *)"-j",
			 (char *)"-d", (char *)delay, (char *)"-p",
			 ids,	       (char *)"-e",  (char *)events,
			 NULL };

	snprintf(ids, sizeof(ids), "%u", id);
	if (tu_spawn(&live, argv, NULL, false))
		tu_die("cannot start ebpftop");
}

/*
 * Read the live process's records until one has a profile whose runs reach
 * @want (or any profile when @want is 0); NULL after @ms. Its record is
 * cur_rec (the previous one is freed).
 */
static struct json_object *profile_until(uint64_t want, int ms)
{
	int64_t deadline = tu_now_ms() + ms;

	json_object_put(cur_rec);
	cur_rec = NULL;
	for (;;) {
		int64_t left = deadline - tu_now_ms();
		struct json_object *rec, *prof;
		uint64_t runs;

		if (left <= 0)
			return NULL;
		rec = tu_next_record(&live, (int)left, NULL);
		if (!rec)
			return NULL;
		prof = tu_get(rec, "profile");
		if (prof && tu_u64(prof, "runs", &runs) && (runs >= want)) {
			cur_rec = rec;
			return prof;
		}
		json_object_put(rec);
	}
}

static struct json_object *event0(struct json_object *prof)
{
	struct json_object *ev = tu_get(prof, "events");

	if (!ev || !json_object_is_type(ev, json_type_array) ||
	    !json_object_array_length(ev))
		return NULL;
	return json_object_array_get_idx(ev, 0);
}

/* Stop the live ebpftop with @sig; its exit status (-1: still running). */
static int stop(int sig)
{
	tu_signal(&live, sig);
	tu_wait(&live, 10000);
	return tu_exit_code(&live);
}

/* ---- where the kernel refuses, and everywhere ---------------------------- */

/* Where the kernel refuses trampolines: the message, and nothing left. */
static void test_refusal(void **state)
{
	static const char *const args[] = { "-b", "-p", "%u", "-n", "1", NULL };
	char want[512];
	int rc;

	/* Default events: the refusal comes before any counter is opened. */
	rc = run_on(tl.ids[TL_XDP], 30000, args);
	snprintf(want, sizeof(want),
		 "ebpftop: cannot profile program %u: the kernel refused to "
		 "load the profiler's fentry/fexit programs (EPERM): lockdown "
		 "or an LSM policy may forbid BPF trampolines on this machine\n",
		 tl.ids[TL_XDP]);
	tu_assert(rc == 1, "ebpftop -b -p %u -n 1 exited %d, want 1",
		  tl.ids[TL_XDP], rc);
	tu_assert(cur_err && !strcmp(cur_err, want),
		  "stderr is \"%s\", want \"%s\"", cur_err ? cur_err : "", want);
	tu_assert(nothing_left(3000),
		  "a refused profile left a tracing or calibration program loaded");
}

static void test_no_btf(void **state)
{
	static const char *const args[] = { "-b", "-p", "%u", "-e", "cpu-clock",
					    "-n", "1", NULL };
	char want[256];
	int rc;

	rc = run_on(tl.ids[TL_UNNAMED], 30000, args);
	snprintf(want, sizeof(want),
		 "program %u has no BTF; fentry needs it: build it with -g",
		 tl.ids[TL_UNNAMED]);
	tu_assert(rc == 1, "-p on a program without BTF exited %d, want 1", rc);
	tu_assert(cur_err && strstr(cur_err, want), "stderr \"%s\" lacks \"%s\"",
		  cur_err ? cur_err : "", want);
}

static void test_gone_id(void **state)
{
	static const char *const args[] = { "-b", "-p", "%u", "-n", "1", NULL };
	int rc = run_on(UINT32_MAX, 30000, args);

	tu_assert(rc == 1 && cur_err && strstr(cur_err, "does not exist"),
		  "-p on a missing id: exit %d, \"%s\"", rc,
		  cur_err ? cur_err : "");
}

/* ---- where fentry works ---------------------------------------------------- */

/* The run count is exactly the test runs made while attached. */
static void test_runs(void **state)
{
	struct json_object *prof, *e;
	uint64_t cnt0, cnt1, ns, runs = 0, partial = 0, pid = 0;
	double v;
	int rc;

	start_ebpftop(tl.ids[TL_XDP], "cpu-clock", "0.5");
	prof = profile_until(0, 60000);
	if (!prof) {
		cur_err = tu_stderr(&live);
		fail_msg("no profile from ebpftop -p: %s", cur_err);
	}
	tu_assert(tu_u64(prof, "runs", &runs) && runs == 0,
		  "runs before any test run: %llu", (unsigned long long)runs);
	if (tl_info(&tl, TL_XDP, &cnt0, &ns) ||
	    tl_run(&tl, TL_XDP, RUNS, &cnt1, &ns))
		tu_die("testload does not answer");
	prof = profile_until(RUNS, 20000);
	tu_assert(prof, "the profile never reached %d runs", RUNS);
	tu_u64(prof, "runs", &runs);
	tu_assert(runs == RUNS, "profile runs %llu, want exactly %d",
		  (unsigned long long)runs, RUNS);
	tu_assert(cnt1 - cnt0 == RUNS, "the kernel counted %llu runs",
		  (unsigned long long)(cnt1 - cnt0));
	tu_assert(tu_u64(prof, "partial_runs", &partial) && partial == 0,
		  "partial runs with a software counter: %llu",
		  (unsigned long long)partial);
	tu_assert(tu_u64(prof, "id", &pid) && pid == tl.ids[TL_XDP],
		  "profile id %llu", (unsigned long long)pid);
	e = event0(prof);
	tu_assert(e && !strcmp(json_object_get_string(tu_get(e, "name")),
			       "cpu-clock"),
		  "the event is not cpu-clock");
	v = tu_num(e, "per_run");
	tu_assert(v > 0, "cpu-clock per_run %.3f, want > 0", v);
	v = tu_num(e, "enabled_pct");
	tu_assert(v == 100.0, "cpu-clock enabled_pct %.3f, want 100", v);
	tu_assert(tu_has(prof, "topdown") && !tu_get(prof, "topdown"),
		  "topdown is not null for cpu-clock");
	v = tu_num(prof, "overhead_ns_per_run");
	tu_assert(!isnan(v) && v >= 0,
		  "overhead_ns_per_run not calibrated on an XDP target");
	/* While attached, the pair is there; after SIGTERM, not. */
	tu_assert(tu_tracing_links(tl.ids[TL_XDP], NULL, 0) == 2,
		  "%zu tracing links on the target, want fentry + fexit",
		  tu_tracing_links(tl.ids[TL_XDP], NULL, 0));
	rc = stop(SIGTERM);
	tu_assert(rc == 0, "ebpftop exited %d after SIGTERM, want 0", rc);
	tu_assert(nothing_left(5000),
		  "a tracing program is still loaded after ebpftop exited");
}

/* A group of software events; SIGKILL leaves nothing behind. */
static void test_sigkill(void **state)
{
	struct json_object *prof, *ev;
	uint64_t cnt, ns, runs = 0;

	start_ebpftop(tl.ids[TL_XDP],
		      "cpu-clock,task-clock,page-faults,context-switches,"
		      "cpu-migrations",
		      "0.5");
	prof = profile_until(0, 60000);
	tu_assert(prof, "no profile with five software events");
	ev = tu_get(prof, "events");
	tu_assert(ev && json_object_array_length(ev) == 5, "%zu events, want 5",
		  ev ? json_object_array_length(ev) : 0);
	if (tl_run(&tl, TL_XDP, 200, &cnt, &ns))
		tu_die("testload does not answer");
	prof = profile_until(200, 20000);
	tu_assert(prof && tu_u64(prof, "runs", &runs) && runs == 200,
		  "five events: runs %llu, want 200",
		  prof ? (unsigned long long)runs : 0ull);
	stop(SIGKILL);
	tu_assert(nothing_left(5000),
		  "a tracing program is still loaded after SIGKILL");
}

/* The library itself: detach ("p" again) and attach again. */
static void test_detach(void **state)
{
	struct profile_report r;
	struct event_set set;
	uint32_t own[2];
	uint64_t cnt, ns;
	char msg[256];

	if (events_parse("cpu-clock", &set, msg, sizeof(msg)))
		tu_die("events: %s", msg);
	for (int round = 0; round < 2; round++) {
		unsigned int flags = round ? PROFILER_NO_CALIBRATE : 0;
		unsigned long n = round ? 50 : 100;

		if (profiler__new(&cur_prof, tl.ids[TL_XDP], &set, flags, msg,
				  sizeof(msg)))
			fail_msg("profiler__new: %s", msg);
		profiler__own_ids(cur_prof, own);
		tu_assert(own[0] && own[1] && tu_prog_exists(own[0]) &&
				  tu_prog_exists(own[1]),
			  "the fentry/fexit programs are not loaded");
		tu_assert(!profiler__read(cur_prof, &r) && r.runs == 0,
			  "runs before running: %llu",
			  (unsigned long long)r.runs);
		if (!round)
			tu_assert(!isnan(r.overhead_ns_per_run) &&
					  !isnan(r.ev[0].baseline_per_run),
				  "calibration gave nothing: %s",
				  r.overhead_note);
		if (tl_run(&tl, TL_XDP, n, &cnt, &ns))
			tu_die("testload does not answer");
		tu_assert(!profiler__read(cur_prof, &r) && r.runs == n,
			  "round %d: runs %llu, want %lu", round,
			  (unsigned long long)r.runs, n);
		profiler__free(cur_prof);
		cur_prof = NULL;
		tu_assert(nothing_left(5000), "round %d: detach left programs",
			  round);
		tu_assert(!tu_prog_exists(own[0]) && !tu_prog_exists(own[1]),
			  "round %d: the fentry/fexit programs outlive detach",
			  round);
	}
}

/* fentry/fexit cannot attach to a tracing program: refused, not crashed. */
static void test_tracing_target(void **state)
{
	static const char *const args[] = { "-b", "-p", "%u", "-e", "cpu-clock",
					    "-n", "1", NULL };
	uint32_t own[2];
	int rc;

	start_ebpftop(tl.ids[TL_XDP], "cpu-clock", "0.5");
	tu_assert(profile_until(0, 60000) &&
			  tu_tracing_links(tl.ids[TL_XDP], own, 2) == 2,
		  "no profiler to point at");
	rc = run_on(own[0], 30000, args);
	tu_assert(rc == 1 && cur_err && strstr(cur_err, "is a tracing program"),
		  "-p on a tracing program: exit %d, \"%s\"", rc,
		  cur_err ? cur_err : "");
	stop(SIGTERM);
	live_free();
	tu_assert(nothing_left(5000), "programs left after the tracing check");
}

/* Default events where there is no PMU: refused with advice, nothing left. */
static void test_hw_events(void **state)
{
	static const char *const args[] = { "-b", "-p", "%u", "-n", "1", NULL };
	int rc = run_on(tl.ids[TL_XDP], 60000, args);

	if (rc == 0)
		printf("# default (hardware) events open here\n");
	else
		tu_assert(rc == 1 && cur_err && strstr(cur_err, "use -e sw"),
			  "default events: exit %d, \"%s\"", rc,
			  cur_err ? cur_err : "");
	tu_assert(nothing_left(5000), "programs left after the hardware check");
}

/* The target's owner unloads it while profiled: the profile ends. */
static void test_unloaded(void **state)
{
	struct json_object *rec;
	struct testload *t2 = *state;
	uint64_t cnt, ns;
	int64_t deadline;
	bool ended = false, exited;
	char who[256];
	uint32_t id;

	if (tl_setup(t2))
		tu_die("cannot start a second testload");
	id = t2->ids[TL_XDP];
	start_ebpftop(id, "cpu-clock", "0.3");
	tu_assert(profile_until(0, 60000),
		  "no profile of the second testload's program");
	if (tl_run(t2, TL_XDP, 10, &cnt, &ns))
		tu_die("testload does not answer");
	profile_until(10, 20000);
	exited = tl_stop(t2);
	tu_proc_free(&t2->p);
	t2->p.pid = 0;
	tu_assert(exited, "the second testload did not exit");
	/* A record without a profile, and ebpftop still running. */
	deadline = tu_now_ms() + 15000;
	while (!ended && tu_now_ms() < deadline) {
		rec = tu_next_record(&live, 1000, NULL);
		if (!rec)
			continue;
		ended = tu_has(rec, "profile") && !tu_get(rec, "profile");
		json_object_put(rec);
	}
	tu_assert(ended, "the profile did not end after its program was unloaded");
	tu_assert(tu_exit_code(&live) == -1, "ebpftop exited when the target went");
	cur_err = tu_stderr(&live);
	tu_assert(strstr(cur_err, "profiling stopped"),
		  "no message on stderr: \"%s\"", cur_err);
	tu_assert(stop(SIGTERM) == 0, "ebpftop did not exit cleanly");
	live_free();
	tu_assert(tu_wait_prog_gone(id, 5000, who, sizeof(who)),
		  "the unloaded program is still loaded, held by%s", who);
}

/* The second testload of test_unloaded, stopped however the test ends. */
static int unloaded_setup(void **state)
{
	static struct testload t2;

	memset(&t2, 0, sizeof(t2));
	*state = &t2;
	return 0;
}

static int unloaded_teardown(void **state)
{
	struct testload *t2 = *state;

	teardown(state);
	if (t2->p.pid)
		tl_teardown(t2);
	return 0;
}

int main(void)
{
	static const char *const probe[] = { "-b", "-p", "%u", "-e", "cpu-clock",
					     "-n", "1", NULL };
	const struct CMUnitTest refused[] = {
		cmocka_unit_test_teardown(test_refusal, teardown),
		cmocka_unit_test_teardown(test_no_btf, teardown),
		cmocka_unit_test_teardown(test_gone_id, teardown),
	};
	const struct CMUnitTest works[] = {
		cmocka_unit_test_teardown(test_runs, teardown),
		cmocka_unit_test_teardown(test_sigkill, teardown),
		cmocka_unit_test_teardown(test_detach, teardown),
		cmocka_unit_test_teardown(test_tracing_target, teardown),
		cmocka_unit_test_teardown(test_no_btf, teardown),
		cmocka_unit_test_teardown(test_gone_id, teardown),
		cmocka_unit_test_teardown(test_hw_events, teardown),
		cmocka_unit_test_setup_teardown(test_unloaded, unloaded_setup,
						unloaded_teardown),
	};
	bool guest = getenv("EBPFTOP_VM_GUEST") &&
		     !strcmp(getenv("EBPFTOP_VM_GUEST"), "1");
	int rc, failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tu_require_bpf();
	tu_lock();
	tu_builddir_path("ebpftop", ebpftop, sizeof(ebpftop));
	if (tl_setup(&tl))
		tu_die("cannot start tests/testload");
	func = tu_prog_func(tl.ids[TL_XDP]);
	if (!func)
		tu_die("testload's XDP program has no BTF");

	/* Does this kernel let fentry/fexit attach at all? */
	rc = run_on(tl.ids[TL_XDP], 60000, probe);
	if (rc == 1 && cur_err && strstr(cur_err, "lockdown or an LSM policy")) {
		if (guest)
			tu_die("the VM guest's kernel refused fentry/fexit");
		printf("# this kernel refuses fentry/fexit: checking the "
		       "refusal (the VM tier checks the rest)\n");
		teardown(NULL);
		failed = cmocka_run_group_tests_name("refused", refused, NULL,
						     NULL);
	} else if (rc == 0) {
		teardown(NULL);
		failed = cmocka_run_group_tests_name("fentry", works, NULL, NULL);
	} else {
		tu_die("ebpftop -b -p %u -e cpu-clock -n 1 exited %d: %s",
		       tl.ids[TL_XDP], rc, cur_err ? cur_err : "");
	}
	tl_teardown(&tl);
	return failed;
}
