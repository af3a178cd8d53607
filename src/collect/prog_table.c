// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/prog_table.h"
#include "collect/prog_slots.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/iters.h"
#include "collect/pids.h"
#include "collect/prog_stats.h"
#include "prog_iter.skel.h"
#include "util/bpf_prog.h"
#include "util/clock.h"
#include "util/prog_info.h"
#include "util/quiet.h"
#include "util/grow.h"

/*
 * Three ways to sample every program, the first that works here:
 *
 * PROG_ENUM_STATS: one read of the prog_stats iterator gives every
 * program's id, type, tag and counters. What changes rarely (name, BTF,
 * sizes, load time, owner uid) comes from BPF_OBJ_GET_INFO_BY_FD once, when
 * a program first shows up (or its id comes back with another tag). No fd
 * is held and no system call is made per program per refresh. Owners are
 * scanned when a program appeared, and otherwise once every
 * OWNERS_MAX_AGE_NS: that walk visits every open file on the machine, and
 * is the most expensive part of a refresh.
 *
 * PROG_ENUM_ITER: the prog_iter iterator lists ids and reference counts,
 * and the table keeps an fd on every program between refreshes (within a
 * budget under RLIMIT_NOFILE), so that a refresh costs one
 * BPF_OBJ_GET_INFO_BY_FD per program. An fd is a reference, though: held
 * blindly, it would keep a program alive after its owner let it go. The
 * owner scan, made at every refresh here, tells how many references are
 * fds of ebpftop instances (this one and any other running at the same
 * time, recognised by the iterators they hold). When nothing
 * else holds a program, the table closes its fd for good and the program
 * goes (if it does not, it is reopened at each refresh).
 *
 * PROG_ENUM_IDS: without iterators the table cannot tell, so it holds no
 * fds and opens each program again on every refresh.
 */

static int refresh_info(struct prog_table *t);

/* How old the owners of a program already listed may be (stats mode). */
#define OWNERS_MAX_AGE_NS (3 * 1000000000ull)


static int iter_open(struct prog_table *t)
{
	libbpf_print_fn_t old = libbpf_quiet();
	int err = 0;

	t->skel = prog_iter_bpf__open_and_load();
	if (!t->skel) {
		err = -errno;
		goto out;
	}
	t->iter_link = bpf_program__attach_iter(t->skel->progs.ebpftop_progs,
						NULL);
	if (!t->iter_link) {
		err = -errno;
		prog_iter_bpf__destroy(t->skel);
		t->skel = NULL;
		goto out;
	}
	t->own_ids[0] = prog_id_of_fd(bpf_program__fd(t->skel->progs.ebpftop_progs));
out:
	libbpf_set_print(old);
	return err;
}

/* Leave room under RLIMIT_NOFILE for everything else ebpftop opens. */
static size_t fd_budget(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur == RLIM_INFINITY)
		return SIZE_MAX;
	return r.rlim_cur > 256 ? (size_t)r.rlim_cur - 256 : 0;
}

int prog_table__new(struct prog_table **out, enum prog_table_stats stats_iter,
		    bool prog_iter, enum pid_scan_how pid_iter)
{
	struct prog_table *t = calloc(1, sizeof(*t));
	int err;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	if (prog_iter && stats_iter != PROG_TABLE_STATS_NONE &&
	    !prog_stats_iter__open(&t->stats,
				   stats_iter == PROG_TABLE_STATS_PROBE)) {
		t->mode = PROG_ENUM_STATS;
		t->own_ids[0] = prog_stats_iter__prog_id(t->stats);
	} else {
		t->fd_budget = fd_budget();
		t->mode = prog_iter && !iter_open(t) ? PROG_ENUM_ITER :
						       PROG_ENUM_IDS;
	}
	err = pid_scan__new(&t->pids, pid_iter);
	if (err) {
		prog_table__free(t);
		return err;
	}
	t->own_ids[1] = pid_scan__own_prog_id(t->pids);
	*out = t;
	return 0;
}

void prog_table__on_new(struct prog_table *t, prog_table_new_fn *fn,
			void *ctx)
{
	t->on_new = fn;
	t->on_new_ctx = ctx;
}

enum prog_enum_mode prog_table__mode(const struct prog_table *t)
{
	return t->mode;
}

void prog_table__free(struct prog_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		if (t->slots[i].fd >= 0)
			close(t->slots[i].fd);
	}
	bpf_link__destroy(t->iter_link);
	prog_iter_bpf__destroy(t->skel);
	prog_stats_iter__free(t->stats);
	pid_scan__free(t->pids);
	free(t->slots);
	free(t->scratch);
	free(t->owners);
	free(t->ids);
	prog_info_full_free(t->full);
	free(t->full);
	free(t);
}

static int ids_push(struct prog_table *t, uint32_t id, int64_t refcnt)
{
	if (ARRAY_GROW(t->ids, t->ids_cap, t->nids + 1, 256))
		return -ENOMEM;
	t->ids[t->nids++] = (struct prog_iter_entry){ .id = id, .refcnt = refcnt };
	return 0;
}

/* Every loaded program id, ascending, with its reference count if known. */
static int list_ids(struct prog_table *t)
{
	__u32 id = 0;
	int err = 0;

	t->nids = 0;
	if (t->mode == PROG_ENUM_ITER) {
		struct prog_iter_entry e[128];
		ssize_t r;
		int fd;

		fd = bpf_iter_create(bpf_link__fd(t->iter_link));
		if (fd < 0)
			return -errno;
		while ((r = read(fd, e, sizeof(e))) > 0) {
			for (size_t i = 0; !err && i < (size_t)r / sizeof(e[0]); i++)
				err = ids_push(t, e[i].id, e[i].refcnt);
		}
		if (r < 0 && !err)
			err = -errno;
		close(fd);
		return err;
	}
	for (;;) {
		if (bpf_prog_get_next_id(id, &id)) {
			if (errno == ENOENT)
				return 0;
			return -errno;
		}
		err = ids_push(t, id, -1);
		if (err)
			return err;
	}
}


/* The iterators that mark a process as an ebpftop instance. */
static bool is_monitor_prog(const struct prog_sample *s)
{
	return s->type == BPF_PROG_TYPE_TRACING &&
	       (!strcmp(s->name, "ebpftop_progs") ||
		!strcmp(s->name, "ebpftop_progs_p") ||
		!strcmp(s->name, "ebpftop_pids") ||
		!strcmp(s->name, "ebpftop_pids_p"));
}

static bool pid_in(const uint32_t *pids, size_t n, uint32_t pid)
{
	for (size_t i = 0; i < n; i++) {
		if (pids[i] == pid)
			return true;
	}
	return false;
}

/*
 * Scan owners, then: let go of programs that only ebpftop instances still
 * hold, and give every program its owners, leaving out the other ebpftop
 * instances (their fds on every program are not ownership).
 */
static int settle_owners(struct prog_table *t)
{
	uint32_t monitors[16];
	size_t nmon = 0, nrefs, j = 0, no = 0;
	const struct pid_ref *refs;
	struct prog_owner *o;
	int err;

	err = pid_scan__collect(t->pids, &refs, &nrefs);
	if (err)
		return err;
	o = realloc(t->owners, (nrefs ? nrefs : 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	t->owners = o;

	/* Both lists are sorted by program id: merge passes. */
	for (size_t i = 0; i < t->n; i++) {
		if (!is_monitor_prog(&t->slots[i].cur))
			continue;
		while (j < nrefs && refs[j].prog_id < t->slots[i].cur.id)
			j++;
		for (; j < nrefs && refs[j].prog_id == t->slots[i].cur.id; j++) {
			if (nmon < sizeof(monitors) / sizeof(monitors[0]) &&
			    !pid_in(monitors, nmon, refs[j].owner.pid))
				monitors[nmon++] = refs[j].owner.pid;
		}
	}

	j = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct slot *sl = &t->slots[i];
		bool monitor = is_monitor_prog(&sl->cur);
		int64_t others = 0;
		size_t first;

		while (j < nrefs && refs[j].prog_id < sl->cur.id)
			j++;
		first = j;
		/*
		 * Another instance's own iterator is really held by it (a
		 * link, not just an fd), so only our fd counts there.
		 */
		for (; j < nrefs && refs[j].prog_id == sl->cur.id; j++) {
			if (!monitor && pid_in(monitors, nmon, refs[j].owner.pid))
				others += refs[j].nr_fds;
		}
		sl->other_fds = others;
		/*
		 * The scan runs after the iterator read: an fd another
		 * instance opened in between is seen here but is not in
		 * refcnt. Count only fds the previous scan saw as well.
		 */
		if (others > sl->prev_other_fds)
			others = sl->prev_other_fds;
		/*
		 * The iterator's visit holds one reference too. Let go of
		 * the program but keep its row: if this was a race with
		 * another instance and the program lives on, it stays in
		 * the table, reopened at each refresh.
		 */
		if (sl->fd >= 0 && sl->refcnt >= 0 &&
		    sl->refcnt - 1 <= sl->counted + others) {
			close(sl->fd);
			sl->fd = -1;
			sl->released = true;
		}
		sl->cur.owners = &o[no];
		sl->cur.nr_owners = 0;
		for (size_t r = first; r < j; r++) {
			if (!monitor && pid_in(monitors, nmon, refs[r].owner.pid))
				continue;
			o[no++] = refs[r].owner;
			sl->cur.nr_owners++;
		}
	}
	return 0;
}


/* Whether any program first sampled at this refresh has no owner yet. */
static bool new_without_owner(const struct prog_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (!t->slots[i].prev.id && !t->slots[i].cur.nr_owners)
			return true;
	}
	return false;
}

int prog_table__refresh(struct prog_table *t)
{
	bool new_progs;
	int err;

	if (t->mode != PROG_ENUM_STATS)
		return refresh_info(t);
	err = prog_table_refresh_stats(t, &new_progs);
	if (err)
		return err;
	/*
	 * Owners of new programs now; of the others, at most
	 * OWNERS_MAX_AGE_NS old. A program is visible to the iterator a
	 * moment before its loader's fd is: one that had no owner when it
	 * appeared is looked at again at the next refresh.
	 */
	if (!new_progs && !t->owners_due && t->owners_time_ns &&
	    t->time_ns - t->owners_time_ns < OWNERS_MAX_AGE_NS)
		return 0;
	err = settle_owners(t);
	if (err) {
		/* Again at the next refresh: new programs have no owners yet. */
		t->owners_due = true;
		return err;
	}
	t->owners_due = new_progs && new_without_owner(t);
	t->owners_time_ns = t->time_ns;
	return 0;
}

/* PROG_ENUM_ITER and PROG_ENUM_IDS: one info call per program. */
static int refresh_info(struct prog_table *t)
{
	size_t k = 0, old = 0, held = 0;
	struct slot *tmp;
	uint64_t start;
	int err;

	err = list_ids(t);
	if (err)
		return err;
	err = prog_slots_grow(t, t->nids, true);
	if (err)
		return err;
	start = mono_now_ns();
	for (size_t i = 0; i < t->nids; i++) {
		uint32_t id = t->ids[i].id;
		struct slot *prev = NULL, *ns = &t->scratch[k];
		bool held_before;
		int fd = -1;

		/* Programs that left since the last refresh: let them go. */
		while (old < t->n && t->slots[old].cur.id < id) {
			if (t->slots[old].fd >= 0)
				close(t->slots[old].fd);
			old++;
		}
		if (old < t->n && t->slots[old].cur.id == id) {
			prev = &t->slots[old++];
			fd = prev->fd;
			prev->fd = -1;
		}
		held_before = fd >= 0;
		if (is_own(t, id))
			goto drop;
		if (fd < 0) {
			/*
			 * ENOENT: gone meanwhile. Anything else (EMFILE, ENOMEM)
			 * costs this program this refresh, not the table.
			 */
			fd = prog_fd_by_id(id, NULL, 0);
			if (fd < 0)
				continue;
		}
		if (prev ? prog_sample_read(fd, &prev->cur, &ns->cur) :
			   prog_sample_read_new(t, fd, &ns->cur))
			goto drop;
		if (!prev)
			prog_sample_announce(t);
		ns->refcnt = t->ids[i].refcnt;
		/* An fd opened after the iterator read is not in its count. */
		ns->counted = held_before;
		ns->other_fds = 0;
		ns->prev_other_fds = prev ? prev->other_fds : 0;
		if (prev) {
			prog_keep_counters(&prev->cur, &ns->prev);
		} else {
			memset(&ns->prev, 0, sizeof(ns->prev));
		}
		/*
		 * Another instance's iterators live as long as that
		 * instance: holding them would outlive it.
		 */
		ns->released = (prev && prev->released) ||
			       is_monitor_prog(&ns->cur);
		/*
		 * Past the fd budget, and once let go, a program is reopened
		 * at each refresh instead of held.
		 */
		if (t->mode == PROG_ENUM_ITER && held < t->fd_budget &&
		    !ns->released) {
			ns->fd = fd;
			held++;
		} else {
			close(fd);
			ns->fd = -1;
		}
		k++;
		continue;
drop:
		if (fd >= 0)
			close(fd);
	}
	for (; old < t->n; old++) {
		if (t->slots[old].fd >= 0)
			close(t->slots[old].fd);
	}
	t->same = false;	/* not worth finding out here */
	tmp = t->slots;
	t->slots = t->scratch;
	t->scratch = tmp;
	t->n = k;
	t->prev_time_ns = t->time_ns;
	t->time_ns = start;
	if (!err)
		err = settle_owners(t);
	return err;
}

size_t prog_table__count(const struct prog_table *t)
{
	return t->n;
}

const struct prog_sample *prog_table__sample(const struct prog_table *t,
					     size_t i)
{
	return &t->slots[i].cur;
}

const struct prog_sample *prog_table__prev(struct prog_table *t, size_t i)
{
	const struct counters *c = &t->slots[i].prev;

	if (!c->id)
		return NULL;
	t->prev_view.id = c->id;
	t->prev_view.run_cnt = c->run_cnt;
	t->prev_view.run_time_ns = c->run_time_ns;
	t->prev_view.recursion_misses = c->recursion_misses;
	return &t->prev_view;
}

bool prog_table__same(const struct prog_table *t)
{
	return t->same;
}

uint64_t prog_table__time_ns(const struct prog_table *t)
{
	return t->time_ns;
}

uint64_t prog_table__prev_time_ns(const struct prog_table *t)
{
	return t->prev_time_ns;
}
