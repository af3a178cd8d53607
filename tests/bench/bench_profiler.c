// SPDX-License-Identifier: GPL-2.0-only
/*
 * What profiling costs a program, per run: testprogs' XDP program alone,
 * with an empty fentry/fexit pair around it, and with ebpftop's profiler
 * on 1, 3 and 5 events. Times are the kernel's BPF_PROG_TEST_RUN average,
 * best of several rounds. Figures, not a test (tests/bench/bench_profiler.sh
 * runs it in the VM guest, where fentry works).
 *
 *   bench_profiler [RUNS [ROUNDS [EVENTS1 [EVENTS3 [EVENTS5]]]]]
 *
 * The event lists default to software events (no PMU in the guest).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "profiler/events.h"
#include "profiler/nullprog.h"
#include "profiler/profiler.h"
#include "testprogs.skel.h"

static unsigned int runs = 20000, rounds = 5;

static double best(int fd)
{
	double b = (double)INFINITY;

	for (unsigned int r = 0; r < rounds; r++) {
		double v;
		int err = nullprog_test_run(fd, runs, &v);

		if (err) {
			fprintf(stderr, "bench_profiler: test run: %s\n",
				strerror(-err));
			exit(1);
		}
		if (v < b)
			b = v;
	}
	return b;
}

static void row(const char *what, double ns, double base, const char *extra)
{
	printf("%-34s %10.1f %7.2f  %s\n", what, ns, ns / base, extra);
}

static int with_profiler(int fd, uint32_t id, const char *list, double base,
			 size_t want)
{
	struct profile_report r;
	struct event_set set;
	struct profiler *p;
	char msg[256], what[64], extra[160];
	double ns;

	if (events_parse(list, &set, msg, sizeof(msg))) {
		fprintf(stderr, "bench_profiler: %s: %s\n", list, msg);
		return -EINVAL;
	}
	if (set.n != want)
		fprintf(stderr, "bench_profiler: note: '%s' is %zu events\n",
			list, set.n);
	if (profiler__new(&p, id, &set, 0, msg, sizeof(msg))) {
		fprintf(stderr, "bench_profiler: %s\n", msg);
		return -EPERM;
	}
	ns = best(fd);
	profiler__read(p, &r);
	snprintf(what, sizeof(what), "ebpftop profiler, %zu event%s", set.n,
		 set.n == 1 ? "" : "s");
	snprintf(extra, sizeof(extra), "(%s; calibrated overhead %.1f ns/run, %llu runs, %llu partial)",
		 list, r.overhead_ns_per_run, (unsigned long long)r.runs,
		 (unsigned long long)r.partial_runs);
	row(what, ns, base, extra);
	profiler__free(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *ev1 = argc > 3 ? argv[3] : "cpu-clock";
	const char *ev3 = argc > 4 ? argv[4] : "cpu-clock,task-clock,page-faults";
	const char *ev5 = argc > 5 ? argv[5] :
		"cpu-clock,task-clock,page-faults,context-switches,cpu-migrations";
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct testprogs_bpf *skel;
	int fd, links[2], err = 0;
	double base, ns;

	if (argc > 1)
		runs = (unsigned int)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		rounds = (unsigned int)strtoul(argv[2], NULL, 10);
	if (!runs || !rounds) {
		fprintf(stderr, "usage: bench_profiler [RUNS [ROUNDS [EVENTS1 [EVENTS3 [EVENTS5]]]]]\n");
		return 2;
	}
	skel = testprogs_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_profiler: cannot load the test programs: %s\n",
			strerror(errno));
		return 1;
	}
	fd = bpf_program__fd(skel->progs.xdp_test_pass);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		perror("bench_profiler: info");
		return 1;
	}
	printf("target: xdp_test_pass (id %u, XDP, spin %u): %u test runs per round, best of %u rounds\n",
	       info.id, skel->rodata->spin, runs, rounds);
	printf("%-34s %10s %7s\n", "", "ns/run", "ratio");
	base = best(fd);
	row("alone", base, base, "");

	links[0] = nullprog_attach_tracing(fd, 0);
	links[1] = links[0] >= 0 ? nullprog_attach_tracing(fd, 1) : -1;
	if (links[0] < 0 || links[1] < 0) {
		fprintf(stderr, "bench_profiler: cannot attach an empty fentry/fexit pair: %s\n",
			strerror(-(links[0] < 0 ? links[0] : links[1])));
		return 1;
	}
	ns = best(fd);
	row("empty fentry/fexit pair", ns, base, "");
	close(links[1]);
	close(links[0]);

	err |= with_profiler(fd, info.id, ev1, base, 1);
	err |= with_profiler(fd, info.id, ev3, base, 3);
	err |= with_profiler(fd, info.id, ev5, base, 5);
	testprogs_bpf__destroy(skel);
	return err ? 1 : 0;
}
