// SPDX-License-Identifier: GPL-2.0-only
/*
 * Batch output that keeps rows between refreshes (batch__print_text,
 * batch__print_json) against the writers that keep nothing: refresh after
 * refresh, through programs that run, go idle, get renamed, reloaded,
 * flagged, change owners, type, tag or insights, names that widen and
 * narrow the table, filters and sort orders, the output must be the same
 * bytes. Then the cache itself: it reuses what did not change, forgets
 * what did, and holds no more programs than the last refresh showed.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "output/batch.h"
#include "output/row_cache.h"

#define NPROG 48
#define OWNERS_MAX 300

struct prog {
	struct prog_sample s;
	struct prog_owner owners[OWNERS_MAX];
	struct prog_rates r;
	struct prog_regression reg;
	const struct prog_insights *ins;
};

struct world {
	struct prog p[NPROG];
	uint32_t next_id;
	uint64_t rng;
	double time;
	struct batch *b;
	struct prog_row rows[2 * NPROG];
	size_t nr_rows;
	unsigned long refreshes;
};

static struct prog_insights ins_pool[3];

static void init_insights(void)
{
	memset(ins_pool, 0, sizeof(ins_pool));
	ins_pool[0].have_isa = true;
	ins_pool[0].isa.level = 1;
	ins_pool[0].isa.insns = 2;
	ins_pool[0].xlated_len = 16;
	ins_pool[0].jited_len = 16;
	ins_pool[0].jit_pages = 1;
	ins_pool[1].have_isa = true;
	ins_pool[1].isa.level = 3;
	ins_pool[1].isa.insns = 400;
	ins_pool[1].isa.needs[3] = 12;
	ins_pool[1].tail_calls = 2;
	ins_pool[1].xlated_len = 3200;
	ins_pool[1].jited_len = 2100;
	ins_pool[1].jit_pages = 2;
	ins_pool[2].err = -1;
}

static const char *const types[] = { "xdp", "kprobe", "socket_filter",
				     "cgroup_skb" };

static const char *const names[] = {
	"xdp_classifier", "", "a_rather_long_program_name_that_widens_it",
	"caf\xc3\xa9_\xc3\x9f", "evil\x1b[2J\"q\\", "n", "tc_ingress",
	"name\twith\ttabs",
};

static const char *const comms[] = { "loadprogs", "systemd",
				     "a \"b\" \\c", "caf\xc3\xa9\tx",
				     "\x1b]0;pwn\x07", "sshd" };

static uint32_t rnd(struct world *w, uint32_t n)
{
	/* xorshift64*: the same sequence everywhere. */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (uint32_t)((w->rng * UINT64_C(2685821657736338717)) >> 33) % n;
}

static void set_name(struct prog *p, const char *name)
{
	snprintf(p->s.name, sizeof(p->s.name), "%s", name);
}

static void set_tag(struct prog *p, uint64_t v)
{
	snprintf(p->s.tag, sizeof(p->s.tag), "%016llx", (unsigned long long)v);
}

static void no_flag(struct prog *p)
{
	p->reg = (struct prog_regression){
		.baseline_ns = NAN, .current_ns = NAN, .change_pct = NAN,
		.limit_ns = NAN, .clear_ns = NAN, .since = NAN,
	};
}

static void idle(struct prog *p)
{
	p->r = (struct prog_rates){ .ns_per_run = NAN, .runs_per_s = 0.0,
				    .cpu_pct = 0.0 };
}

static void run(struct world *w, struct prog *p)
{
	uint64_t runs = 1 + rnd(w, 100000);
	uint64_t ns = runs * (20 + rnd(w, 5000));

	p->s.run_cnt += runs;
	p->s.run_time_ns += ns;
	p->r.runs_per_s = (double)runs / 0.1;
	p->r.ns_per_run = (double)ns / (double)runs;
	p->r.cpu_pct = (double)ns / 1e9 * 1000.0;
}

static void set_owners(struct world *w, struct prog *p)
{
	p->s.nr_owners = rnd(w, 4);
	for (uint32_t i = 0; i < p->s.nr_owners; i++) {
		memset(&p->owners[i], 0, sizeof(p->owners[i]));
		p->owners[i].pid = 100 + rnd(w, 50000);
		snprintf(p->owners[i].comm, sizeof(p->owners[i].comm), "%s",
			 comms[rnd(w, sizeof(comms) / sizeof(comms[0]))]);
	}
}

static void new_prog(struct world *w, struct prog *p)
{
	memset(p, 0, sizeof(*p));
	p->s.owners = p->owners;
	p->s.id = w->next_id++;
	p->s.type_name = types[rnd(w, 4)];
	set_name(p, names[rnd(w, 2) ? 0 : rnd(w, sizeof(names) / sizeof(names[0]))]);
	if (!p->s.name[0] || rnd(w, 2))
		snprintf(p->s.name, sizeof(p->s.name), "prog_%u", p->s.id);
	set_tag(p, 0x59f4a931744dcdc6ull + p->s.id);
	p->r = (struct prog_rates){ NAN, NAN, NAN };
	no_flag(p);
	p->ins = rnd(w, 4) ? &ins_pool[rnd(w, 3)] : NULL;
	set_owners(w, p);
}

static void init_world(struct world *w, uint64_t seed)
{
	memset(w, 0, sizeof(*w));
	w->rng = seed;
	w->next_id = 1000;
	w->time = 1795700000.0;
	for (size_t i = 0; i < NPROG; i++)
		new_prog(w, &w->p[i]);
	w->b = batch__new();
	assert_non_null(w->b);
}

/* Every program, in table order; @sub: a subset in another order. */
static void make_rows(struct world *w, bool sub)
{
	w->nr_rows = 0;
	for (size_t i = 0; i < NPROG; i++) {
		struct prog *p = &w->p[i];

		if (sub && !rnd(w, 5))
			continue;
		w->rows[w->nr_rows++] = (struct prog_row){
			.s = &p->s, .r = p->r, .reg = p->reg, .ins = p->ins,
		};
	}
	if (!sub)
		return;
	for (size_t i = w->nr_rows; i > 1; i--) {
		size_t j = rnd(w, (uint32_t)i);
		struct prog_row t = w->rows[i - 1];

		w->rows[i - 1] = w->rows[j];
		w->rows[j] = t;
	}
}

static char *render(struct world *w, struct batch *b, bool json, size_t *len)
{
	struct snapshot snap = {
		.time = w->time, .interval_s = 0.1, .stats_on = true,
		.stats = "on", .kernel = "6.18.0-test", .ncpus = 2,
		.nr_rows = w->nr_rows, .rows = w->rows,
	};
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	if (json)
		batch__print_json(b, f, &snap, w->rows, w->nr_rows, NULL);
	else
		batch__print_text(b, f, &snap, w->rows, w->nr_rows, NULL);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The refresh both ways: kept rows and none kept give the same bytes. */
static void refresh(struct world *w, bool json)
{
	size_t la, lb;
	char *a, *b;

	w->time += 0.1;
	a = render(w, w->b, json, &la);
	b = render(w, NULL, json, &lb);
	if (la != lb || memcmp(a, b, la)) {
		size_t i = 0;

		while (i < la && i < lb && a[i] == b[i])
			i++;
		print_error("refresh %lu (%s) differs at byte %zu:\n"
			    "kept: %.200s\nnone: %.200s\n",
			    w->refreshes, json ? "json" : "text", i,
			    a + (i > 80 ? i - 80 : 0),
			    b + (i > 80 ? i - 80 : 0));
		fail();
	}
	free(a);
	free(b);
	w->refreshes++;
}

/* Both formats, each with its own writer as a run has. */
struct pair {
	struct world text, json;
};

enum step {
	STEP_STEADY,		/* nothing changes */
	STEP_RUN,		/* a program ran: figures change */
	STEP_IDLE,		/* it stopped: rates drop to 0, then stay */
	STEP_RUN_TIME,		/* one counter moves, nothing else */
	STEP_RENAME,		/* a new name under the same id */
	STEP_RELOAD,		/* a new id (the old one is gone) */
	STEP_OWNERS,		/* other pids or comms, more or fewer */
	STEP_OWNER_COMM,	/* one comm changes, nothing else */
	STEP_CROWD,		/* owners by the hundred: a record of 12 KiB */
	STEP_FLAG,		/* the regression flag goes up or down */
	STEP_FLAG_MOVES,	/* a flagged row's figures move */
	STEP_TYPE,
	STEP_TAG,
	STEP_INSIGHTS,		/* insights read, or not */
	STEP_WIDE,		/* a name wider than all: the table widens */
	STEP_NARROW,		/* the widest name goes: it narrows */
	STEP_STATS_OFF,		/* no rates at all */
	STEP_SUBSET,		/* a filter and another sort order */
	STEP_TWICE,		/* the same id on two rows */
	STEP_EMPTY,		/* no rows */
	STEP__MAX,
};

static void apply(struct world *w, enum step st, uint32_t k)
{
	struct prog *p = &w->p[k % NPROG];

	make_rows(w, false);
	switch (st) {
	case STEP_STEADY:
		break;
	case STEP_RUN:
		run(w, p);
		break;
	case STEP_IDLE:
		idle(p);
		break;
	case STEP_RUN_TIME:
		p->s.run_time_ns += 1 + rnd(w, 1000);
		break;
	case STEP_RENAME:
		set_name(p, names[rnd(w, sizeof(names) / sizeof(names[0]))]);
		if (!rnd(w, 3))	/* a name that differs in its last byte */
			snprintf(p->s.name, sizeof(p->s.name), "prog_%u%c",
				 p->s.id, 'a' + rnd(w, 26));
		break;
	case STEP_RELOAD:
		p->s.id = w->next_id++;
		p->s.run_cnt = 0;
		p->s.run_time_ns = 0;
		p->r = (struct prog_rates){ NAN, NAN, NAN };
		break;
	case STEP_OWNERS:
		set_owners(w, p);
		break;
	case STEP_OWNER_COMM:
		if (!p->s.nr_owners)
			set_owners(w, p);
		if (p->s.nr_owners)
			p->owners[0].comm[rnd(w, 3)] ^= 1;
		break;
	case STEP_CROWD:
		p->s.nr_owners = OWNERS_MAX;
		for (uint32_t i = 0; i < OWNERS_MAX; i++) {
			p->owners[i].pid = 1000000 + i;
			snprintf(p->owners[i].comm, sizeof(p->owners[i].comm),
				 "cw%013u", i);
		}
		break;
	case STEP_FLAG:
		if (p->reg.active) {
			no_flag(p);
			break;
		}
		p->reg = (struct prog_regression){
			.active = true, .baseline_ns = 23.5,
			.current_ns = 80.04, .change_pct = 240.6,
			.limit_ns = 35.25, .clear_ns = 30.0,
			.since = w->time - 61,
		};
		break;
	case STEP_FLAG_MOVES:
		if (p->reg.active) {
			p->reg.current_ns += 1.5;
			p->reg.change_pct += 7.0;
		}
		break;
	case STEP_TYPE:
		p->s.type_name = types[(rnd(w, 3) + 1 +
					(size_t)(p->s.type_name == types[0])) % 4];
		break;
	case STEP_TAG:
		p->s.tag[15] = p->s.tag[15] == '0' ? '1' : '0';
		break;
	case STEP_INSIGHTS:
		p->ins = p->ins ? (p->ins == &ins_pool[0] ? &ins_pool[1] : NULL) :
				  &ins_pool[0];
		break;
	case STEP_WIDE:
		memset(p->s.name, 'w', 60 + rnd(w, 40));
		p->s.name[100] = '\0';
		break;
	case STEP_NARROW:
		for (size_t i = 0; i < NPROG; i++) {
			if (strlen(w->p[i].s.name) > 30)
				snprintf(w->p[i].s.name, sizeof(w->p[i].s.name),
					 "short_%zu", i);
		}
		break;
	case STEP_STATS_OFF:
		for (size_t i = 0; i < NPROG; i++)
			w->p[i].r = (struct prog_rates){ NAN, NAN, NAN };
		break;
	case STEP_SUBSET:
		make_rows(w, true);
		return;
	case STEP_TWICE:
		w->rows[w->nr_rows++] = w->rows[k % NPROG];
		w->rows[w->nr_rows - 1].r.cpu_pct += 1.0;
		return;
	case STEP_EMPTY:
		w->nr_rows = 0;
		return;
	case STEP__MAX:
		break;
	}
	make_rows(w, false);
}

/*
 * Rows a refresh can write from kept bytes: all but the flagged ones, and
 * in JSON those too long to keep (a crowd of owners).
 */
static size_t keepable(const struct world *w, bool json)
{
	size_t n = 0;

	for (size_t i = 0; i < w->nr_rows; i++)
		n += !w->rows[i].reg.active &&
		     !(json && w->rows[i].s->nr_owners == OWNERS_MAX);
	return n;
}

/* Every kind of change, each followed by refreshes where nothing does. */
static void test_steps(void **state)
{
	struct world *w = malloc(sizeof(*w));

	(void)state;
	assert_non_null(w);
	for (int json = 0; json < 2; json++) {
		init_world(w, 42 + (uint64_t)json);
		apply(w, STEP_STEADY, 0);
		refresh(w, json);
		for (int st = 0; st < STEP__MAX; st++) {
			for (uint32_t k = 0; k < 3; k++) {
				apply(w, (enum step)st, k * 7 + (uint32_t)st);
				refresh(w, json);
				apply(w, STEP_STEADY, 0);
				refresh(w, json);
				refresh(w, json);
				/* Nothing changed: every row it may keep is reused. */
				assert_int_equal(batch__reused(w->b),
						 keepable(w, json));
			}
		}
		batch__free(w->b);
	}
	free(w);
}

/* Many changes at once, at random, over many refreshes. */
static void test_random(void **state)
{
	struct world *w = malloc(sizeof(*w));

	(void)state;
	assert_non_null(w);
	for (int json = 0; json < 2; json++) {
		init_world(w, 0x9e3779b97f4a7c15ull + (uint64_t)json);
		for (int r = 0; r < 400; r++) {
			uint32_t changes = rnd(w, 6);

			make_rows(w, false);
			for (uint32_t c = 0; c < changes; c++)
				apply(w, (enum step)rnd(w, STEP_SUBSET),
				      rnd(w, NPROG));
			/* Now and then a filter, or a row twice. */
			if (!rnd(w, 8))
				apply(w, STEP_SUBSET, 0);
			else if (!rnd(w, 30))
				apply(w, STEP_TWICE, rnd(w, NPROG));
			refresh(w, json);
		}
		batch__free(w->b);
	}
	free(w);
}

/* The cache on its own: what it keeps, reuses, forgets and drops. */
static void test_cache(void **state)
{
	struct world *w = malloc(sizeof(*w));
	struct row_cache *c = row_cache__new();
	const char *kept;
	size_t len;
	bool same;
	long e;

	(void)state;
	assert_non_null(w);
	assert_non_null(c);
	init_world(w, 7);
	make_rows(w, false);

	/* First sight: an entry, not the same, nothing kept. */
	row_cache__begin(c);
	for (size_t i = 0; i < w->nr_rows; i++) {
		e = row_cache__lookup(c, &w->rows[i], &same);
		assert_true(e >= 0);
		assert_false(same);
		assert_null(row_cache__bytes(c, e, &len));
		assert_int_equal(row_cache__store(c, e, w->p[i].s.name,
						  strlen(w->p[i].s.name)), 0);
		row_cache__set_aux(c, e, (uint32_t)i + 1);
	}
	row_cache__end(c);
	assert_int_equal(row_cache__count(c), NPROG);

	/* Nothing changed: every row's bytes and aux come back. */
	row_cache__begin(c);
	for (size_t i = 0; i < w->nr_rows; i++) {
		e = row_cache__lookup(c, &w->rows[i], &same);
		assert_true(e >= 0);
		assert_true(same);
		assert_int_equal(row_cache__aux(c, e), i + 1);
		kept = row_cache__bytes(c, e, &len);
		assert_non_null(kept);
		assert_int_equal(len, strlen(w->p[i].s.name));
		assert_memory_equal(kept, w->p[i].s.name, len);
		/* A second row with the same id is not the cache's. */
		assert_int_equal(row_cache__lookup(c, &w->rows[i], &same), -1);
	}
	row_cache__end(c);

	/* A program ran, one got new owners: those two forget their bytes. */
	run(w, &w->p[3]);
	w->p[5].owners[0].pid++;
	if (!w->p[5].s.nr_owners)
		w->p[5].s.nr_owners = 1;
	make_rows(w, false);
	row_cache__begin(c);
	for (size_t i = 0; i < w->nr_rows; i++) {
		e = row_cache__lookup(c, &w->rows[i], &same);
		assert_true(e >= 0);
		assert_int_equal(same, i != 3 && i != 5);
		assert_int_equal(row_cache__bytes(c, e, &len) != NULL, same);
		assert_int_equal(row_cache__aux(c, e), same ? i + 1 : 0);
	}
	row_cache__end(c);

	/* A new layout: the entries are the same, their bytes are stale. */
	row_cache__new_layout(c);
	row_cache__begin(c);
	for (size_t i = 0; i < w->nr_rows; i++) {
		e = row_cache__lookup(c, &w->rows[i], &same);
		assert_true(same);
		assert_null(row_cache__bytes(c, e, &len));
	}
	row_cache__end(c);

	/* A flagged row is not kept. */
	w->rows[0].reg.active = true;
	row_cache__begin(c);
	assert_int_equal(row_cache__lookup(c, &w->rows[0], &same), -1);
	row_cache__end(c);

	/* Programs not seen at a refresh are dropped at its end. */
	assert_int_equal(row_cache__count(c), 0);
	row_cache__begin(c);
	for (size_t i = 0; i < 5; i++)
		assert_true(row_cache__lookup(c, &w->rows[i + 1], &same) >= 0);
	row_cache__end(c);
	assert_int_equal(row_cache__count(c), 5);
	assert_true(row_cache__mem(c) > 0);

	row_cache__free(c);
	batch__free(w->b);
	free(w);
}

/* Many programs come and go: the cache follows, and stays small. */
static void test_churn(void **state)
{
	enum { MANY = 5000 };
	struct prog_sample *s = calloc(MANY, sizeof(*s));
	struct prog_row *rows = calloc(MANY, sizeof(*rows));
	struct row_cache *c = row_cache__new();
	size_t peak = 0;
	bool same;

	(void)state;
	assert_non_null(s);
	assert_non_null(rows);
	assert_non_null(c);
	for (size_t i = 0; i < MANY; i++) {
		s[i].type_name = "xdp";
		rows[i].s = &s[i];
		rows[i].r = (struct prog_rates){ NAN, 0.0, 0.0 };
	}
	for (uint32_t round = 0; round < 20; round++) {
		/* A window of ids sliding by a fifth each round. */
		size_t n = round % 5 == 4 ? 10 : MANY;
		size_t hits = 0;

		row_cache__begin(c);
		for (size_t i = 0; i < n; i++) {
			long e;

			s[i].id = round * (MANY / 5) + (uint32_t)i + 1;
			snprintf(s[i].name, sizeof(s[i].name), "p%u", s[i].id);
			e = row_cache__lookup(c, &rows[i], &same);
			assert_true(e >= 0);
			hits += same;
			if (!same)
				assert_int_equal(row_cache__store(c, e, "x", 1), 0);
		}
		row_cache__end(c);
		assert_int_equal(row_cache__count(c), n);
		/* A refresh after a full one shares all but a fifth of its ids. */
		if (round % 5 && round % 5 != 4)
			assert_int_equal(hits, n - MANY / 5);
		if (row_cache__mem(c) > peak)
			peak = row_cache__mem(c);
	}
	/* Bounded by what one refresh shows, not by every id ever seen. */
	assert_true(peak < (size_t)MANY * 512);
	row_cache__free(c);
	free(rows);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_churn),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	init_insights();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
