// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run-time stats: ebpftop turns them on while it runs and nothing it turns
 * on outlives it, however it ends: normal exit, SIGTERM,
 * SIGINT, and (for the BPF_ENABLE_STATS fd) SIGKILL. The sysctl path
 * (EBPFTOP_STATS_SYSCTL=1) restores what it changed and only that; stats
 * someone else turned on stay on; --no-stats leaves them off.
 *
 * Whether stats are on is observed the way that matters: does a test run
 * of the loader's XDP program move its run_cnt?
 *
 * kernel.bpf_stats_enabled is saved and restored. Another process holding
 * a stats fd (another ebpftop, say) would turn stats on behind the test's
 * back: the test waits up to 20 s for it to go, then fails naming it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

static struct testload tl;
static struct tu_proc ebt;	/* the ebpftop under test */
static struct tu_proc *live;	/* ended by teardown if a check fails */
static int saved_sysctl = -1;
static const char saved_path[] = TU_STATS_SYSCTL;

/* Put the sysctl back as we found it: at exit and on a fatal signal. */
static void restore_sysctl(void)
{
	if (saved_sysctl >= 0)
		tu_sysctl_set(saved_path, saved_sysctl);
}

static void on_signal(int sig)
{
	/* open/write/close only: async-signal-safe. */
	int fd = open(saved_path, O_WRONLY);

	if (fd >= 0 && saved_sysctl >= 0) {
		if (write(fd, saved_sysctl ? "1\n" : "0\n", 2) < 0)
			saved_sysctl = -1;
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void set_sysctl(int v)
{
	int err = tu_sysctl_set(TU_STATS_SYSCTL, v);

	if (err)
		fail_msg("cannot write %s: %s", TU_STATS_SYSCTL, strerror(-err));
	assert_int_equal(tu_sysctl_get(TU_STATS_SYSCTL), v);
}

static int sysctl(void)
{
	return tu_sysctl_get(TU_STATS_SYSCTL);
}

/* How far `run xdp N` moves the XDP program's run_cnt. */
static uint64_t moved(unsigned long n)
{
	uint64_t c0, c1, t0, t1;

	assert_int_equal(tl_info(&tl, TL_XDP, &c0, &t0), 0);
	assert_int_equal(tl_run(&tl, TL_XDP, n, &c1, &t1), 0);
	assert_true(c1 >= c0);
	return c1 - c0;
}

/* Add the processes holding a stats fd now to @seen (a " comm(pid)" list). */
static size_t stats_holders(char *seen, size_t len)
{
	pid_t pids[16];
	size_t n = tu_find_procs(NULL, "anon_inode:bpf-stats", NULL, 0, pids, 16);

	for (size_t i = 0; i < n; i++) {
		char c[32], one[64];

		snprintf(one, sizeof(one), " %s(%d)",
			 tu_comm(pids[i], c, sizeof(c)), (int)pids[i]);
		if (!strstr(seen, one) && strlen(seen) + strlen(one) < len)
			strcat(seen, one);
	}
	return n;
}

/*
 * Stats must be off now, with nothing of ours running. Other processes
 * holding a stats fd (another ebpftop, a benchmark) turn them on behind
 * our back: wait up to 20 s for a moment with none, then fail naming
 * them. Stats on with no holder in sight, three times over, is a leak.
 */
static void expect_off(const char *when)
{
	int64_t deadline = tu_now_ms() + 20000;
	char seen[512] = "";
	int orphan = 0;

	for (;;) {
		size_t before = stats_holders(seen, sizeof(seen));
		uint64_t m = moved(100);
		size_t after = stats_holders(seen, sizeof(seen));

		if (!m)
			return;
		if (!before && !after && ++orphan >= 3)
			fail_msg("%s: stats are still on (sysctl %d) and no other process holds a stats fd",
				 when, sysctl());
		if (before || after)
			orphan = 0;
		if (tu_now_ms() > deadline)
			fail_msg("%s: stats stayed on for 20 s; processes holding a stats fd meanwhile:%s",
				 when, seen[0] ? seen : " none seen");
		if (before || after)
			tu_sleep_ms(100);
	}
}

static void start(struct tu_proc *p, const char *const env[],
		  const char *extra, const char *n)
{
	char path[4096];
	char *argv[] = { path, (char *)"-b", (char *)"-j", (char *)"-d",
			 (char *)"0.2", (char *)"-n", (char *)(n ? n : "1000"),
			 (char *)extra, NULL };
	int err;

	tu_builddir_path("ebpftop", path, sizeof(path));
	err = tu_spawn(p, argv, env, false);
	if (err)
		fail_msg("cannot start ebpftop: %s", strerror(-err));
	live = p;
}

/* The next record; checks stats_enabled against @want. */
static struct json_object *record(struct tu_proc *p, bool want)
{
	struct json_object *o = tu_next_record(p, 15000, NULL), *v;

	if (!o) {
		char *e = tu_stderr(p);

		fail_msg("no record from ebpftop; stderr: %s", e ? e : "");
	}
	v = tu_get(o, "stats_enabled");
	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_boolean));
	if (json_object_get_boolean(v) != want)
		fail_msg("stats_enabled is %s, want %s",
			 json_object_get_boolean(v) ? "true" : "false",
			 want ? "true" : "false");
	return o;
}

/* How ebpftop ends: quit signals end it cleanly, the others kill it. */
enum ending { END_NORMAL, END_TERM, END_INT, END_HUP, END_QUIT, END_KILL,
	      END_ABRT };
static const char *const ending_names[] = { "normal exit", "SIGTERM",
					    "SIGINT", "SIGHUP", "SIGQUIT",
					    "SIGKILL", "SIGABRT" };
static const int ending_sigs[] = { 0, SIGTERM, SIGINT, SIGHUP, SIGQUIT,
				   SIGKILL, SIGABRT };

/* End ebpftop; quit signals must end it cleanly (exit 0, no stderr). */
static void finish(struct tu_proc *p, enum ending how)
{
	char *e;

	if (how != END_NORMAL)
		tu_signal(p, ending_sigs[how]);
	/* Drain what is left so the writer never blocks. */
	while (tu_readline(p, 15000))
		;
	if (!tu_wait(p, 10000))
		fail_msg("ebpftop did not exit (%s)", ending_names[how]);
	e = tu_stderr(p);
	if (how >= END_KILL) {
		assert_int_equal(tu_exit_code(p), 128 + ending_sigs[how]);
	} else if (tu_exit_code(p) != 0 || (e && e[0])) {
		fail_msg("ebpftop after %s: exit %d, stderr: %s", ending_names[how],
			 tu_exit_code(p), e);
	}
	free(e);
	tu_proc_free(p);
	live = NULL;
}

static int group_setup(void **state)
{
	return tl_setup(&tl);
}

static int group_teardown(void **state)
{
	tl_teardown(&tl);
	restore_sysctl();
	return 0;
}

/* Every test starts with the sysctl at 0. */
static int setup(void **state)
{
	if (tu_sysctl_set(TU_STATS_SYSCTL, 0))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	if (live) {
		tu_proc_free(live);
		live = NULL;
	}
	return 0;
}

/* BPF_ENABLE_STATS fd: on while running, off after SIGKILL. */
static void test_fd_sigkill(void **state)
{
	struct json_object *o;

	expect_off("before ebpftop");
	start(&ebt, NULL, NULL, NULL);
	o = record(&ebt, true);
	json_object_put(o);
	assert_int_equal(moved(100), 100);
	/* The fd path leaves the sysctl alone. */
	assert_int_equal(sysctl(), 0);
	finish(&ebt, END_KILL);
	assert_int_equal(sysctl(), 0);
	expect_off("after SIGKILL");
}

/* On while running; off after a normal exit, SIGTERM and SIGINT. */
static void test_fd_endings(void **state)
{
	for (int how = END_NORMAL; how <= END_INT; how++) {

		start(&ebt, NULL, NULL, how == END_NORMAL ? "2" : NULL);
		json_object_put(record(&ebt, true));
		assert_int_equal(moved(100), 100);
		assert_int_equal(sysctl(), 0);
		finish(&ebt, (enum ending)how);
		assert_int_equal(sysctl(), 0);
		expect_off(ending_names[how]);
	}
}

/* EBPFTOP_STATS_SYSCTL=1: the sysctl is 1 while running, 0 after. */
static void test_sysctl_path(void **state)
{
	static const char *const env[] = { "EBPFTOP_STATS_SYSCTL=1", NULL };

	expect_off("before ebpftop");
	for (int how = END_NORMAL; how <= END_QUIT; how++) {

		start(&ebt, env, NULL, how == END_NORMAL ? "3" : NULL);
		json_object_put(record(&ebt, true));
		if (sysctl() != 1)
			fail_msg("EBPFTOP_STATS_SYSCTL=1: sysctl is %d while ebpftop runs",
				 sysctl());
		assert_int_equal(moved(100), 100);
		finish(&ebt, (enum ending)how);
		if (sysctl() != 0)
			fail_msg("EBPFTOP_STATS_SYSCTL=1: sysctl is %d after %s",
				 sysctl(), ending_names[how]);
		expect_off(ending_names[how]);
	}
}

/*
 * A fatal signal (here SIGABRT, which sanitizers leave alone) still puts
 * the sysctl back: the emergency restore runs before ebpftop dies.
 */
static void test_sysctl_fatal(void **state)
{
	static const char *const env[] = { "EBPFTOP_STATS_SYSCTL=1", NULL };

	expect_off("before ebpftop");
	start(&ebt, env, NULL, NULL);
	json_object_put(record(&ebt, true));
	assert_int_equal(sysctl(), 1);
	finish(&ebt, END_ABRT);
	if (sysctl() != 0)
		fail_msg("EBPFTOP_STATS_SYSCTL=1: sysctl is %d after SIGABRT",
			 sysctl());
	expect_off("after SIGABRT");
}

/* Stats someone else turned on stay on, whatever ebpftop does. */
static void test_sysctl_preset(void **state)
{
	static const char *const fd_env[] = { NULL };
	static const char *const sysctl_env[] = { "EBPFTOP_STATS_SYSCTL=1", NULL };
	static const char *const *const envs[] = { fd_env, sysctl_env };

	for (size_t e = 0; e < 2; e++) {
		for (int how = END_NORMAL; how <= END_KILL; how++) {
	
			if (how == END_HUP || how == END_QUIT)
				continue;
			set_sysctl(1);
			start(&ebt, envs[e], NULL, how == END_NORMAL ? "2" : NULL);
			json_object_put(record(&ebt, true));
			assert_int_equal(sysctl(), 1);
			finish(&ebt, (enum ending)how);
			if (sysctl() != 1)
				fail_msg("%s: the sysctl someone else set is %d after %s",
					 e ? "EBPFTOP_STATS_SYSCTL=1" : "fd path",
					 sysctl(), ending_names[how]);
			assert_int_equal(moved(100), 100);
		}
	}
	set_sysctl(0);
	expect_off("after the sysctl went back to 0");
}

/* --no-stats: off while running, no rates; on only if someone else's. */
static void test_no_stats(void **state)
{
	struct json_object *o, *prog;

	expect_off("before ebpftop");
	start(&ebt, NULL, "--no-stats", NULL);
	json_object_put(record(&ebt, false));
	expect_off("while ebpftop --no-stats runs");
	assert_int_equal(sysctl(), 0);
	o = record(&ebt, false);
	assert_non_null(tu_get(o, "interval_s"));
	prog = tu_record_prog(o, tl.ids[TL_XDP]);
	assert_non_null(prog);
	if (tu_get(prog, "runs_per_s") || tu_get(prog, "ns_per_run") ||
	    tu_get(prog, "cpu_pct"))
		fail_msg("--no-stats: rates are not null: %s",
			 json_object_to_json_string(prog));
	json_object_put(o);
	finish(&ebt, END_TERM);
	expect_off("after --no-stats");

	/* Stats on system-wide: reported as on, rates given, left on. */
	set_sysctl(1);
	start(&ebt, NULL, "--no-stats", NULL);
	json_object_put(record(&ebt, true));
	assert_int_equal(moved(100), 100);
	o = record(&ebt, true);
	prog = tu_record_prog(o, tl.ids[TL_XDP]);
	assert_non_null(prog);
	assert_false(isnan(tu_num(prog, "runs_per_s")));
	json_object_put(o);
	finish(&ebt, END_TERM);
	assert_int_equal(sysctl(), 1);
	set_sysctl(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fd_sigkill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fd_endings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl_fatal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysctl_preset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_stats, setup, teardown),
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

	tu_require_bpf();
	if (access(TU_STATS_SYSCTL, W_OK))
		tu_skip("%s is not writable here", TU_STATS_SYSCTL);
	tu_lock();
	saved_sysctl = tu_sysctl_get(TU_STATS_SYSCTL);
	if (saved_sysctl < 0)
		tu_skip("cannot read %s", TU_STATS_SYSCTL);
	atexit(restore_sysctl);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_signal);
	if (group_setup(NULL))
		tu_skip("the test loader cannot load its programs here");
	group_teardown(NULL);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
