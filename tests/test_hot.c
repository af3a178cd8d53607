// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hot lines against the real kernel: ebpftop -j --hot ID while this test
 * drives its own programs (tests/bpf/hot_progs.bpf.c) hard, then the
 * record's "hot" member checked line by line. The marker comments in
 * that source name the lines that must be hot, cold, or charged with
 * helper time; their line numbers are read from the source itself.
 * Then the refusals: no line info, addresses hidden (kernel.kptr_restrict,
 * restored), a rate above the kernel's cap, an event nothing counts, a
 * program that is not there, and a program unloaded while sampled.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hot_progs.skel.h"
#include "testutil.h"

#define KPTR_SYSCTL "/proc/sys/kernel/kptr_restrict"
#define RATE_SYSCTL "/proc/sys/kernel/perf_event_max_sample_rate"

static char ebpftop[4096];
/* The test programs, loaded once for the whole group. */
static struct hot_progs_bpf *skel;
/* The "hot" value under test: teardown frees it, even after a failure. */
static struct json_object *cur_hot;

/* ---- the marked lines ----------------------------------------------------- */

/* The line of the test source whose text ends with "/ * @marker * /". */
static unsigned int marker_line(const char *marker)
{
	const char *top = getenv("top_srcdir");
	char path[4096], buf[512], want[64];
	unsigned int n = 0, found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/bpf/hot_progs.bpf.c",
		 top && *top ? top : "..");
	f = fopen(path, "re");
	if (!f)
		tu_die("cannot read %s: %s (set top_srcdir)", path, strerror(errno));
	snprintf(want, sizeof(want), "/* %s */", marker);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, want))
			found = n;
	}
	fclose(f);
	if (!found)
		tu_die("marker %s not found in %s", marker, path);
	return found;
}

/* ---- driving the programs --------------------------------------------------- */

struct driver {
	pthread_t t;
	int prog_fd;		/* test-run this; -1: call getpid instead */
	volatile int stop;
	unsigned long runs;
};

static void *drive(void *arg)
{
	struct driver *d = arg;
	unsigned char pkt[64] = { 0 };

	while (!d->stop) {
		if (d->prog_fd < 0) {
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getpid);
			d->runs += 1000;
			continue;
		}
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .repeat = 2000);
		if (bpf_prog_test_run_opts(d->prog_fd, &o)) {
			fprintf(stderr, "test run: %s\n", strerror(errno));
			break;
		}
		d->runs += 2000;
	}
	return NULL;
}

static void drive_start(struct driver *d, int prog_fd)
{
	memset(d, 0, sizeof(*d));
	d->prog_fd = prog_fd;
	if (pthread_create(&d->t, NULL, drive, d))
		tu_die("pthread_create failed");
}

static void drive_stop(struct driver *d)
{
	d->stop = 1;
	pthread_join(d->t, NULL);
}

/* ---- ebpftop ---------------------------------------------------------------- */

/*
 * Run ebpftop -j --hot @id for @n refreshes of 0.5 s with @extra options;
 * the last record's "hot" (a new reference) or NULL. Exit code in *@code,
 * stderr in *@err (malloc'd).
 */
static struct json_object *run_hot(uint32_t id, int n, const char *const extra[],
				   int *code, char **err)
{
	char ids[16], ns[16];
	char *argv[16] = { ebpftop, (char *)"-j", (char *)"-d", (char *)"0.5",
			   (char *)"-n", ns, (char *)"--hot", ids,
			   (char *)"-f", (char *)"hot_" };
	struct json_object *last = NULL, *hot = NULL;
	struct tu_proc p;
	bool exited;
	int argc = 10;

	snprintf(ids, sizeof(ids), "%u", id);
	snprintf(ns, sizeof(ns), "%d", n);
	for (size_t i = 0; extra && extra[i] && argc < 15; i++)
		argv[argc++] = (char *)extra[i];
	argv[argc] = NULL;
	if (tu_spawn(&p, argv, NULL, false))
		tu_die("cannot start %s", ebpftop);
	for (;;) {
		struct json_object *rec = tu_next_record(&p, 15000, NULL);

		if (!rec)
			break;
		if (last)
			json_object_put(last);
		last = rec;
	}
	exited = tu_wait(&p, 10000);
	*code = tu_exit_code(&p);
	*err = tu_stderr(&p);
	tu_proc_free(&p);
	if (last) {
		hot = tu_get(last, "hot");
		if (hot)
			json_object_get(hot);
		json_object_put(last);
	}
	tu_assert(exited, "ebpftop --hot %u did not exit", id);
	return hot;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v = tu_get(o, key);

	return v ? json_object_get_string(v) : NULL;
}

static uint64_t u64_of(struct json_object *o, const char *key)
{
	uint64_t v = 0;

	tu_u64(o, key, &v);
	return v;
}

/* The line whose source carries @marker, or NULL. */
static struct json_object *line_with(struct json_object *hot, const char *marker)
{
	struct json_object *lines = tu_get(hot, "lines");
	char want[64];

	snprintf(want, sizeof(want), "/* %s */", marker);
	for (size_t i = 0; lines && i < json_object_array_length(lines); i++) {
		struct json_object *l = json_object_array_get_idx(lines, i);
		const char *src = str_of(l, "source");

		if (src && strstr(src, want))
			return l;
	}
	return NULL;
}

/* The members, the sums and the order every "hot" value must have. */
static void check_shape(const char *what, struct json_object *hot, uint32_t id)
{
	static const char *const keys[] = { "id", "event", "freq_hz", "window_s",
					    "samples_total", "samples_in_prog",
					    "lines", "subprogs" };
	static const char *const lkeys[] = { "file", "line", "col", "source",
					     "subprog", "samples", "pct",
					     "helper_samples" };
	struct json_object *lines = tu_get(hot, "lines"), *subs;
	uint64_t in_prog = u64_of(hot, "samples_in_prog"), sum = 0, prev = UINT64_MAX;
	double pct = 0.0, spct = 0.0;
	size_t nl;

	tu_assert(json_object_object_length(hot) == 8, "%s: hot has %d members, want 8",
	      what, json_object_object_length(hot));
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		tu_assert(tu_has(hot, keys[i]), "%s: hot lacks \"%s\"", what, keys[i]);
	tu_assert(u64_of(hot, "id") == id, "%s: hot.id is not %u", what, id);
	tu_assert(u64_of(hot, "freq_hz") == 4000, "%s: freq_hz is not the default 4000", what);
	tu_assert(in_prog <= u64_of(hot, "samples_total"),
	      "%s: more samples in the program than in total", what);
	nl = lines ? json_object_array_length(lines) : 0;
	for (size_t i = 0; i < nl; i++) {
		struct json_object *l = json_object_array_get_idx(lines, i);
		uint64_t t = u64_of(l, "samples") + u64_of(l, "helper_samples");

		tu_assert(json_object_object_length(l) == 8, "%s: a line has %d members",
		      what, json_object_object_length(l));
		for (size_t k = 0; k < sizeof(lkeys) / sizeof(lkeys[0]); k++)
			tu_assert(tu_has(l, lkeys[k]), "%s: a line lacks \"%s\"", what,
			      lkeys[k]);
		tu_assert(t <= prev, "%s: lines are not hottest first", what);
		prev = t;
		sum += t;
		pct += tu_num(l, "pct");
	}
	tu_assert(sum == in_prog, "%s: the lines hold %llu samples, samples_in_prog is %llu",
	      what, (unsigned long long)sum, (unsigned long long)in_prog);
	tu_assert(fabs(pct - 100.0) <= 0.005 * (double)nl + 1e-9,
	      "%s: line shares add up to %.3f%%", what, pct);
	subs = tu_get(hot, "subprogs");
	for (size_t i = 0; subs && i < json_object_array_length(subs); i++)
		spct += tu_num(json_object_array_get_idx(subs, i), "pct");
	tu_assert(subs && fabs(spct - 100.0) <= 0.01 * 4,
	      "%s: subprogram shares add up to %.3f%%", what, spct);
}

/* Sample program @fd (driven by @driver_fd, -1: getpid) for a few seconds. */
static struct json_object *sample_prog(const char *what, int fd, int driver_fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct driver d;
	struct json_object *hot;
	char *err = NULL, msg[1024];
	int code;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		tu_die("%s: bpf_obj_get_info_by_fd: %s", what, strerror(errno));
	drive_start(&d, driver_fd);
	hot = run_hot(info.id, 5, NULL, &code, &err);
	drive_stop(&d);
	cur_hot = hot;
	snprintf(msg, sizeof(msg), "%s", err ? err : "");
	free(err);
	tu_assert(code == 0, "%s: ebpftop exited %d: %s", what, code, msg);
	tu_assert(hot, "%s: no \"hot\" in the last record; stderr: %s", what,
		  msg);
	check_shape(what, hot, info.id);
	printf("# %s: %llu of %llu samples in the program, %lu runs\n", what,
	       (unsigned long long)u64_of(hot, "samples_in_prog"),
	       (unsigned long long)u64_of(hot, "samples_total"), d.runs);
	tu_assert(u64_of(hot, "samples_in_prog") >= 500,
		  "%s: only %llu samples in a program kept busy", what,
		  (unsigned long long)u64_of(hot, "samples_in_prog"));
	return hot;
}

/* The hottest line is @marker's, on its line, with more than @min_pct. */
static void check_top(const char *what, struct json_object *hot,
		      const char *marker, double min_pct, const char *subprog)
{
	struct json_object *top, *l;

	top = json_object_array_get_idx(tu_get(hot, "lines"), 0);
	l = line_with(hot, marker);
	tu_assert(l && l == top, "%s: the hottest line is not %s's but %s", what,
	      marker, top ? json_object_to_json_string(top) : "(none)");
	tu_assert(u64_of(l, "line") == marker_line(marker),
	      "%s: %s is on line %llu, the source has it on %u", what, marker,
	      (unsigned long long)u64_of(l, "line"), marker_line(marker));
	tu_assert(tu_num(l, "pct") > min_pct, "%s: %s has %.2f%%, want over %.0f%%",
	      what, marker, tu_num(l, "pct"), min_pct);
	tu_assert(str_of(l, "file") && strstr(str_of(l, "file"), "hot_progs.bpf.c"),
	      "%s: file is %s", what, str_of(l, "file"));
	tu_assert(str_of(l, "subprog") && !strcmp(str_of(l, "subprog"), subprog),
	      "%s: %s's subprog is %s, want %s", what, marker,
	      str_of(l, "subprog"), subprog);
}

static void test_loop(void **state)
{
	int fd = bpf_program__fd(skel->progs.hot_loop);
	struct json_object *hot = sample_prog("hot loop", fd, fd), *cold;

	check_top("hot loop", hot, "HOT-LOOP", 80.0, "hot_loop");
	cold = line_with(hot, "HOT-COLD");
	tu_assert(cold, "hot loop: the line that never runs is not listed");
	tu_assert(u64_of(cold, "samples") == 0 &&
			  u64_of(cold, "helper_samples") == 0,
		  "hot loop: the line that never runs has samples: %s",
		  json_object_to_json_string(cold));
}

static void test_helper(void **state)
{
	int fd = bpf_program__fd(skel->progs.hot_helper);
	struct json_object *hot = sample_prog("helper", fd, fd), *l;

	check_top("helper", hot, "HOT-HELPER", 50.0, "hot_helper");
	l = line_with(hot, "HOT-HELPER");
	tu_assert(u64_of(l, "helper_samples") * 2 >
			  u64_of(hot, "samples_in_prog"),
		  "helper: the lookup line holds %llu helper samples of %llu",
		  (unsigned long long)u64_of(l, "helper_samples"),
		  (unsigned long long)u64_of(hot, "samples_in_prog"));
}

static void test_subprog(void **state)
{
	int fd = bpf_program__fd(skel->progs.hot_main);
	struct json_object *hot = sample_prog("subprogram", fd, fd), *subs, *l;
	bool main_seen = false, sub_seen = false;

	l = line_with(hot, "HOT-SUB");
	tu_assert(l && !strcmp(str_of(l, "subprog") ?: "", "hot_sub"),
		  "subprogram: HOT-SUB's line is not named hot_sub");
	l = line_with(hot, "HOT-MAIN");
	tu_assert(l && !strcmp(str_of(l, "subprog") ?: "", "hot_main"),
		  "subprogram: HOT-MAIN's line is not named hot_main");
	subs = tu_get(hot, "subprogs");
	for (size_t i = 0; subs && i < json_object_array_length(subs); i++) {
		struct json_object *s = json_object_array_get_idx(subs, i);
		const char *name = str_of(s, "name") ?: "";

		/* Both loops are the same length: each has a real share. */
		if (!strcmp(name, "hot_main"))
			main_seen = tu_num(s, "pct") > 10.0;
		if (!strcmp(name, "hot_sub"))
			sub_seen = tu_num(s, "pct") > 10.0;
	}
	tu_assert(main_seen && sub_seen,
		  "subprogram: want hot_main and hot_sub each over 10%%: %s",
		  json_object_to_json_string(subs));
}

static void test_tracepoint(void **state)
{
	struct bpf_link *link = bpf_program__attach(skel->progs.hot_tp);
	struct json_object *hot;

	if (!link)
		tu_die("cannot attach the tracepoint program: %s", strerror(errno));
	hot = sample_prog("tracepoint", bpf_program__fd(skel->progs.hot_tp), -1);
	bpf_link__destroy(link);
	check_top("tracepoint", hot, "HOT-TP", 60.0, "hot_tp");
}

/* Frees the "hot" under test, however its test ended. */
static int sample_teardown(void **state)
{
	json_object_put(cur_hot);
	cur_hot = NULL;
	return 0;
}

/* ---- refusals ----------------------------------------------------------------- */

/* ebpftop -b --hot @id @extra: expect exit @want and @text on stderr. */
static void refuse(const char *what, uint32_t id, const char *const extra[],
		   int want, const char *text)
{
	char ids[16];
	char *argv[16] = { ebpftop, (char *)"-b", (char *)"-n", (char *)"1",
			   (char *)"--hot", ids };
	char *out = NULL, *err = NULL, msg[1024];
	int argc = 6, code;
	bool says, one_line;

	snprintf(ids, sizeof(ids), "%u", id);
	for (size_t i = 0; extra && extra[i] && argc < 15; i++)
		argv[argc++] = (char *)extra[i];
	argv[argc] = NULL;
	code = tu_run(argv, NULL, 15000, &out, &err);
	says = err && strstr(err, text);
	one_line = err && *err && strchr(err, '\n') == err + strlen(err) - 1;
	snprintf(msg, sizeof(msg), "%s", err ? err : "");
	free(out);
	free(err);
	tu_assert(code == want, "%s: exit %d, want %d (stderr: %s)", what, code,
		  want, msg);
	tu_assert(says, "%s: stderr does not say \"%s\": %s", what, text, msg);
	tu_assert(one_line, "%s: want one line on stderr: %s", what, msg);
}

/* A socket filter loaded from bare instructions: no BTF, no line info. */
static int load_bare(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "hot_bare", "GPL",
			       insns, 2, NULL);

	if (fd < 0)
		tu_die("cannot load a bare socket filter: %s", strerror(errno));
	return fd;
}

static uint32_t id_of(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		tu_die("bpf_obj_get_info_by_fd: %s", strerror(errno));
	return info.id;
}

/* kernel.kptr_restrict as found, put back however the test ends. */
static int kptr_saved = -1;

static void kptr_restore(void)
{
	if (kptr_saved >= 0 && tu_sysctl_set(KPTR_SYSCTL, kptr_saved))
		fprintf(stderr, "cannot restore %s to %d\n", KPTR_SYSCTL, kptr_saved);
	kptr_saved = -1;
}

static void test_refusals(void **state)
{
	uint32_t id = id_of(bpf_program__fd(skel->progs.hot_loop));
	int bare = load_bare(), kptr, cap = tu_sysctl_get(RATE_SYSCTL);
	uint32_t bare_id = id_of(bare);
	char over[16];

	refuse("no line info", bare_id, NULL, 1,
	       "has no line info: build it with clang -g");
	close(bare);
	if (cap > 0 && cap < 1000000) {
		snprintf(over, sizeof(over), "%d", cap + 1);
		refuse("rate above the cap", id,
		       (const char *const[]){ "--sample-freq", over, NULL }, 1,
		       "kernel.perf_event_max_sample_rate");
	}
	/* A hardware event where no PMU counts it (this machine's case). */
	if (access("/sys/bus/event_source/devices/cpu/events/cpu-cycles", F_OK))
		refuse("event not counted here", id,
		       (const char *const[]){ "--sample-event", "cycles", NULL }, 1,
		       "try --sample-event cpu-clock");
	refuse("no such program", UINT32_MAX - 7, NULL, 1, "does not exist");
	kptr = tu_sysctl_get(KPTR_SYSCTL);
	if (kptr < 0)
		tu_skip("cannot read %s", KPTR_SYSCTL);
	kptr_saved = kptr;
	if (tu_sysctl_set(KPTR_SYSCTL, 2))
		tu_skip("cannot set %s", KPTR_SYSCTL);
	refuse("addresses hidden", id, NULL, 1, "kernel.kptr_restrict=2");
	if (tu_sysctl_set(KPTR_SYSCTL, kptr))
		tu_die("cannot restore %s to %d", KPTR_SYSCTL, kptr);
	kptr_saved = -1;
	tu_assert(tu_sysctl_get(KPTR_SYSCTL) == kptr,
		  "kernel.kptr_restrict not restored");
}

/* Puts kernel.kptr_restrict back when a refusal failed midway. */
static int refusals_teardown(void **state)
{
	kptr_restore();
	return 0;
}

/* A program unloaded while sampled: the view ends with a message. */
static void test_unload(void **state)
{
	struct hot_progs_bpf *own = hot_progs_bpf__open_and_load();
	char ids[16], msg[1024];
	char *argv[] = { ebpftop, (char *)"-j", (char *)"-d", (char *)"0.3",
			 (char *)"-n", (char *)"12", (char *)"--hot", ids,
			 (char *)"-f", (char *)"hot_", NULL };
	struct json_object *rec;
	struct tu_proc p;
	bool had = false, ended = false, says;
	char *err;
	int code;

	if (!own)
		tu_die("cannot load the test programs a second time");
	snprintf(ids, sizeof(ids), "%u", id_of(bpf_program__fd(own->progs.hot_loop)));
	if (tu_spawn(&p, argv, NULL, false))
		tu_die("cannot start ebpftop");
	while ((rec = tu_next_record(&p, 15000, NULL))) {
		bool hot = tu_get(rec, "hot") != NULL;

		if (hot && own) {
			had = true;
			hot_progs_bpf__destroy(own);
			own = NULL;
		} else if (!hot && had) {
			ended = true;
		}
		json_object_put(rec);
	}
	tu_wait(&p, 10000);
	err = tu_stderr(&p);
	says = err && strstr(err, "was unloaded or replaced");
	snprintf(msg, sizeof(msg), "%s", err ? err : "");
	free(err);
	code = tu_exit_code(&p);
	tu_proc_free(&p);
	hot_progs_bpf__destroy(own);
	tu_assert(had && ended, "unload: \"hot\" did not go null after the unload");
	tu_assert(says, "unload: stderr does not say so: %s", msg);
	tu_assert(code == 0, "unload: batch exited %d", code);
}

static int group_setup(void **state)
{
	skel = hot_progs_bpf__open();
	if (!skel)
		tu_die("cannot open the test programs");
	skel->rodata->tp_tgid = (__u32)getpid();
	if (hot_progs_bpf__load(skel))
		tu_die("cannot load the test programs: %s", strerror(errno));
	return 0;
}

static int group_teardown(void **state)
{
	hot_progs_bpf__destroy(skel);
	skel = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_loop, sample_teardown),
		cmocka_unit_test_teardown(test_helper, sample_teardown),
		cmocka_unit_test_teardown(test_subprog, sample_teardown),
		cmocka_unit_test_teardown(test_tracepoint, sample_teardown),
		cmocka_unit_test_teardown(test_refusals, refusals_teardown),
		cmocka_unit_test(test_unload),
	};

	setvbuf(stdout, NULL, _IONBF, 0);
	tu_require_bpf();
	tu_builddir_path("ebpftop", ebpftop, sizeof(ebpftop));
	tu_lock();
	/* However the run ends (a skip exits at once), the sysctl goes back. */
	atexit(kptr_restore);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
