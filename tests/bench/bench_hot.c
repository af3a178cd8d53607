// SPDX-License-Identifier: GPL-2.0-only
/*
 * What sampling hot lines costs (figures, not a test): a busy program
 * (tests/bpf/hot_progs.bpf.c's hot_loop, about 2,000 loop iterations a
 * run) driven with BPF_PROG_TEST_RUN for SECS seconds, its ns/run as the
 * kernel measures it, with ebpftop running without --hot and with --hot
 * on it at each rate; ebpftop's sampler thread's CPU time and the whole
 * process's; the machine's busy CPU. Configurations are interleaved,
 * ROUNDS times; the table shows medians.
 *
 *   bench_hot EBPFTOP [SECS [ROUNDS]]
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hot_progs.skel.h"

#define MAX_ROUNDS 15

static const unsigned int rates[] = { 0, 1000, 4000, 10000 };
#define NR_CONF (sizeof(rates) / sizeof(rates[0]))

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* On-CPU time of a task from its schedstat (nanoseconds), in seconds. */
static double sched_cpu(const char *path)
{
	unsigned long long ns = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0.0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return (double)ns / 1e9;
}

/*
 * The CPU time of ebpftop's threads, seconds: all of them, and its
 * sampler thread's (named ebpftop-hot) in *@sampler.
 */
static double ebpftop_cpu(pid_t pid, double *sampler)
{
	char path[320], comm[32];
	struct dirent *e;
	double t = 0.0;
	DIR *d;

	*sampler = 0.0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0.0;
	while ((e = readdir(d))) {
		double c;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/schedstat", (int)pid,
			 e->d_name);
		c = sched_cpu(path);
		t += c;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "ebpftop-hot", 11))
			*sampler += c;
		fclose(f);
	}
	closedir(d);
	return t;
}

/* Busy and total jiffies of all CPUs. */
static void machine_cpu(double *busy, double *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");

	*busy = *total = 0.0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int i = 0; i < 8; i++)
			*total += (double)v[i];
		*busy = *total - (double)v[3] - (double)v[4];
	}
	fclose(f);
}

static pid_t start_ebpftop(const char *ebpftop, uint32_t id, unsigned int rate)
{
	char ids[16], hz[16];
	pid_t pid;

	snprintf(ids, sizeof(ids), "%u", id);
	snprintf(hz, sizeof(hz), "%u", rate);
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		if (rate)
			execl(ebpftop, ebpftop, "-b", "-d", "1", "-f", "hot_loop",
			      "--hot", ids, "--sample-freq", hz, (char *)NULL);
		else
			execl(ebpftop, ebpftop, "-b", "-d", "1", "-f", "hot_loop",
			      (char *)NULL);
		_exit(127);
	}
	return pid;
}

struct result {
	double ns_per_run, sampler_ms_s, proc_ms_s, machine_pct;
};

static int run_one(const char *ebpftop, int fd, uint32_t id, unsigned int rate,
		   double secs, struct result *r)
{
	unsigned char pkt[64] = { 0 };
	double t0, t1, c0, c1, s0, s1, b0, b1, tot0, tot1, ns = 0.0;
	unsigned long runs = 0;
	pid_t pid = start_ebpftop(ebpftop, id, rate);
	int status;

	if (pid < 0)
		return -errno;
	usleep(1500 * 1000);	/* started, sampling, first refresh done */
	c0 = ebpftop_cpu(pid, &s0);
	machine_cpu(&b0, &tot0);
	t0 = now_s();
	while (now_s() - t0 < secs) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .repeat = 1000);

		if (bpf_prog_test_run_opts(fd, &o))
			return -errno;
		ns += (double)o.duration * 1000.0;
		runs += 1000;
	}
	t1 = now_s();
	c1 = ebpftop_cpu(pid, &s1);
	machine_cpu(&b1, &tot1);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "bench_hot: ebpftop at %u Hz exited with %d\n", rate,
			WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	r->ns_per_run = ns / (double)runs;
	r->proc_ms_s = (c1 - c0) * 1000.0 / (t1 - t0);
	r->sampler_ms_s = (s1 - s0) * 1000.0 / (t1 - t0);
	r->machine_pct = tot1 > tot0 ? (b1 - b0) * 100.0 / (tot1 - tot0) : 0.0;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

int main(int argc, char **argv)
{
	static struct result res[NR_CONF][MAX_ROUNDS];
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct hot_progs_bpf *skel;
	double secs = argc > 2 ? atof(argv[2]) : 3.0, base = 0.0;
	int rounds = argc > 3 ? atoi(argv[3]) : 5, fd;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_hot EBPFTOP [SECS [ROUNDS]]\n");
		return 2;
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || !(secs > 0.0))
		return 2;
	skel = hot_progs_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_hot: cannot load the test programs: %s\n",
			strerror(errno));
		return 1;
	}
	fd = bpf_program__fd(skel->progs.hot_loop);
	bpf_obj_get_info_by_fd(fd, &info, &len);
	for (int r = 0; r < rounds; r++) {
		for (size_t c = 0; c < NR_CONF; c++) {
			if (run_one(argv[1], fd, info.id, rates[c], secs, &res[c][r])) {
				fprintf(stderr, "bench_hot: a run failed: %s\n",
					strerror(errno));
				hot_progs_bpf__destroy(skel);
				return 1;
			}
		}
	}
	printf("# hot_loop (id %u), %.1f s per run, %d interleaved rounds, medians; %ld CPUs\n",
	       info.id, secs, rounds, sysconf(_SC_NPROCESSORS_ONLN));
	printf("%-10s %8s %8s %17s %13s %13s %13s\n", "sampling", "ns/run", "added",
	       "ns/run min-max", "sampler ms/s", "ebpftop ms/s", "machine busy");
	for (size_t c = 0; c < NR_CONF; c++) {
		double v[MAX_ROUNDS];
		double ns, sm, pm, mb, lo, hi;
		char name[16], added[16], range[32];

		for (int r = 0; r < rounds; r++)
			v[r] = res[c][r].ns_per_run;
		ns = median(v, rounds);
		lo = v[0];	/* sorted by median() */
		hi = v[rounds - 1];
		snprintf(range, sizeof(range), "%.0f-%.0f", lo, hi);
		for (int r = 0; r < rounds; r++)
			v[r] = res[c][r].sampler_ms_s;
		sm = median(v, rounds);
		for (int r = 0; r < rounds; r++)
			v[r] = res[c][r].proc_ms_s;
		pm = median(v, rounds);
		for (int r = 0; r < rounds; r++)
			v[r] = res[c][r].machine_pct;
		mb = median(v, rounds);
		if (!rates[c]) {
			base = ns;
			snprintf(name, sizeof(name), "off");
			snprintf(added, sizeof(added), "-");
		} else {
			snprintf(name, sizeof(name), "%u Hz", rates[c]);
			snprintf(added, sizeof(added), "%+.1f%%", (ns - base) * 100.0 / base);
		}
		printf("%-10s %8.0f %8s %17s %13.2f %13.2f %12.1f%%\n", name, ns, added,
		       range, sm, pm, mb);
	}
	hot_progs_bpf__destroy(skel);
	return 0;
}
