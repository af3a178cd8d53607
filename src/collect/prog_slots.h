/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_COLLECT_PROG_SLOTS_H
#define EBPFTOP_COLLECT_PROG_SLOTS_H

/*
 * Private to the program table: its state, and what both of its refresh
 * paths (prog_table.c, prog_table_stats.c) take from prog_slots.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/prog_table.h"

struct bpf_link;
struct pid_scan;
struct prog_iter_bpf;
struct prog_info_full;
struct prog_iter_entry;
struct prog_stats_iter;

/* What rates need of the previous sample. */
struct counters {
	uint32_t id;			/* 0: no previous sample */
	uint64_t run_cnt, run_time_ns, recursion_misses;
};

/*
 * One program between refreshes. A steady refresh reads and writes prev
 * and the start of cur (id, tag_key, counters): they are adjacent.
 */
struct slot {
	struct counters prev;
	struct prog_sample cur;
	int fd;				/* -1 when not held */
	bool counted;			/* refcnt includes our fd */
	bool released;			/* let go once: never held again */
	int64_t refcnt;			/* from the iterator, -1 if unknown */
	int64_t other_fds;		/* other instances' fds, this scan */
	int64_t prev_other_fds;		/* the same, previous scan */
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
	bool same;			/* prog_table__same() */
	struct prog_sample prev_view;	/* what prog_table__prev() returns */
	size_t fd_budget;		/* how many fds the table may hold */

	/* With a hook, new programs are read whole and shown to it. */
	prog_table_new_fn *on_new;
	void *on_new_ctx;
	struct prog_info_full *full;	/* its buffers, kept */
};

static inline bool is_own(const struct prog_table *t, uint32_t id)
{
	return id && (id == t->own_ids[0] || id == t->own_ids[1]);
}

/* Room for @need slots, and as many in scratch if @scratch. */
int prog_slots_grow(struct prog_table *t, size_t need, bool scratch);

/*
 * Fill @s from @fd. @old is the same program's previous sample (name and
 * owners already known) or NULL for a program seen for the first time.
 */
int prog_sample_read(int fd, const struct prog_sample *old,
		     struct prog_sample *s);

/*
 * A program seen for the first time, read whole into @f (instructions,
 * functions, map ids, ...) for the table's hook, and @s filled from it.
 */
int prog_sample_read_full(int fd, struct prog_info_full *f,
			  struct prog_sample *s);

/*
 * Read new program @fd into @s: whole if the table has a hook, else as
 * prog_sample_read() does. 0 or a negative errno. Once the table keeps
 * the program, prog_sample_announce() shows it to the hook.
 */
int prog_sample_read_new(struct prog_table *t, int fd, struct prog_sample *s);
void prog_sample_announce(struct prog_table *t);

/* The previous sample, as far as rates need it: id and counters. */
static inline void prog_keep_counters(const struct prog_sample *cur,
				      struct counters *prev)
{
	prev->id = cur->id;
	prev->run_cnt = cur->run_cnt;
	prev->run_time_ns = cur->run_time_ns;
	prev->recursion_misses = cur->recursion_misses;
}

/*
 * PROG_ENUM_STATS: one iterator read, info only for programs new here
 * (prog_table_stats.c). Sets *@new_progs when a program first showed up.
 */
int prog_table_refresh_stats(struct prog_table *t, bool *new_progs);

#endif
