// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: load N trivial socket filter programs and hold them
 * until asked to stop (SIGTERM, SIGINT, SIGHUP, or the parent's death).
 * Prints "ready N" on stdout once every program is loaded, and "released N"
 * once every program it loaded is let go again.
 *
 * A program lives as long as an fd holds it, and one process may not be
 * allowed enough fds (RLIMIT_NOFILE's hard limit, which only
 * CAP_SYS_RESOURCE raises): the programs are held by child processes of
 * at most PER_CHILD each.
 *
 *   cc -O2 -o loadprogs loadprogs.c $(pkg-config --cflags --libs libbpf)
 *   loadprogs N [PREFIX]
 *
 * The programs are named PREFIX0, PREFIX1, ... (default "bench_").
 *
 * The programs are let go in batches. The kernel frees a program in a
 * work item after an RCU grace period, and the work item may sleep on the
 * JIT's allocator lock: close 100,000 fds at once (as exit() does) and
 * the work queue starts a worker for every item that sleeps, which has
 * stalled 2-CPU machines for minutes. Each batch here is followed by a
 * wait until the kernel's vmalloc use (one allocation per program) stops
 * falling, so only one batch is ever in flight. SIGKILL skips all of
 * this: do not SIGKILL it with many programs loaded.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>

#define BATCH 2000
#define PER_CHILD 10000ul

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int raise_nofile(unsigned long need)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return -errno;
	if (r.rlim_cur >= need)
		return 0;
	if (r.rlim_max < need)
		r.rlim_max = need;	/* root may raise the hard limit */
	r.rlim_cur = need;
	return setrlimit(RLIMIT_NOFILE, &r) ? -errno : 0;
}

/* VmallocUsed from /proc/meminfo in KiB, or -1. */
static long vmalloc_used(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmallocUsed: %ld kB", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Close @n fds from @fds a batch at a time, letting the kernel catch up. */
static void release(const int *fds, unsigned long n)
{
	for (unsigned long i = 0; i < n; i += BATCH) {
		unsigned long end = i + BATCH < n ? i + BATCH : n;
		long last = vmalloc_used(), v;
		int still = 0;

		for (unsigned long k = i; k < end; k++)
			close(fds[k]);
		/* Settled: no change over 5 polls 10 ms apart (at most 10 s). */
		for (int t = 0; t < 1000 && still < 5; t++) {
			sleep_ms(10);
			v = vmalloc_used();
			still = v == last ? still + 1 : 0;
			last = v;
		}
	}
}

/* Wait for a stop signal without missing one that came early. */
static void wait_for_stop(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!stop)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * A child: load programs @first..@first+@n-1, write one byte to @ready,
 * hold them until stopped, release them. Exit status 0 or 1.
 */
static int hold(const char *prefix, unsigned long first, unsigned long n,
		int ready)
{
	/* r0 = 0; exit: the smallest program the verifier accepts. */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned long loaded = 0;
	int *fds, status = 0;

	/* Stop with the parent, even if it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	fds = calloc(n, sizeof(*fds));
	if (!fds) {
		fprintf(stderr, "loadprogs: out of memory\n");
		return 1;
	}
	if (raise_nofile(n + 64)) {
		fprintf(stderr, "loadprogs: cannot raise RLIMIT_NOFILE to %lu: %s\n",
			n + 64, strerror(errno));
		return 1;
	}
	for (; loaded < n && !stop; loaded++) {
		char name[BPF_OBJ_NAME_LEN];
		int fd;

		snprintf(name, sizeof(name), "%s%lu", prefix, first + loaded);
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL",
				   insns, sizeof(insns) / sizeof(insns[0]),
				   NULL);
		if (fd < 0) {
			fprintf(stderr, "loadprogs: program %lu: %s\n",
				first + loaded + 1, strerror(errno));
			status = 1;
			break;
		}
		fds[loaded] = fd;
	}
	if (!status && !stop) {
		if (write(ready, "r", 1) != 1)
			status = 1;
		wait_for_stop();
	}
	release(fds, loaded);
	free(fds);
	return status;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	const char *prefix = argc > 2 ? argv[2] : "bench_";
	unsigned long n, nchild, got = 0;
	int status = 0;
	pid_t *kids;
	char *end;

	if (argc < 2 || argc > 3 || strlen(prefix) > 8) {
		fprintf(stderr, "usage: loadprogs N [PREFIX of at most 8 characters]\n");
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || !n || n > 1000000) {
		fprintf(stderr, "loadprogs: bad count '%s'\n", argv[1]);
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Stop with the script that started us, even if it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		return 1;
	nchild = (n + PER_CHILD - 1) / PER_CHILD;
	kids = calloc(nchild, sizeof(*kids));
	if (!kids) {
		fprintf(stderr, "loadprogs: out of memory\n");
		return 1;
	}
	/* One child at a time: loading is the kernel's work, not ours. */
	for (unsigned long c = 0; c < nchild && !stop && !status; c++) {
		unsigned long first = c * PER_CHILD;
		unsigned long cnt = n - first < PER_CHILD ? n - first : PER_CHILD;
		int pipefd[2];
		ssize_t r;
		char b;

		if (pipe(pipefd)) {
			fprintf(stderr, "loadprogs: pipe: %s\n", strerror(errno));
			status = 1;
			break;
		}
		kids[c] = fork();
		if (kids[c] < 0) {
			fprintf(stderr, "loadprogs: fork: %s\n", strerror(errno));
			kids[c] = 0;
			status = 1;
		}
		if (!kids[c] && !status) {
			close(pipefd[0]);
			_exit(hold(prefix, first, cnt, pipefd[1]));
		}
		close(pipefd[1]);
		/* A byte when its programs are loaded; EOF if it failed. */
		while ((r = read(pipefd[0], &b, 1)) < 0 && errno == EINTR && !stop)
			;
		close(pipefd[0]);
		if (r == 1)
			got += cnt;
		else if (!stop)
			status = 1;
	}
	if (!status && !stop) {
		printf("ready %lu\n", n);
		fflush(stdout);
		wait_for_stop();
	}
	/* Let go one child at a time, the last loaded first. */
	for (unsigned long c = nchild; c-- > 0;) {
		int st;

		if (!kids[c])
			continue;
		kill(kids[c], SIGTERM);
		while (waitpid(kids[c], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			status = 1;
	}
	free(kids);
	printf("released %lu\n", got);
	return status;
}
