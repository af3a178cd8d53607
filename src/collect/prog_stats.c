// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/prog_stats.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* bpftool's generated code does arithmetic on void pointers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "prog_stats.lskel.h"
#include "prog_stats_probe.lskel.h"
#pragma GCC diagnostic pop
#include "util/bpf_prog.h"
#include "util/grow.h"

struct prog_stats_iter {
	enum prog_stats_read how;
	struct prog_stats_bpf *plain;		/* PROG_STATS_PLAIN */
	struct prog_stats_probe_bpf *probe;	/* PROG_STATS_PROBE */
	/* In whichever of the two is loaded (both come from one source). */
	int prog_fd;
	__u32 *offsets_only, *offsets_ok;
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

/*
 * load_<obj>(): open and load light skeleton @obj (prog_stats_bpf or
 * prog_stats_probe_bpf, built from one source: the same globals) with
 * iterator program @prog into @field of @it, for @n possible CPUs @cpus.
 * 0 or a negative errno; a failed load prints nothing. A light skeleton
 * has the kernel apply the CO-RE relocations, so ebpftop never parses the
 * kernel's BTF (megabytes) itself.
 */
#define DEFINE_LOAD(obj, field, prog)						\
static int load_##obj(struct prog_stats_iter *it, const uint32_t *cpus,	\
		      uint32_t n)						\
{										\
	struct obj *skel = obj##__open();					\
	int err;								\
										\
	if (!skel)								\
		return errno ? -errno : -ENOMEM;				\
	it->field = skel;							\
	memcpy(skel->rodata->cpu_ids, cpus, n * sizeof(*cpus));			\
	skel->rodata->nr_cpus = n;						\
	err = obj##__load(skel);						\
	if (err)								\
		return err < 0 ? err : -EINVAL;					\
	it->prog_fd = skel->progs.prog.prog_fd;					\
	it->offsets_only = &skel->bss->offsets_only;				\
	it->offsets_ok = &skel->bss->offsets_ok;				\
	return 0;								\
}
DEFINE_LOAD(prog_stats_bpf, plain, ebpftop_progs)
DEFINE_LOAD(prog_stats_probe_bpf, probe, ebpftop_progs_p)

/* Attach the loaded program and learn the per-CPU offsets. */
static int iter_start(struct prog_stats_iter *it)
{
	int err;

	it->link_fd = bpf_link_create(it->prog_fd, 0, BPF_TRACE_ITER, NULL);
	if (it->link_fd < 0)
		return -errno;
	it->prog_id = prog_id_of_fd(it->prog_fd);
	/*
	 * A first read proves the per-CPU offsets can be learnt here. It
	 * stops at the first program: a whole walk costs milliseconds with
	 * many programs loaded, and start-up has one to do already.
	 */
	*(volatile __u32 *)it->offsets_only = 1;
	err = prog_stats_iter__read(it, &(const struct prog_stats_entry *){ NULL },
				    &(size_t){ 0 });
	*(volatile __u32 *)it->offsets_only = 0;
	/* A program that ends a read before writing anything: EAGAIN. */
	if (err == -EAGAIN)
		err = 0;
	if (!err && !*(volatile __u32 *)it->offsets_ok)
		err = -ENOTSUP;
	return err;
}

/* Let go of the loaded skeleton and link, if any. */
static void iter_stop(struct prog_stats_iter *it)
{
	if (it->link_fd >= 0)
		close(it->link_fd);
	it->link_fd = -1;
	prog_stats_bpf__destroy(it->plain);
	prog_stats_probe_bpf__destroy(it->probe);
	it->plain = NULL;
	it->probe = NULL;
}

int prog_stats_iter__open(struct prog_stats_iter **out, bool probe_only)
{
	uint32_t cpus[PROG_STATS_MAX_CPUS];
	struct prog_stats_iter *it;
	int n, err = -ENOTSUP;

	*out = NULL;
	n = possible_cpus(cpus, PROG_STATS_MAX_CPUS);
	if (n < 0)
		return n;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->link_fd = -1;
	/* Plain loads where the kernel verifies them (6.15 on), ... */
	if (!probe_only) {
		it->how = PROG_STATS_PLAIN;
		err = load_prog_stats_bpf(it, cpus, (uint32_t)n);
		if (!err)
			err = iter_start(it);
		if (err)
			iter_stop(it);
	}
	/* ... else a helper call per read (5.19 on). */
	if (err) {
		it->how = PROG_STATS_PROBE;
		err = load_prog_stats_probe_bpf(it, cpus, (uint32_t)n);
		if (!err)
			err = iter_start(it);
	}
	if (err) {
		prog_stats_iter__free(it);
		return err;
	}
	*out = it;
	return 0;
}

void prog_stats_iter__free(struct prog_stats_iter *it)
{
	if (!it)
		return;
	iter_stop(it);
	free(it->e);
	free(it);
}

enum prog_stats_read prog_stats_iter__how(const struct prog_stats_iter *it)
{
	return it->how;
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
