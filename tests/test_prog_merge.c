// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters path's merge (src/collect/prog_table_stats.c) against a
 * model, with the kernel faked: programs are loaded, unloaded, reloaded
 * under the same id with another tag, and run, at random between
 * refreshes; ebpftop's own two iterator programs are in every read; now and
 * then a new program goes away between the iterator's read and its info
 * call, or its id names another program by then. After every refresh the
 * table must list exactly the programs that are loaded and were read, in
 * id order, with the iterator's counters, the previous sample of the ones
 * it listed before (their name and owners kept: a slot that moved carries
 * them) and none for new ones. And an allocation that fails leaves the
 * table as it was. No root needed: nothing here reaches the kernel.
 */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collect/prog_slots.h"
#include "collect/prog_stats.h"
#include "util/bpf_prog.h"
#include "util/clock.h"

#define MAX_ID 300
#define OWN_A 7			/* ebpftop's own iterator programs */
#define OWN_B 150
#define FD_BASE 100000		/* fake fds: FD_BASE + id */

/* What the fake iterator read returns, and what the info call then finds. */
static struct prog_stats_entry ents[MAX_ID + 1];
static size_t nents;
enum info_says { INFO_SAME, INFO_GONE, INFO_OTHER };
static enum info_says info[MAX_ID + 1];
static unsigned long names;
static bool grow_fails;

uint64_t mono_now_ns(void)
{
	static uint64_t now;

	return now += 100000000;
}

int prog_stats_iter__read(struct prog_stats_iter *it,
			  const struct prog_stats_entry **e, size_t *n)
{
	(void)it;
	*e = ents;
	*n = nents;
	return 0;
}

int prog_fd_by_id(uint32_t id, char *msg, size_t len)
{
	(void)msg, (void)len;
	return info[id] == INFO_GONE ? -ENOENT : FD_BASE + (int)id;
}

/* The info call: what the iterator said, or another tag. */
int prog_sample_read_new(struct prog_table *t, int fd, struct prog_sample *s)
{
	uint32_t id = (uint32_t)(fd - FD_BASE);
	uint64_t k;

	(void)t;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < nents; i++) {
		if (ents[i].id != id)
			continue;
		s->id = id;
		s->type = ents[i].type;
		memcpy(&k, ents[i].tag, sizeof(k));
		s->tag_key = be64toh(k) ^ (info[id] == INFO_OTHER);
	}
	/* The merge takes the counters from the iterator, not from here. */
	s->run_cnt = UINT64_MAX;
	snprintf(s->name, sizeof(s->name), "p%lu", names++);
	return 0;
}

void prog_sample_announce(struct prog_table *t)
{
	(void)t;
}

int prog_slots_grow(struct prog_table *t, size_t need, bool scratch)
{
	(void)scratch;
	if (need <= t->cap)
		return 0;
	if (grow_fails)
		return -ENOMEM;
	t->slots = realloc(t->slots, (need + need / 2) * sizeof(*t->slots));
	assert_non_null(t->slots);
	t->cap = need + need / 2;
	return 0;
}

/* The model: each id's program as loaded, and as the table last listed it. */
struct model {
	bool loaded;
	uint64_t tag, runs;
	uint32_t type;
	bool listed;			/* at the last refresh */
	uint64_t listed_tag, listed_runs;
	char name[PROG_NAME_MAX];
	struct prog_owner *owners;	/* what settle_owners() would have set */
};
static struct model m[MAX_ID + 1];
static struct prog_owner owners[MAX_ID + 1];

static void iterator_reads(void)
{
	nents = 0;
	for (uint32_t id = 1; id <= MAX_ID; id++) {
		struct prog_stats_entry *e;
		uint64_t be = htobe64(m[id].tag);

		info[id] = INFO_SAME;
		if (!m[id].loaded)
			continue;
		e = &ents[nents++];
		memset(e, 0, sizeof(*e));
		e->id = id;
		e->type = m[id].type;
		memcpy(e->tag, &be, sizeof(e->tag));
		e->run_cnt = m[id].runs;
		e->run_time_ns = 3 * m[id].runs;
		e->recursion_misses = m[id].runs / 7;
		/* A new program may be gone, or another, by its info call. */
		if (id != OWN_A && id != OWN_B && rand() % 20 == 0)
			info[id] = rand() % 2 ? INFO_GONE : INFO_OTHER;
	}
}

static void churn(void)
{
	for (int k = rand() % 6; k > 0; k--) {
		uint32_t id = 1 + (uint32_t)rand() % MAX_ID;

		switch (rand() % 4) {
		case 0:
			m[id].loaded = false;
			break;
		case 1:		/* loaded, or the id reused by another program */
			m[id].loaded = true;
			m[id].tag = (uint64_t)rand() << 32 | (uint64_t)rand();
			m[id].type = 1 + (uint32_t)rand() % 3;
			m[id].runs = 0;
			break;
		default:
			m[id].runs += (uint64_t)rand() % 100;
			break;
		}
	}
	for (uint32_t id = 1; id <= MAX_ID; id++)
		m[id].runs += m[id].loaded ? (uint64_t)rand() % 3 : 0;
	m[OWN_A].loaded = m[OWN_B].loaded = true;
}

/* The table against the model after a refresh; then the model follows. */
static void check(struct prog_table *t, int round)
{
	bool seen[MAX_ID + 1] = { false };
	uint32_t last = 0;

	for (size_t i = 0; i < t->n; i++) {
		struct slot *sl = &t->slots[i];
		uint32_t id = sl->cur.id;
		struct model *p = &m[id];
		bool before;

		if (!id || id > MAX_ID || id <= last)
			fail_msg("round %d: id %u after %u", round, id, last);
		last = id;
		if (!p->loaded || id == OWN_A || id == OWN_B)
			fail_msg("round %d: %u is listed but not loaded, or ours",
				 round, id);
		if (sl->cur.tag_key != p->tag || sl->cur.type != p->type ||
		    sl->cur.run_cnt != p->runs || sl->cur.run_time_ns != 3 * p->runs ||
		    sl->cur.recursion_misses != p->runs / 7)
			fail_msg("round %d: %u's sample is not the iterator's", round, id);
		before = p->listed && p->listed_tag == p->tag;
		if (before) {
			if (sl->prev.id != id || sl->prev.run_cnt != p->listed_runs)
				fail_msg("round %d: %u's previous sample is wrong", round, id);
			if (strcmp(sl->cur.name, p->name) || sl->cur.owners != p->owners)
				fail_msg("round %d: %u lost its name or owners", round, id);
		} else {
			if (sl->prev.id || sl->cur.owners || sl->cur.nr_owners)
				fail_msg("round %d: new %u has a past", round, id);
			if (info[id] != INFO_SAME)
				fail_msg("round %d: %u is listed though its info said %s",
					 round, id, info[id] == INFO_GONE ? "gone" : "another");
			strcpy(p->name, sl->cur.name);
		}
		p->listed_tag = p->tag;
		p->listed_runs = p->runs;
		p->owners = sl->cur.owners = &owners[id];
		seen[id] = true;
	}
	/* Every program read, not ours and with a good info, is listed. */
	for (uint32_t id = 1; id <= MAX_ID; id++) {
		bool due = m[id].loaded && id != OWN_A && id != OWN_B &&
			   ((m[id].listed && m[id].listed_tag == m[id].tag) ||
			    info[id] == INFO_SAME);

		if (due != seen[id])
			fail_msg("round %d: %u is %slisted", round, id,
				 seen[id] ? "" : "not ");
		m[id].listed = seen[id];
	}
}

static void run_model(unsigned int seed, int rounds)
{
	struct prog_table t = { .own_ids = { OWN_A, OWN_B } };
	bool new_progs;

	srand(seed);
	memset(m, 0, sizeof(m));
	for (int round = 0; round < rounds; round++) {
		churn();
		iterator_reads();
		assert_int_equal(prog_table_refresh_stats(&t, &new_progs), 0);
		check(&t, round);
	}
	free(t.slots);
}

static void test_model(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 20; seed++)
		run_model(seed, 3000);
}

/*
 * Programs came and went and the table must grow: when it cannot, the
 * refresh fails and leaves the table as it was, for the next one to merge.
 */
static void test_no_memory(void **state)
{
	struct prog_table t = { .own_ids = { OWN_A, OWN_B } };
	bool new_progs;

	(void)state;
	memset(m, 0, sizeof(m));
	m[OWN_A].loaded = m[OWN_B].loaded = true;
	for (uint32_t id = 10; id < 30; id++) {
		m[id].loaded = true;
		m[id].tag = id;
	}
	iterator_reads();
	memset(info, 0, sizeof(info));
	assert_int_equal(prog_table_refresh_stats(&t, &new_progs), 0);
	check(&t, 0);
	assert_int_equal(t.n, 20);

	/* One goes, more come than the table has room for. */
	m[12].loaded = false;
	for (uint32_t id = 40; id < 40 + t.cap; id++) {
		m[id].loaded = true;
		m[id].tag = id;
	}
	iterator_reads();
	memset(info, 0, sizeof(info));
	grow_fails = true;
	assert_int_equal(prog_table_refresh_stats(&t, &new_progs), -ENOMEM);
	grow_fails = false;
	assert_int_equal(t.n, 20);
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.slots[i].cur.id, 10 + i);

	assert_int_equal(prog_table_refresh_stats(&t, &new_progs), 0);
	assert_true(new_progs);
	check(&t, 1);
	free(t.slots);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_no_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
