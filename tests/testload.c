// SPDX-License-Identifier: GPL-2.0-only
/*
 * testload: load the test programs, print their ids, then run them on
 * request. The process holds every program, so it is their owner.
 *
 *   stdout, first line: {"pid":N,"xdp":ID,"socket":ID,"long":ID,"unnamed":ID}
 *   stdin commands, one per line, each answered by one line:
 *     run NAME COUNT   BPF_PROG_TEST_RUN with repeat COUNT
 *                      -> "ok RUN_CNT RUN_TIME_NS" (kernel counters after)
 *     info NAME        -> "ok RUN_CNT RUN_TIME_NS"
 *     rate NAME PER_S  run NAME about PER_S times a second in the
 *                      background (0 stops) -> "ok"; each program has its
 *                      own rate, so several can run side by side
 *     slow NAME 0|1    turn the slow path of NAME on or off (xdp only:
 *                      sixteen times the work per run) -> "ok"
 *     comm HEX         set the process name (PR_SET_NAME) to the bytes
 *                      spelt in hex (up to 15) -> "ok"
 *     linkholder NAME  fork a child that holds NAME (xdp or long) through
 *                      an XDP link on the loopback of a namespace of its
 *                      own, and through nothing else -> "ok CHILD_PID"
 *   EOF on stdin (or "quit") unloads everything and exits.
 *   NAME is xdp, socket, long or unnamed.
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "testprogs.skel.h"

enum { P_XDP, P_SOCKET, P_LONG, P_UNNAMED, P__MAX };
static const char *const names[P__MAX] = { "xdp", "socket", "long", "unnamed" };

struct loader {
	struct testprogs_bpf *skel;
	int fds[P__MAX];
	pthread_t thread;
	bool thread_started;
	atomic_uint rate_per_s[P__MAX];
	atomic_bool stop;
	pthread_mutex_t lock;	/* one test run at a time */
};

static int test_run(int fd, unsigned int repeat)
{
	/* 64 bytes of packet: enough for XDP and socket filters. */
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = sizeof(pkt), .repeat = repeat);

	return bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
}

static int counters(int fd, unsigned long long *cnt, unsigned long long *ns)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*cnt = info.run_cnt;
	*ns = info.run_time_ns;
	return 0;
}

static void *rate_thread(void *arg)
{
	struct loader *l = arg;
	struct timespec next;

	/*
	 * Ten batches a second keep the rate steady at any size; deadlines
	 * are absolute so that time spent running the batches (longer on a
	 * busy machine) does not lower the rate. A batch that is late runs
	 * late, but none runs early to catch up: no bursts.
	 */
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&l->stop)) {
		struct timespec now;

		for (int p = 0; p < P__MAX; p++) {
			unsigned int batch = atomic_load(&l->rate_per_s[p]) / 10;

			if (!batch)
				continue;
			pthread_mutex_lock(&l->lock);
			test_run(l->fds[p], batch);
			pthread_mutex_unlock(&l->lock);
		}
		next.tv_nsec += 100 * 1000 * 1000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec ||
		    (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
			next = now;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return NULL;
}

/*
 * "comm HEX": the loader's process name (PR_SET_NAME, at most 15 bytes)
 * becomes the bytes spelt in hex, whatever they are: the owner name that
 * ebpftop shows is chosen by whoever holds a program.
 */
static void set_comm(const char *hex)
{
	char comm[16] = "";
	size_t n = strlen(hex);

	if (n % 2 || n > 30 || strspn(hex, "0123456789abcdef") != n) {
		printf("error comm takes up to 15 bytes in lower-case hex\n");
		return;
	}
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int b;

		sscanf(hex + 2 * i, "%2x", &b);
		comm[i] = (char)b;
	}
	if (prctl(PR_SET_NAME, comm))
		printf("error %s\n", strerror(errno));
	else
		printf("ok\n");
}

/*
 * A child that owns @prog_fd's program only through a BPF link: it attaches
 * an XDP link to the loopback of a private network namespace, then closes
 * every other fd it inherited. Returns its pid or -errno.
 */
static pid_t spawn_link_holder(int prog_fd)
{
	int pfd[2];
	pid_t pid;
	char c = 'n';

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0) {
		pid = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return pid;
	}
	if (pid == 0) {
		int link = -1;

		/* It must not outlive the loader, whatever kills the loader. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (!unshare(CLONE_NEWNET))
			link = bpf_link_create(prog_fd, (int)if_nametoindex("lo"),
					       BPF_XDP, NULL);
		/* Not even the loader's stdio: readers wait for its EOF. */
		for (int fd = 0; fd < 4096; fd++) {
			if (fd != link && fd != pfd[1])
				close(fd);
		}
		c = link >= 0 ? 'y' : 'n';
		if (write(pfd[1], &c, 1) != 1 || link < 0)
			_exit(1);
		close(pfd[1]);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1 || c != 'y') {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -EIO;
	}
	close(pfd[0]);
	return pid;
}

static int load_unnamed(void)
{
	/* r0 = 0; exit: a socket filter loaded with no name and no BTF. */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), NULL);
}

static int lookup(const char *name)
{
	for (int i = 0; i < P__MAX; i++) {
		if (!strcmp(name, names[i]))
			return i;
	}
	return -1;
}

static unsigned int prog_id(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

int main(void)
{
	struct loader l = { .lock = PTHREAD_MUTEX_INITIALIZER };
	pid_t holders[8];
	int nholders = 0;
	char line[256];
	int ret = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	l.skel = testprogs_bpf__open_and_load();
	if (!l.skel) {
		fprintf(stderr, "testload: cannot load test programs: %s\n",
			strerror(errno));
		return 1;
	}
	l.fds[P_XDP] = bpf_program__fd(l.skel->progs.xdp_test_pass);
	l.fds[P_SOCKET] = bpf_program__fd(l.skel->progs.sock_test_filt);
	l.fds[P_LONG] =
		bpf_program__fd(l.skel->progs.ebpftop_test_program_with_a_long_name);
	l.fds[P_UNNAMED] = load_unnamed();
	if (l.fds[P_UNNAMED] < 0) {
		fprintf(stderr, "testload: cannot load the unnamed program: %s\n",
			strerror(errno));
		goto out;
	}
	if (pthread_create(&l.thread, NULL, rate_thread, &l))
		goto out;
	l.thread_started = true;
	printf("{\"pid\":%d", (int)getpid());
	for (int i = 0; i < P__MAX; i++)
		printf(",\"%s\":%u", names[i], prog_id(l.fds[i]));
	printf("}\n");

	while (fgets(line, sizeof(line), stdin)) {
		char cmd[16], name[32];
		unsigned long long cnt = 0, ns = 0, arg = 0;
		int n = sscanf(line, "%15s %31s %llu", cmd, name, &arg);
		int p = n >= 2 ? lookup(name) : -1, err;

		if (n >= 1 && !strcmp(cmd, "quit"))
			break;
		if (n == 2 && !strcmp(cmd, "comm")) {
			set_comm(name);
			continue;
		}
		if (p < 0) {
			printf("error unknown command or program: %s", line);
			continue;
		}
		if (!strcmp(cmd, "rate") && n == 3) {
			atomic_store(&l.rate_per_s[p], (unsigned int)arg);
			printf("ok\n");
			continue;
		}
		if (!strcmp(cmd, "linkholder") && n == 2) {
			pid_t pid;

			if ((p != P_XDP && p != P_LONG) || nholders == 8) {
				printf("error linkholder takes xdp or long: %s", line);
				continue;
			}
			pid = spawn_link_holder(l.fds[p]);
			if (pid < 0) {
				printf("error %s\n", strerror((int)-pid));
				continue;
			}
			holders[nholders++] = pid;
			printf("ok %d\n", (int)pid);
			continue;
		}
		if (!strcmp(cmd, "slow") && n == 3) {
			if (p != P_XDP || arg > 1) {
				printf("error slow takes xdp and 0 or 1: %s", line);
				continue;
			}
			/* The program reads it at every run: no reload. */
			l.skel->bss->slow = (__u32)arg;
			printf("ok\n");
			continue;
		}
		err = 0;
		if (!strcmp(cmd, "run") && n == 3) {
			pthread_mutex_lock(&l.lock);
			err = test_run(l.fds[p], (unsigned int)arg);
			pthread_mutex_unlock(&l.lock);
		} else if (strcmp(cmd, "info")) {
			printf("error unknown command: %s", line);
			continue;
		}
		if (!err)
			err = counters(l.fds[p], &cnt, &ns);
		if (err)
			printf("error %s\n", strerror(-err));
		else
			printf("ok %llu %llu\n", cnt, ns);
	}
	ret = 0;
out:
	for (int i = 0; i < nholders; i++) {
		kill(holders[i], SIGKILL);
		waitpid(holders[i], NULL, 0);
	}
	atomic_store(&l.stop, true);
	if (l.thread_started)
		pthread_join(l.thread, NULL);
	if (l.fds[P_UNNAMED] >= 0)
		close(l.fds[P_UNNAMED]);
	testprogs_bpf__destroy(l.skel);
	return ret;
}
