// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/prog_table.h"

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
#include "util/quiet.h"

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
 * time, recognised by the ebpftop_progs iterator they hold). When nothing
 * else holds a program, the table closes its fd for good and the program
 * goes (if it does not, it is reopened at each refresh).
 *
 * PROG_ENUM_IDS: without iterators the table cannot tell, so it holds no
 * fds and opens each program again on every refresh.
 */

static int refresh_info(struct prog_table *t);

/* How old the owners of a program already listed may be (stats mode). */
#define OWNERS_MAX_AGE_NS (3 * 1000000000ull)

/* What rates need of the previous sample. */
struct counters {
	uint32_t id;			/* 0: no previous sample */
	uint64_t run_cnt, run_time_ns, recursion_misses;
};

/* One program between refreshes. */
struct slot {
	struct prog_sample cur;
	struct counters prev;
	int fd;				/* -1 when not held */
	int64_t refcnt;			/* from the iterator, -1 if unknown */
	bool counted;			/* refcnt includes our fd */
	int64_t other_fds;		/* other instances' fds, this scan */
	int64_t prev_other_fds;		/* the same, previous scan */
	bool released;			/* let go once: never held again */
	uint8_t tag_raw[8];		/* PROG_ENUM_STATS: the tag, to spot a reused id */
};

struct prog_table {
	enum prog_enum_mode mode;
	struct prog_stats_iter *stats;	/* PROG_ENUM_STATS */
	struct prog_iter_bpf *skel;	/* PROG_ENUM_ITER */
	struct bpf_link *iter_link;
	struct pid_scan *pids;
	uint32_t own_ids[2];		/* ebpftop's own iterator programs */
	uint64_t owners_time_ns;	/* refresh of the latest owner scan */
	bool owners_due;		/* scan owners at the next refresh */

	size_t n, cap;
	struct slot *slots;		/* sorted by id */
	struct slot *scratch;		/* the info path builds the next refresh here */
	size_t scratch_cap;
	struct prog_owner *owners;	/* slots[i].cur.owners point here */

	struct prog_iter_entry *ids;	/* scratch for the id list */
	size_t nids, ids_cap;

	uint64_t time_ns, prev_time_ns;
	struct prog_sample prev_view;	/* what prog_table__prev() returns */
	size_t fd_budget;		/* how many fds the table may hold */
};

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

int prog_table__new(struct prog_table **out, bool stats_iter, bool prog_iter,
		    bool pid_iter)
{
	struct prog_table *t = calloc(1, sizeof(*t));
	int err;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	if (prog_iter && stats_iter && !prog_stats_iter__open(&t->stats)) {
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
	free(t);
}

static int ids_push(struct prog_table *t, uint32_t id, int64_t refcnt)
{
	if (t->nids == t->ids_cap) {
		size_t cap = t->ids_cap ? t->ids_cap * 2 : 256;
		struct prog_iter_entry *n = realloc(t->ids, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		t->ids = n;
		t->ids_cap = cap;
	}
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

/* Room for @need slots, and as many in scratch if @scratch. */
static int grow(struct prog_table *t, size_t need, bool scratch)
{
	if (need > t->cap) {
		size_t cap = need < 64 ? 64 : need + need / 2;
		struct slot *a = realloc(t->slots, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		t->slots = a;
		t->cap = cap;
	}
	if (scratch && t->scratch_cap < t->cap) {
		struct slot *b = realloc(t->scratch, t->cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		t->scratch = b;
		t->scratch_cap = t->cap;
	}
	return 0;
}

static bool is_own(const struct prog_table *t, uint32_t id)
{
	return id && (id == t->own_ids[0] || id == t->own_ids[1]);
}

static void tag_hex(const unsigned char tag[BPF_TAG_SIZE], char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < BPF_TAG_SIZE; i++) {
		out[2 * i] = hex[tag[i] >> 4];
		out[2 * i + 1] = hex[tag[i] & 0xf];
	}
	out[2 * BPF_TAG_SIZE] = '\0';
}

/*
 * Fill @s from @fd. @old is the same program's previous sample (name and
 * owners already known) or NULL for a program seen for the first time.
 */
static int sample_prog(int fd, const struct prog_sample *old,
		       struct prog_sample *s)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	memset(s, 0, sizeof(*s));
	s->id = info.id;
	s->type = info.type;
	s->type_name = libbpf_bpf_prog_type_str(info.type);
	if (!s->type_name)
		s->type_name = "unknown";
	tag_hex(info.tag, s->tag);
	s->run_cnt = info.run_cnt;
	s->run_time_ns = info.run_time_ns;
	s->recursion_misses = info.recursion_misses;
	s->load_time_ns = info.load_time;
	s->uid = info.created_by_uid;
	s->btf_id = info.btf_id;
	s->xlated_len = info.xlated_prog_len;
	s->jited_len = info.jited_prog_len;
	s->nr_map_ids = info.nr_map_ids;
	if (old && !strcmp(old->tag, s->tag)) {
		memcpy(s->name, old->name, sizeof(s->name));
	} else {
		snprintf(s->name, sizeof(s->name), "%s", info.name);
		/* The kernel keeps 15 characters: BTF may know more. */
		if (strlen(info.name) >= BPF_OBJ_NAME_LEN - 1 || !info.name[0])
			prog_btf_name(fd, &info, s->name, sizeof(s->name));
	}
	return 0;
}

/* The iterators that mark a process as an ebpftop instance. */
static bool is_monitor_prog(const struct prog_sample *s)
{
	return s->type == BPF_PROG_TYPE_TRACING &&
	       (!strcmp(s->name, "ebpftop_progs") ||
		!strcmp(s->name, "ebpftop_pids"));
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

/*
 * What a program's info says and changes rarely, from one
 * BPF_OBJ_GET_INFO_BY_FD: @s gets everything but the counters, which the
 * iterator's @e gives. -ENOENT when the program went away meanwhile.
 */
static int sample_new(const struct prog_stats_entry *e, struct prog_sample *s)
{
	int fd, err;

	fd = prog_fd_by_id(e->id, NULL, 0);
	if (fd < 0)
		return fd;
	err = sample_prog(fd, NULL, s);
	close(fd);
	if (err)
		return err;
	/* The program behind the id changed between the two reads. */
	if (s->type != e->type)
		return -ENOENT;
	return 0;
}

static void sample_counters(const struct prog_stats_entry *e,
			    struct prog_sample *s)
{
	s->run_cnt = e->run_cnt;
	s->run_time_ns = e->run_time_ns;
	s->recursion_misses = e->recursion_misses;
}

/* The previous sample, as far as rates need it: id and counters. */
static void keep_counters(const struct prog_sample *cur, struct counters *prev)
{
	prev->id = cur->id;
	prev->run_cnt = cur->run_cnt;
	prev->run_time_ns = cur->run_time_ns;
	prev->recursion_misses = cur->recursion_misses;
}

/*
 * The steady state, in one pass: while the iterator's programs (ebpftop's
 * own left out) are the table's, in order, update their counters. Returns
 * how many slots were updated; all of them (t->n) when nothing changed
 * and no iterator record is left over.
 */
static size_t update_same(struct prog_table *t, const struct prog_stats_entry *e,
			  size_t n, bool *same)
{
	size_t k = 0, i;

	for (i = 0; i < n; i++) {
		struct slot *sl;

		if (is_own(t, e[i].id))
			continue;
		if (k == t->n)
			break;
		sl = &t->slots[k];
		if (sl->cur.id != e[i].id ||
		    memcmp(sl->tag_raw, e[i].tag, sizeof(e[i].tag)))
			break;
		keep_counters(&sl->cur, &sl->prev);
		sample_counters(&e[i], &sl->cur);
		k++;
	}
	*same = i == n && k == t->n;
	return k;
}

/* PROG_ENUM_STATS: one iterator read, info only for programs new here. */
static int refresh_stats(struct prog_table *t, bool *new_progs)
{
	size_t n, j = 0, kept = 0, fresh = 0, holes = 0, updated, pos, i;
	const struct prog_stats_entry *e;
	uint64_t start;
	bool same;
	int err;

	start = mono_now_ns();
	err = prog_stats_iter__read(t->stats, &e, &n);
	if (err)
		return err;
	t->prev_time_ns = t->time_ns;
	t->time_ns = start;
	*new_progs = false;
	/* The steady state: the same programs, counters updated in place. */
	updated = update_same(t, e, n, &same);
	if (same)
		return 0;
	/*
	 * Programs came or went: merge in place, with no second array (at
	 * 10,000 programs that is megabytes). First the programs that stay
	 * move down over those that left, their counters updated...
	 */
	for (size_t o = 0; o < t->n; o++) {
		struct slot *sl = &t->slots[o];

		while (j < n && e[j].id < sl->cur.id)
			j++;
		if (j == n || e[j].id != sl->cur.id || is_own(t, e[j].id) ||
		    memcmp(sl->tag_raw, e[j].tag, sizeof(e[j].tag)))
			continue;	/* gone, or its id names another program */
		/* The first @updated ones were updated already. */
		if (o >= updated) {
			keep_counters(&sl->cur, &sl->prev);
			sample_counters(&e[j], &sl->cur);
		}
		if (kept != o)
			t->slots[kept] = *sl;
		kept++;
	}
	/* ...then the new ones are counted... */
	for (size_t q = 0, s = 0; q < n; q++) {
		while (s < kept && t->slots[s].cur.id < e[q].id)
			s++;
		if (!is_own(t, e[q].id) &&
		    (s == kept || t->slots[s].cur.id != e[q].id))
			fresh++;
	}
	err = grow(t, kept + fresh, false);
	if (err)
		return err;
	/*
	 * ...and placed from the end down, so that no slot is overwritten
	 * before it moved: a new program is sampled where it belongs.
	 */
	pos = kept + fresh;
	i = kept;
	for (j = n; j-- > 0;) {
		struct slot *ns;

		if (is_own(t, e[j].id))
			continue;
		while (i > 0 && t->slots[i - 1].cur.id > e[j].id)
			t->slots[--pos] = t->slots[--i];
		if (i > 0 && t->slots[i - 1].cur.id == e[j].id) {
			t->slots[--pos] = t->slots[--i];
			continue;
		}
		ns = &t->slots[--pos];
		memset(ns, 0, sizeof(*ns));
		if (sample_new(&e[j], &ns->cur)) {
			ns->cur.id = 0;	/* gone meanwhile: a hole, closed below */
			holes++;
			continue;
		}
		ns->cur.owners = NULL;
		ns->cur.nr_owners = 0;
		sample_counters(&e[j], &ns->cur);
		memcpy(ns->tag_raw, e[j].tag, sizeof(ns->tag_raw));
		ns->fd = -1;
		ns->refcnt = -1;
		ns->released = true;
		*new_progs = true;
	}
	t->n = kept + fresh;
	if (holes) {
		size_t w = 0;

		for (size_t r = 0; r < t->n; r++) {
			if (!t->slots[r].cur.id)
				continue;
			if (w != r)
				t->slots[w] = t->slots[r];
			w++;
		}
		t->n = w;
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
	err = refresh_stats(t, &new_progs);
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
	if (err)
		return err;
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
	err = grow(t, t->nids, true);
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
		if (sample_prog(fd, prev ? &prev->cur : NULL, &ns->cur))
			goto drop;
		ns->refcnt = t->ids[i].refcnt;
		/* An fd opened after the iterator read is not in its count. */
		ns->counted = held_before;
		ns->other_fds = 0;
		ns->prev_other_fds = prev ? prev->other_fds : 0;
		if (prev) {
			keep_counters(&prev->cur, &ns->prev);
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

uint64_t prog_table__time_ns(const struct prog_table *t)
{
	return t->time_ns;
}

uint64_t prog_table__prev_time_ns(const struct prog_table *t)
{
	return t->prev_time_ns;
}
