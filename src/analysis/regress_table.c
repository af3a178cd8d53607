// SPDX-License-Identifier: GPL-2.0-only
/* The regression detector's tables: program state by id, by identity, live and gone. */
#include "config.h"

#include "analysis/regress_impl.h"
#include "util/grow.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static size_t key_bucket(const struct regress *r, uint64_t tag, uint64_t nh)
{
	return (size_t)mix(tag ^ mix(nh)) & (r->key_buckets - 1);
}

static size_t id_bucket(const struct regress *r, uint32_t id)
{
	return (size_t)mix(id) & (r->id_buckets - 1);
}

/* Grow a bucket array to twice its size, rehashing its chain. */
static int rehash(struct regress *r, bool by_key)
{
	size_t n = (by_key ? r->key_buckets : r->id_buckets) * 2;
	struct rstate **old = by_key ? r->by_key : r->by_id;
	size_t oldn = by_key ? r->key_buckets : r->id_buckets;
	struct rstate **b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	if (by_key) {
		r->by_key = b;
		r->key_buckets = n;
	} else {
		r->by_id = b;
		r->id_buckets = n;
	}
	for (size_t i = 0; i < oldn; i++) {
		struct rstate *st = old[i], *next;

		for (; st; st = next) {
			size_t h;

			if (by_key) {
				next = st->key_next;
				h = key_bucket(r, st->tag, st->name_hash);
				st->key_next = b[h];
			} else {
				next = st->id_next;
				h = id_bucket(r, st->id);
				st->id_next = b[h];
			}
			b[h] = st;
		}
	}
	free(old);
	return 0;
}

struct rstate *rtab_id_find(const struct regress *r, uint32_t id)
{
	struct rstate *st = r->by_id[id_bucket(r, id)];

	while (st && st->id != id)
		st = st->id_next;
	return st;
}

void rtab_id_insert(struct regress *r, struct rstate *st)
{
	size_t h = id_bucket(r, st->id);

	st->id_next = r->by_id[h];
	r->by_id[h] = st;
	r->nids++;
}

void rtab_id_remove(struct regress *r, struct rstate *st)
{
	struct rstate **pp = &r->by_id[id_bucket(r, st->id)];

	while (*pp && *pp != st)
		pp = &(*pp)->id_next;
	if (*pp) {
		*pp = st->id_next;
		r->nids--;
	}
	st->id_next = NULL;
}

void rtab_key_insert(struct regress *r, struct rstate *st)
{
	size_t h = key_bucket(r, st->tag, st->name_hash);

	st->key_next = r->by_key[h];
	r->by_key[h] = st;
	r->nkeyed++;
}

void rtab_key_remove(struct regress *r, struct rstate *st)
{
	struct rstate **pp = &r->by_key[key_bucket(r, st->tag, st->name_hash)];

	while (*pp && *pp != st)
		pp = &(*pp)->key_next;
	if (*pp) {
		*pp = st->key_next;
		r->nkeyed--;
	}
	st->key_next = NULL;
}

void rtab_live_add(struct regress *r, struct rstate *st)
{
	r->added[r->nadded++] = st;
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = (*(struct rstate *const *)a)->id;
	uint32_t y = (*(struct rstate *const *)b)->id;

	return x < y ? -1 : x > y;
}

void rtab_live_merge(struct regress *r)
{
	size_t i = r->nlive, j = r->nadded, k = r->nlive + r->nadded;
	bool sorted = true;

	for (size_t a = 1; sorted && a < r->nadded; a++)
		sorted = r->added[a - 1]->id <= r->added[a]->id;
	if (!sorted)
		qsort(r->added, r->nadded, sizeof(*r->added), cmp_id);
	/* From the end down, in place: rtab_reserve() made the room. */
	while (j > 0) {
		struct rstate *st;

		if (i > 0 && r->live[i - 1].id > r->added[j - 1]->id) {
			r->live[--k] = r->live[--i];
			continue;
		}
		st = r->added[--j];
		r->live[--k] = (struct rlive){
			.id = st->id,
			.stale = true,
			.dead = st->dead,
			.tag = st->tag,
			.name_hash = st->name_hash,
			.seen = st->last_seq,
			.first_seq = st->first_seq,
			.st = st,
		};
	}
	r->nlive += r->nadded;
	r->nadded = 0;
}

void rtab_gone_append(struct regress *r, struct rstate *st)
{
	st->gone_prev = r->gone_tail;
	st->gone_next = NULL;
	if (r->gone_tail)
		r->gone_tail->gone_next = st;
	else
		r->gone_head = st;
	r->gone_tail = st;
	r->ngone++;
}

void rtab_gone_remove(struct regress *r, struct rstate *st)
{
	if (st->gone_prev)
		st->gone_prev->gone_next = st->gone_next;
	else
		r->gone_head = st->gone_next;
	if (st->gone_next)
		st->gone_next->gone_prev = st->gone_prev;
	else
		r->gone_tail = st->gone_prev;
	st->gone_prev = st->gone_next = NULL;
	r->ngone--;
}

int rtab_reserve(struct regress *r)
{
	size_t need = r->nlive + r->nadded + 1;

	if (ARRAY_GROW(r->live, r->live_cap, need, 64))
		return -ENOMEM;
	if (ARRAY_GROW(r->added, r->added_cap, r->nadded + 1, 64))
		return -ENOMEM;
	if (r->nids + 1 > r->id_buckets && rehash(r, false))
		return -ENOMEM;
	if (r->nkeyed + 1 > r->key_buckets && rehash(r, true))
		return -ENOMEM;
	return 0;
}

struct rstate *rtab_key_chain(const struct regress *r, uint64_t tag,
			      uint64_t nh)
{
	return r->by_key[key_bucket(r, tag, nh)];
}

struct rstate *rtab_find_gone(struct regress *r, uint64_t tag, uint64_t nh)
{
	struct rstate *st = rtab_key_chain(r, tag, nh), *best = NULL;

	for (; st; st = st->key_next) {
		if (st->gone && st->tag == tag && st->name_hash == nh &&
		    (!best || st->last_seq > best->last_seq))
			best = st;
	}
	return best;
}
