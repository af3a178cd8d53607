// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two ebpftop instances side by side (two users, a TUI and a script):
 * neither may count the other as the owner of every program, and together
 * they must not keep a program alive after its owner let it go (nothing
 * ebpftop holds outlives the need; a vanished program is normal).
 *
 * Needs root; skips (77) otherwise, fails under EBPFTOP_TEST_STRICT=1.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <bpf/bpf.h>

#include "testutil.h"

static struct testload tl;
static struct tu_proc a, b;
static struct json_object *rec;	/* freed by teardown if a check fails */

static void start(struct tu_proc *p)
{
	char path[4096];
	char *argv[] = { path, (char *)"-b", (char *)"-j", (char *)"-d",
			 (char *)"0.2", NULL };

	tu_builddir_path("ebpftop", path, sizeof(path));
	if (tu_spawn(p, argv, NULL, false))
		fail_msg("cannot start ebpftop");
}

static struct json_object *next(struct tu_proc *p)
{
	struct json_object *o = tu_next_record(p, 15000, NULL);

	if (!o) {
		char *e = tu_stderr(p);

		fail_msg("no record from ebpftop %d: %s", (int)p->pid, e);
	}
	return o;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Both running, each past its first record. */
static int setup(void **state)
{
	if (tl_setup(&tl))
		return -1;
	start(&a);
	start(&b);
	for (int i = 0; i < 2; i++) {
		json_object_put(next(&a));
		json_object_put(next(&b));
	}
	return 0;
}

static int teardown(void **state)
{
	json_object_put(rec);
	rec = NULL;
	tu_signal(&a, SIGTERM);
	tu_signal(&b, SIGTERM);
	while (tu_readline(&a, 5000))
		;
	while (tu_readline(&b, 5000))
		;
	tu_wait(&a, 5000);
	tu_wait(&b, 5000);
	tu_proc_free(&a);
	tu_proc_free(&b);
	tl_teardown(&tl);
	return 0;
}

/* In @p's view, the loader's programs are owned by the loader, not @other. */
static void check_owners(struct tu_proc *p, struct tu_proc *other)
{
	rec = next(p);

	for (int i = 0; i < TL__MAX; i++) {
		struct json_object *prog = tu_record_prog(rec, tl.ids[i]);
		struct json_object *pids = tu_get(prog, "pids");

		assert_non_null(prog);
		assert_non_null(pids);
		for (size_t j = 0; j < json_object_array_length(pids); j++) {
			uint64_t pid;

			assert_true(tu_u64(json_object_array_get_idx(pids, j),
					   "pid", &pid));
			if ((pid_t)pid == other->pid || (pid_t)pid == p->pid)
				fail_msg("ebpftop %d lists ebpftop %d as an owner of %s: %s",
					 (int)p->pid, (int)pid, tl_names[i],
					 json_object_to_json_string(pids));
		}
	}
	json_object_put(rec);
	rec = NULL;
}

static void test_not_owners(void **state)
{
	check_owners(&a, &b);
	check_owners(&b, &a);
}

static void test_freed_while_both_run(void **state)
{
	double t;

	if (!tl_stop(&tl))
		fail_msg("testload did not exit");
	t = wall_now();
	/* Two refreshes of each after the owner left. */
	for (struct tu_proc *p = &a; p; p = p == &a ? &b : NULL) {
		int after = 0;

		while (after < 2) {
			rec = next(p);
			after += tu_num(rec, "time") > t;
			json_object_put(rec);
			rec = NULL;
		}
	}
	for (int i = 0; i < TL__MAX; i++) {
		bool ha = tu_pid_holds_prog(a.pid, tl.ids[i]);
		bool hb = tu_pid_holds_prog(b.pid, tl.ids[i]);
		char who[256];
		int fd;

		if (ha || hb)
			fail_msg("program %u (%s) has no owner left, but ebpftop %s%s%s still hold%s it: %s",
				 tl.ids[i], tl_names[i], ha ? "A" : "",
				 ha && hb ? " and " : "", hb ? "B" : "",
				 ha && hb ? "" : "s",
				 tu_prog_exists(tl.ids[i]) ? "it stays loaded" :
							     "it was freed anyway");
		if (!tu_wait_prog_gone(tl.ids[i], 20000, who, sizeof(who)))
			fail_msg("program %u (%s) is still loaded; held by:%s",
				 tl.ids[i], tl_names[i], who);
		fd = bpf_prog_get_fd_by_id(tl.ids[i]);
		if (fd >= 0)
			close(fd);
		assert_true(fd < 0 && errno == ENOENT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_not_owners, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freed_while_both_run, setup,
						teardown),
	};

	tl_require();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
