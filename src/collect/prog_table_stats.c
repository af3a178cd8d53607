// SPDX-License-Identifier: GPL-2.0-only
/* The program table's PROG_ENUM_STATS refresh: one prog_stats iterator read, merged into the slots. */
#include "config.h"

#include "collect/prog_slots.h"

#include <endian.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "collect/prog_stats.h"
#include "util/bpf_prog.h"
#include "util/clock.h"

/* The tag's 8 bytes as prog_sample_read() makes tag_key of them. */
static inline uint64_t entry_tag_key(const struct prog_stats_entry *e)
{
	uint64_t k;

	memcpy(&k, e->tag, sizeof(k));
	return be64toh(k);
}

/* Whether slot @sl holds the program of record @e (an id can be reused). */
static inline bool same_prog(const struct slot *sl,
			     const struct prog_stats_entry *e)
{
	return sl->cur.id == e->id && sl->cur.tag_key == entry_tag_key(e);
}

/*
 * What a program's info says and changes rarely, from one
 * BPF_OBJ_GET_INFO_BY_FD: @s gets everything but the counters, which the
 * iterator's @e gives. -ENOENT when the program went away meanwhile.
 */
static int sample_new(struct prog_table *t, const struct prog_stats_entry *e,
		      struct prog_sample *s)
{
	int fd, err;

	fd = prog_fd_by_id(e->id, NULL, 0);
	if (fd < 0)
		return fd;
	err = prog_sample_read_new(t, fd, s);
	close(fd);
	if (err)
		return err;
	/* The program behind the id changed between the two reads. */
	if (s->type != e->type || s->tag_key != entry_tag_key(e))
		return -ENOENT;
	prog_sample_announce(t);
	return 0;
}

static void sample_counters(const struct prog_stats_entry *e,
			    struct prog_sample *s)
{
	s->run_cnt = e->run_cnt;
	s->run_time_ns = e->run_time_ns;
	s->recursion_misses = e->recursion_misses;
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
		if (!same_prog(sl, &e[i]))
			break;
		prog_keep_counters(&sl->cur, &sl->prev);
		sample_counters(&e[i], &sl->cur);
		k++;
	}
	*same = i == n && k == t->n;
	return k;
}

int prog_table_refresh_stats(struct prog_table *t, bool *new_progs)
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
	/*
	 * Room for every record read, before anything moves: the merge
	 * below cannot fail half way, leaving slots moved but not counted.
	 * The table keeps more than it holds, so this rarely allocates.
	 */
	err = prog_slots_grow(t, n, false);
	if (err)
		return err;
	t->prev_time_ns = t->time_ns;
	t->time_ns = start;
	*new_progs = false;
	/* The steady state: the same programs, counters updated in place. */
	updated = update_same(t, e, n, &same);
	/* The first refresh has nothing to be the same as. */
	t->same = same && t->prev_time_ns;
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
		if (j == n || is_own(t, e[j].id) || !same_prog(sl, &e[j]))
			continue;	/* gone, or its id names another program */
		/* The first @updated ones were updated already. */
		if (o >= updated) {
			prog_keep_counters(&sl->cur, &sl->prev);
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
	/* kept + fresh <= n: there is room already. */
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
		if (sample_new(t, &e[j], &ns->cur)) {
			ns->cur.id = 0;	/* gone meanwhile: a hole, closed below */
			holes++;
			continue;
		}
		ns->cur.owners = NULL;
		ns->cur.nr_owners = 0;
		sample_counters(&e[j], &ns->cur);
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
