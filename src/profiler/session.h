/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One profiling session as the app runs it: the profiler, its latest
 * report, and the rule for when it ends on its own (the target went away).
 */
#ifndef EBPFTOP_PROFILER_SESSION_H
#define EBPFTOP_PROFILER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/profile.h"
#include "analysis/sample.h"

struct prof_session;

/*
 * Profile program @id with the events in @events (NULL: the default
 * preset). 0, or a negative errno with the reason in @msg.
 */
int prof_session__new(struct prof_session **out, uint32_t id,
		       const char *events, char *msg, size_t len);

/*
 * Read the counters after a sample; @s is the target's sample in it, or
 * NULL when it is not listed. Returns 0 while profiling goes on, 1 when
 * the session ended (the reason is in @msg: the caller stops it), or a
 * negative errno when the counters could not be read.
 */
int prof_session__update(struct prof_session *ps, const struct prog_sample *s,
			char *msg, size_t len);

/* The latest report (zero runs before the first update). */
const struct profile_report *prof_session__report(const struct prof_session *ps);
uint32_t prof_session__id(const struct prof_session *ps);

/* Detach and free (NULL is fine). */
void prof_session__free(struct prof_session *ps);

#endif
