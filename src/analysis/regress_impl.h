/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_REGRESS_IMPL_H
#define EBPFTOP_ANALYSIS_REGRESS_IMPL_H

/*
 * Private to the regression detector: its per-program state and the tables
 * that find it by id and by identity (regress_table.c). Not for other
 * modules: they use analysis/regress.h.
 */

#include "analysis/regress.h"

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

/*
 * What the detector keeps per program: about 100 bytes with malloc's, and
 * 200 more once it has run.
 */
struct rstate {
	uint32_t id;
	bool gone;
	bool adopted;			/* took over a reloaded program */
	bool dead;			/* forgotten, freed at regress__end() */
	bool retaken;			/* took over at regress__end(): report again */
	uint64_t tag;			/* the tag's 8 bytes */
	uint64_t name_hash;
	/*
	 * Refresh it was last seen at: kept up to date while it is gone,
	 * young (see find_young()) or new; for the others, struct rlive
	 * says, and gives it here when they go.
	 */
	unsigned long last_seq;
	unsigned long first_seq;	/* refresh it appeared at */
	struct rstate *id_next;		/* id hash chain (live only) */
	struct rstate *key_next;	/* identity hash chain */
	struct rstate *gone_prev;	/* the gone list, oldest first */
	struct rstate *gone_next;
	struct rlearn *l;		/* NULL until it first has a value */
};

/*
 * A program present at the end of the last refresh: what a refresh needs
 * of it side by side, in an array in id order, so that a program that
 * did not run costs a step along that array and no look at its state.
 */
struct rlive {
	uint32_t id;
	bool stale;			/* rep is not what st->l says */
	bool dead;			/* st forgotten (freed at regress__end()) */
	uint64_t tag, name_hash;	/* st's */
	unsigned long seen;		/* refresh it was last seen at */
	unsigned long first_seq;	/* st's */
	struct rstate *st;
	struct prog_regression rep;	/* report() of st as of its last change */
};

struct regress {
	struct regress_params p;
	unsigned long seq;		/* refresh number */
	double now;
	/*
	 * Every program present at the end of the last refresh, ascending
	 * id: callers that go in id order (the program table does) are
	 * found by a cursor, with no hash lookup. Programs that appear
	 * during a refresh wait in added until regress__end() merges them.
	 */
	struct rlive *live;
	size_t nlive, live_cap;
	size_t cursor;			/* where the last lookup ended */
	size_t nseen;			/* live entries seen this refresh */
	size_t ndead;			/* live entries forgotten this refresh */
	struct rstate **added;		/* new this refresh, in call order */
	size_t nadded, added_cap;
	struct rstate **by_id;		/* hash buckets, live programs */
	size_t id_buckets;
	size_t nids;			/* in by_id */
	struct rstate **by_key;		/* hash buckets, live and gone */
	size_t key_buckets;
	size_t nkeyed;
	struct rstate *gone_head, *gone_tail;
	size_t ngone;
	struct regress_event events[REGRESS_EVENTS_MAX];
	unsigned long nevents;		/* events ever started */
};

/* ---- regress_table.c: finding a program's state ------------------------- */

/* A program's identity: its tag's 8 bytes (a hash if it is not 16 hex
 * digits) and a hash of its name. */

/* Room for one more program in every table: 0 or -ENOMEM. */
int rtab_reserve(struct regress *r);

/* Live programs by id. */
struct rstate *rtab_id_find(const struct regress *r, uint32_t id);
void rtab_id_insert(struct regress *r, struct rstate *st);
void rtab_id_remove(struct regress *r, struct rstate *st);

/* Every program, live and gone, by identity. */
void rtab_key_insert(struct regress *r, struct rstate *st);
void rtab_key_remove(struct regress *r, struct rstate *st);
/* The chain (through key_next) that holds programs of this identity. */
struct rstate *rtab_key_chain(const struct regress *r, uint64_t tag,
			      uint64_t nh);

/*
 * The live array: a program that appears waits in added until
 * rtab_live_merge() puts every added one in place (ascending id); the
 * dead go in too, marked dead, and regress__end() frees them.
 */
void rtab_live_add(struct regress *r, struct rstate *st);
void rtab_live_merge(struct regress *r);
void rtab_gone_append(struct regress *r, struct rstate *st);
void rtab_gone_remove(struct regress *r, struct rstate *st);

/* The most recently gone program with this identity, if any. */
struct rstate *rtab_find_gone(struct regress *r, uint64_t tag, uint64_t nh);

#endif
