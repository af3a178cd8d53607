// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program table under churn, on each collection path: programs of our
 * own come and go between refreshes (a third unloaded, new ones loaded,
 * some run), and after every refresh the table must list exactly the ones
 * loaded, in id order, once each, with their names, exact counters, and a
 * previous sample for those that were there before and none for new ones,
 * each shown once to the table's hook for new programs.
 * The counters path merges the table in place: this is its test.
 * And the owner walk through millions of open files that are not BPF
 * programs.
 *
 * Needs root; skips (77) otherwise, fails under EBPFTOP_TEST_STRICT=1.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <bpf/bpf.h>

#include "collect/prog_table.h"
#include "testutil.h"
#include "util/prog_info.h"

#define MAXP 4000

struct mine {
	int fd;			/* -1: unloaded */
	uint32_t id;
	char name[16];
	bool seen_before;	/* listed at the previous refresh */
	unsigned int announced;	/* times the table's hook was called for it */
};

static struct mine progs[MAXP];
static size_t nprogs;
static unsigned long serial;

static void load_one(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct mine *m = &progs[nprogs];

	assert_true(nprogs < MAXP);
	snprintf(m->name, sizeof(m->name), "ptab_%lu", serial++);
	m->fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, m->name, "GPL",
			      insns, 2, NULL);
	if (m->fd < 0)
		fail_msg("loading %s: %s", m->name, strerror(errno));
	assert_int_equal(bpf_obj_get_info_by_fd(m->fd, &info, &len), 0);
	m->id = info.id;
	m->seen_before = false;
	m->announced = 0;
	nprogs++;
}

/* Unload everything and wait until the kernel freed it (it does so a moment later). */
/*
 * Wait up to 10 s for program @id to be freed: the kernel defers it. On
 * the info path @t (if not NULL) refreshes meanwhile, as ebpftop does: an
 * fd another ebpftop instance took on the program between two owner scans
 * keeps this table from letting go until the next refresh.
 */
static void wait_gone(struct prog_table *t, uint32_t id)
{
	int64_t deadline = tu_now_ms() + 10000;

	while (tu_prog_exists(id)) {
		if (tu_now_ms() > deadline)
			fail_msg("program %u is still loaded 10 s after its last fd closed",
				 id);
		tu_sleep_ms(20);
		if (t && prog_table__mode(t) == PROG_ENUM_ITER)
			assert_int_equal(prog_table__refresh(t), 0);
	}
}

static void unload_all(void)
{
	for (size_t i = 0; i < nprogs; i++) {
		if (progs[i].fd >= 0)
			close(progs[i].fd);
		progs[i].fd = -1;
	}
	for (size_t i = 0; i < nprogs; i++) {
		if (progs[i].id)
			wait_gone(NULL, progs[i].id);
		progs[i].id = 0;
	}
}

static void run(struct mine *m, unsigned int n)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = n);

	assert_int_equal(bpf_prog_test_run_opts(m->fd, &o), 0);
}

/*
 * Unload every @nth program still loaded, and wait until the kernel freed
 * them. On the info path the table holds an fd on each and lets go at the
 * refresh after their owner (this test) did.
 */
static void unload_some(struct prog_table *t, size_t nth)
{
	for (size_t i = 0; i < nprogs; i++) {
		if (progs[i].fd >= 0 && i % nth == 0) {
			close(progs[i].fd);
			progs[i].fd = -1;
		}
	}
	if (prog_table__mode(t) == PROG_ENUM_ITER)
		assert_int_equal(prog_table__refresh(t), 0);
	for (size_t i = 0; i < nprogs; i++) {
		if (progs[i].fd < 0 && progs[i].id)
			wait_gone(t, progs[i].id);
		if (progs[i].fd < 0)
			progs[i].id = 0;
	}
}

/*
 * The table's hook: each new program of ours is shown to it once, read
 * whole (its two instructions).
 */
static void on_new(void *ctx, struct prog_info_full *f)
{
	(void)ctx;
	for (size_t k = 0; k < nprogs; k++) {
		if (progs[k].fd < 0 || progs[k].id != f->info.id)
			continue;
		assert_int_equal(f->nr_insns, 2);
		assert_int_equal(f->info.xlated_prog_len, 2 * sizeof(*f->insns));
		assert_int_equal(f->insns[1].code, BPF_JMP | BPF_EXIT);
		assert_int_equal(f->nr_map_ids, 0);
		assert_string_equal(f->info.name, progs[k].name);
		progs[k].announced++;
		return;
	}
}

/* The table lists exactly our loaded programs, right. */
static void check(struct prog_table *t, const char *what)
{
	size_t n = prog_table__count(t), found = 0;
	uint32_t last = 0;

	for (size_t i = 0; i < n; i++) {
		const struct prog_sample *s = prog_table__sample(t, i);
		const struct prog_sample *p;
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct mine *m = NULL;

		if (i && s->id <= last)
			fail_msg("%s: id %u after %u", what, s->id, last);
		last = s->id;
		for (size_t k = 0; k < nprogs; k++) {
			if (progs[k].fd >= 0 && progs[k].id == s->id) {
				m = &progs[k];
				break;
			}
		}
		if (!m) {
			if (!strncmp(s->name, "ptab_", 5))
				fail_msg("%s: %s (id %u) is listed but was unloaded",
					 what, s->name, s->id);
			continue;
		}
		found++;
		assert_string_equal(s->name, m->name);
		if (m->announced != 1)
			fail_msg("%s: %s shown to the hook %u times", what,
				 m->name, m->announced);
		assert_string_equal(s->type_name, "socket_filter");
		assert_int_equal(bpf_obj_get_info_by_fd(m->fd, &info, &len), 0);
		if (s->run_cnt != info.run_cnt || s->run_time_ns != info.run_time_ns)
			fail_msg("%s: %s counters %llu/%llu, kernel %llu/%llu", what,
				 m->name, (unsigned long long)s->run_cnt,
				 (unsigned long long)s->run_time_ns,
				 (unsigned long long)info.run_cnt,
				 (unsigned long long)info.run_time_ns);
		p = prog_table__prev(t, i);
		if (m->seen_before != (p != NULL))
			fail_msg("%s: %s has %s previous sample", what, m->name,
				 p ? "a" : "no");
		if (p && (p->id != s->id || p->run_cnt > s->run_cnt))
			fail_msg("%s: %s previous sample id %u run_cnt %llu", what,
				 m->name, p->id, (unsigned long long)p->run_cnt);
		m->seen_before = true;
	}
	for (size_t k = 0, loaded = 0; k <= nprogs; k++) {
		if (k == nprogs) {
			if (found != loaded)
				fail_msg("%s: %zu of our %zu programs listed", what,
					 found, loaded);
			break;
		}
		loaded += progs[k].fd >= 0;
	}
}

/* The ids of the table's samples, as of the latest refresh. */
static uint32_t last_ids[2 * MAXP + 65536];
static size_t nlast;

/*
 * After a refresh: prog_table__same() says true only when every sample is
 * the program at the same place at the previous refresh. Returns it.
 */
static bool check_same(struct prog_table *t)
{
	size_t n = prog_table__count(t);
	bool same = prog_table__same(t);

	assert_true(n <= sizeof(last_ids) / sizeof(last_ids[0]));
	if (same) {
		assert_int_equal(n, nlast);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(prog_table__sample(t, i)->id, last_ids[i]);
	}
	for (size_t i = 0; i < n; i++)
		last_ids[i] = prog_table__sample(t, i)->id;
	nlast = n;
	return same;
}

static void churn(enum prog_table_stats stats_iter, bool prog_iter)
{
	struct prog_table *t;
	int sfd;

	nprogs = 0;
	assert_int_equal(prog_table__new(&t, stats_iter, prog_iter, PID_SCAN_ANY), 0);
	assert_non_null(t);
	prog_table__on_new(t, on_new, NULL);
	if (stats_iter != PROG_TABLE_STATS_NONE && prog_iter)
		assert_int_equal(prog_table__mode(t), PROG_ENUM_STATS);
	else if (prog_iter)
		assert_int_equal(prog_table__mode(t), PROG_ENUM_ITER);
	else
		assert_int_equal(prog_table__mode(t), PROG_ENUM_IDS);
	for (int i = 0; i < 1500; i++)
		load_one();
	assert_int_equal(prog_table__refresh(t), 0);
	check(t, "first refresh");
	assert_false(check_same(t));	/* nothing to be the same as */
	sfd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	assert_true(sfd >= 0);
	for (int round = 0; round < 4; round++) {
		char what[32];

		snprintf(what, sizeof(what), "round %d", round);
		unload_some(t, (size_t)(3 + round));
		for (int i = 0; i < 400; i++)
			load_one();
		for (size_t k = round; k < nprogs; k += 97) {
			if (progs[k].fd >= 0)
				run(&progs[k], 10 + (unsigned int)k);
		}
		assert_int_equal(prog_table__refresh(t), 0);
		check(t, what);
		assert_false(check_same(t));	/* ours came and went */
		/* Nothing changed: the in-place update. */
		assert_int_equal(prog_table__refresh(t), 0);
		check(t, "steady");
		if (prog_table__mode(t) != PROG_ENUM_STATS) {
			/* The info paths do not tell. */
			assert_false(check_same(t));
			continue;
		}
		/*
		 * The same programs say so (other programs on the machine may
		 * come and go meanwhile: a few tries).
		 */
		for (int k = 0; !check_same(t); k++) {
			if (k == 100)
				fail_msg("100 refreshes in a row found other programs than the one before");
			tu_sleep_ms(20);
			assert_int_equal(prog_table__refresh(t), 0);
			check(t, "steady again");
		}
	}
	close(sfd);
	prog_table__free(t);
	unload_all();
}

static void test_churn_stats(void **state)
{
	churn(PROG_TABLE_STATS_ANY, true);
}

/* The counters iterator as kernels before 6.15 run it. */
static void test_churn_stats_probe(void **state)
{
	churn(PROG_TABLE_STATS_PROBE, true);
}

static void test_churn_info(void **state)
{
	churn(PROG_TABLE_STATS_NONE, true);
}

static void test_churn_ids(void **state)
{
	churn(PROG_TABLE_STATS_NONE, false);
}

/*
 * The owner walk visits every open file on the machine. The kernel ends a
 * read() of its iterator that visited a million objects without writing a
 * record with EAGAIN, and the next read() goes on from there. Children
 * holding as many descriptors of /dev/null as they may (two million and
 * more in all) are such a stretch. A child forked before them and one
 * forked after hold a program of ours (this process, which holds the
 * table's iterators, counts as an ebpftop instance, not as an owner): the
 * walk must go through the stretch, and name both.
 */
#define FILLER_TOTAL 2100000
#define FILLERS_MAX 512

/*
 * A child that holds its pipe, program @prog if not -1, and @n more
 * descriptors of /dev/null, and nothing else; says 'k' on the pipe once
 * it does, and waits to be killed.
 */
static void holder(int ready, int prog, size_t n)
{
	pid_t parent = getppid();
	int r, p = -1, null;
	char c = 'f';

	/* Gone with the test, however it ends. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	/*
	 * The pipe at 3, the program at 4: no other BPF descriptor inherited
	 * from the test, and not its output either.
	 */
	r = fcntl(ready, F_DUPFD, 100);
	if (prog >= 0)
		p = fcntl(prog, F_DUPFD, 101);
	if (r < 0 || (prog >= 0 && p < 0) || dup2(r, 3) != 3 ||
	    (p >= 0 && dup2(p, 4) != 4) || close_range(p >= 0 ? 5 : 4, ~0u, 0))
		_exit(1);
	null = open("/dev/null", O_RDONLY);
	if (null >= 0 && dup2(null, 0) == 0 && dup2(null, 1) == 1 &&
	    dup2(null, 2) == 2) {
		c = 'k';
		for (size_t k = 1; k < n; k++) {
			if (dup2(null, null + (int)k) != null + (int)k) {
				c = 'f';
				break;
			}
		}
	}
	if (write(3, &c, 1) != 1 || c != 'k')
		_exit(1);
	pause();
	_exit(0);
}

static pid_t holder_start(int ready[2], int prog, size_t n)
{
	pid_t pid = fork();
	char c = 0;

	assert_true(pid >= 0);
	if (!pid)
		holder(ready[1], prog, n);
	if (read(ready[0], &c, 1) != 1 || c != 'k')
		fail_msg("a child could not hold %zu descriptors", n);
	return pid;
}

/* Whether the table lists program @id with owner @pid. */
static bool owned_by(struct prog_table *t, uint32_t id, pid_t pid)
{
	for (size_t i = 0; i < prog_table__count(t); i++) {
		const struct prog_sample *s = prog_table__sample(t, i);

		for (uint32_t k = 0; s->id == id && k < s->nr_owners; k++) {
			if (s->owners[k].pid == (uint32_t)pid)
				return true;
		}
	}
	return false;
}

static void test_owners_past_a_million_files(void **state)
{
	static pid_t kids[FILLERS_MAX + 2];
	struct prog_table *t;
	size_t per, nkids = 0;
	struct rlimit r;
	int ready[2];

	(void)state;
	/* main() raised the soft limit to the hard one. */
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &r), 0);
	per = r.rlim_cur > 1040000 ? 1040000 : (size_t)r.rlim_cur - 16;
	if (r.rlim_cur < 1024 || (FILLER_TOTAL + per - 1) / per > FILLERS_MAX)
		fail_msg("RLIMIT_NOFILE is %llu: too many children would be needed",
			 (unsigned long long)r.rlim_cur);
	nprogs = 0;
	load_one();
	assert_int_equal(prog_table__new(&t, PROG_TABLE_STATS_ANY, true,
					 PID_SCAN_ANY), 0);
	assert_int_equal(pipe(ready), 0);
	kids[nkids++] = holder_start(ready, progs[0].fd, 0);
	for (size_t held = 0; held < FILLER_TOTAL; held += per)
		kids[nkids++] = holder_start(ready, -1, per);
	kids[nkids++] = holder_start(ready, progs[0].fd, 0);
	close(ready[0]);
	close(ready[1]);

	assert_int_equal(prog_table__refresh(t), 0);
	if (!owned_by(t, progs[0].id, kids[0]) ||
	    !owned_by(t, progs[0].id, kids[nkids - 1]))
		fail_msg("%s: the children before and after %zu others holding "
			 "%zu descriptors each are not both its owners",
			 progs[0].name, nkids - 2, per);

	for (size_t i = 0; i < nkids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	prog_table__free(t);
	unload_all();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_churn_stats),
		cmocka_unit_test(test_churn_stats_probe),
		cmocka_unit_test(test_churn_info),
		cmocka_unit_test(test_churn_ids),
		cmocka_unit_test(test_owners_past_a_million_files),
	};
	struct rlimit r;

	tu_require_bpf();
	tu_lock();
	/*
	 * The info path holds an fd per program, ours and every other
	 * program loaded on the machine: as many as the hard limit allows.
	 */
	if (getrlimit(RLIMIT_NOFILE, &r))
		tu_die("cannot read RLIMIT_NOFILE: %s", strerror(errno));
	r.rlim_cur = r.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &r))
		tu_die("cannot raise RLIMIT_NOFILE: %s", strerror(errno));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
