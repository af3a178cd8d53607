/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One hot-lines session: a sampling perf event per online CPU (kernel
 * addresses only), a thread that drains their rings into counts per line
 * of one program, and the report built from those counts. Everything is
 * owned by file descriptors: nothing outlives the process.
 */
#ifndef EBPFTOP_HOT_SESSION_H
#define EBPFTOP_HOT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hot/report.h"

struct hot_session;

struct hot_params {
	uint32_t id;		/* the program */
	const char *event;	/* libpfm4 event string; NULL: cycles, else cpu-clock */
	unsigned int freq_hz;	/* samples per second per CPU; 0: the default */
	bool cumulative;	/* start in the cumulative window */
};

/*
 * Start sampling. 0, or a negative errno with a one-line reason in @msg.
 * -ENODATA means the program has no line info: the session runs (*@out is
 * set; it counts per subprogram only) and @msg says how to get lines.
 * Any other error leaves *@out NULL.
 */
int hot_session_start(struct hot_session **out, const struct hot_params *p,
		      char *msg, size_t len);

/*
 * Rebuild the report (call once per refresh). 0 while it goes on, 1 when
 * the program was unloaded or replaced (@msg says so: stop the session),
 * or a negative errno.
 */
int hot_session_update(struct hot_session *s, char *msg, size_t len);

/* The latest report (empty before the first update). */
const struct hot_report *hot_session_report(const struct hot_session *s);
uint32_t hot_session_id(const struct hot_session *s);

/* Switch between the rolling window and cumulative counts; the order of lines. */
void hot_session_set_cumulative(struct hot_session *s, bool cumulative);
bool hot_session_cumulative(const struct hot_session *s);
void hot_session_set_source_order(struct hot_session *s, bool source_order);
bool hot_session_source_order(const struct hot_session *s);

/* Stop the thread, close every event (NULL is fine). */
void hot_session_stop(struct hot_session *s);

/*
 * --sample-event as given: resolve it with libpfm4 into one event. 0 or
 * -EINVAL with the reason in @msg (-ELIBACC: libpfm4 cannot be loaded).
 */
int hot_event_check(const char *event, char *msg, size_t len);

#endif
