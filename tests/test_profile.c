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
 * reason, and a target unloaded while profiled ends the profile.
 *
 * EBPFTOP_VM_GUEST=1 (the VM tier sets it) makes the refusal a failure.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "profiler/events.h"
#include "profiler/profiler.h"
#include "testutil.h"

#define RUNS 1000 /* test runs while attached: TCG is slow, keep it modest */

static int failures;
static char ebpftop[4096];

__attribute__((format(printf, 1, 2))) static void check_fail(const char *fmt,
							     ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			check_fail(__VA_ARGS__);                               \
	} while (0)

/* Report a group of checks: ok when none of them failed. */
static void ok(const char *what)
{
	static int seen;

	printf("%s: %s\n", failures == seen ? "ok" : "not ok", what);
	seen = failures;
	fflush(stdout);
}

/* ---- kernel state -----------------------------------------------------------
 */

/* The BTF type id of program @id's main function (0: none). */
static uint32_t prog_func(uint32_t id)
{
	struct bpf_prog_info info = {};
	struct bpf_func_info fi = {};
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	uint32_t type = 0;

	if (fd < 0)
		return 0;
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(fi);
	info.func_info = (__u64)(unsigned long)&fi;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.nr_func_info)
		type = fi.type_id;
	close(fd);
	return type;
}

/* Tracing links attached to program @id; their programs in @progs. */
static size_t links_on(uint32_t id, uint32_t *progs, size_t max)
{
	__u32 lid = 0;
	size_t n = 0;

	while (!bpf_link_get_next_id(lid, &lid)) {
		struct bpf_link_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(lid);

		if (fd < 0)
			continue; /* gone meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.type == BPF_LINK_TYPE_TRACING &&
		    info.tracing.target_obj_id == id) {
			if (n < max)
				progs[n] = info.prog_id;
			n++;
		}
		close(fd);
	}
	return n;
}

/*
 * The profiler's programs for function @func (of testload's BTF), attached
 * or not, and calibration programs: what must not outlive a profile.
 */
static size_t progs_left(uint32_t func)
{
	__u32 id = 0;
	size_t n = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    ((info.type == BPF_PROG_TYPE_TRACING &&
		      info.attach_btf_id == func &&
		      !strncmp(info.name, "ebpftop_f", 9)) ||
		     !strcmp(info.name, "ebpftop_calib")))
			n++;
		close(fd);
	}
	return n;
}

/* Wait up to @ms for nothing of the profiler to be left on @id. */
static bool nothing_left(uint32_t id, uint32_t func, int ms)
{
	int64_t deadline = tu_now_ms() + ms;

	/* Programs are freed after an RCU grace period: poll. */
	while (links_on(id, NULL, 0) || progs_left(func)) {
		if (tu_now_ms() > deadline)
			return false;
		tu_sleep_ms(50);
	}
	return true;
}

/* ---- ebpftop -b -j -p -------------------------------------------------------
 */

static int start_ebpftop(struct tu_proc *p, uint32_t id, const char *events,
			 const char *delay)
{
	char ids[16];
	char *argv[] = {ebpftop,      (char *)"-b",  (char *)"-j",
			(char *)"-d", (char *)delay, (char *)"-p",
			ids,	      (char *)"-e",  (char *)events,
			NULL};

	snprintf(ids, sizeof(ids), "%u", id);
	return tu_spawn(p, argv, NULL, false);
}

/*
 * Read records until one has a profile whose runs reach @want (or any
 * profile when @want is 0); NULL after @ms. The caller frees it.
 */
static struct json_object *profile_until(struct tu_proc *p, uint64_t want,
					 int ms, struct json_object **rec_out)
{
	int64_t deadline = tu_now_ms() + ms;

	for (;;) {
		int64_t left = deadline - tu_now_ms();
		struct json_object *rec, *prof;
		uint64_t runs;

		if (left <= 0)
			return NULL;
		rec = tu_next_record(p, (int)left, NULL);
		if (!rec)
			return NULL;
		prof = tu_get(rec, "profile");
		if (prof && tu_u64(prof, "runs", &runs) && (runs >= want)) {
			*rec_out = rec;
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

/* Stop ebpftop with @sig; its exit status (-1: still running). */
static int stop(struct tu_proc *p, int sig)
{
	tu_signal(p, sig);
	tu_wait(p, 10000);
	return tu_exit_code(p);
}

/* ---- the checks
 * -------------------------------------------------------------- */

/* Where the kernel refuses trampolines: the message, and nothing left. */
static void check_refusal(struct testload *t, uint32_t func)
{
	char ids[16], want[512], *err = NULL;
	char *argv[] = {ebpftop,      (char *)"-b", (char *)"-p", ids,
			(char *)"-n", (char *)"1",  NULL};
	int rc;

	snprintf(ids, sizeof(ids), "%u", t->ids[TL_XDP]);
	/* Default events: the refusal comes before any counter is opened. */
	rc = tu_run(argv, NULL, 30000, NULL, &err);
	snprintf(
		want, sizeof(want),
		"ebpftop: cannot profile program %u: the kernel refused to "
		"load the profiler's fentry/fexit programs (EPERM): lockdown "
		"or an LSM policy may forbid BPF trampolines on this machine\n",
		t->ids[TL_XDP]);
	CHECK(rc == 1, "ebpftop -b -p %u -n 1 exited %d, want 1",
	      t->ids[TL_XDP], rc);
	CHECK(err && !strcmp(err, want), "stderr is \"%s\", want \"%s\"",
	      err ? err : "", want);
	free(err);
	CHECK(nothing_left(t->ids[TL_XDP], func, 3000),
	      "a refused profile left a tracing or calibration program loaded");
	ok("the kernel's refusal of fentry is reported as such, exit 1, "
	   "nothing left");
}

static void check_no_btf(struct testload *t)
{
	char ids[16], want[256], *err = NULL;
	char *argv[] = {ebpftop,      (char *)"-b", (char *)"-p",
			ids,	      (char *)"-e", (char *)"cpu-clock",
			(char *)"-n", (char *)"1",  NULL};
	int rc;

	snprintf(ids, sizeof(ids), "%u", t->ids[TL_UNNAMED]);
	rc = tu_run(argv, NULL, 30000, NULL, &err);
	snprintf(want, sizeof(want),
		 "program %u has no BTF; fentry needs it: build it with -g",
		 t->ids[TL_UNNAMED]);
	CHECK(rc == 1, "-p on a program without BTF exited %d, want 1", rc);
	CHECK(err && strstr(err, want), "stderr \"%s\" lacks \"%s\"",
	      err ? err : "", want);
	free(err);
	ok("a target without BTF is refused with its reason");
}

static void check_gone_id(void)
{
	char *err = NULL;
	char *argv[] = {
		ebpftop,      (char *)"-b", (char *)"-p", (char *)"4294967295",
		(char *)"-n", (char *)"1",  NULL};
	int rc = tu_run(argv, NULL, 30000, NULL, &err);

	CHECK(rc == 1 && err && strstr(err, "does not exist"),
	      "-p on a missing id: exit %d, \"%s\"", rc, err ? err : "");
	free(err);
	ok("a missing program is refused");
}

/* The run count is exactly the test runs made while attached. */
static void check_runs(struct testload *t, uint32_t func)
{
	struct json_object *rec = NULL, *prof, *e;
	uint64_t cnt0, cnt1, ns, runs = 0, partial = 0, pid = 0;
	struct tu_proc p;
	double v;
	int rc;

	if (start_ebpftop(&p, t->ids[TL_XDP], "cpu-clock", "0.5"))
		tu_die("cannot start ebpftop");
	prof = profile_until(&p, 0, 60000, &rec);
	if (!prof) {
		char *err = tu_stderr(&p);

		check_fail("no profile from ebpftop -p: %s", err);
		free(err);
		tu_proc_free(&p);
		return;
	}
	CHECK(tu_u64(prof, "runs", &runs) && runs == 0,
	      "runs before any test run: %llu", (unsigned long long)runs);
	json_object_put(rec);
	if (tl_info(t, TL_XDP, &cnt0, &ns) ||
	    tl_run(t, TL_XDP, RUNS, &cnt1, &ns))
		tu_die("testload does not answer");
	prof = profile_until(&p, RUNS, 20000, &rec);
	CHECK(prof, "the profile never reached %d runs", RUNS);
	if (prof) {
		tu_u64(prof, "runs", &runs);
		CHECK(runs == RUNS, "profile runs %llu, want exactly %d",
		      (unsigned long long)runs, RUNS);
		CHECK(cnt1 - cnt0 == RUNS, "the kernel counted %llu runs",
		      (unsigned long long)(cnt1 - cnt0));
		CHECK(tu_u64(prof, "partial_runs", &partial) && partial == 0,
		      "partial runs with a software counter: %llu",
		      (unsigned long long)partial);
		CHECK(tu_u64(prof, "id", &pid) && pid == t->ids[TL_XDP],
		      "profile id %llu", (unsigned long long)pid);
		e = event0(prof);
		CHECK(e && !strcmp(json_object_get_string(tu_get(e, "name")),
				   "cpu-clock"),
		      "the event is not cpu-clock");
		v = tu_num(e, "per_run");
		CHECK(v > 0, "cpu-clock per_run %.3f, want > 0", v);
		v = tu_num(e, "enabled_pct");
		CHECK(v == 100.0, "cpu-clock enabled_pct %.3f, want 100", v);
		CHECK(tu_has(prof, "topdown") && !tu_get(prof, "topdown"),
		      "topdown is not null for cpu-clock");
		v = tu_num(prof, "overhead_ns_per_run");
		CHECK(!isnan(v) && v >= 0,
		      "overhead_ns_per_run not calibrated on an XDP target");
		json_object_put(rec);
	}
	/* While attached, the pair is there; after SIGTERM, not. */
	CHECK(links_on(t->ids[TL_XDP], NULL, 0) == 2,
	      "%zu tracing links on the target, want fentry + fexit",
	      links_on(t->ids[TL_XDP], NULL, 0));
	rc = stop(&p, SIGTERM);
	CHECK(rc == 0, "ebpftop exited %d after SIGTERM, want 0", rc);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "a tracing program is still loaded after ebpftop exited");
	tu_proc_free(&p);
	ok("runs equal the test runs made while attached; cpu-clock per run > "
	   "0; nothing left after SIGTERM");
}

/* A group of software events; SIGKILL leaves nothing behind. */
static void check_sigkill(struct testload *t, uint32_t func)
{
	struct json_object *rec = NULL, *prof, *ev;
	uint64_t cnt, ns, runs = 0;
	struct tu_proc p;

	if (start_ebpftop(&p, t->ids[TL_XDP],
			  "cpu-clock,task-clock,page-faults,context-switches,"
			  "cpu-migrations",
			  "0.5"))
		tu_die("cannot start ebpftop");
	prof = profile_until(&p, 0, 60000, &rec);
	CHECK(prof, "no profile with five software events");
	if (prof) {
		ev = tu_get(prof, "events");
		CHECK(ev && json_object_array_length(ev) == 5,
		      "%zu events, want 5",
		      ev ? json_object_array_length(ev) : 0);
		json_object_put(rec);
		if (tl_run(t, TL_XDP, 200, &cnt, &ns))
			tu_die("testload does not answer");
		prof = profile_until(&p, 200, 20000, &rec);
		CHECK(prof && tu_u64(prof, "runs", &runs) && runs == 200,
		      "five events: runs %llu, want 200",
		      prof ? (unsigned long long)runs : 0ull);
		if (prof)
			json_object_put(rec);
	}
	stop(&p, SIGKILL);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "a tracing program is still loaded after SIGKILL");
	tu_proc_free(&p);
	ok("five events in one group; nothing left after SIGKILL");
}

/* The library itself: detach ("p" again) and attach again. */
static void check_detach(struct testload *t, uint32_t func)
{
	struct profile_report r;
	struct event_set set;
	struct profiler *p;
	uint32_t own[2];
	uint64_t cnt, ns;
	char msg[256];

	if (events_parse("cpu-clock", &set, msg, sizeof(msg)))
		tu_die("events: %s", msg);
	for (int round = 0; round < 2; round++) {
		unsigned int flags = round ? PROFILER_NO_CALIBRATE : 0;
		unsigned long n = round ? 50 : 100;

		if (profiler__new(&p, t->ids[TL_XDP], &set, flags, msg,
				  sizeof(msg))) {
			check_fail("profiler__new: %s", msg);
			return;
		}
		profiler__own_ids(p, own);
		CHECK(own[0] && own[1] && tu_prog_exists(own[0]) &&
			      tu_prog_exists(own[1]),
		      "the fentry/fexit programs are not loaded");
		CHECK(!profiler__read(p, &r) && r.runs == 0,
		      "runs before running: %llu", (unsigned long long)r.runs);
		if (!round)
			CHECK(!isnan(r.overhead_ns_per_run) &&
				      !isnan(r.ev[0].baseline_per_run),
			      "calibration gave nothing: %s", r.overhead_note);
		if (tl_run(t, TL_XDP, n, &cnt, &ns))
			tu_die("testload does not answer");
		CHECK(!profiler__read(p, &r) && r.runs == n,
		      "round %d: runs %llu, want %lu", round,
		      (unsigned long long)r.runs, n);
		profiler__free(p);
		CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
		      "round %d: detach left programs", round);
		CHECK(!tu_prog_exists(own[0]) && !tu_prog_exists(own[1]),
		      "round %d: the fentry/fexit programs outlive detach",
		      round);
	}
	ok("detach leaves nothing loaded, and attaching again works");
}

/* fentry/fexit cannot attach to a tracing program: refused, not crashed. */
static void check_tracing_target(struct testload *t, uint32_t func)
{
	char ids[16], *err = NULL;
	char *argv[] = {ebpftop,      (char *)"-b", (char *)"-p",
			ids,	      (char *)"-e", (char *)"cpu-clock",
			(char *)"-n", (char *)"1",  NULL};
	struct json_object *rec = NULL;
	struct tu_proc p;
	uint32_t own[2];
	int rc;

	if (start_ebpftop(&p, t->ids[TL_XDP], "cpu-clock", "0.5"))
		tu_die("cannot start ebpftop");
	if (!profile_until(&p, 0, 60000, &rec) ||
	    links_on(t->ids[TL_XDP], own, 2) != 2) {
		check_fail("no profiler to point at");
		stop(&p, SIGTERM);
		tu_proc_free(&p);
		return;
	}
	json_object_put(rec);
	snprintf(ids, sizeof(ids), "%u", own[0]);
	rc = tu_run(argv, NULL, 30000, NULL, &err);
	CHECK(rc == 1 && err && strstr(err, "is a tracing program"),
	      "-p on a tracing program: exit %d, \"%s\"", rc, err ? err : "");
	free(err);
	stop(&p, SIGTERM);
	tu_proc_free(&p);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "programs left after the tracing check");
	ok("a tracing target is refused with its reason");
}

/* Default events where there is no PMU: refused with advice, nothing left. */
static void check_hw_events(struct testload *t, uint32_t func)
{
	char ids[16], *err = NULL;
	char *argv[] = {ebpftop,      (char *)"-b", (char *)"-p", ids,
			(char *)"-n", (char *)"1",  NULL};
	int rc;

	snprintf(ids, sizeof(ids), "%u", t->ids[TL_XDP]);
	rc = tu_run(argv, NULL, 60000, NULL, &err);
	if (rc == 0) {
		ok("default (hardware) events open here");
	} else {
		CHECK(rc == 1 && err && strstr(err, "use -e sw"),
		      "default events: exit %d, \"%s\"", rc, err ? err : "");
		ok("without a PMU, default events are refused with advice (-e "
		   "sw)");
	}
	free(err);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "programs left after the hardware check");
}

/* The target's owner unloads it while profiled: the profile ends. */
static void check_unloaded(void)
{
	struct json_object *rec = NULL, *prof;
	struct testload t2;
	uint64_t cnt, ns;
	struct tu_proc p;
	int64_t deadline;
	bool ended = false;
	char who[256], *err;
	uint32_t id;

	if (tl_start(&t2))
		tu_die("cannot start a second testload");
	id = t2.ids[TL_XDP];
	if (start_ebpftop(&p, id, "cpu-clock", "0.3"))
		tu_die("cannot start ebpftop");
	prof = profile_until(&p, 0, 60000, &rec);
	CHECK(prof, "no profile of the second testload's program");
	if (prof)
		json_object_put(rec);
	if (tl_run(&t2, TL_XDP, 10, &cnt, &ns))
		tu_die("testload does not answer");
	prof = profile_until(&p, 10, 20000, &rec);
	if (prof)
		json_object_put(rec);
	CHECK(tl_stop(&t2), "the second testload did not exit");
	tu_proc_free(&t2.p);
	/* A record without a profile, and ebpftop still running. */
	deadline = tu_now_ms() + 15000;
	while (!ended && tu_now_ms() < deadline) {
		rec = tu_next_record(&p, 1000, NULL);
		if (!rec)
			continue;
		ended = tu_has(rec, "profile") && !tu_get(rec, "profile");
		json_object_put(rec);
	}
	CHECK(ended, "the profile did not end after its program was unloaded");
	CHECK(tu_exit_code(&p) == -1, "ebpftop exited when the target went");
	err = tu_stderr(&p);
	CHECK(strstr(err, "profiling stopped"), "no message on stderr: \"%s\"",
	      err);
	free(err);
	CHECK(stop(&p, SIGTERM) == 0, "ebpftop did not exit cleanly");
	tu_proc_free(&p);
	CHECK(tu_wait_prog_gone(id, 5000, who, sizeof(who)),
	      "the unloaded program is still loaded, held by%s", who);
	ok("a target unloaded while profiled ends the profile with a message");
}

/* ---- the TUI, in tmux: key p
 * ------------------------------------------------- */

static char tmux_bin[512], tmux_sock[64], tmux_dir[64];
/* tmux wants a UTF-8 locale and a terminal it knows, wherever it runs. */
static const char *const tmux_env[] = {"TERM=screen", "LC_ALL=C.UTF-8", NULL};

static bool find_tmux(void)
{
	const char *path = getenv("PATH");
	char buf[4096], *save = NULL;

	snprintf(buf, sizeof(buf), "%s",
		 path && *path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(buf, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(tmux_bin, sizeof(tmux_bin), "%s/tmux", d);
		if (!access(tmux_bin, X_OK))
			return true;
	}
	return false;
}

/* tmux -L SOCK -f /dev/null ARGS...; its exit status, its output in @out. */
static int tmux(char **out, const char *a0, const char *a1, const char *a2,
		const char *a3)
{
	char *argv[] = {tmux_bin,     (char *)"-L",	   tmux_sock,
			(char *)"-f", (char *)"/dev/null", (char *)a0,
			(char *)a1,   (char *)a2,	   (char *)a3,
			NULL};

	return tu_run(argv, tmux_env, 10000, out, NULL);
}

static char *screen_text(void)
{
	char *out = NULL;

	if (tmux(&out, "capture-pane", "-p", "-t", "prof")) {
		free(out);
		return NULL;
	}
	return out;
}

/* Poll the screen until it shows @needle; the last screen in *@last. */
static bool wait_screen(const char *needle, int ms, char **last)
{
	int64_t deadline = tu_now_ms() + ms;

	for (;;) {
		char *s = screen_text();

		if (s && strstr(s, needle)) {
			free(*last);
			*last = s;
			return true;
		}
		if (s) {
			free(*last);
			*last = s;
		}
		if (tu_now_ms() > deadline)
			return false;
		tu_sleep_ms(200);
	}
}

static void keys(const char *k)
{
	tmux(NULL, "send-keys", "-t", "prof", k);
}

/* Wait for the TUI to exit; its exit status (-1: still running). */
static int tui_exit(int ms)
{
	int64_t deadline = tu_now_ms() + ms;
	char path[128];
	FILE *f;
	int rc = -1;

	while (!tmux(NULL, "has-session", "-t", "prof", NULL)) {
		if (tu_now_ms() > deadline)
			return -1;
		tu_sleep_ms(100);
	}
	snprintf(path, sizeof(path), "%s/rc", tmux_dir);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%d", &rc) != 1)
			rc = -1;
		fclose(f);
	}
	return rc;
}

/*
 * Press p on testload's XDP program in the TUI: where fentry works the pane
 * shows its runs, p again stops with nothing left, q exits; where it is
 * refused the pane says why and the TUI runs on.
 */
static void check_tui(struct testload *t, uint32_t func, bool works)
{
	char cmd[8192], want[256], *last = NULL;
	uint64_t cnt, ns;
	int rc;

	if (!find_tmux()) {
		if (works && tu_strict())
			check_fail("no tmux: the TUI check cannot run");
		else
			printf("# no tmux: skipping the TUI check\n");
		return;
	}
	snprintf(tmux_sock, sizeof(tmux_sock), "ebpftop-prof-%d",
		 (int)getpid());
	snprintf(tmux_dir, sizeof(tmux_dir), "/tmp/ebpftop-prof-%d",
		 (int)getpid());
	mkdir(tmux_dir, 0700);
	/* Sorted by id, filtered on testload's pid: its XDP program is first.
	 */
	snprintf(cmd, sizeof(cmd),
		 "TERM=screen %s -s id -f %d -e cpu-clock -d 0.5; echo $? > "
		 "%s/rc",
		 ebpftop, (int)t->pid, tmux_dir);
	{
		char *argv[] = {tmux_bin,
				(char *)"-L",
				tmux_sock,
				(char *)"-f",
				(char *)"/dev/null",
				(char *)"new-session",
				(char *)"-d",
				(char *)"-s",
				(char *)"prof",
				(char *)"-x",
				(char *)"160",
				(char *)"-y",
				(char *)"40",
				cmd,
				NULL};

		if (tu_run(argv, tmux_env, 10000, NULL, NULL)) {
			check_fail("cannot start tmux");
			return;
		}
	}
	if (!wait_screen("xdp_test_pass", 30000, &last)) {
		check_fail("the TUI never listed testload's program:\n%s",
			   last ? last : "");
		goto out;
	}
	keys("p");
	if (!works) {
		CHECK(wait_screen("lockdown or an LSM policy", 30000, &last),
		      "p did not say why the kernel refused:\n%s", last);
		keys("p");
		CHECK(wait_screen("pProfile", 5000, &last) &&
			      !strstr(last, "profile (p closes)"),
		      "p did not close the message:\n%s", last);
		keys("q");
		rc = tui_exit(10000);
		CHECK(rc == 0, "the TUI exited %d after q", rc);
		CHECK(nothing_left(t->ids[TL_XDP], func, 3000),
		      "programs left after the TUI's refused p");
		ok("TUI: p on a refusing kernel shows why in the pane, and the "
		   "TUI runs on");
		goto out;
	}
	snprintf(want, sizeof(want),
		 "profile of program %u xdp_test_pass: 0 runs", t->ids[TL_XDP]);
	if (!wait_screen(want, 60000, &last)) {
		check_fail("p opened no profile of %u:\n%s", t->ids[TL_XDP],
			   last ? last : "");
		goto quit;
	}
	CHECK(links_on(t->ids[TL_XDP], NULL, 0) == 2,
	      "the TUI's profile is not attached");
	if (tl_run(t, TL_XDP, 100, &cnt, &ns))
		tu_die("testload does not answer");
	snprintf(want, sizeof(want),
		 "profile of program %u xdp_test_pass: 100 runs",
		 t->ids[TL_XDP]);
	CHECK(wait_screen(want, 20000, &last),
	      "the pane never showed 100 runs:\n%s", last);
	CHECK(strstr(last, "cpu-clock"), "the pane lacks the event:\n%s", last);
	if (getenv("EBPFTOP_TEST_SHOW"))
		printf("# the screen:\n%s", last);
	keys("p");
	CHECK(wait_screen("profiling stopped", 10000, &last),
	      "p again did not stop:\n%s", last);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "p again left the profiler loaded");
	/* Again, then q: exit detaches it too. */
	keys("p");
	snprintf(want, sizeof(want),
		 "profile of program %u xdp_test_pass: 0 runs", t->ids[TL_XDP]);
	CHECK(wait_screen(want, 60000, &last),
	      "a second p did not profile:\n%s", last);
quit:
	keys("q");
	rc = tui_exit(10000);
	CHECK(rc == 0, "the TUI exited %d after q", rc);
	CHECK(nothing_left(t->ids[TL_XDP], func, 5000),
	      "q left the profiler loaded");
	ok("TUI: p profiles the selected program live, p again and q leave "
	   "nothing attached");
out:
	tmux(NULL, "kill-server", NULL, NULL, NULL);
	free(last);
}

int main(void)
{
	struct testload t;
	char *err = NULL, ids[16];
	char *argv[] = {ebpftop,      (char *)"-b", (char *)"-p",
			ids,	      (char *)"-e", (char *)"cpu-clock",
			(char *)"-n", (char *)"1",  NULL};
	bool guest = getenv("EBPFTOP_VM_GUEST") &&
		     !strcmp(getenv("EBPFTOP_VM_GUEST"), "1");
	uint32_t func;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tu_require_bpf();
	tu_lock();
	tu_builddir_path("ebpftop", ebpftop, sizeof(ebpftop));
	if (tl_start(&t))
		tu_die("cannot start tests/testload");
	func = prog_func(t.ids[TL_XDP]);
	if (!func)
		tu_die("testload's XDP program has no BTF");

	/* Does this kernel let fentry/fexit attach at all? */
	snprintf(ids, sizeof(ids), "%u", t.ids[TL_XDP]);
	rc = tu_run(argv, NULL, 60000, NULL, &err);
	if (rc == 1 && err && strstr(err, "lockdown or an LSM policy")) {
		free(err);
		if (guest)
			tu_die("the VM guest's kernel refused fentry/fexit");
		printf("# this kernel refuses fentry/fexit: checking the "
		       "refusal (the VM tier checks the rest)\n");
		check_refusal(&t, func);
		check_no_btf(&t);
		check_gone_id();
		check_tui(&t, func, false);
	} else if (rc == 0) {
		free(err);
		check_runs(&t, func);
		check_sigkill(&t, func);
		check_detach(&t, func);
		check_tracing_target(&t, func);
		check_no_btf(&t);
		check_gone_id();
		check_hw_events(&t, func);
		check_tui(&t, func, true);
		check_unloaded();
	} else {
		check_fail("ebpftop -b -p %u -e cpu-clock -n 1 exited %d: %s",
			   t.ids[TL_XDP], rc, err ? err : "");
		free(err);
	}
	tl_stop(&t);
	tu_proc_free(&t.p);
	if (failures) {
		fprintf(stderr, "test_profile: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_profile: all checks passed\n");
	return 0;
}
