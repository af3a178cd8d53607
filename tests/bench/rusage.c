// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: run a command with its stdout sent to /dev/null, then
 * print "<cpu_us> <wall_us> <maxrss_kib> <status>" for it: user+system CPU
 * time and peak RSS from wait4(), wall time from CLOCK_MONOTONIC. Finer
 * than /usr/bin/time, which rounds CPU time to 10 ms.
 *
 *   rusage COMMAND [ARGS...]
 *   rusage --pty COLSxROWS COMMAND [ARGS...]
 *
 * With --pty the command runs on a new pseudo-terminal of that size (a TUI
 * under test), whose output is read and thrown away.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	struct winsize ws = { 0 };
	unsigned int cols, rows;
	bool pty = false;
	struct rusage ru;
	int master = -1;
	long long t0;
	int status;
	pid_t pid;

	if (argc > 3 && !strcmp(argv[1], "--pty")) {
		if (sscanf(argv[2], "%ux%u", &cols, &rows) != 2 || !cols || !rows) {
			fprintf(stderr, "rusage: bad size '%s' (want COLSxROWS)\n", argv[2]);
			return 2;
		}
		ws.ws_col = (unsigned short)cols;
		ws.ws_row = (unsigned short)rows;
		pty = true;
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: rusage [--pty COLSxROWS] COMMAND [ARGS...]\n");
		return 2;
	}
	t0 = now_us();
	if (pty) {
		pid = forkpty(&master, NULL, NULL, &ws);
		if (pid < 0) {
			perror("rusage: forkpty");
			return 1;
		}
		if (!pid) {
			if (!getenv("TERM"))
				setenv("TERM", "xterm-256color", 1);
			execvp(argv[1], argv + 1);
			perror("rusage: exec");
			_exit(127);
		}
		/* Drain the terminal until the command closes it. */
		for (;;) {
			char buf[65536];
			ssize_t r = read(master, buf, sizeof(buf));

			if (r > 0 || (r < 0 && errno == EINTR))
				continue;
			break;
		}
		close(master);
	} else {
		pid = fork();
	}
	if (pid < 0) {
		perror("rusage: fork");
		return 1;
	}
	if (!pty && !pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[1], argv + 1);
		perror("rusage: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("rusage: wait4");
		return 1;
	}
	printf("%lld %lld %ld %d\n", tv_us(ru.ru_utime) + tv_us(ru.ru_stime),
	       now_us() - t0, ru.ru_maxrss,
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
