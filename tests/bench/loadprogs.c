// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark helper: load N trivial socket filter programs and hold them
 * until killed. Prints "ready N" on stdout once every program is loaded.
 *
 *   cc -O2 -o loadprogs loadprogs.c $(pkg-config --cflags --libs libbpf)
 *   loadprogs N
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>

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

int main(int argc, char **argv)
{
	/* r0 = 0; exit: the smallest program the verifier accepts. */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned long n;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: loadprogs N\n");
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || !n || n > 1000000) {
		fprintf(stderr, "loadprogs: bad count '%s'\n", argv[1]);
		return 2;
	}
	/* Die with the script that started us, even if it is SIGKILLed. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		return 1;
	if (raise_nofile(n + 64)) {
		fprintf(stderr, "loadprogs: cannot raise RLIMIT_NOFILE to %lu: %s\n",
			n + 64, strerror(errno));
		return 1;
	}
	for (unsigned long i = 0; i < n; i++) {
		char name[BPF_OBJ_NAME_LEN];
		int fd;

		snprintf(name, sizeof(name), "bench_%lu", i);
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL",
				   insns, sizeof(insns) / sizeof(insns[0]),
				   NULL);
		if (fd < 0) {
			fprintf(stderr, "loadprogs: program %lu of %lu: %s\n",
				i + 1, n, strerror(errno));
			return 1;
		}
	}
	printf("ready %lu\n", n);
	fflush(stdout);
	for (;;)
		pause();
}
