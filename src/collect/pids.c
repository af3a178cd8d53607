// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/pids.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/iters.h"
/* bpftool's generated code does arithmetic on void pointers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "pid_iter.lskel.h"
#include "pid_iter_probe.lskel.h"
#pragma GCC diagnostic pop
#include "util/bpf_prog.h"
#include "util/grow.h"
#include "util/msort.h"

struct pid_scan {
	/* The iterator, in one of its two builds; neither: /proc fallback. */
	struct pid_iter_bpf *plain;
	struct pid_iter_probe_bpf *probe;
	bool iter;
	/* Its program and globals, in whichever build is loaded. */
	int prog_fd;
	__u32 *self_pid, *self_prog_fd, *self_link_fd;
	__u64 *prog_fops, *link_fops;
	int link_fd;
	uint32_t own_prog_id;
	struct pid_ref *refs;
	size_t n, cap;
	struct pid_ref *tmp;	/* the sort's scratch, as long as refs */
	size_t tmp_cap;
};

static int refs_push(struct pid_scan *p, uint32_t prog_id, uint32_t pid,
		     const char *comm)
{
	struct pid_ref *r;
	size_t len;

	if (ARRAY_GROW(p->refs, p->cap, p->n + 1, 64))
		return -ENOMEM;
	r = &p->refs[p->n++];
	r->prog_id = prog_id;
	r->nr_fds = 1;
	r->owner.pid = pid;
	len = strnlen(comm, sizeof(r->owner.comm) - 1);
	memcpy(r->owner.comm, comm, len);
	r->owner.comm[len] = '\0';
	return 0;
}

static int ref_cmp(const void *a, const void *b)
{
	const struct pid_ref *x = a, *y = b;

	if (x->prog_id != y->prog_id)
		return x->prog_id < y->prog_id ? -1 : 1;
	return (x->owner.pid > y->owner.pid) - (x->owner.pid < y->owner.pid);
}

static int ref_cmp_ctx(const void *a, const void *b, const void *ctx)
{
	(void)ctx;
	return ref_cmp(a, b);
}

/*
 * Sort p->refs: a natural merge sort, since they come in few runs (one
 * process's fds are mostly in the order of its programs' ids).
 */
static void refs_sort(struct pid_scan *p)
{
	struct pid_ref *sorted;

	/* Sorted already: no scratch needed. */
	if (p->n < 2 || msort_run_end((const char *)p->refs, 0, p->n,
				      sizeof(*p->refs), ref_cmp_ctx, NULL) == p->n)
		return;
	if (p->tmp_cap < p->n) {
		struct pid_ref *t = realloc(p->tmp, p->cap * sizeof(*t));

		if (!t) {
			qsort(p->refs, p->n, sizeof(*p->refs), ref_cmp);
			return;
		}
		p->tmp = t;
		p->tmp_cap = p->cap;
	}
	sorted = msort_natural(p->refs, p->tmp, p->n, sizeof(*p->refs),
			       ref_cmp_ctx, NULL);
	if (sorted != p->refs) {
		/* The sorted refs are in the scratch: swap the arrays. */
		size_t cap = p->cap;

		p->tmp = p->refs;
		p->refs = sorted;
		p->cap = p->tmp_cap;
		p->tmp_cap = cap;
	}
}

static void refs_sort_unique(struct pid_scan *p)
{
	size_t kept = 0;

	if (p->n < 2)
		return;
	refs_sort(p);
	for (size_t i = 0; i < p->n; i++) {
		if (kept && !ref_cmp(&p->refs[kept - 1], &p->refs[i])) {
			p->refs[kept - 1].nr_fds++;
			continue;
		}
		p->refs[kept++] = p->refs[i];
	}
	p->n = kept;
}

static int iter_read(struct pid_scan *p)
{
	struct pid_iter_entry e[256];
	int fd, err = 0;
	ssize_t r;

	fd = bpf_iter_create(p->link_fd);
	if (fd < 0)
		return -errno;
	for (;;) {
		r = read(fd, e, sizeof(e));
		/*
		 * The kernel ends a read() that visited a million objects
		 * without writing a record with EAGAIN, and the next read()
		 * goes on from there: a machine with millions of open files
		 * that are not BPF programs or links is such a stretch.
		 */
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			break;
		for (size_t i = 0; i < (size_t)r / sizeof(e[0]); i++) {
			err = refs_push(p, e[i].prog_id, e[i].pid, e[i].comm);
			if (err)
				goto out;
		}
	}
	if (r < 0)
		err = -errno;
out:
	close(fd);
	return err;
}

/*
 * load_<obj>(): open and load light skeleton @obj (pid_iter_bpf or
 * pid_iter_probe_bpf, built from one source: the same globals) with
 * iterator program @prog into @field of @p. 0 or a negative errno; a
 * failed load prints nothing. A light skeleton has the kernel apply the
 * CO-RE relocations, so ebpftop never parses the kernel's BTF (megabytes)
 * itself.
 */
#define DEFINE_LOAD(obj, field, prog)					\
static int load_##obj(struct pid_scan *p)				\
{									\
	struct obj *skel = obj##__open_and_load();			\
									\
	if (!skel)							\
		return errno ? -errno : -EINVAL;			\
	p->field = skel;						\
	p->prog_fd = skel->progs.prog.prog_fd;				\
	p->self_pid = &skel->bss->self_pid;				\
	p->self_prog_fd = &skel->bss->self_prog_fd;			\
	p->self_link_fd = &skel->bss->self_link_fd;			\
	p->prog_fops = &skel->bss->prog_fops;				\
	p->link_fops = &skel->bss->link_fops;				\
	return 0;							\
}
DEFINE_LOAD(pid_iter_bpf, plain, ebpftop_pids)
DEFINE_LOAD(pid_iter_probe_bpf, probe, ebpftop_pids_p)

/* Let go of the loaded build and its link, if any: the /proc fallback. */
static void iter_close(struct pid_scan *p)
{
	if (p->link_fd >= 0)
		close(p->link_fd);
	p->link_fd = -1;
	pid_iter_bpf__destroy(p->plain);
	pid_iter_probe_bpf__destroy(p->probe);
	p->plain = NULL;
	p->probe = NULL;
	p->iter = false;
}

/* The loaded build: attach it and learn the file operations. */
static int iter_start(struct pid_scan *p)
{
	union bpf_iter_link_info self = { .task.pid = (__u32)getpid() };
	LIBBPF_OPTS(bpf_link_create_opts, self_only, .iter_info = &self,
		    .iter_info_len = sizeof(self));
	int err;

	/*
	 * The first pass learns the file operations of programs and links
	 * from ebpftop's own files. Linux 6.1 and later walk this process's
	 * files alone for it; older kernels walk every file once more.
	 */
	*p->self_pid = (__u32)getpid();
	*p->self_prog_fd = (__u32)p->prog_fd;
	p->link_fd = bpf_link_create(p->prog_fd, 0, BPF_TRACE_ITER, &self_only);
	if (p->link_fd >= 0) {
		*p->self_link_fd = (__u32)p->link_fd;
		err = iter_read(p);
		close(p->link_fd);
		p->link_fd = -1;
		if (err)
			return err;
	}
	p->link_fd = bpf_link_create(p->prog_fd, 0, BPF_TRACE_ITER, NULL);
	if (p->link_fd < 0)
		return -errno;
	if (!*p->prog_fops || !*p->link_fops) {
		*p->self_link_fd = (__u32)p->link_fd;
		err = iter_read(p);
		if (err)
			return err;
	}
	p->n = 0;
	if (!*p->prog_fops || !*p->link_fops)
		return -ENOENT;
	p->own_prog_id = prog_id_of_fd(p->prog_fd);
	return 0;
}

/* Plain loads where the kernel verifies them (6.15 on), else probe reads. */
static int iter_open(struct pid_scan *p, bool probe_only)
{
	int err = -ENOTSUP;

	if (!probe_only) {
		err = load_pid_iter_bpf(p);
		if (!err)
			err = iter_start(p);
		if (err)
			iter_close(p);
	}
	if (err) {
		err = load_pid_iter_probe_bpf(p);
		if (!err)
			err = iter_start(p);
		if (err)
			iter_close(p);
	}
	p->iter = !err;
	return err;
}

int pid_scan__new(struct pid_scan **out, enum pid_scan_how how)
{
	struct pid_scan *p = calloc(1, sizeof(*p));

	*out = p;
	if (!p)
		return -ENOMEM;
	p->link_fd = -1;
	if (how != PID_SCAN_PROC)
		iter_open(p, how == PID_SCAN_PROBE);
	return 0;
}

void pid_scan__free(struct pid_scan *p)
{
	if (!p)
		return;
	iter_close(p);
	free(p->refs);
	free(p->tmp);
	free(p);
}

uint32_t pid_scan__own_prog_id(const struct pid_scan *p)
{
	return p->own_prog_id;
}

/* The prog_id of a BPF program or link fd, from its fdinfo; 0 if none. */
static uint32_t fdinfo_prog_id(int dirfd, const char *fd)
{
	char buf[512], *line;
	uint32_t id = 0;
	ssize_t r;
	int f;

	f = openat(dirfd, fd, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return 0;
	r = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (r <= 0)
		return 0;
	buf[r] = '\0';
	line = strstr(buf, "prog_id:");
	if (line)
		id = (uint32_t)strtoul(line + strlen("prog_id:"), NULL, 10);
	return id;
}

static int proc_scan_pid(struct pid_scan *p, const char *pid_s, uint32_t pid)
{
	char path[320], target[64], comm[PROG_COMM_LEN] = "";
	struct dirent *de;
	int fdinfo, err = 0;
	DIR *fds;

	snprintf(path, sizeof(path), "/proc/%s/fd", pid_s);
	fds = opendir(path);
	if (!fds)
		return 0;	/* gone, or not ours to read */
	snprintf(path, sizeof(path), "/proc/%s/fdinfo", pid_s);
	fdinfo = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (fdinfo >= 0 && (de = readdir(fds))) {
		uint32_t id;
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd/%s", pid_s, de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, "anon_inode:bpf-prog") &&
		    strcmp(target, "anon_inode:bpf_link"))
			continue;
		id = fdinfo_prog_id(fdinfo, de->d_name);
		if (!id)
			continue;
		if (!comm[0]) {
			FILE *f;

			snprintf(path, sizeof(path), "/proc/%s/comm", pid_s);
			f = fopen(path, "re");
			if (f) {
				if (fgets(comm, sizeof(comm), f))
					comm[strcspn(comm, "\n")] = '\0';
				fclose(f);
			}
		}
		err = refs_push(p, id, pid, comm);
		if (err)
			break;
	}
	if (fdinfo >= 0)
		close(fdinfo);
	closedir(fds);
	return err;
}

static int proc_scan(struct pid_scan *p)
{
	uint32_t self = (uint32_t)getpid();
	struct dirent *de;
	int err = 0;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while ((de = readdir(proc))) {
		uint32_t pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = (uint32_t)strtoul(de->d_name, NULL, 10);
		if (pid == self)
			continue;
		err = proc_scan_pid(p, de->d_name, pid);
		if (err)
			break;
	}
	closedir(proc);
	return err;
}

int pid_scan__collect(struct pid_scan *p, const struct pid_ref **refs,
		      size_t *n)
{
	int err;

	p->n = 0;
	err = p->iter ? iter_read(p) : proc_scan(p);
	if (err)
		return err;
	refs_sort_unique(p);
	*refs = p->refs;
	*n = p->n;
	return 0;
}
