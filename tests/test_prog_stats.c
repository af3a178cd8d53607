// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters iterator (src/collect/prog_stats.c) against the kernel's own
 * BPF_OBJ_GET_INFO_BY_FD: for a few thousand programs of our own, some run
 * on each CPU with BPF_PROG_TEST_RUN and then left idle, every program's
 * run_cnt, run_time_ns, recursion_misses, type and tag must be equal,
 * exactly, and every program must be listed once, in id order: with the
 * iterator that loads here (plain loads from Linux 6.15 on) and with the
 * one older kernels load (probe reads). Also the parser of the
 * possible-CPU list.
 *
 * Needs root; skips (77) otherwise, fails under EBPFTOP_TEST_STRICT=1.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>
#include <bpf/bpf.h>

#include "collect/prog_stats.h"
#include "testutil.h"

/*
 * As many programs as the machine is allowed here; they load in about a
 * second. EBPFTOP_TEST_PROGS asks for fewer (the VM tier's guest, whose
 * CPU is emulated).
 */
#define NPROGS 10000
static size_t want = NPROGS;

static int fds[NPROGS];
static uint32_t ids[NPROGS];
static size_t nprogs;

/* Our programs by id, to find an iterator record's program. */
struct ref {
	uint32_t id;
	size_t i;
};
static struct ref by_id[NPROGS];

static int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static void test_parse_cpus(void **state)
{
	uint32_t c[8];

	assert_int_equal(prog_stats_parse_cpus("0-3\n", c, 8), 4);
	assert_int_equal(c[0], 0);
	assert_int_equal(c[3], 3);
	assert_int_equal(prog_stats_parse_cpus("0,2,4-5", c, 8), 4);
	assert_int_equal(c[1], 2);
	assert_int_equal(c[2], 4);
	assert_int_equal(c[3], 5);
	assert_int_equal(prog_stats_parse_cpus("7", c, 8), 1);
	assert_int_equal(c[0], 7);
	assert_int_equal(prog_stats_parse_cpus("0-8", c, 8), -E2BIG);
	assert_int_equal(prog_stats_parse_cpus("", c, 8), -EINVAL);
	assert_int_equal(prog_stats_parse_cpus("3-1", c, 8), -EINVAL);
	assert_int_equal(prog_stats_parse_cpus("a", c, 8), -EINVAL);
	assert_int_equal(prog_stats_parse_cpus("1-", c, 8), -EINVAL);
	assert_int_equal(prog_stats_parse_cpus("1;2", c, 8), -EINVAL);
}

static void unload(void)
{
	for (size_t i = 0; i < nprogs; i++)
		close(fds[i]);
	nprogs = 0;
}

static int load(void **state)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct rlimit r = { want + 256, want + 256 };
	struct rlimit old;

	getrlimit(RLIMIT_NOFILE, &old);
	if (old.rlim_cur < r.rlim_cur && setrlimit(RLIMIT_NOFILE, &r))
		return -1;
	for (size_t i = 0; i < want; i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		char name[16];
		int fd;

		/* i < NPROGS: the modulo only tells the compiler so. */
		snprintf(name, sizeof(name), "pstat_%u", (unsigned int)(i % NPROGS));
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL",
				   insns, 2, NULL);
		if (fd < 0) {
			fprintf(stderr, "program %zu: %s\n", i, strerror(errno));
			unload();
			return -1;
		}
		fds[nprogs] = fd;
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			unload();
			return -1;
		}
		ids[nprogs] = info.id;
		by_id[nprogs] = (struct ref){ .id = info.id, .i = nprogs };
		nprogs++;
	}
	qsort(by_id, nprogs, sizeof(by_id[0]), ref_cmp);
	return 0;
}

static int unload_teardown(void **state)
{
	unload();
	return 0;
}

/* Run program @i @n times on @cpu (if the machine has it). */
static void run_on(size_t i, unsigned int cpu, unsigned int n)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = n);
	cpu_set_t set, saved;

	if (sched_getaffinity(0, sizeof(saved), &saved))
		fail_msg("sched_getaffinity: %s", strerror(errno));
	if (!CPU_ISSET(cpu, &saved))
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail_msg("sched_setaffinity %u: %s", cpu, strerror(errno));
	if (bpf_prog_test_run_opts(fds[i], &o))
		fail_msg("test run of program %u: %s", ids[i], strerror(errno));
	sched_setaffinity(0, sizeof(saved), &saved);
}

/* Every program of ours in one read, equal to its info, exactly. */
static void compare(struct prog_stats_iter *it, const char *round)
{
	const struct prog_stats_entry *e;
	size_t n, found = 0, ran = 0;
	uint32_t last = 0;

	assert_int_equal(prog_stats_iter__read(it, &e, &n), 0);
	for (size_t k = 0; k < n; k++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct ref key = { .id = e[k].id }, *r;
		size_t i;

		if (k && e[k].id <= last)
			fail_msg("%s: id %u after %u: not in id order", round,
				 e[k].id, last);
		last = e[k].id;
		r = bsearch(&key, by_id, nprogs, sizeof(by_id[0]), ref_cmp);
		if (!r)
			continue;
		i = r->i;
		found++;
		assert_int_equal(bpf_obj_get_info_by_fd(fds[i], &info, &len), 0);
		if (info.run_cnt != e[k].run_cnt ||
		    info.run_time_ns != e[k].run_time_ns ||
		    info.recursion_misses != e[k].recursion_misses ||
		    info.type != e[k].type ||
		    memcmp(info.tag, e[k].tag, sizeof(info.tag)))
			fail_msg("%s: program %u: iterator run_cnt %llu run_time_ns %llu misses %llu type %u, info %llu %llu %llu %u%s",
				 round, e[k].id,
				 (unsigned long long)e[k].run_cnt,
				 (unsigned long long)e[k].run_time_ns,
				 (unsigned long long)e[k].recursion_misses,
				 e[k].type, (unsigned long long)info.run_cnt,
				 (unsigned long long)info.run_time_ns,
				 (unsigned long long)info.recursion_misses,
				 info.type,
				 memcmp(info.tag, e[k].tag, 8) ? ", tags differ" : "");
		ran += info.run_cnt > 0;
	}
	if (found != nprogs)
		fail_msg("%s: %zu of our %zu programs listed", round, found, nprogs);
	printf("# %s: %zu programs read, ours all equal to their info (%zu have runs)\n",
	       round, n, ran);
	assert_true(ran >= 3);
}

/* Whether the running kernel is @major.@minor or later. */
static bool kernel_at_least(unsigned int major, unsigned int minor)
{
	struct utsname u;
	unsigned int a = 0, b = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &a, &b) != 2)
		fail_msg("cannot read the kernel's version");
	return a > major || (a == major && b >= minor);
}

/*
 * @probe_only: the iterator with probe reads, as kernels before 6.15 load
 * it; else whichever loads, which from 6.15 on must be the plain loads.
 */
static void exact(bool probe_only)
{
	struct prog_stats_iter *it;
	enum prog_stats_read how;
	int err, sfd;

	err = prog_stats_iter__open(&it, probe_only);
	if (err)
		fail_msg("the counters iterator%s does not load on this kernel: %s",
			 probe_only ? " with probe reads" : "", strerror(-err));
	assert_true(prog_stats_iter__prog_id(it) > 0);
	how = prog_stats_iter__how(it);
	printf("# the iterator reads with %s\n",
	       how == PROG_STATS_PLAIN ? "plain loads" : "probe reads");
	if (probe_only && how != PROG_STATS_PROBE)
		fail_msg("asked for probe reads, the iterator reads otherwise");
	if (!probe_only && how != PROG_STATS_PLAIN && kernel_at_least(6, 15))
		fail_msg("on Linux 6.15 or later the iterator must read with plain loads, not probe reads");

	sfd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (sfd < 0)
		fail_msg("BPF_ENABLE_STATS: %s", strerror(errno));
	/* On one CPU, on the other, on both; first, middle, last program. */
	run_on(0, 0, 100000);
	run_on(nprogs / 2, 1, 200000);
	run_on(nprogs - 1, 0, 400007);
	run_on(nprogs - 1, 1, 4321);
	close(sfd);
	compare(it, "round 1");

	sfd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	assert_true(sfd >= 0);
	run_on(0, 1, 777);
	run_on(1, 0, 5);
	close(sfd);
	compare(it, "round 2");
	prog_stats_iter__free(it);
}

static void test_exact(void **state)
{
	exact(false);
}

static void test_exact_probe(void **state)
{
	exact(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cpus),
		cmocka_unit_test_setup_teardown(test_exact, load,
						unload_teardown),
		cmocka_unit_test_setup_teardown(test_exact_probe, load,
						unload_teardown),
	};
	const char *env = getenv("EBPFTOP_TEST_PROGS");

	if (env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (*end || v < 3 || v > NPROGS)
			tu_die("EBPFTOP_TEST_PROGS must be 3 to %d, not '%s'",
			       NPROGS, env);
		want = v;
	}
	tu_require_bpf();
	tu_lock();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
