// SPDX-License-Identifier: GPL-2.0-only
/* The regression detector: baselines, noise bands, flags and the event log. */
#include "config.h"

#include "analysis/regress_impl.h"

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
	size_t n = st->l->nhist;

	memcpy(tmp, st->l->hist, n * sizeof(tmp[0]));
	st->l->baseline = median_of(tmp, n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(st->l->hist[i] - st->l->baseline);
	st->l->spread = MAD_TO_SIGMA * median_of(tmp, n);
}

static void hist_push(struct rstate *st, double x)
{
	st->l->hist[st->l->hpos] = x;
	st->l->hpos = (unsigned char)((st->l->hpos + 1) % REGRESS_HIST);
	if (st->l->nhist < REGRESS_HIST)
		st->l->nhist++;
	baseline_update(st);
}

static void recent_push(struct rstate *st, double x)
{
	st->l->recent[st->l->rpos] = x;
	st->l->rpos = (unsigned char)((st->l->rpos + 1) % REGRESS_RECENT);
	if (st->l->nrecent < REGRESS_RECENT)
		st->l->nrecent++;
}

/* The @k-th latest valid sample (0: the latest); @k < nrecent. */
static double recent_last(const struct rstate *st, unsigned int k)
{
	return st->l->recent[(st->l->rpos + 2 * REGRESS_RECENT - 1 - k) %
			    REGRESS_RECENT];
}

/* The current value: median of the latest min(window, kept) samples. */
static double current_of(const struct rstate *st, unsigned int window)
{
	double tmp[REGRESS_RECENT];
	unsigned int n = st->l->nrecent;

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
	return st->l && st->l->nhist >= r->p.warmup && st->l->baseline > 0.0;
}

/* Above baseline by the threshold and by the noise band, whichever is more. */
static double band_of(const struct regress *r, const struct rstate *st)
{
	return fmax(st->l->baseline * r->p.threshold_pct / 100.0,
		    r->p.noise_k * st->l->spread);
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
	if (st->l->peak - st->l->baseline > CLEAR_BIG_STEP * band)
		return st->l->baseline + band;
	return st->l->baseline + band * CLEAR_FRACTION;
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
	e->baseline_ns = st->l->baseline;
	e->peak_ns = cur;
	e->peak_pct = (cur / st->l->baseline - 1.0) * 100.0;
	e->start = st->l->since;
	e->end = (double)NAN;
	st->l->event = serial;
}

/* The program went away while flagged: its regression ends there. */
static void event_close_gone(struct regress *r, struct rstate *st)
{
	struct regress_event *e = st->l ? event_get(r, st->l->event) : NULL;

	if (e && isnan(e->end)) {
		e->end = st->l->last_time;
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
	st->l->last_time = r->now;
	if (!learnt(r, st)) {
		hist_push(st, x);
		return;
	}
	band = band_of(r, st);
	if (!st->l->active) {
		if (x > st->l->baseline + band) {
			if (!st->l->over)
				st->l->pend_since = r->now;
			if (st->l->over < p->window)
				st->l->over++;
			if (st->l->over < p->window)
				return;
			st->l->active = true;
			st->l->under = 0;
			st->l->since = st->l->pend_since;
			st->l->peak = current_of(st, p->window);
			event_open(r, st, id, tag, name, st->l->peak);
			return;
		}
		/*
		 * The run above the limit broke: it was the program's own
		 * noise, which the baseline and its spread should know.
		 */
		for (unsigned int k = st->l->over < st->l->nrecent ?
					      st->l->over : st->l->nrecent - 1u;
		     k >= 1; k--)
			hist_push(st, recent_last(st, k));
		st->l->over = 0;
		hist_push(st, x);
		return;
	}
	cur = current_of(st, p->window);
	if (cur > st->l->peak) {
		struct regress_event *e = event_get(r, st->l->event);

		st->l->peak = cur;
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
		st->l->under = 0;
		return;
	}
	if (!st->l->under)
		st->l->clear_since = r->now;
	if (++st->l->under < p->window)
		return;
	/* Recovered: the recovering samples are normal ones again. */
	{
		struct regress_event *e = event_get(r, st->l->event);
		unsigned int n = st->l->under < st->l->nrecent ? st->l->under :
							     st->l->nrecent;

		if (e && isnan(e->end))
			e->end = st->l->clear_since;
		st->l->active = false;
		st->l->event = 0;
		st->l->over = 0;
		st->l->under = 0;
		for (unsigned int k = n; k >= 1; k--)
			hist_push(st, recent_last(st, k - 1));
	}
}

static void report_none(struct prog_regression *out)
{
	memset(out, 0, sizeof(*out));
	out->baseline_ns = out->current_ns = out->change_pct = (double)NAN;
	out->limit_ns = out->clear_ns = out->since = (double)NAN;
}

/*
 * What a program learns, made when it first has a value: most programs
 * on a machine never run while ebpftop watches. 0 or -ENOMEM.
 */
static int learn_alloc(struct rstate *st)
{
	if (st->l)
		return 0;
	st->l = calloc(1, sizeof(*st->l));
	if (!st->l)
		return -ENOMEM;
	st->l->last_time = (double)NAN;
	return 0;
}

static void report(const struct regress *r, const struct rstate *st,
		   struct prog_regression *out)
{
	bool ok = learnt(r, st);

	/* Never fed: what a zeroed rlearn would say. */
	if (!st->l) {
		report_none(out);
		return;
	}
	out->active = st->l->active;
	out->baseline_ns = ok ? st->l->baseline : (double)NAN;
	out->current_ns = current_of(st, r->p.window);
	out->change_pct = ok && !isnan(out->current_ns) ?
				  (out->current_ns / st->l->baseline - 1.0) * 100.0 :
				  (double)NAN;
	out->limit_ns = ok ? st->l->baseline + band_of(r, st) : (double)NAN;
	out->clear_ns = ok && st->l->active ? clear_limit(st, band_of(r, st)) :
					     (double)NAN;
	out->since = st->l->active ? st->l->since : (double)NAN;
}

/*
 * Drop a program's state for good. One still in the live array is only
 * marked dead there (a refresh may be walking it): regress__end() frees it.
 */
static void forget(struct regress *r, struct rstate *st)
{
	event_close_gone(r, st);
	rtab_key_remove(r, st);
	free(st->l);
	st->l = NULL;
	if (st->gone) {
		rtab_gone_remove(r, st);
		free(st);
	} else {
		rtab_id_remove(r, st);
		st->dead = true;
	}
}

/*
 * A program of this identity that appeared in the last refreshes, next to
 * @old, and has learnt nothing yet: the new half of a reload that
 * overlapped the old one.
 */
static struct rstate *find_young(struct regress *r, const struct rstate *old)
{
	struct rstate *st = rtab_key_chain(r, old->tag, old->name_hash);

	for (; st; st = st->key_next) {
		if (st != old && !st->gone && !st->adopted &&
		    st->tag == old->tag && st->name_hash == old->name_hash &&
		    st->last_seq == r->seq && st->first_seq + 2 >= r->seq &&
		    st->first_seq > old->first_seq && !learnt(r, st))
			return st;
	}
	return NULL;
}

/* @to (a new id) takes over what @from learnt, and @from keeps nothing. */
static void take_over(struct regress *r, struct rstate *to,
		      struct rstate *from)
{
	struct regress_event *e;

	to->adopted = true;
	free(to->l);
	to->l = from->l;
	from->l = NULL;
	to->retaken = true;
	e = to->l ? event_get(r, to->l->event) : NULL;
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
	for (size_t i = 0; i < r->nlive; i++) {
		if (!r->live[i].dead)
			free(r->live[i].st->l);
		free(r->live[i].st);
	}
	for (size_t i = 0; i < r->nadded; i++) {
		free(r->added[i]->l);
		free(r->added[i]);
	}
	for (st = r->gone_head; st; st = next) {
		next = st->gone_next;
		free(st->l);
		free(st);
	}
	free(r->live);
	free(r->added);
	free(r->by_id);
	free(r->by_key);
	free(r);
}

void regress__begin(struct regress *r, double now)
{
	r->seq++;
	r->now = now;
	r->cursor = 0;
	r->nseen = 0;
	r->ndead = 0;
}

int regress__update(struct regress *r, uint32_t id, const char *tag,
		    const char *name, double ns_per_run, double runs,
		    struct prog_regression *out)
{
	return regress__update_keyed(r, id, prog_tag_key(tag),
				     prog_name_key(name), tag, name,
				     ns_per_run, runs, out);
}

/*
 * The live program @id: callers that go in id order find it where the
 * previous lookup ended, others by a binary search. NULL if it is not
 * live (it may have been added in this refresh).
 */
static struct rlive *live_find(struct regress *r, uint32_t id)
{
	size_t c = r->cursor, lo = 0, hi = r->nlive;

	if (c > 0 && r->live[c - 1].id >= id) {
		/* Out of order. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (r->live[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		c = lo;
	} else {
		while (c < r->nlive && r->live[c].id < id)
			c++;
		r->cursor = c;
	}
	/* A dead one was forgotten this refresh: its id is another's now. */
	if (c < r->nlive && r->live[c].id == id && !r->live[c].dead) {
		if (r->cursor == c)
			r->cursor = c + 1;
		return &r->live[c];
	}
	return NULL;
}

/* A program not in the live array: new, or back under a new id. */
static struct rstate *add(struct regress *r, uint32_t id, uint64_t tk,
			  uint64_t nh)
{
	struct rstate *st;

	if (rtab_reserve(r))
		return NULL;
	st = rtab_find_gone(r, tk, nh);
	if (st) {
		/* A reload: the same program under a new id. */
		struct regress_event *e = st->l ? event_get(r, st->l->event) : NULL;

		rtab_gone_remove(r, st);
		st->gone = false;
		st->adopted = true;
		st->id = id;
		if (e) {
			e->id = id;
			if (st->l && st->l->active) {
				e->end = (double)NAN;
				e->gone = false;
			}
		}
	} else {
		st = calloc(1, sizeof(*st));
		if (!st)
			return NULL;
		st->id = id;
		st->tag = tk;
		st->name_hash = nh;
		st->first_seq = r->seq;
		rtab_key_insert(r, st);
	}
	rtab_id_insert(r, st);
	rtab_live_add(r, st);
	return st;
}

/* A live program that has a value, or whose verdict is to be made again. */
static __attribute__((noinline)) int
update_live(struct regress *r, struct rlive *lv, bool valid, const char *tag,
	    const char *name, double ns_per_run, struct prog_regression *out)
{
	struct rstate *st = lv->st;

	if (valid && learn_alloc(st)) {
		report_none(out);
		return -ENOMEM;
	}
	if (valid) {
		feed(r, st, lv->id, tag, name, ns_per_run);
		lv->stale = true;
	}
	if (lv->stale) {
		report(r, st, &lv->rep);
		lv->stale = false;
	}
	*out = lv->rep;
	return 0;
}

/* A program not live: added in this refresh already, or to add now. */
static __attribute__((noinline)) int
update_other(struct regress *r, uint32_t id, uint64_t tk, uint64_t nh,
	     bool valid, const char *tag, const char *name, double ns_per_run,
	     struct prog_regression *out)
{
	struct rstate *st = rtab_id_find(r, id);

	if (st && (st->tag != tk || st->name_hash != nh)) {
		forget(r, st);
		st = NULL;
	}
	if (!st)
		st = add(r, id, tk, nh);
	if (!st) {
		report_none(out);
		return -ENOMEM;
	}
	st->last_seq = r->seq;
	if (valid && learn_alloc(st)) {
		report_none(out);
		return -ENOMEM;
	}
	if (valid)
		feed(r, st, id, tag, name, ns_per_run);
	report(r, st, out);
	return 0;
}

int regress__update_keyed(struct regress *r, uint32_t id, uint64_t tk,
			  uint64_t nh, const char *tag, const char *name,
			  double ns_per_run, double runs,
			  struct prog_regression *out)
{
	bool valid = isfinite(ns_per_run) && ns_per_run >= 0.0 &&
		     runs >= r->p.min_runs;
	struct rlive *lv = live_find(r, id);

	/* Ids are not reused soon, but they can be: then it is another program. */
	if (lv && (lv->tag != tk || lv->name_hash != nh)) {
		forget(r, lv->st);
		lv->dead = true;
		r->ndead++;
		lv = NULL;
	}
	if (!lv)
		return update_other(r, id, tk, nh, valid, tag, name, ns_per_run,
				    out);
	if (lv->seen != r->seq) {
		lv->seen = r->seq;
		r->nseen++;
	}
	/* find_young() looks at when the young ones were last seen. */
	if (lv->first_seq + 2 >= r->seq)
		lv->st->last_seq = r->seq;
	if (valid || lv->stale)
		return update_live(r, lv, valid, tag, name, ns_per_run, out);
	/* The steady state: a program that did not run changes nothing. */
	*out = lv->rep;
	return 0;
}

void regress__end(struct regress *r)
{
	size_t w = 0, retaken = 0;

	/* The steady state: the same programs as at the last refresh. */
	if (r->nadded || r->ndead || r->nseen != r->nlive) {
		rtab_live_merge(r);
		for (size_t i = 0; i < r->nlive; i++) {
			struct rlive *lv = &r->live[i];
			struct rstate *st = lv->st, *young;

			if (lv->dead) {
				free(st);
				continue;
			}
			if (lv->seen == r->seq) {
				if (w != i)
					r->live[w] = *lv;
				w++;
				continue;
			}
			/* Gone since the last refresh. */
			st->last_seq = lv->seen;
			young = find_young(r, st);
			if (young) {
				/* The young one carries its event on. */
				take_over(r, young, st);
				retaken++;
				forget(r, st);
				free(st);
				continue;
			}
			rtab_id_remove(r, st);
			st->gone = true;
			rtab_gone_append(r, st);
			event_close_gone(r, st);
		}
		r->nlive = w;
	}
	/* What a young program took over is reported from the next refresh. */
	for (size_t i = 0; retaken && i < r->nlive; i++) {
		if (r->live[i].st->retaken) {
			r->live[i].st->retaken = false;
			r->live[i].stale = true;
			retaken--;
		}
	}
	while (r->gone_head && (r->ngone > GONE_MAX ||
				r->seq - r->gone_head->last_seq > r->p.keep_gone))
		forget(r, r->gone_head);
}

size_t regress__nr_tracked(const struct regress *r)
{
	return r->nlive + r->nadded + r->ngone;
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