// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "output/row_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

/*
 * The inputs of a row that are numbers or static pointers, compared in one
 * memcmp: no padding (seven 8-byte members, then two of 4). The rates go
 * by their bits: NAN is always the same NAN (rates_compute).
 */
struct rc_key {
	uint64_t run_cnt;
	uint64_t run_time_ns;
	uint64_t rates[3];		/* ns/run, runs/s, CPU %: bits */
	const char *type_name;		/* static */
	const struct prog_insights *ins; /* kept unchanged while loaded */
	uint32_t id;
	uint32_t nr_owners;
};

struct rc_entry {
	struct rc_key key;
	/*
	 * The inputs that are text: name, NUL, tag, NUL, the owners; then
	 * the row's bytes.
	 */
	char *blob;
	uint32_t head;		/* bytes of blob before the row's */
	uint32_t len;		/* the row's bytes */
	uint32_t cap;		/* of blob */
	uint32_t seen;		/* the refresh it was last looked up at */
	uint32_t layout;	/* that its bytes were made for; 0: none */
	uint32_t aux;
};

struct row_cache {
	struct rc_entry *ents;
	size_t nr, cap;
	uint32_t *index;	/* entry + 1 by the id's hash; 0: free */
	size_t index_size;	/* 2^index_bits, at least twice nr */
	unsigned int index_bits;
	size_t nr_seen;		/* entries looked up at this refresh */
	uint32_t stamp;		/* the refresh */
	uint32_t layout;
};

struct row_cache *row_cache__new(void)
{
	struct row_cache *c = calloc(1, sizeof(*c));

	if (c)
		c->layout = 1;
	return c;
}

void row_cache__free(struct row_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		free(c->ents[i].blob);
	free(c->ents);
	free(c->index);
	free(c);
}

void row_cache__begin(struct row_cache *c)
{
	/* 0 is no refresh: an entry that was never looked up. */
	if (!++c->stamp)
		c->stamp = 1;
	c->nr_seen = 0;
}

/* Fibonacci hashing: ids that differ in any bits spread. */
static size_t slot_of(uint32_t id, unsigned int bits)
{
	return (size_t)((id * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits));
}

/* Every entry into the index, emptied first. */
static void fill_index(struct row_cache *c)
{
	size_t mask = c->index_size - 1;

	memset(c->index, 0, c->index_size * sizeof(*c->index));
	for (size_t i = 0; i < c->nr; i++) {
		size_t h = slot_of(c->ents[i].key.id, c->index_bits);

		while (c->index[h])
			h = (h + 1) & mask;
		c->index[h] = (uint32_t)(i + 1);
	}
}

/* An index of 2^@bits slots; 0 or -ENOMEM (then the old one stays). */
static int reindex(struct row_cache *c, unsigned int bits)
{
	uint32_t *index = malloc(((size_t)1 << bits) * sizeof(*index));

	if (!index)
		return -ENOMEM;
	free(c->index);
	c->index = index;
	c->index_size = (size_t)1 << bits;
	c->index_bits = bits;
	fill_index(c);
	return 0;
}

static void make_key(struct rc_key *k, const struct prog_row *row)
{
	const struct prog_sample *s = row->s;

	k->run_cnt = s->run_cnt;
	k->run_time_ns = s->run_time_ns;
	memcpy(&k->rates[0], &row->r.ns_per_run, sizeof(k->rates[0]));
	memcpy(&k->rates[1], &row->r.runs_per_s, sizeof(k->rates[1]));
	memcpy(&k->rates[2], &row->r.cpu_pct, sizeof(k->rates[2]));
	k->type_name = s->type_name;
	k->ins = row->ins;
	k->id = s->id;
	k->nr_owners = s->nr_owners;
}

/* Whether the text inputs kept in @e's blob are those of @s. */
static bool same_text(const struct rc_entry *e, const struct prog_sample *s)
{
	const char *p = e->blob;
	size_t n;

	if (!p)
		return false;
	n = strnlen(s->name, sizeof(s->name));
	if (memcmp(p, s->name, n) || p[n])
		return false;
	p += n + 1;
	n = strnlen(s->tag, sizeof(s->tag));
	if (memcmp(p, s->tag, n) || p[n])
		return false;
	p += n + 1;
	for (uint32_t i = 0; i < s->nr_owners; i++, p += sizeof(struct prog_owner)) {
		struct prog_owner o;

		memcpy(&o, p, sizeof(o));
		if (o.pid != s->owners[i].pid ||
		    strncmp(o.comm, s->owners[i].comm, sizeof(o.comm)))
			return false;
	}
	return true;
}

/* Keep @s's text inputs in @e's blob; its bytes are gone. 0 or -ENOMEM. */
static int keep_text(struct rc_entry *e, const struct prog_sample *s)
{
	size_t name = strnlen(s->name, sizeof(s->name));
	size_t tag = strnlen(s->tag, sizeof(s->tag));
	size_t owners = (size_t)s->nr_owners * sizeof(struct prog_owner);
	size_t need = name + 1 + tag + 1 + owners;
	char *p;

	e->head = 0;
	e->len = 0;
	e->layout = 0;
	if (need > UINT32_MAX / 2)
		return -ENOMEM;
	if (need > e->cap) {
		free(e->blob);
		e->cap = 0;
		/* Room for a row's bytes too, most times. */
		e->blob = malloc(need + 256);
		if (!e->blob)
			return -ENOMEM;
		e->cap = (uint32_t)(need + 256);
	}
	p = e->blob;
	memcpy(p, s->name, name);
	p[name] = '\0';
	p += name + 1;
	memcpy(p, s->tag, tag);
	p[tag] = '\0';
	p += tag + 1;
	for (uint32_t i = 0; i < s->nr_owners; i++) {
		struct prog_owner o = { .pid = s->owners[i].pid };

		strncpy(o.comm, s->owners[i].comm, sizeof(o.comm));
		memcpy(p, &o, sizeof(o));
		p += sizeof(o);
	}
	e->head = (uint32_t)need;
	return 0;
}

/* The entry of @id, a new one if there is none; -1 on ENOMEM. */
static long find_or_add(struct row_cache *c, uint32_t id)
{
	size_t h;

	if ((c->nr + 1) * 2 > c->index_size &&
	    reindex(c, c->index_bits ? c->index_bits + 1 : 8))
		return -1;
	h = slot_of(id, c->index_bits);
	while (c->index[h]) {
		uint32_t i = c->index[h] - 1;

		if (c->ents[i].key.id == id)
			return i;
		h = (h + 1) & (c->index_size - 1);
	}
	if (ARRAY_GROW(c->ents, c->cap, c->nr + 1, 256))
		return -1;
	memset(&c->ents[c->nr], 0, sizeof(c->ents[c->nr]));
	c->ents[c->nr].key.id = id;
	c->index[h] = (uint32_t)(c->nr + 1);
	return (long)c->nr++;
}

long row_cache__lookup(struct row_cache *c, const struct prog_row *row,
		       bool *same)
{
	struct rc_entry *e;
	struct rc_key k;
	long i;

	*same = false;
	/* The flag's figures are four more inputs; few rows have one. */
	if (row->reg.active)
		return -1;
	i = find_or_add(c, row->s->id);
	if (i < 0)
		return -1;
	e = &c->ents[i];
	if (e->seen == c->stamp)
		return -1;	/* the id twice: the entry is the first's */
	e->seen = c->stamp;
	c->nr_seen++;
	make_key(&k, row);
	if (!memcmp(&k, &e->key, sizeof(k)) && same_text(e, row->s)) {
		*same = true;
		return i;
	}
	e->key = k;
	e->aux = 0;
	if (keep_text(e, row->s)) {
		/* Not kept: it cannot match next time either. */
		e->key.ins = NULL;
		e->key.type_name = NULL;
		return -1;
	}
	return i;
}

uint32_t row_cache__aux(const struct row_cache *c, long e)
{
	return c->ents[e].aux;
}

void row_cache__set_aux(struct row_cache *c, long e, uint32_t aux)
{
	c->ents[e].aux = aux;
}

void row_cache__new_layout(struct row_cache *c)
{
	if (!++c->layout)
		c->layout = 1;
	/* After 2^32 layouts an old entry could look current: forget all. */
	if (c->layout == 1) {
		for (size_t i = 0; i < c->nr; i++)
			c->ents[i].layout = 0;
	}
}

const char *row_cache__bytes(const struct row_cache *c, long e, size_t *len)
{
	const struct rc_entry *en = &c->ents[e];

	if (en->layout != c->layout)
		return NULL;
	*len = en->len;
	return en->blob + en->head;
}

int row_cache__store(struct row_cache *c, long e, const char *bytes,
		     size_t len)
{
	struct rc_entry *en = &c->ents[e];
	size_t need = (size_t)en->head + len;

	en->layout = 0;
	if (len > UINT32_MAX / 2)
		return -ENOMEM;
	if (need > en->cap) {
		/* A little more: a busy row's length moves by a digit or two. */
		size_t cap = need + 32;
		char *p = realloc(en->blob, cap);

		if (!p)
			return -ENOMEM;
		en->blob = p;
		en->cap = (uint32_t)cap;
	}
	memcpy(en->blob + en->head, bytes, len);
	en->len = (uint32_t)len;
	en->layout = c->layout;
	return 0;
}

void row_cache__end(struct row_cache *c)
{
	size_t k = 0;

	if (c->nr_seen == c->nr)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		if (c->ents[i].seen != c->stamp) {
			free(c->ents[i].blob);
			continue;
		}
		c->ents[k++] = c->ents[i];
	}
	c->nr = k;
	if (c->index)
		fill_index(c);
	if (c->cap > 1024 && k < c->cap / 4) {
		struct rc_entry *p = realloc(c->ents, c->cap / 2 * sizeof(*p));

		if (p) {
			c->ents = p;
			c->cap /= 2;
		}
	}
}

size_t row_cache__count(const struct row_cache *c)
{
	return c->nr;
}

size_t row_cache__mem(const struct row_cache *c)
{
	size_t n = c->cap * sizeof(*c->ents) + c->index_size * sizeof(*c->index);

	for (size_t i = 0; i < c->nr; i++)
		n += c->ents[i].cap;
	return n;
}
