// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "insights/history.h"
#include "util/grow.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_SCALE 2000.0		/* ns/run code: 16 bits up to ~4.3 s */
#define NS_MAX 0xffff
#define RS_SCALE 1000.0		/* runs/s code: 15 bits up to ~6.6e9/s */
#define RS_MAX 0x7fff
#define FLAG_BIT 0x8000

/* One refresh: codes of ns/run and runs/s (+ flag), and its length. */
struct fine_s {
	uint16_t ns;
	uint16_t rs;		/* FLAG_BIT: flagged */
	uint16_t dt_cs;		/* interval, 1/100 s */
};

struct hprog {
	uint32_t id;
	uint32_t gone;		/* refreshes since last seen; 0: present */
	uint64_t ident;		/* hash of tag and name, to follow reloads */
	double last_t;		/* end of the newest fine sample; NAN none */
	double reload_t;	/* when it was last reloaded; NAN never */
	int64_t bucket;		/* the open coarse bucket; older ones are in coarse */
	double acc_runs, acc_ns, acc_dt; /* the open bucket so far */
	bool acc_valid, acc_flag;
	bool bucket_open;	/* bucket is set */
	unsigned long seen;	/* the refresh it was last updated in */
	uint16_t fine_n, fine_head;
	struct fine_s *fine;	/* HIST_FINE, allocated once the program ran */
	uint32_t *coarse;	/* HIST_COARSE: ns << 16 | rs (+ flag) */
};

struct history {
	struct hprog **p;	/* ascending id */
	size_t n, cap;
	double now;
	unsigned long seq;	/* refresh number */
	/*
	 * Programs before it have ids below the last one looked up: callers
	 * that go in id order (every refresh does) need no search.
	 */
	size_t cursor;
};

uint16_t hist_encode(double v, double scale, uint16_t max)
{
	double c;

	if (isnan(v) || v < 0)
		return 0;
	c = 1.0 + round(log2(1.0 + v) * scale);
	return c > max ? max : (uint16_t)c;
}

double hist_decode(uint16_t code, double scale)
{
	if (!code)
		return NAN;
	return exp2((code - 1) / scale) - 1.0;
}

static uint64_t ident_of(const char *tag, const char *name)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (const char *s = tag; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (const char *s = name; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

struct history *history__new(void)
{
	return calloc(1, sizeof(struct history));
}

static void hprog_free(struct hprog *p)
{
	if (p) {
		free(p->fine);
		free(p->coarse);
		free(p);
	}
}

void history__free(struct history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		hprog_free(h->p[i]);
	free(h->p);
	free(h);
}

void history__begin(struct history *h, double now)
{
	h->now = now;
	h->seq++;
	h->cursor = 0;
}

static size_t lower_bound(const struct history *h, uint32_t id)
{
	size_t lo = 0, hi = h->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h->p[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct hprog *find(const struct history *h, uint32_t id)
{
	size_t i = lower_bound(h, id);

	return i < h->n && h->p[i]->id == id ? h->p[i] : NULL;
}

/* Program @id, from where the last lookup ended if the ids go up. */
static struct hprog *find_next(struct history *h, uint32_t id)
{
	size_t c = h->cursor;

	if (c > 0 && h->p[c - 1]->id >= id)
		return find(h, id);	/* out of order */
	while (c < h->n && h->p[c]->id < id)
		c++;
	h->cursor = c;
	if (c < h->n && h->p[c]->id == id) {
		h->cursor = c + 1;
		return h->p[c];
	}
	return NULL;
}

static int insert(struct history *h, struct hprog *p)
{
	size_t i;

	if (ARRAY_GROW(h->p, h->cap, h->n + 1, 64))
		return -ENOMEM;
	i = lower_bound(h, p->id);
	memmove(&h->p[i + 1], &h->p[i], (h->n - i) * sizeof(*h->p));
	h->p[i] = p;
	h->n++;
	h->cursor = i + 1;
	return 0;
}

static void remove_at(struct history *h, size_t i)
{
	memmove(&h->p[i], &h->p[i + 1], (h->n - i - 1) * sizeof(*h->p));
	h->n--;
	if (h->cursor > i)
		h->cursor--;
}

/* Close the open bucket and open the one of time @t. */
static void advance_bucket(struct hprog *p, int64_t b)
{
	uint32_t code = 0;

	if (b <= p->bucket)
		return;
	if (p->acc_valid && p->acc_dt > 0) {
		double rs = p->acc_runs / p->acc_dt;
		double ns = p->acc_runs > 0 ? p->acc_ns / p->acc_runs : (double)NAN;

		code = (uint32_t)hist_encode(ns, NS_SCALE, NS_MAX) << 16 |
		       hist_encode(rs, RS_SCALE, RS_MAX) |
		       (p->acc_flag ? FLAG_BIT : 0);
	}
	p->coarse[p->bucket % HIST_COARSE] = code;
	for (int64_t k = p->bucket + 1; k < b && k <= p->bucket + HIST_COARSE; k++)
		p->coarse[k % HIST_COARSE] = 0;
	p->bucket = b;
	p->acc_runs = p->acc_ns = p->acc_dt = 0;
	p->acc_valid = p->acc_flag = false;
}

static void record(struct hprog *p, double now, double dt, double ns,
		   double rs, bool flagged)
{
	struct fine_s *f = &p->fine[p->fine_head];
	int64_t b = (int64_t)floor(now / HIST_BUCKET_S);
	double cs = isnan(dt) || dt < 0 ? 0 : round(dt * 100.0);

	f->ns = hist_encode(ns, NS_SCALE, NS_MAX);
	f->rs = hist_encode(rs, RS_SCALE, RS_MAX) | (flagged ? FLAG_BIT : 0);
	f->dt_cs = cs > 0xffff ? 0xffff : (uint16_t)cs;
	p->fine_head = (uint16_t)((p->fine_head + 1) % HIST_FINE);
	if (p->fine_n < HIST_FINE)
		p->fine_n++;
	p->last_t = now;

	if (!p->bucket_open) {
		p->bucket = b;
		p->bucket_open = true;
	}
	advance_bucket(p, b);
	if (!isnan(rs) && !isnan(dt) && dt > 0) {
		double runs = rs * dt;

		p->acc_runs += runs;
		if (runs > 0 && !isnan(ns))
			p->acc_ns += ns * runs;
		p->acc_dt += dt;
		p->acc_valid = true;
	}
	p->acc_flag |= flagged;
}

int history__update(struct history *h, uint32_t id, const char *tag,
		    const char *name, double interval_s, double ns_per_run,
		    double runs_per_s, bool flagged)
{
	struct hprog *p = find_next(h, id);

	if (!p) {
		uint64_t ident;

		/* Nothing is kept for a program until it has run. */
		if (!(runs_per_s > 0))
			return 0;
		ident = ident_of(tag, name);

		/* A reload: the same program gone from another id. */
		for (size_t i = 0; i < h->n; i++) {
			if (h->p[i]->gone && h->p[i]->ident == ident) {
				p = h->p[i];
				remove_at(h, i);
				p->reload_t = h->now;
				break;
			}
		}
		if (!p) {
			p = calloc(1, sizeof(*p));
			if (!p)
				return -ENOMEM;
			p->ident = ident;
			p->last_t = NAN;
			p->reload_t = NAN;
		}
		p->id = id;
		p->gone = 0;
		if (insert(h, p)) {
			hprog_free(p);
			return -ENOMEM;
		}
	}
	p->seen = h->seq;
	p->gone = 0;
	if (!p->fine) {
		p->fine = calloc(HIST_FINE, sizeof(*p->fine));
		p->coarse = calloc(HIST_COARSE, sizeof(*p->coarse));
		if (!p->fine || !p->coarse) {
			free(p->fine);
			free(p->coarse);
			p->fine = NULL;
			p->coarse = NULL;
			return -ENOMEM;
		}
	}
	record(p, h->now, interval_s, ns_per_run, runs_per_s, flagged);
	return 0;
}

void history__end(struct history *h)
{
	for (size_t i = 0; i < h->n;) {
		struct hprog *p = h->p[i];

		if (p->seen != h->seq && ++p->gone > HIST_KEEP_GONE) {
			remove_at(h, i);
			hprog_free(p);
			continue;
		}
		i++;
	}
}

/* Add a span [s, e) of one sample to the points it overlaps. */
struct acc {
	double r, t, d;		/* runs, runs * ns, seconds measured */
	double rt;		/* runs with an ns/run value */
};

static void spread(struct acc *a, struct hist_point *out, size_t n,
		   double start, double step, double s, double e, double ns,
		   double rs, bool flagged)
{
	long first, last;

	if (e <= s)
		return;
	first = (long)floor((s - start) / step);
	last = (long)floor((e - start) / step);
	if (first < 0)
		first = 0;
	if (last >= (long)n)
		last = (long)n - 1;
	for (long j = first; j <= last; j++) {
		double a0 = start + (double)j * step, a1 = a0 + step;
		double lo = s > a0 ? s : a0, hi = e < a1 ? e : a1;
		double w = hi - lo;

		if (w <= 0)
			continue;
		out[j].flagged |= flagged;
		if (isnan(rs))
			continue;
		a[j].r += rs * w;
		a[j].d += w;
		if (!isnan(ns) && rs > 0) {
			a[j].t += ns * rs * w;
			a[j].rt += rs * w;
		}
	}
}

int history__series(const struct history *h, uint32_t id, double now,
		    double window_s, size_t n, struct hist_point *out)
{
	const struct hprog *p = find(h, id);
	double start = now - window_s, step, end, fine_start;
	struct acc *a;
	int valid = 0;

	if (!p)
		return -ENOENT;
	for (size_t j = 0; j < n; j++)
		out[j] = (struct hist_point){ .ns_per_run = NAN,
					      .runs_per_s = NAN };
	if (!n || window_s <= 0)
		return 0;
	step = window_s / (double)n;
	if (!isnan(p->reload_t) && p->reload_t >= start && p->reload_t <= now) {
		size_t j = (size_t)((p->reload_t - start) / step);

		out[j < n ? j : n - 1].reload = true;
	}
	if (!p->fine)
		return 0;
	a = calloc(n, sizeof(*a));
	if (!a)
		return -ENOMEM;
	/* The fine samples, newest first. */
	end = p->last_t;
	fine_start = end;
	for (uint16_t k = 0; k < p->fine_n; k++) {
		const struct fine_s *f =
			&p->fine[(p->fine_head + HIST_FINE - 1 - k) % HIST_FINE];
		double dt = f->dt_cs / 100.0;

		if (dt > 0)
			spread(a, out, n, start, step, end - dt, end,
			       hist_decode(f->ns, NS_SCALE),
			       hist_decode(f->rs & ~FLAG_BIT, RS_SCALE),
			       f->rs & FLAG_BIT);
		end -= dt;
		fine_start = end;
		if (end < start)
			break;
	}
	/* Older than the fine samples: the closed coarse buckets. */
	for (int64_t b = p->bucket - 1;
	     b > p->bucket - HIST_COARSE && b >= 0; b--) {
		double bs = (double)b * HIST_BUCKET_S, be = bs + HIST_BUCKET_S;
		uint32_t c = p->coarse[b % HIST_COARSE];

		if (be <= start)
			break;
		if (bs >= fine_start || !c)
			continue;
		if (be > fine_start)
			be = fine_start;
		spread(a, out, n, start, step, bs, be,
		       hist_decode((uint16_t)(c >> 16), NS_SCALE),
		       hist_decode((uint16_t)(c & RS_MAX), RS_SCALE),
		       c & FLAG_BIT);
	}
	for (size_t j = 0; j < n; j++) {
		if (a[j].d <= 0)
			continue;
		out[j].measured = true;
		out[j].runs_per_s = a[j].r / a[j].d;
		out[j].ns_per_run = a[j].rt > 0 ? a[j].t / a[j].rt : (double)NAN;
		valid++;
	}
	free(a);
	return valid;
}

size_t history__count(const struct history *h)
{
	return h->n;
}

size_t history__bytes(const struct history *h)
{
	size_t b = sizeof(*h) + h->cap * sizeof(*h->p);

	for (size_t i = 0; i < h->n; i++) {
		b += sizeof(struct hprog);
		if (h->p[i]->fine)
			b += HIST_FINE * sizeof(struct fine_s) +
			     HIST_COARSE * sizeof(uint32_t);
	}
	return b;
}
