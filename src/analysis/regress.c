// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "analysis/regress.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1.4826 * MAD estimates the standard deviation of normal noise. */
#define MAD_TO_SIGMA 1.4826
/* The clear limit, as a fraction of the band; see clear_limit(). */
#define CLEAR_FRACTION 0.75
#define CLEAR_BIG_STEP 4.0
/* Vanished programs remembered at most, whatever keep_gone says. */
#define GONE_MAX 1024

/* 10,000 programs must stay cheap: a tiny ring per program. */
_Static_assert(REGRESS_HIST + REGRESS_RECENT <= 16,
	       "keep the per-program rings at 16 doubles or fewer");

/* What the detector has learnt about a program: moves with a reload. */
struct rlearn {
	bool active;			/* flagged */
	unsigned char nhist, hpos, nrecent, rpos;
	unsigned short over;		/* consecutive refreshes above the limit */
	unsigned short under;		/* flagged: consecutive with the current
					 * value under the clear limit */
	double hist[REGRESS_HIST];	/* baseline samples, a ring */
	double recent[REGRESS_RECENT];	/* latest valid samples, a ring */
	double baseline;		/* median of hist */
	double spread;			/* MAD of hist, as a sigma */
	double pend_since;		/* first refresh of the run above the limit */
	double clear_since;		/* first refresh of the run back under */
	double since;			/* start of the flagged regression */
	double peak;			/* flagged: highest current value */
	double last_time;		/* time of the last valid refresh */
	unsigned long event;		/* serial of its event, 0: none */
};

/* What the detector keeps per program: about 300 bytes with malloc's. */
struct rstate {
	struct rstate *id_next;		/* id hash chain (live only) */
	struct rstate *key_next;	/* identity hash chain */
	struct rstate *gone_prev;	/* the gone list, oldest first */
	struct rstate *gone_next;
	size_t idx;			/* in r->live, while live */
	uint32_t id;
	uint64_t tag;			/* the tag's 8 bytes */
	uint64_t name_hash;
	unsigned long first_seq;	/* refresh it appeared at */
	unsigned long last_seq;		/* refresh it was last seen at */
	bool gone;
	bool adopted;			/* took over a reloaded program */
	struct rlearn l;
};

struct regress {
	struct regress_params p;
	unsigned long seq;		/* refresh number */
	double now;
	struct rstate **live;		/* every program present, any order */
	size_t nlive, live_cap;
	struct rstate **by_id;		/* hash buckets, live programs */
	size_t id_buckets;
	struct rstate **by_key;		/* hash buckets, live and gone */
	size_t key_buckets;
	size_t nkeyed;
	struct rstate *gone_head, *gone_tail;
	size_t ngone;
	struct regress_event events[REGRESS_EVENTS_MAX];
	unsigned long nevents;		/* events ever started */
};

void regress_params_default(struct regress_params *p)
{
	p->threshold_pct = REGRESS_THRESHOLD_DEFAULT;
	p->window = REGRESS_WINDOW_DEFAULT;
	p->warmup = 5;
	p->noise_k = 4.0;
	p->min_runs = 100.0;
	p->keep_gone = 300;
}

/* ---- small statistics ---------------------------------------------------- */

static void sort_small(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static double median_of(double *v, size_t n)
{
	sort_small(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static void baseline_update(struct rstate *st)
{
	double tmp[REGRESS_HIST];
	size_t n = st->l.nhist;

	memcpy(tmp, st->l.hist, n * sizeof(tmp[0]));
	st->l.baseline = median_of(tmp, n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(st->l.hist[i] - st->l.baseline);
	st->l.spread = MAD_TO_SIGMA * median_of(tmp, n);
}

static void hist_push(struct rstate *st, double x)
{
	st->l.hist[st->l.hpos] = x;
	st->l.hpos = (unsigned char)((st->l.hpos + 1) % REGRESS_HIST);
	if (st->l.nhist < REGRESS_HIST)
		st->l.nhist++;
	baseline_update(st);
}

static void recent_push(struct rstate *st, double x)
{
	st->l.recent[st->l.rpos] = x;
	st->l.rpos = (unsigned char)((st->l.rpos + 1) % REGRESS_RECENT);
	if (st->l.nrecent < REGRESS_RECENT)
		st->l.nrecent++;
}

/* The @k-th latest valid sample (0: the latest); @k < nrecent. */
static double recent_last(const struct rstate *st, unsigned int k)
{
	return st->l.recent[(st->l.rpos + 2 * REGRESS_RECENT - 1 - k) %
			    REGRESS_RECENT];
}

/* The current value: median of the latest min(window, kept) samples. */
static double current_of(const struct rstate *st, unsigned int window)
{
	double tmp[REGRESS_RECENT];
	unsigned int n = st->l.nrecent;

	if (window < n)
		n = window;
	if (!n)
		return (double)NAN;
	for (unsigned int k = 0; k < n; k++)
		tmp[k] = recent_last(st, k);
	return median_of(tmp, n);
}

static bool learnt(const struct regress *r, const struct rstate *st)
{
	return st->l.nhist >= r->p.warmup && st->l.baseline > 0.0;
}

/* Above baseline by the threshold and by the noise band, whichever is more. */
static double band_of(const struct regress *r, const struct rstate *st)
{
	return fmax(st->l.baseline * r->p.threshold_pct / 100.0,
		    r->p.noise_k * st->l.spread);
}

/*
 * Where a flagged program counts as recovered: three quarters of the way
 * up to the limit, so that a program hovering about the limit stays
 * flagged instead of flapping. After a step of more than CLEAR_BIG_STEP
 * bands (80 to 650 ns/run, say), coming back under the limit itself is
 * enough: on shared and virtual machines a program's measured cost
 * drifts by a fifth for seconds at a time, and that drift must not keep a
 * reverted program flagged.
 */
static double clear_limit(const struct rstate *st, double band)
{
	if (st->l.peak - st->l.baseline > CLEAR_BIG_STEP * band)
		return st->l.baseline + band;
	return st->l.baseline + band * CLEAR_FRACTION;
}

/* ---- identity ------------------------------------------------------------- */

static uint64_t hash_name(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */

	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t parse_tag(const char *s)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; s && s[i] && i < 16; i++) {
		char c = s[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return hash_name(s);
		v = v << 4 | d;
	}
	return i == 16 && !s[i] ? v : hash_name(s);
}

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

static struct rstate *id_find(const struct regress *r, uint32_t id)
{
	struct rstate *st = r->by_id[id_bucket(r, id)];

	while (st && st->id != id)
		st = st->id_next;
	return st;
}

static void id_insert(struct regress *r, struct rstate *st)
{
	size_t h = id_bucket(r, st->id);

	st->id_next = r->by_id[h];
	r->by_id[h] = st;
}

static void id_remove(struct regress *r, struct rstate *st)
{
	struct rstate **pp = &r->by_id[id_bucket(r, st->id)];

	while (*pp && *pp != st)
		pp = &(*pp)->id_next;
	if (*pp)
		*pp = st->id_next;
	st->id_next = NULL;
}

static void key_insert(struct regress *r, struct rstate *st)
{
	size_t h = key_bucket(r, st->tag, st->name_hash);

	st->key_next = r->by_key[h];
	r->by_key[h] = st;
	r->nkeyed++;
}

static void key_remove(struct regress *r, struct rstate *st)
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

static void live_add(struct regress *r, struct rstate *st)
{
	st->idx = r->nlive;
	r->live[r->nlive++] = st;
}

static void live_remove(struct regress *r, struct rstate *st)
{
	struct rstate *last = r->live[--r->nlive];

	r->live[st->idx] = last;
	last->idx = st->idx;
}

static void gone_append(struct regress *r, struct rstate *st)
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

static void gone_remove(struct regress *r, struct rstate *st)
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

/* Room for one more program in every table. */
static int reserve(struct regress *r)
{
	if (r->nlive == r->live_cap) {
		size_t cap = r->live_cap ? r->live_cap * 2 : 64;
		struct rstate **l = realloc(r->live, cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		r->live = l;
		r->live_cap = cap;
	}
	if (r->nlive + 1 > r->id_buckets && rehash(r, false))
		return -ENOMEM;
	if (r->nkeyed + 1 > r->key_buckets && rehash(r, true))
		return -ENOMEM;
	return 0;
}

/* ---- the event log --------------------------------------------------------- */

static struct regress_event *event_get(struct regress *r,
				       unsigned long serial)
{
	struct regress_event *e;

	if (!serial)
		return NULL;
	e = &r->events[(serial - 1) % REGRESS_EVENTS_MAX];
	return e->serial == serial ? e : NULL;
}

static void event_open(struct regress *r, struct rstate *st, uint32_t id,
		       const char *tag, const char *name, double cur)
{
	unsigned long serial = ++r->nevents;
	struct regress_event *e = &r->events[(serial - 1) % REGRESS_EVENTS_MAX];

	memset(e, 0, sizeof(*e));
	e->serial = serial;
	e->id = id;
	strncpy(e->name, name ? name : "", sizeof(e->name) - 1);
	strncpy(e->tag, tag ? tag : "", sizeof(e->tag) - 1);
	e->baseline_ns = st->l.baseline;
	e->peak_ns = cur;
	e->peak_pct = (cur / st->l.baseline - 1.0) * 100.0;
	e->start = st->l.since;
	e->end = (double)NAN;
	st->l.event = serial;
}

/* The program went away while flagged: its regression ends there. */
static void event_close_gone(struct regress *r, struct rstate *st)
{
	struct regress_event *e = event_get(r, st->l.event);

	if (e && isnan(e->end)) {
		e->end = st->l.last_time;
		e->gone = true;
	}
}

/* ---- the detector ---------------------------------------------------------- */

static void feed(struct regress *r, struct rstate *st, uint32_t id,
		 const char *tag, const char *name, double x)
{
	const struct regress_params *p = &r->p;
	double band, cur;

	recent_push(st, x);
	st->l.last_time = r->now;
	if (!learnt(r, st)) {
		hist_push(st, x);
		return;
	}
	band = band_of(r, st);
	if (!st->l.active) {
		if (x > st->l.baseline + band) {
			if (!st->l.over)
				st->l.pend_since = r->now;
			if (st->l.over < p->window)
				st->l.over++;
			if (st->l.over < p->window)
				return;
			st->l.active = true;
			st->l.under = 0;
			st->l.since = st->l.pend_since;
			st->l.peak = current_of(st, p->window);
			event_open(r, st, id, tag, name, st->l.peak);
			return;
		}
		/*
		 * The run above the limit broke: it was the program's own
		 * noise, which the baseline and its spread should know.
		 */
		for (unsigned int k = st->l.over < st->l.nrecent ?
					      st->l.over : st->l.nrecent - 1u;
		     k >= 1; k--)
			hist_push(st, recent_last(st, k));
		st->l.over = 0;
		hist_push(st, x);
		return;
	}
	cur = current_of(st, p->window);
	if (cur > st->l.peak) {
		struct regress_event *e = event_get(r, st->l.event);

		st->l.peak = cur;
		if (e && cur > e->peak_ns) {
			e->peak_ns = cur;
			e->peak_pct = (cur / e->baseline_ns - 1.0) * 100.0;
		}
	}
	/*
	 * The test is on the current value, the median of the last few
	 * refreshes, so that one refresh hit by an interrupt storm does not
	 * restart the count while a recovered program waits for its flag to
	 * clear.
	 */
	if (cur > clear_limit(st, band)) {
		st->l.under = 0;
		return;
	}
	if (!st->l.under)
		st->l.clear_since = r->now;
	if (++st->l.under < p->window)
		return;
	/* Recovered: the recovering samples are normal ones again. */
	{
		struct regress_event *e = event_get(r, st->l.event);
		unsigned int n = st->l.under < st->l.nrecent ? st->l.under :
							     st->l.nrecent;

		if (e && isnan(e->end))
			e->end = st->l.clear_since;
		st->l.active = false;
		st->l.event = 0;
		st->l.over = 0;
		st->l.under = 0;
		for (unsigned int k = n; k >= 1; k--)
			hist_push(st, recent_last(st, k - 1));
	}
}

static void report(const struct regress *r, const struct rstate *st,
		   struct prog_regression *out)
{
	bool ok = learnt(r, st);

	out->active = st->l.active;
	out->baseline_ns = ok ? st->l.baseline : (double)NAN;
	out->current_ns = current_of(st, r->p.window);
	out->change_pct = ok && !isnan(out->current_ns) ?
				  (out->current_ns / st->l.baseline - 1.0) * 100.0 :
				  (double)NAN;
	out->limit_ns = ok ? st->l.baseline + band_of(r, st) : (double)NAN;
	out->clear_ns = ok && st->l.active ? clear_limit(st, band_of(r, st)) :
					     (double)NAN;
	out->since = st->l.active ? st->l.since : (double)NAN;
}

/* Drop a program's state for good. */
static void forget(struct regress *r, struct rstate *st)
{
	event_close_gone(r, st);
	key_remove(r, st);
	if (st->gone) {
		gone_remove(r, st);
	} else {
		id_remove(r, st);
		live_remove(r, st);
	}
	free(st);
}

/* The most recently gone program with this identity, if any. */
static struct rstate *find_gone(struct regress *r, uint64_t tag, uint64_t nh)
{
	struct rstate *st = r->by_key[key_bucket(r, tag, nh)], *best = NULL;

	for (; st; st = st->key_next) {
		if (st->gone && st->tag == tag && st->name_hash == nh &&
		    (!best || st->last_seq > best->last_seq))
			best = st;
	}
	return best;
}

/*
 * A program of this identity that appeared in the last refreshes, next to
 * @old, and has learnt nothing yet: the new half of a reload that
 * overlapped the old one.
 */
static struct rstate *find_young(struct regress *r, const struct rstate *old)
{
	struct rstate *st = r->by_key[key_bucket(r, old->tag, old->name_hash)];

	for (; st; st = st->key_next) {
		if (st != old && !st->gone && !st->adopted &&
		    st->tag == old->tag && st->name_hash == old->name_hash &&
		    st->last_seq == r->seq && st->first_seq + 2 >= r->seq &&
		    st->first_seq > old->first_seq && !learnt(r, st))
			return st;
	}
	return NULL;
}

/* @to (a new id) takes over what @from learnt. */
static void take_over(struct regress *r, struct rstate *to,
		      const struct rstate *from)
{
	struct regress_event *e;

	to->adopted = true;
	to->l = from->l;
	e = event_get(r, to->l.event);
	if (e)
		e->id = to->id;
}

int regress__new(struct regress **out, const struct regress_params *p)
{
	struct regress *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r)
		return -ENOMEM;
	if (p)
		r->p = *p;
	else
		regress_params_default(&r->p);
	if (r->p.window < REGRESS_WINDOW_MIN)
		r->p.window = REGRESS_WINDOW_MIN;
	if (r->p.window > REGRESS_WINDOW_MAX)
		r->p.window = REGRESS_WINDOW_MAX;
	if (r->p.warmup < 1)
		r->p.warmup = 1;
	if (r->p.warmup > REGRESS_HIST)
		r->p.warmup = REGRESS_HIST;
	r->id_buckets = 64;
	r->key_buckets = 64;
	r->by_id = calloc(r->id_buckets, sizeof(*r->by_id));
	r->by_key = calloc(r->key_buckets, sizeof(*r->by_key));
	if (!r->by_id || !r->by_key) {
		regress__free(r);
		return -ENOMEM;
	}
	*out = r;
	return 0;
}

void regress__free(struct regress *r)
{
	struct rstate *st, *next;

	if (!r)
		return;
	for (size_t i = 0; i < r->nlive; i++)
		free(r->live[i]);
	for (st = r->gone_head; st; st = next) {
		next = st->gone_next;
		free(st);
	}
	free(r->live);
	free(r->by_id);
	free(r->by_key);
	free(r);
}

void regress__begin(struct regress *r, double now)
{
	r->seq++;
	r->now = now;
}

int regress__update(struct regress *r, uint32_t id, const char *tag,
		    const char *name, double ns_per_run, double runs,
		    struct prog_regression *out)
{
	uint64_t tk = parse_tag(tag), nh = hash_name(name);
	struct rstate *st = id_find(r, id);

	memset(out, 0, sizeof(*out));
	out->baseline_ns = out->current_ns = out->change_pct = (double)NAN;
	out->limit_ns = out->since = (double)NAN;
	/* Ids are not reused soon, but they can be: then it is another program. */
	if (st && (st->tag != tk || st->name_hash != nh)) {
		forget(r, st);
		st = NULL;
	}
	if (!st) {
		if (reserve(r))
			return -ENOMEM;
		st = find_gone(r, tk, nh);
		if (st) {
			/* A reload: the same program under a new id. */
			struct regress_event *e = event_get(r, st->l.event);

			gone_remove(r, st);
			st->gone = false;
			st->adopted = true;
			st->id = id;
			if (e) {
				e->id = id;
				if (st->l.active) {
					e->end = (double)NAN;
					e->gone = false;
				}
			}
		} else {
			st = calloc(1, sizeof(*st));
			if (!st)
				return -ENOMEM;
			st->id = id;
			st->tag = tk;
			st->name_hash = nh;
			st->first_seq = r->seq;
			st->l.last_time = (double)NAN;
			key_insert(r, st);
		}
		id_insert(r, st);
		live_add(r, st);
	}
	st->last_seq = r->seq;
	if (isfinite(ns_per_run) && ns_per_run >= 0.0 && runs >= r->p.min_runs)
		feed(r, st, id, tag, name, ns_per_run);
	report(r, st, out);
	return 0;
}

void regress__end(struct regress *r)
{
	for (size_t i = 0; i < r->nlive;) {
		struct rstate *st = r->live[i], *young;

		if (st->last_seq == r->seq) {
			i++;
			continue;
		}
		/* Gone since the last refresh; live_remove() moves the last here. */
		young = find_young(r, st);
		if (young) {
			take_over(r, young, st);
			st->l.event = 0;	/* the young one carries it on */
			forget(r, st);
			continue;
		}
		id_remove(r, st);
		live_remove(r, st);
		st->gone = true;
		gone_append(r, st);
		event_close_gone(r, st);
	}
	while (r->gone_head && (r->ngone > GONE_MAX ||
				r->seq - r->gone_head->last_seq > r->p.keep_gone))
		forget(r, r->gone_head);
}

size_t regress__nr_tracked(const struct regress *r)
{
	return r->nlive + r->ngone;
}

size_t regress__nr_events(const struct regress *r)
{
	return r->nevents < REGRESS_EVENTS_MAX ? (size_t)r->nevents :
						 REGRESS_EVENTS_MAX;
}

const struct regress_event *regress__event(const struct regress *r, size_t i)
{
	size_t n = regress__nr_events(r);
	unsigned long serial;

	if (i >= n)
		return NULL;
	serial = r->nevents - n + 1 + i;
	return &r->events[(serial - 1) % REGRESS_EVENTS_MAX];
}

const struct regress_params *regress__params(const struct regress *r)
{
	return &r->p;
}

char *regress_fmt_change(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "?");
	else if (fabs(pct) < 0.5)
		snprintf(buf, len, "+0%%");	/* not "-0%" */
	else
		snprintf(buf, len, "%+.0f%%", pct);
	return buf;
}
