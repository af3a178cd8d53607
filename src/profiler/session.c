// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "profiler/session.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/events.h"
#include "profiler/profiler.h"

struct prof_session {
	struct profiler *p;
	struct profile_report rep;
	uint32_t id;
	bool had_owners;	/* some process held the target while profiled */
	uint64_t last_runs;	/* runs at the previous update */
};

int prof_session__new(struct prof_session **out, uint32_t id,
		       const char *events, char *msg, size_t len)
{
	struct prof_session *ps;
	struct event_set ev;
	char why[256];
	int err;

	*out = NULL;
	err = events_parse(events ? events : EVENTS_DEFAULT, &ev, why,
			   sizeof(why));
	if (err) {
		snprintf(msg, len, "cannot profile program %u: %s", id, why);
		return err;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps) {
		snprintf(msg, len, "cannot profile program %u: out of memory", id);
		return -ENOMEM;
	}
	err = profiler__new(&ps->p, id, &ev, 0, why, sizeof(why));
	if (err) {
		snprintf(msg, len, "cannot profile program %u: %s", id, why);
		free(ps);
		return err;
	}
	ps->id = id;
	err = profiler__read(ps->p, &ps->rep);
	ps->last_runs = ps->rep.runs;
	if (err) {
		snprintf(msg, len, "cannot read the counters of program %u: %s",
			 id, strerror(-err));
		prof_session__free(ps);
		return err;
	}
	*out = ps;
	return 0;
}

int prof_session__update(struct prof_session *ps, const struct prog_sample *s,
			char *msg, size_t len)
{
	uint64_t prev = ps->last_runs;
	int err = profiler__read(ps->p, &ps->rep);

	if (err) {
		snprintf(msg, len, "cannot read the counters of program %u: %s",
			 ps->id, strerror(-err));
		return err;
	}
	ps->last_runs = ps->rep.runs;
	if (!s) {
		snprintf(msg, len, "program %u is gone: profiling stopped",
			 ps->id);
		return 1;
	}
	if (s->nr_owners) {
		ps->had_owners = true;
		return 0;
	}
	/*
	 * The profiler's links keep the target loaded, so "unloaded" shows
	 * as: its owners let go and it stopped running. A program that keeps
	 * running without owners (attached through netlink, pinned) goes on.
	 */
	if (ps->had_owners && ps->rep.runs == prev) {
		snprintf(msg, len, "program %u was let go by its owners and no longer runs (only the profiler held it): profiling stopped",
			 ps->id);
		return 1;
	}
	return 0;
}

const struct profile_report *prof_session__report(const struct prof_session *ps)
{
	return &ps->rep;
}

uint32_t prof_session__id(const struct prof_session *ps)
{
	return ps->id;
}

void prof_session__free(struct prof_session *ps)
{
	if (!ps)
		return;
	profiler__free(ps->p);
	free(ps);
}
