// SPDX-License-Identifier: GPL-2.0-only
/*
 * ebpftop against the real kernel: the loader's programs, driven with
 * BPF_PROG_TEST_RUN, must show in `ebpftop -b -j` with exactly the
 * kernel's counters, the right names, types, tags and owners; rates must
 * agree with the counter deltas; both collection fallbacks must agree; a
 * program unloaded while ebpftop runs must vanish, and really be freed.
 *
 * Needs root; skips (77) otherwise, fails under EBPFTOP_TEST_STRICT=1.
 * Only the loader's own programs are asserted on: other programs and other
 * ebpftop instances may exist on the machine at the same time.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
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

#define MAX_RECORDS 64

static struct testload tl;

/* One finished (or running) ebpftop -b -j. */
struct run {
	struct tu_proc p;
	struct json_object *rec[MAX_RECORDS];
	size_t n;
	int code;
	char *err;
};

/* The run in progress: teardown ends it when a check fails midway. */
static struct run cur, *live;
static void run_free(struct run *r);

static const char *variant_name(const char *const *env)
{
	return env && env[0] ? env[0] : "default";
}

static int setup(void **state)
{
	return tl_setup(&tl);
}

static int teardown(void **state)
{
	if (live)
		run_free(live);
	tl_teardown(&tl);
	return 0;
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->n; i++)
		json_object_put(r->rec[i]);
	r->n = 0;
	live = NULL;
	free(r->err);
	r->err = NULL;
	tu_proc_free(&r->p);
}

/* ebpftop -b -j -d D [-n N] [EXTRA...] */
static void run_start_x(struct run *r, const char *const env[], const char *n,
			const char *d, const char *const extra[])
{
	char path[4096];
	char *argv[16] = { path, (char *)"-b", (char *)"-j", (char *)"-d",
			   (char *)d };
	const char *child_env[8];
	int argc = 5, err;
	size_t nenv = 0;

	if (n) {
		argv[argc++] = (char *)"-n";
		argv[argc++] = (char *)n;
	}
	for (size_t i = 0; extra && extra[i] && argc < 15; i++)
		argv[argc++] = (char *)extra[i];
	argv[argc] = NULL;
	memset(r, 0, sizeof(*r));
	live = r;
	tu_builddir_path("ebpftop", path, sizeof(path));
	/* "RLIMIT_NOFILE=N" is not for the environment: it is the child's limit. */
	for (size_t i = 0; env && env[i]; i++) {
		if (!strncmp(env[i], "RLIMIT_NOFILE=", 14))
			tu_spawn_nofile = strtoul(env[i] + 14, NULL, 10);
		else if (nenv < 7)
			child_env[nenv++] = env[i];
	}
	child_env[nenv] = NULL;
	err = tu_spawn(&r->p, argv, child_env, false);
	tu_spawn_nofile = 0;
	if (err)
		fail_msg("cannot start ebpftop: %s", strerror(-err));
}

static void run_start(struct run *r, const char *const env[], const char *n,
		      const char *d)
{
	run_start_x(r, env, n, d, NULL);
}

/* Read the next record of a running ebpftop into r->rec. */
static struct json_object *run_next(struct run *r, int timeout_ms)
{
	char *raw;
	struct json_object *o;

	assert_true(r->n < MAX_RECORDS);
	o = tu_next_record(&r->p, timeout_ms, &raw);
	if (!o) {
		char *e = tu_stderr(&r->p);

		fail_msg("no JSON record from ebpftop within %d ms (line: %.200s) stderr: %s",
			 timeout_ms, raw ? raw : "(none)", e ? e : "");
	}
	r->rec[r->n++] = o;
	return o;
}

/* Run ebpftop -b -j -n N -d D [EXTRA...] to the end. */
static void run_all_x(struct run *r, const char *const env[], const char *n,
		      const char *d, const char *const extra[])
{
	size_t want = strtoul(n, NULL, 10);

	run_start_x(r, env, n, d, extra);
	for (size_t i = 0; i < want; i++)
		run_next(r, 15000);
	if (tu_readline(&r->p, 5000))
		fail_msg("ebpftop -n %s printed more than %zu records", n, want);
	if (!tu_wait(&r->p, 10000))
		fail_msg("ebpftop -n %s did not exit", n);
	r->code = tu_exit_code(&r->p);
	r->err = tu_stderr(&r->p);
	if (r->code != 0 || (r->err && r->err[0]))
		fail_msg("ebpftop -n %s (%s): exit %d, stderr: %s", n,
			 variant_name(env), r->code, r->err);
}

static void run_all(struct run *r, const char *const env[], const char *n,
		    const char *d)
{
	run_all_x(r, env, n, d, NULL);
}

static bool is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double);
}

static void assert_close(double got, double want, double rel,
			 const char *what)
{
	double tol = rel * fmax(fabs(got), fabs(want)) + 1e-9;

	if (isnan(got) || isnan(want) || fabs(got - want) > tol)
		fail_msg("%s: got %.17g, want %.17g (relative tolerance %g)",
			 what, got, want, rel);
}

/* A program's owners, checked: the loader, never @self, nobody invented. */
static void check_owners(struct json_object *prog, uint32_t id, pid_t self)
{
	struct json_object *pids = tu_get(prog, "pids");
	bool loader = false;
	size_t n;

	assert_non_null(pids);
	assert_true(json_object_is_type(pids, json_type_array));
	n = json_object_array_length(pids);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(pids, i);
		struct json_object *comm = tu_get(o, "comm");
		uint64_t pid;

		if (!tu_u64(o, "pid", &pid) || !comm ||
		    !json_object_is_type(comm, json_type_string))
			fail_msg("program %u: bad owner %s", id,
				 json_object_to_json_string(o));
		if ((pid_t)pid == self)
			fail_msg("program %u lists ebpftop itself (pid %d) as an owner",
				 id, (int)self);
		if ((pid_t)pid == tl.pid) {
			loader = true;
			assert_string_equal(json_object_get_string(comm),
					    "testload");
		} else {
			/*
			 * Another process may hold it (another ebpftop does).
			 * It may be gone or have let go since the sample, but
			 * if it is there, it is the process named.
			 */
			char c[32];

			tu_comm((pid_t)pid, c, sizeof(c));
			if (strcmp(c, "?") &&
			    strcmp(c, json_object_get_string(comm)) &&
			    !tu_pid_holds_prog((pid_t)pid, id))
				fail_msg("program %u lists pid %d as owner %s, but that is %s, holding no fd on it",
					 id, (int)pid,
					 json_object_get_string(comm), c);
		}
	}
	if (!loader)
		fail_msg("program %u: owners %s lack testload (pid %d)", id,
			 json_object_to_json_string(pids), (int)tl.pid);
}

/* The fields that do not change: type, name, tag, owners. */
static void check_static(struct json_object *rec, pid_t self)
{
	static const char *const types[TL__MAX] = { "xdp", "socket_filter",
						    "xdp", "socket_filter" };
	static const char *const names[TL__MAX] = {
		"xdp_test_pass", "sock_test_filt",
		"ebpftop_test_program_with_a_long_name", NULL
	};

	for (int i = 0; i < TL__MAX; i++) {
		struct json_object *p = tu_record_prog(rec, tl.ids[i]);
		struct json_object *name, *tag;
		const char *t;

		if (!p)
			fail_msg("program %s (id %u) is missing from the record",
				 tl_names[i], tl.ids[i]);
		assert_string_equal(json_object_get_string(tu_get(p, "type")),
				    types[i]);
		name = tu_get(p, "name");
		if (names[i]) {
			assert_non_null(name);
			assert_string_equal(json_object_get_string(name), names[i]);
		} else {
			/* Unnamed: null, present. */
			assert_true(tu_has(p, "name"));
			if (name)
				fail_msg("unnamed program %u has name %s", tl.ids[i],
					 json_object_to_json_string(name));
		}
		tag = tu_get(p, "tag");
		assert_non_null(tag);
		t = json_object_get_string(tag);
		assert_int_equal(strlen(t), 16);
		for (const char *c = t; *c; c++)
			assert_true(isxdigit((unsigned char)*c) &&
				    !isupper((unsigned char)*c));
		check_owners(p, tl.ids[i], self);
	}
}

/* Nothing in the record names ebpftop's own pid as an owner. */
static void check_not_self(struct json_object *rec, pid_t self)
{
	struct json_object *progs = tu_get(rec, "programs");
	size_t n = json_object_array_length(progs);

	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(progs, i);
		struct json_object *pids = tu_get(p, "pids");

		for (size_t j = 0; pids && j < json_object_array_length(pids); j++) {
			uint64_t pid;

			if (tu_u64(json_object_array_get_idx(pids, j), "pid", &pid) &&
			    (pid_t)pid == self)
				fail_msg("program %s lists ebpftop itself as an owner",
					 json_object_to_json_string(tu_get(p, "id")));
		}
	}
}

static void check_counters(struct json_object *rec, const uint64_t cnt[],
			   const uint64_t ns[], const char *what)
{
	for (int i = 0; i < TL__MAX; i++) {
		struct json_object *p = tu_record_prog(rec, tl.ids[i]);
		uint64_t c, t;

		assert_non_null(p);
		if (!tu_u64(p, "run_cnt", &c) || !tu_u64(p, "run_time_ns", &t))
			fail_msg("%s: %s has no integer counters", what,
				 tl_names[i]);
		if (c != cnt[i] || t != ns[i])
			fail_msg("%s: %s run_cnt %llu run_time_ns %llu, kernel says %llu %llu",
				 what, tl_names[i], (unsigned long long)c,
				 (unsigned long long)t,
				 (unsigned long long)cnt[i],
				 (unsigned long long)ns[i]);
	}
}

/*
 * Exact counters: run the programs a known number of times, then compare
 * ebpftop's counters with the kernel's (through the loader, after ebpftop
 * exits, nothing running in between).
 */
/*
 * Run each of the loader's programs @runs[i] times under our own stats fd,
 * so that the runs count; the fd is dropped before ebpftop runs.
 */
static void run_counted(const unsigned long runs[TL__MAX])
{
	uint64_t cnt, ns;
	int sfd;

	sfd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (sfd < 0)
		fail_msg("BPF_ENABLE_STATS: %s", strerror(errno));
	for (int i = 0; i < TL__MAX; i++) {
		if (runs[i])
			assert_int_equal(tl_run(&tl, (enum tl_prog)i, runs[i],
						&cnt, &ns), 0);
	}
	close(sfd);
}

static void test_exact_counts(void **state)
{
	const char *const *env = *state;
	static const unsigned long runs[TL__MAX] = { 1000, 777, 5, 0 };
	uint64_t cnt[TL__MAX], ns[TL__MAX];
	struct json_object *first, *second, *progs;

	run_counted(runs);
	/* Fresh programs: exactly the runs asked for. */
	for (int i = 0; i < TL__MAX; i++) {
		assert_int_equal(tl_info(&tl, (enum tl_prog)i, &cnt[i], &ns[i]), 0);
		assert_int_equal(cnt[i], runs[i]);
		assert_true(!runs[i] || ns[i] > 0);
	}

	run_all(&cur, env, "2", "0.2");
	for (int i = 0; i < TL__MAX; i++)
		assert_int_equal(tl_info(&tl, (enum tl_prog)i, &cnt[i], &ns[i]), 0);
	first = cur.rec[0];
	second = cur.rec[1];
	for (size_t k = 0; k < 2; k++) {
		struct json_object *v = tu_get(cur.rec[k], "stats_enabled");

		assert_non_null(v);
		assert_true(json_object_is_type(v, json_type_boolean));
		assert_true(json_object_get_boolean(v));
		check_static(cur.rec[k], cur.p.pid);
		check_not_self(cur.rec[k], cur.p.pid);
		check_counters(cur.rec[k], cnt, ns, variant_name(env));
		assert_true(tu_has(cur.rec[k], "profile"));
		assert_null(tu_get(cur.rec[k], "profile"));
	}

	/* First record: no interval, no rates for anyone. */
	assert_true(tu_has(first, "interval_s"));
	assert_null(tu_get(first, "interval_s"));
	progs = tu_get(first, "programs");
	for (size_t i = 0; i < json_object_array_length(progs); i++) {
		struct json_object *p = json_object_array_get_idx(progs, i);

		assert_true(tu_has(p, "runs_per_s") && tu_has(p, "ns_per_run") &&
			    tu_has(p, "cpu_pct"));
		if (tu_get(p, "runs_per_s") || tu_get(p, "ns_per_run") ||
		    tu_get(p, "cpu_pct"))
			fail_msg("first record has rates: %s",
				 json_object_to_json_string(p));
	}

	/* Second: an interval near -d; nothing ran, so 0 runs/s, 0 %, no ns/run. */
	assert_true(is_number(tu_get(second, "interval_s")));
	assert_in_range(tu_num(second, "interval_s") * 1000, 150, 2000);
	assert_true(tu_num(second, "time") > tu_num(first, "time"));
	for (int i = 0; i < TL__MAX; i++) {
		struct json_object *p = tu_record_prog(second, tl.ids[i]);

		assert_true(tu_num(p, "runs_per_s") == 0.0);
		assert_true(tu_num(p, "cpu_pct") == 0.0);
		assert_null(tu_get(p, "ns_per_run"));
	}
	run_free(&cur);
}

/*
 * A steady rate: rates must be the counter deltas over the interval, to
 * the last digit JSON carries, and near the rate the loader runs at.
 */
static void test_steady_rate(void **state)
{
	double sum_cnt = 0, sum_s = 0, mean;

	assert_int_equal(tl_rate(&tl, TL_XDP, 5000), 0);
	tu_sleep_ms(250);
	run_all(&cur, NULL, "6", "0.3");
	assert_int_equal(tl_rate(&tl, TL_XDP, 0), 0);

	for (size_t k = 1; k < cur.n; k++) {
		struct json_object *a = tu_record_prog(cur.rec[k - 1], tl.ids[TL_XDP]);
		struct json_object *b = tu_record_prog(cur.rec[k], tl.ids[TL_XDP]);
		struct json_object *idle = tu_record_prog(cur.rec[k], tl.ids[TL_SOCKET]);
		double iv = tu_num(cur.rec[k], "interval_s");
		double dwall = tu_num(cur.rec[k], "time") - tu_num(cur.rec[k - 1], "time");
		uint64_t c0, c1, t0, t1;
		double dcnt, dtime, rps, npr, cpu;
		char what[64];

		assert_non_null(a);
		assert_non_null(b);
		assert_true(tu_u64(a, "run_cnt", &c0) && tu_u64(b, "run_cnt", &c1));
		assert_true(tu_u64(a, "run_time_ns", &t0) &&
			    tu_u64(b, "run_time_ns", &t1));
		if (c1 < c0 || t1 < t0)
			fail_msg("counters went backwards: %llu -> %llu",
				 (unsigned long long)c0, (unsigned long long)c1);
		if (!(iv > 0.1 && iv < 3.0))
			fail_msg("record %zu: interval_s %g", k, iv);
		/* The interval is the time between the samples. */
		if (fabs(dwall - iv) > 0.25)
			fail_msg("record %zu: interval_s %g but the times differ by %g",
				 k, iv, dwall);
		dcnt = (double)(c1 - c0);
		dtime = (double)(t1 - t0);
		rps = tu_num(b, "runs_per_s");
		npr = tu_num(b, "ns_per_run");
		cpu = tu_num(b, "cpu_pct");
		snprintf(what, sizeof(what), "record %zu runs_per_s * interval_s", k);
		if (dcnt == 0)
			assert_true(rps == 0.0);
		else
			assert_close(rps * iv, dcnt, 1e-6, what);
		snprintf(what, sizeof(what), "record %zu ns_per_run * runs", k);
		if (dcnt == 0)
			assert_null(tu_get(b, "ns_per_run"));
		else
			assert_close(npr * dcnt, dtime, 1e-6, what);
		snprintf(what, sizeof(what), "record %zu cpu_pct", k);
		assert_close(cpu, dtime / iv / 1e7, 1e-6, what);
		/* The idle program shows zero, not nothing. */
		assert_true(tu_num(idle, "runs_per_s") == 0.0);
		assert_true(tu_num(idle, "cpu_pct") == 0.0);
		sum_cnt += dcnt;
		sum_s += iv;
	}
	mean = sum_cnt / sum_s;
	printf("# steady rate: %.0f runs/s over %.2f s (loader asked for 5000)\n",
	       mean, sum_s);
	if (mean < 2000 || mean > 8000)
		fail_msg("mean rate %.0f runs/s, want 2000..8000", mean);
	run_free(&cur);
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read records until @count were sampled after @since; returns the last. */
static struct json_object *records_after(struct run *r, double since,
					 int count)
{
	struct json_object *rec = NULL;

	while (count > 0) {
		rec = run_next(r, 5000);
		check_not_self(rec, r->p.pid);
		if (tu_num(rec, "time") > since)
			count--;
	}
	return rec;
}

/*
 * A program unloaded while ebpftop runs disappears from its records
 * without an error, and ebpftop does not keep it alive: within two
 * refreshes it holds nothing on it, so once nobody else does (another
 * ebpftop, say) the program is freed.
 */
static void test_unload(void **state)
{
	const char *const *env = *state;
	struct json_object *rec;
	double t;
	char *e;

	run_start(&cur, env, NULL, "0.2");
	for (int k = 0; k < 2; k++)
		check_static(run_next(&cur, 15000), cur.p.pid);
	/* The loader unloads everything and exits. */
	if (!tl_stop(&tl))
		fail_msg("testload did not exit");
	t = wall_now();
	rec = records_after(&cur, t, 2);

	/* Two refreshes later ebpftop holds nothing on them... */
	for (int i = 0; i < TL__MAX; i++) {
		if (tu_pid_holds_prog(cur.p.pid, tl.ids[i]))
			fail_msg("ebpftop (%s) still holds an fd on program %u (%s) two refreshes after its owner exited",
				 variant_name(env), tl.ids[i], tl_names[i]);
	}
	/* ...so they are gone, unless another process holds them a while. */
	for (int i = 0; i < TL__MAX; i++) {
		char who[256];
		int fd;

		if (tu_prog_exists(tl.ids[i]) && tu_record_prog(rec, tl.ids[i]))
			printf("# program %u outlives its owner: another process holds it\n",
			       tl.ids[i]);
		if (!tu_wait_prog_gone(tl.ids[i], 20000, who, sizeof(who)))
			fail_msg("program %u (%s) is still loaded after its owner exited; held by:%s",
				 tl.ids[i], tl_names[i], who);
		fd = bpf_prog_get_fd_by_id(tl.ids[i]);
		if (fd >= 0) {
			close(fd);
			fail_msg("program %u can still be opened", tl.ids[i]);
		}
		assert_int_equal(errno, ENOENT);
	}
	/* Freed programs are not listed; ebpftop carries on without an error. */
	rec = records_after(&cur, wall_now(), 1);
	for (int i = 0; i < TL__MAX; i++) {
		if (tu_record_prog(rec, tl.ids[i]))
			fail_msg("freed program %u (%s) is still listed",
				 tl.ids[i], tl_names[i]);
	}
	e = tu_stderr(&cur.p);
	if (e && e[0])
		fail_msg("ebpftop wrote to stderr: %s", e);
	free(e);
	/* Then ends cleanly on SIGTERM. */
	tu_signal(&cur.p, SIGTERM);
	while (tu_readline(&cur.p, 10000))
		;
	if (!tu_wait(&cur.p, 10000))
		fail_msg("ebpftop did not exit on SIGTERM");
	e = tu_stderr(&cur.p);
	if (tu_exit_code(&cur.p) != 0 || (e && e[0]))
		fail_msg("ebpftop: exit %d after SIGTERM, stderr: %s",
			 tu_exit_code(&cur.p), e);
	free(e);
	run_free(&cur);
}

/*
 * A process that holds a program only through a BPF link is an owner too,
 * found by the task_file iterator and by the /proc fallback alike.
 */
static void test_link_owner(void **state)
{
	const char *const *env = *state;
	struct json_object *rec, *prog, *pids;
	bool found = false;
	pid_t holder;

	assert_int_equal(tl_linkholder(&tl, TL_LONG, &holder), 0);
	run_all(&cur, env, "1", "0.2");
	rec = cur.rec[0];
	prog = tu_record_prog(rec, tl.ids[TL_LONG]);
	assert_non_null(prog);
	pids = tu_get(prog, "pids");
	assert_non_null(pids);
	for (size_t i = 0; i < json_object_array_length(pids); i++) {
		uint64_t pid;

		if (tu_u64(json_object_array_get_idx(pids, i), "pid", &pid) &&
		    (pid_t)pid == holder)
			found = true;
	}
	if (!found)
		fail_msg("%s: the link holder (pid %d) is not among the owners %s",
			 variant_name(env), (int)holder,
			 json_object_to_json_string(pids));
	run_free(&cur);
}

/*
 * @rec filtered on the loader's pid @pid holds every program of the loader,
 * and nothing else but programs whose names hold those digits (a filter
 * matches names too, and other programs may be loaded on the machine).
 */
static void assert_pid_filtered(struct json_object *rec, const char *pid)
{
	struct json_object *progs = tu_get(rec, "programs");
	size_t n = json_object_array_length(progs);

	for (int i = 0; i < TL__MAX; i++)
		assert_non_null(tu_record_prog(rec, tl.ids[i]));
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(progs, i);
		struct json_object *name = tu_get(p, "name");
		bool ours = false;
		uint64_t id;

		assert_true(tu_u64(p, "id", &id));
		for (int k = 0; k < TL__MAX; k++)
			ours = ours || id == tl.ids[k];
		if (!ours && !(name && strstr(json_object_get_string(name), pid)))
			fail_msg("-f %s lists %s", pid, json_object_to_json_string(p));
	}
}

/* -f and -s work on the real list: owners' pids, names, counters. */
static void test_filter_and_sort(void **state)
{
	static const char *const sorts[] = { "id", "runcnt", "name" };
	uint64_t c;
	char pid[16];
	size_t n;

	/* Distinct counters, so the runcnt sort has something to order. */
	{
		int sfd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		uint64_t ns;

		assert_true(sfd >= 0);
		assert_int_equal(tl_run(&tl, TL_SOCKET, 30, &c, &ns), 0);
		assert_int_equal(tl_run(&tl, TL_LONG, 20, &c, &ns), 0);
		assert_int_equal(tl_run(&tl, TL_XDP, 10, &c, &ns), 0);
		close(sfd);
	}

	/* The loader's pid picks exactly its programs. */
	snprintf(pid, sizeof(pid), "%d", (int)tl.pid);
	{
		const char *const extra[] = { "-f", pid, NULL };

		run_all_x(&cur, NULL, "1", "0.1", extra);
		assert_pid_filtered(cur.rec[0], pid);
		run_free(&cur);
	}
	/* A piece of a name, in another case: every row has it. */
	{
		const char *const extra[] = { "-f", "WITH_A_LONG", NULL };
		struct json_object *progs;

		run_all_x(&cur, NULL, "1", "0.1", extra);
		assert_non_null(tu_record_prog(cur.rec[0], tl.ids[TL_LONG]));
		assert_null(tu_record_prog(cur.rec[0], tl.ids[TL_XDP]));
		progs = tu_get(cur.rec[0], "programs");
		for (size_t i = 0; i < json_object_array_length(progs); i++) {
			struct json_object *name =
				tu_get(json_object_array_get_idx(progs, i), "name");

			assert_non_null(name);
			assert_non_null(strcasestr(json_object_get_string(name),
						   "with_a_long"));
		}
		run_free(&cur);
	}
	/* Sorted as asked, in every record (limited to the loader's). */
	for (size_t k = 0; k < sizeof(sorts) / sizeof(sorts[0]); k++) {
		const char *const extra[] = { "-f", pid, "-s", sorts[k], NULL };
		struct json_object *progs;

		run_all_x(&cur, NULL, "2", "0.1", extra);
		for (size_t rec = 0; rec < cur.n; rec++) {
			assert_pid_filtered(cur.rec[rec], pid);
			progs = tu_get(cur.rec[rec], "programs");
			n = json_object_array_length(progs);
			for (size_t i = 0; i + 1 < n; i++) {
				struct json_object *a = json_object_array_get_idx(progs, i);
				struct json_object *b = json_object_array_get_idx(progs, i + 1);
				uint64_t ia, ib, ca, cb;
				const char *na, *nb;
				bool ok;

				assert_true(tu_u64(a, "id", &ia) && tu_u64(b, "id", &ib));
				assert_true(tu_u64(a, "run_cnt", &ca) &&
					    tu_u64(b, "run_cnt", &cb));
				na = tu_get(a, "name") ? json_object_get_string(tu_get(a, "name")) : NULL;
				nb = tu_get(b, "name") ? json_object_get_string(tu_get(b, "name")) : NULL;
				if (k == 0)
					ok = ia < ib;
				else if (k == 1)
					ok = ca > cb || (ca == cb && ia < ib);
				else
					ok = (na && !nb) ||
					     (na && nb && (strcmp(na, nb) < 0 ||
							   (!strcmp(na, nb) && ia < ib))) ||
					     (!na && !nb && ia < ib);
				if (!ok)
					fail_msg("-s %s: %s before %s", sorts[k],
						 json_object_to_json_string(a),
						 json_object_to_json_string(b));
			}
		}
		run_free(&cur);
	}
}


/* The record's program @id field @key as a string ("" if null). */
static const char *str_of(struct json_object *prog, const char *key)
{
	struct json_object *v = tu_get(prog, key);

	return v ? json_object_get_string(v) : "";
}

/*
 * The counters iterator (both ways it reads), the per-program info path
 * and the id walk give the same figures for idle programs, exactly: one
 * run of each through ebpftop, nothing running in between. With the
 * iterator, ebpftop holds no fd on any program; on the info path it keeps
 * them. Which iterator program ebpftop loaded tells which way it reads.
 */
static void test_paths_agree(void **state)
{
	static const char *const no_stats_iter[] = { "EBPFTOP_NO_STATS_ITER=1", NULL };
	static const char *const probe[] = { "EBPFTOP_STATS_ITER_PROBE=1", NULL };
	static const char *const no_prog_iter[] = { "EBPFTOP_NO_PROG_ITER=1", NULL };
	static const char *const *const paths[] = { NULL, no_stats_iter, probe,
						    no_prog_iter };
	enum { NPATHS = sizeof(paths) / sizeof(paths[0]) };
	static const unsigned long runs[TL__MAX] = { 12345, 678, 9, 0 };
	struct json_object *first[TL__MAX] = { NULL };
	struct run runs_of[NPATHS];

	run_counted(runs);

	for (size_t k = 0; k < NPATHS; k++) {
		struct run *r = &runs_of[k];
		bool held = false, plain, probed;

		/* Two records: the fds held (or not) after the first refresh. */
		run_start(r, paths[k], "2", "0.3");
		run_next(r, 15000);
		for (int i = 0; i < TL__MAX; i++)
			held |= tu_pid_holds_prog(r->p.pid, tl.ids[i]);
		plain = tu_pid_holds_prog_named(r->p.pid, "ebpftop_progs");
		probed = tu_pid_holds_prog_named(r->p.pid, "ebpftop_progs_p");
		run_next(r, 15000);
		if (!tu_wait(&r->p, 10000))
			fail_msg("ebpftop (%s) did not exit", variant_name(paths[k]));
		assert_int_equal(tu_exit_code(&r->p), 0);
		if ((k == 0 || k == 2) && held)
			fail_msg("ebpftop (%s) holds an fd on one of the loader's programs, though it reads them through the iterator",
				 variant_name(paths[k]));
		if (k == 0 && plain == probed)
			fail_msg("ebpftop holds %s of its two counters iterators: it should hold one",
				 plain ? "both" : "neither");
		if (k == 1 && !held)
			fail_msg("ebpftop with EBPFTOP_NO_STATS_ITER holds no fd on the loader's programs: it did not take the info path");
		/* (The iterator that lists ids is named ebpftop_progs too.) */
		if (k == 1 && probed)
			fail_msg("ebpftop with EBPFTOP_NO_STATS_ITER loaded a counters iterator");
		if (k == 2 && (plain || !probed))
			fail_msg("ebpftop with EBPFTOP_STATS_ITER_PROBE does not read with probe reads (ebpftop_progs %s, ebpftop_progs_p %s)",
				 plain ? "loaded" : "not loaded",
				 probed ? "loaded" : "not loaded");
		for (int i = 0; i < TL__MAX; i++) {
			struct json_object *p = tu_record_prog(r->rec[1], tl.ids[i]);
			uint64_t c0, t0, c1, t1;

			if (!p)
				fail_msg("%s: program %u missing", variant_name(paths[k]),
					 tl.ids[i]);
			assert_true(tu_u64(p, "run_cnt", &c1) &&
				    tu_u64(p, "run_time_ns", &t1));
			assert_int_equal(c1, runs[i]);
			if (!first[i]) {
				first[i] = p;
				continue;
			}
			assert_true(tu_u64(first[i], "run_cnt", &c0) &&
				    tu_u64(first[i], "run_time_ns", &t0));
			if (c0 != c1 || t0 != t1 ||
			    strcmp(str_of(first[i], "type"), str_of(p, "type")) ||
			    strcmp(str_of(first[i], "tag"), str_of(p, "tag")) ||
			    strcmp(str_of(first[i], "name"), str_of(p, "name")))
				fail_msg("program %u: %s gives %s, the iterator %s",
					 tl.ids[i], variant_name(paths[k]),
					 json_object_to_json_string(p),
					 json_object_to_json_string(first[i]));
		}
		live = NULL;
	}
	for (size_t k = 0; k < NPATHS; k++)
		run_free(&runs_of[k]);
}

/* Whether program @id in @rec lists @pid among its owners. */
static bool lists_owner(struct json_object *rec, uint32_t id, pid_t pid)
{
	struct json_object *p = tu_record_prog(rec, id);
	struct json_object *pids = p ? tu_get(p, "pids") : NULL;

	for (size_t i = 0; pids && i < json_object_array_length(pids); i++) {
		uint64_t v;

		if (tu_u64(json_object_array_get_idx(pids, i), "pid", &v) &&
		    (pid_t)v == pid)
			return true;
	}
	return false;
}

/*
 * Owners without an owner walk at every refresh: a program that appears
 * shows its owner in the very record it first appears in.
 */
/* Whether @env sets @name. */
static bool env_has(const char *const *env, const char *name)
{
	size_t len = strlen(name);

	for (; env && *env; env++) {
		if (!strncmp(*env, name, len) && (*env)[len] == '=')
			return true;
	}
	return false;
}

/*
 * The owner walk ebpftop @pid took, told by the iterator program it holds:
 * none on the /proc path, the probe-read build when forced, else one of
 * the two builds.
 */
static void check_owner_walk(pid_t pid, const char *const *env)
{
	bool plain = tu_pid_holds_prog_named(pid, "ebpftop_pids");
	bool probed = tu_pid_holds_prog_named(pid, "ebpftop_pids_p");

	if (env_has(env, "EBPFTOP_NO_PID_ITER")) {
		if (plain || probed)
			fail_msg("ebpftop with EBPFTOP_NO_PID_ITER holds an owner iterator");
	} else if (env_has(env, "EBPFTOP_PID_ITER_PROBE")) {
		if (plain || !probed)
			fail_msg("ebpftop with EBPFTOP_PID_ITER_PROBE does not walk owners with probe reads (ebpftop_pids %s, ebpftop_pids_p %s)",
				 plain ? "loaded" : "not loaded",
				 probed ? "loaded" : "not loaded");
	} else if (plain == probed) {
		fail_msg("ebpftop holds %s of its two owner iterators: it should hold one",
			 plain ? "both" : "neither");
	}
}

static void test_new_owner(void **state)
{
	const char *const *env = *state;
	struct testload tl2;
	bool seen[TL__MAX] = { false };
	int left = TL__MAX;
	int64_t deadline;

	run_start(&cur, env, NULL, "0.2");
	for (int k = 0; k < 2; k++)
		run_next(&cur, 15000);
	check_owner_walk(cur.p.pid, env);
	if (tl_start(&tl2))
		fail_msg("a second testload did not start");
	deadline = tu_now_ms() + 10000;
	while (left && tu_now_ms() < deadline) {
		struct json_object *rec = run_next(&cur, 5000);

		for (int i = 0; i < TL__MAX; i++) {
			if (seen[i] || !tu_record_prog(rec, tl2.ids[i]))
				continue;
			seen[i] = true;
			left--;
			if (!lists_owner(rec, tl2.ids[i], tl2.pid))
				fail_msg("%s: program %u (%s) first listed without its loader (pid %d) as owner: %s",
					 variant_name(env), tl2.ids[i], tl_names[i],
					 (int)tl2.pid,
					 json_object_to_json_string(tu_record_prog(rec, tl2.ids[i])));
		}
		if (cur.n == MAX_RECORDS - 1)
			break;
	}
	tl_stop(&tl2);
	tu_proc_free(&tl2.p);
	if (left)
		fail_msg("%d of the second loader's programs never listed", left);
	run_free(&cur);
}

/*
 * A process that takes hold of a program already listed shows as its
 * owner within the documented 3 seconds (plus the refresh that notices).
 */
static void test_late_owner(void **state)
{
	const char *const *env = *state;
	struct json_object *rec;
	double since;
	pid_t holder;
	int checked = 0;

	run_start(&cur, env, NULL, "0.2");
	for (int k = 0; k < 2; k++)
		run_next(&cur, 15000);
	assert_int_equal(tl_linkholder(&tl, TL_LONG, &holder), 0);
	since = wall_now();
	do {
		rec = run_next(&cur, 5000);
		if (tu_num(rec, "time") < since + 3.5)
			continue;
		checked++;
		if (!lists_owner(rec, tl.ids[TL_LONG], holder))
			fail_msg("%s: %.1f s after it took hold of program %u, pid %d is not among its owners: %s",
				 variant_name(env), tu_num(rec, "time") - since,
				 tl.ids[TL_LONG], (int)holder,
				 json_object_to_json_string(tu_record_prog(rec, tl.ids[TL_LONG])));
	} while (checked < 3 && cur.n < MAX_RECORDS - 1);
	assert_int_equal(checked, 3);
	run_free(&cur);
}

int main(void)
{
	static const char *const plain[] = { NULL };
	static const char *const no_prog_iter[] = { "EBPFTOP_NO_PROG_ITER=1", NULL };
	static const char *const no_pid_iter[] = { "EBPFTOP_NO_PID_ITER=1", NULL };
	static const char *const no_iters[] = { "EBPFTOP_NO_PROG_ITER=1",
						"EBPFTOP_NO_PID_ITER=1", NULL };
	/*
	 * On the info path ebpftop keeps 256 fds spare: a budget of 2 held
	 * program fds, so some of the loader's are reopened at every refresh.
	 */
	static const char *const few_fds[] = { "EBPFTOP_NO_STATS_ITER=1",
					       "RLIMIT_NOFILE=258", NULL };
	static const char *const no_stats_iter[] = { "EBPFTOP_NO_STATS_ITER=1", NULL };
	static const char *const stats_probe[] = { "EBPFTOP_STATS_ITER_PROBE=1", NULL };
	static const char *const pid_probe[] = { "EBPFTOP_PID_ITER_PROBE=1", NULL };
	/* Named per variant: cmocka prints these names. */
	const struct CMUnitTest tests[] = {
		{ "exact_counts", test_exact_counts, setup, teardown, (void *)plain },
		{ "exact_counts/EBPFTOP_NO_STATS_ITER", test_exact_counts, setup,
		  teardown, (void *)no_stats_iter },
		{ "exact_counts/EBPFTOP_STATS_ITER_PROBE", test_exact_counts, setup,
		  teardown, (void *)stats_probe },
		{ "exact_counts/EBPFTOP_NO_PROG_ITER", test_exact_counts, setup,
		  teardown, (void *)no_prog_iter },
		{ "exact_counts/EBPFTOP_NO_PID_ITER", test_exact_counts, setup,
		  teardown, (void *)no_pid_iter },
		{ "exact_counts/both fallbacks", test_exact_counts, setup,
		  teardown, (void *)no_iters },
		{ "exact_counts/NO_STATS_ITER, RLIMIT_NOFILE=258", test_exact_counts, setup,
		  teardown, (void *)few_fds },
		{ "steady_rate", test_steady_rate, setup, teardown, NULL },
		{ "filter_and_sort", test_filter_and_sort, setup, teardown, NULL },
		{ "link_owner", test_link_owner, setup, teardown, (void *)plain },
		{ "link_owner/EBPFTOP_NO_PID_ITER", test_link_owner, setup,
		  teardown, (void *)no_pid_iter },
		{ "link_owner/EBPFTOP_PID_ITER_PROBE", test_link_owner, setup,
		  teardown, (void *)pid_probe },
		{ "unload", test_unload, setup, teardown, (void *)plain },
		{ "unload/EBPFTOP_NO_PROG_ITER", test_unload, setup, teardown,
		  (void *)no_prog_iter },
		{ "unload/EBPFTOP_NO_STATS_ITER", test_unload, setup, teardown,
		  (void *)no_stats_iter },
		{ "unload/NO_STATS_ITER, RLIMIT_NOFILE=258", test_unload, setup,
		  teardown, (void *)few_fds },
		{ "paths_agree", test_paths_agree, setup, teardown, NULL },
		{ "new_owner", test_new_owner, setup, teardown, (void *)plain },
		{ "new_owner/EBPFTOP_NO_PID_ITER", test_new_owner, setup, teardown,
		  (void *)no_pid_iter },
		{ "new_owner/EBPFTOP_PID_ITER_PROBE", test_new_owner, setup, teardown,
		  (void *)pid_probe },
		{ "late_owner", test_late_owner, setup, teardown, (void *)plain },
	};

	tl_require();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
