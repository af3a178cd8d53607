// SPDX-License-Identifier: GPL-2.0-only
/* The regression detector's tables: program state by id, by identity, live and gone. */
#include "config.h"

#include "analysis/regress_impl.h"
#include "util/grow.h"

#include <errno.h>
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
}

void rtab_id_remove(struct regress *r, struct rstate *st)
{
	struct rstate **pp = &r->by_id[id_bucket(r, st->id)];

	while (*pp && *pp != st)
		pp = &(*pp)->id_next;
	if (*pp)
		*pp = st->id_next;
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
	st->idx = r->nlive;
	r->live[r->nlive++] = st;
}

void rtab_live_remove(struct regress *r, struct rstate *st)
{
	struct rstate *last = r->live[--r->nlive];

	r->live[st->idx] = last;
	last->idx = st->idx;
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
	if (ARRAY_GROW(r->live, r->live_cap, r->nlive + 1, 64))
		return -ENOMEM;
	if (r->nlive + 1 > r->id_buckets && rehash(r, false))
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
