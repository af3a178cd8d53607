// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/prog_stats.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* bpftool's generated code does arithmetic on void pointers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "prog_stats.lskel.h"
#pragma GCC diagnostic pop
#include "util/bpf_prog.h"
#include "util/grow.h"

struct prog_stats_iter {
	struct prog_stats_bpf *skel;
	int link_fd;
	uint32_t prog_id;
	struct prog_stats_entry *e;
	size_t n, cap;
};

int prog_stats_parse_cpus(const char *text, uint32_t *cpus, size_t max)
{
	const char *s = text;
	size_t n = 0;

	while (*s && *s != '\n') {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (!isdigit((unsigned char)*s))
				return -EINVAL;
			b = strtoul(s, &end, 10);
		}
		if (b < a || b > UINT32_MAX)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++) {
			if (n == max)
				return -E2BIG;
			cpus[n++] = (uint32_t)c;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n ? (int)n : -EINVAL;
}

static int possible_cpus(uint32_t *cpus, size_t max)
{
	char buf[4096];
	ssize_t r;
	int fd;

	fd = open("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return r < 0 ? -errno : -EINVAL;
	buf[r] = '\0';
	return prog_stats_parse_cpus(buf, cpus, max);
}

int prog_stats_iter__open(struct prog_stats_iter **out)
{
	struct prog_stats_iter *it;
	int n, err;

	*out = NULL;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->link_fd = -1;
	/*
	 * A light skeleton: the kernel applies the CO-RE relocations, so
	 * ebpftop never parses the kernel's BTF (megabytes) itself.
	 */
	it->skel = prog_stats_bpf__open();
	if (!it->skel) {
		err = -errno;
		goto fail;
	}
	n = possible_cpus((uint32_t *)it->skel->rodata->cpu_ids,
			  PROG_STATS_MAX_CPUS);
	if (n < 0) {
		err = n;
		goto fail;
	}
	it->skel->rodata->nr_cpus = (uint32_t)n;
	err = prog_stats_bpf__load(it->skel);
	if (err) {
		err = err < 0 ? err : -EINVAL;
		goto fail;
	}
	it->link_fd = bpf_link_create(it->skel->progs.ebpftop_progs.prog_fd, 0,
				      BPF_TRACE_ITER, NULL);
	if (it->link_fd < 0) {
		err = -errno;
		goto fail;
	}
	it->prog_id = prog_id_of_fd(it->skel->progs.ebpftop_progs.prog_fd);
	/*
	 * A first read proves the per-CPU offsets can be learnt here. It
	 * stops at the first program: a whole walk costs milliseconds with
	 * many programs loaded, and start-up has one to do already.
	 */
	it->skel->bss->offsets_only = 1;
	err = prog_stats_iter__read(it, &(const struct prog_stats_entry *){ NULL },
				    &(size_t){ 0 });
	it->skel->bss->offsets_only = 0;
	/* A program that ends a read before writing anything: EAGAIN. */
	if (err == -EAGAIN)
		err = 0;
	if (!err && !it->skel->bss->offsets_ok)
		err = -ENOTSUP;
	if (err)
		goto fail;
	*out = it;
	return 0;
fail:
	prog_stats_iter__free(it);
	return err ? err : -EINVAL;
}

void prog_stats_iter__free(struct prog_stats_iter *it)
{
	if (!it)
		return;
	if (it->link_fd >= 0)
		close(it->link_fd);
	prog_stats_bpf__destroy(it->skel);
	free(it->e);
	free(it);
}

uint32_t prog_stats_iter__prog_id(const struct prog_stats_iter *it)
{
	return it->prog_id;
}

int prog_stats_iter__read(struct prog_stats_iter *it,
			  const struct prog_stats_entry **entries, size_t *n)
{
	int fd, err = 0;
	ssize_t r;

	it->n = 0;
	fd = bpf_iter_create(it->link_fd);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t room;

		err = ARRAY_GROW(it->e, it->cap, it->n + 256, 1024);
		if (err)
			break;
		room = (it->cap - it->n) * sizeof(*it->e);
		r = read(fd, it->e + it->n, room);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (!r)
			break;
		/* The kernel writes whole records only. */
		it->n += (size_t)r / sizeof(*it->e);
	}
	close(fd);
	*entries = it->e;
	*n = err ? 0 : it->n;
	return err;
}
