// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: the CPU time of one bare read() of a bpf_prog iterator
 * that only counts programs (tests/bpf/count_progs.bpf.c): the floor under
 * any collection that visits every program. Prints
 * "<programs> <median cpu us per read> <min cpu us>" over PASSES reads
 * (default 31), CPU time being the thread's user+system time around
 * bpf_iter_create(), read() and close(), then the same two figures again
 * with the kernel's run-time stats on (as ebpftop has them), then with them
 * on for ebpftop's own counters iterator (src/collect/prog_stats.c), which
 * also reads each program's counters and copies them out: the kernel's
 * part of an ebpftop refresh; then the same iterator as kernels before
 * 6.15 load it, with probe reads; last one owner walk as ebpftop makes it
 * (src/collect/pids.c: the task_file iterator over every open file on the
 * machine, and the sort of what it found), when programs appear and at
 * most every 3 s.
 *
 * With GAP_MS, each read comes that many milliseconds after the last, as
 * ebpftop's refreshes do (-d 0.1 is GAP_MS 100): after a pause the walk
 * finds the kernel's structures out of the caches, and costs more than
 * reads back to back.
 *
 *   iter_floor [PASSES [GAP_MS]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/pids.h"
#include "collect/prog_stats.h"
#include "count_progs.skel.h"

static double thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Microseconds to sleep before each read: 0 reads back to back (hot caches). */
static unsigned long gap_us;

static void pause_before_read(void)
{
	if (gap_us)
		usleep(gap_us);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median and minimum CPU us of @passes reads into @us; -errno on error. */
static int measure(struct count_progs_bpf *skel, struct bpf_link *link,
		   unsigned long passes, double *us, unsigned long long *seen)
{
	char buf[64];

	for (unsigned long i = 0; i < passes; i++) {
		double t0;
		unsigned long long before;
		int fd;

		pause_before_read();
		t0 = thread_cpu_us();
		before = skel->bss->visited;
		fd = bpf_iter_create(bpf_link__fd(link));
		ssize_t r;

		if (fd < 0)
			return -errno;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
		us[i] = thread_cpu_us() - t0;
		if (r < 0)
			return -errno;
		*seen = skel->bss->visited - before;
	}
	qsort(us, passes, sizeof(*us), cmp_double);
	return 0;
}

/* One read of ebpftop's counters iterator, with what it copies out. */
static int read_ours(void *ctx)
{
	const struct prog_stats_entry *e;
	size_t n;

	return prog_stats_iter__read(ctx, &e, &n);
}

/* One owner walk, the iterator's read and the sort. */
static int read_owners(void *ctx)
{
	const struct pid_ref *refs;
	size_t n;

	return pid_scan__collect(ctx, &refs, &n);
}

/* The same as measure() for @passes calls of @fn. */
static int measure_fn(int (*fn)(void *), void *ctx, unsigned long passes,
		      double *us)
{
	for (unsigned long i = 0; i < passes; i++) {
		double t0;
		int err;

		pause_before_read();
		t0 = thread_cpu_us();
		err = fn(ctx);
		us[i] = thread_cpu_us() - t0;
		if (err)
			return err;
	}
	qsort(us, passes, sizeof(*us), cmp_double);
	return 0;
}

int main(int argc, char **argv)
{
	struct count_progs_bpf *skel;
	struct bpf_link *link;
	unsigned long passes = 31;
	unsigned long long seen = 0;
	struct prog_stats_iter *it = NULL;
	struct pid_scan *ps = NULL;
	double *off, *on, *ours, *probe, *owners;
	int stats_fd, err;

	if (argc > 3 || (argc >= 2 && !(passes = strtoul(argv[1], NULL, 10)))) {
		fprintf(stderr, "usage: iter_floor [PASSES [GAP_MS]]\n");
		return 2;
	}
	if (argc == 3) {
		char *end;
		double ms = strtod(argv[2], &end);

		if (*end || !(ms >= 0 && ms <= 10000)) {
			fprintf(stderr, "iter_floor: GAP_MS must be 0 to 10000, not '%s'\n",
				argv[2]);
			return 2;
		}
		gap_us = (unsigned long)(ms * 1000);
	}
	off = calloc(passes, sizeof(*off));
	on = calloc(passes, sizeof(*on));
	ours = calloc(passes, sizeof(*ours));
	probe = calloc(passes, sizeof(*probe));
	owners = calloc(passes, sizeof(*owners));
	skel = count_progs_bpf__open_and_load();
	if (!off || !on || !ours || !probe || !owners || !skel) {
		fprintf(stderr, "iter_floor: cannot load the iterator: %s\n",
			strerror(errno));
		return 1;
	}
	link = bpf_program__attach_iter(skel->progs.count_progs, NULL);
	if (!link) {
		fprintf(stderr, "iter_floor: cannot attach the iterator: %s\n",
			strerror(errno));
		return 1;
	}
	/*
	 * As the system has it (off, unless another tool turned them on),
	 * then with run-time stats on, as ebpftop reads: with them on, the
	 * kernel times every run of the iterator program too.
	 */
	err = measure(skel, link, passes, off, &seen);
	if (!err) {
		stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (stats_fd < 0) {
			fprintf(stderr, "iter_floor: cannot enable stats: %s\n",
				strerror(errno));
			return 1;
		}
		err = measure(skel, link, passes, on, &seen);
		if (!err)
			err = prog_stats_iter__open(&it, false);
		if (!err)
			err = measure_fn(read_ours, it, passes, ours);
		prog_stats_iter__free(it);
		it = NULL;
		/* As kernels before 6.15 read: a helper call per read. */
		if (!err)
			err = prog_stats_iter__open(&it, true);
		if (!err)
			err = measure_fn(read_ours, it, passes, probe);
		/* The owner walk that ebpftop's build loads here. */
		if (!err)
			err = pid_scan__new(&ps, PID_SCAN_ANY);
		if (!err)
			err = measure_fn(read_owners, ps, passes, owners);
		close(stats_fd);
	}
	if (err) {
		fprintf(stderr, "iter_floor: %s\n", strerror(-err));
		return 1;
	}
	printf("%llu %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", seen,
	       off[passes / 2], off[0], on[passes / 2], on[0],
	       ours[passes / 2], ours[0], probe[passes / 2], probe[0],
	       owners[passes / 2], owners[0]);
	pid_scan__free(ps);
	prog_stats_iter__free(it);
	bpf_link__destroy(link);
	count_progs_bpf__destroy(skel);
	free(off);
	free(on);
	free(ours);
	free(probe);
	free(owners);
	return 0;
}
