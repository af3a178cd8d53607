/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_COLLECT_PROG_TABLE_H
#define EBPFTOP_COLLECT_PROG_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "analysis/sample.h"
#include "collect/pids.h"

struct prog_table;

/* How the table learns which programs exist and which are orphans. */
enum prog_enum_mode {
	PROG_ENUM_STATS,	/* iter/bpf_prog: ids and counters in one read, no fds */
	PROG_ENUM_ITER,		/* iter/bpf_prog: ids and reference counts in one read */
	PROG_ENUM_IDS,		/* BPF_PROG_GET_NEXT_ID walk, fds reopened every refresh */
};

/* Which counters iterator a table may read. */
enum prog_table_stats {
	PROG_TABLE_STATS_NONE,	/* none: one info call per program and refresh */
	PROG_TABLE_STATS_ANY,	/* plain loads (6.15+), else probe reads (5.19+) */
	PROG_TABLE_STATS_PROBE,	/* probe reads only, as on kernels before 6.15 */
};

/*
 * A table that uses the BPF iterators where they load; @stats_iter
 * PROG_TABLE_STATS_NONE, @prog_iter false or @pid_iter PID_SCAN_PROC forces
 * a fallback (tests exercise them that way): without a counters iterator,
 * one BPF_OBJ_GET_INFO_BY_FD per program and refresh; without @prog_iter,
 * no iterator lists programs either; owners are found as @pid_iter says.
 */
int prog_table__new(struct prog_table **out, enum prog_table_stats stats_iter,
		    bool prog_iter, enum pid_scan_how pid_iter);
void prog_table__free(struct prog_table *t);
/*
 * A hook called once for each program the table reads for the first time,
 * with all that BPF_OBJ_GET_INFO_BY_FD says of it (instructions, functions,
 * JIT symbols, map ids), so that another reader of new programs need not
 * open and read them again. @f is valid during the call only.
 */
struct prog_info_full;
typedef void prog_table_new_fn(void *ctx, struct prog_info_full *f);
void prog_table__on_new(struct prog_table *t, prog_table_new_fn *fn,
			void *ctx);

/* How the table lists programs (which iterators loaded). */
enum prog_enum_mode prog_table__mode(const struct prog_table *t);

/*
 * Take a new sample of every loaded program. Returns 0 or a negative errno
 * (-EPERM when the caller may not enumerate programs).
 */
int prog_table__refresh(struct prog_table *t);

/* The current samples, in id order; valid until the next refresh. */
size_t prog_table__count(const struct prog_table *t);
const struct prog_sample *prog_table__sample(const struct prog_table *t,
					     size_t i);
/*
 * The same program at the previous refresh, or NULL if it is new: its id
 * and counters only, valid until the next call.
 */
const struct prog_sample *prog_table__prev(struct prog_table *t, size_t i);
/*
 * Whether the latest refresh found the very programs of the one before, in
 * the same order (sample i is the same program as at the previous
 * refresh). False after the first refresh, and whenever the table cannot
 * tell cheaply.
 */
bool prog_table__same(const struct prog_table *t);
/* CLOCK_MONOTONIC time of the latest and previous refresh, in ns. */
uint64_t prog_table__time_ns(const struct prog_table *t);
uint64_t prog_table__prev_time_ns(const struct prog_table *t);

/* Detail of one program, fetched on demand for the details pane. */
struct prog_map_ref {
	uint32_t id;
	uint32_t type;
	char name[16];
};

struct prog_link_ref {
	uint32_t id;
	uint32_t type;
	char target[96];	/* human-readable attach target */
};

struct prog_detail {
	uint32_t nr_maps;
	struct prog_map_ref *maps;
	uint32_t nr_links;
	struct prog_link_ref *links;
	uint32_t verified_insns;
	bool gpl;
};

/* Look up maps, links and verifier facts of program @id. 0 or -errno. */
int prog_detail_fetch(uint32_t id, struct prog_detail *d);
void prog_detail_free(struct prog_detail *d);

#endif
