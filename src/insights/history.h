/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_INSIGHTS_HISTORY_H
#define EBPFTOP_INSIGHTS_HISTORY_H

/*
 * Every program's recent refreshes, in bounded memory: the last
 * HIST_FINE refreshes as they were, and HIST_COARSE buckets of
 * HIST_BUCKET_S seconds behind them (16 minutes). Values are kept as
 * 16-bit logarithmic codes (0.04 % steps). A program that never ran costs
 * nothing; one that ran costs about 1.2 KiB. A reload (the
 * same tag and name under a new id) continues the old program's history.
 * Pure: no I/O.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_FINE 64
#define HIST_COARSE 192
#define HIST_BUCKET_S 5.0
/* Refreshes a vanished program's history waits for a reload. */
#define HIST_KEEP_GONE 300

/* One point of a resampled series: NAN values are gaps (no data). */
struct hist_point {
	double ns_per_run;	/* runs-weighted over the point */
	double runs_per_s;
	bool flagged;		/* the regression flag was up in it */
	bool reload;		/* the program was reloaded in it */
	bool measured;		/* stats were on for some of it */
};

struct history;

struct history *history__new(void);
void history__free(struct history *h);

/* Start a refresh at unix time @now. */
void history__begin(struct history *h, double now);
/*
 * Program @id at this refresh: rates over the last @interval_s seconds
 * (NAN when not measured: first sample, stats off). @tag and @name follow
 * it across reloads. 0 or -ENOMEM.
 */
int history__update(struct history *h, uint32_t id, const char *tag,
		    const char *name, double interval_s, double ns_per_run,
		    double runs_per_s, bool flagged);
/* End the refresh: programs not updated are gone (kept a while). */
void history__end(struct history *h);

/*
 * Resample program @id's last @window_s seconds before @now into @n
 * points, oldest first. Returns the number of points with a value, or
 * -ENOENT if the program has no history (it has not run).
 */
int history__series(const struct history *h, uint32_t id, double now,
		    double window_s, size_t n, struct hist_point *out);

/* Programs tracked, and bytes of memory held for all of them. */
size_t history__count(const struct history *h);
size_t history__bytes(const struct history *h);

/* The 16-bit code of a value and back (exposed for tests). */
uint16_t hist_encode(double v, double scale, uint16_t max);
double hist_decode(uint16_t code, double scale);

#endif
