// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: the CPU time of one bare read() of a bpf_prog iterator
 * that only counts programs (tests/bpf/count_progs.bpf.c): the floor under
 * any collection that visits every program. Prints
 * "<programs> <median cpu us per read> <min cpu us>" over PASSES reads
 * (default 31), CPU time being the thread's user+system time around
 * bpf_iter_create(), read() and close().
 *
 *   iter_floor [PASSES]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "count_progs.skel.h"

static double thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct count_progs_bpf *skel;
	struct bpf_link *link;
	unsigned long passes = 31;
	unsigned long long before;
	double *us;
	char buf[64];

	if (argc > 2 || (argc == 2 && !(passes = strtoul(argv[1], NULL, 10)))) {
		fprintf(stderr, "usage: iter_floor [PASSES]\n");
		return 2;
	}
	us = calloc(passes, sizeof(*us));
	skel = count_progs_bpf__open_and_load();
	if (!us || !skel) {
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
	for (unsigned long i = 0; i < passes; i++) {
		double t0 = thread_cpu_us();
		int fd = bpf_iter_create(bpf_link__fd(link));
		ssize_t r;

		if (fd < 0) {
			fprintf(stderr, "iter_floor: %s\n", strerror(errno));
			return 1;
		}
		before = skel->bss->visited;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
		us[i] = thread_cpu_us() - t0;
		if (r < 0) {
			fprintf(stderr, "iter_floor: read: %s\n", strerror(errno));
			return 1;
		}
	}
	qsort(us, passes, sizeof(*us), cmp_double);
	printf("%llu %.1f %.1f\n", skel->bss->visited - before, us[passes / 2],
	       us[0]);
	bpf_link__destroy(link);
	count_progs_bpf__destroy(skel);
	free(us);
	return 0;
}
