// SPDX-License-Identifier: GPL-2.0-only
/* pcaptool direct: BPF_PROG_TEST_RUN by hand, as the kernel reports it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

int direct_run(const char *obj_path, const char *name, unsigned char **pkts,
	       const unsigned int *lens, size_t n, unsigned int rounds,
	       unsigned int repeat);

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static unsigned long long run_cnt(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.run_cnt;
}

int direct_run(const char *obj_path, const char *name, unsigned char **pkts,
	       const unsigned int *lens, size_t n, unsigned int rounds,
	       unsigned int repeat)
{
	struct bpf_object *obj = bpf_object__open_file(obj_path, NULL);
	struct bpf_program *prog, *want = NULL;
	unsigned int on = 0, mixed = 0;
	double v[64];
	int fd;

	if (!obj || rounds < 1 || rounds > 64)
		return 1;
	bpf_object__for_each_program(prog, obj) {
		bpf_program__set_autoload(prog, !strcmp(bpf_program__name(prog), name));
		if (!strcmp(bpf_program__name(prog), name))
			want = prog;
	}
	if (!want || bpf_object__load(obj)) {
		fprintf(stderr, "pcaptool: cannot load %s from %s\n", name, obj_path);
		bpf_object__close(obj);
		return 1;
	}
	fd = bpf_program__fd(want);
	for (unsigned int r = 0; r < rounds; r++) {
		unsigned long long before = run_cnt(fd), moved;
		double sum = 0;

		for (size_t i = 0; i < n; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkts[i],
				    .data_size_in = lens[i], .repeat = repeat);

			if (bpf_prog_test_run_opts(fd, &o)) {
				fprintf(stderr, "pcaptool: test run: %s\n", strerror(errno));
				bpf_object__close(obj);
				return 1;
			}
			sum += o.duration;
		}
		v[r] = sum / (double)n;
		/* The kernel counts runs only while run-time stats are on. */
		moved = run_cnt(fd) - before;
		if (moved)
			on++;
		if (moved && moved != (unsigned long long)repeat * n)
			mixed++;
	}
	qsort(v, rounds, sizeof(v[0]), cmp_double);
	printf("median=%.2f min=%.2f max=%.2f stats=%s\n",
	       rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2,
	       v[0], v[rounds - 1],
	       mixed || (on && on != rounds) ? "mixed" : on ? "on" : "off");
	bpf_object__close(obj);
	return 0;
}
