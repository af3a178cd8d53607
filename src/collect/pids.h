/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_COLLECT_PIDS_H
#define EBPFTOP_COLLECT_PIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/sample.h"

/* One process holding a program, directly or through a link. */
struct pid_ref {
	uint32_t prog_id;
	uint32_t nr_fds;	/* fds of this process on this program */
	struct prog_owner owner;
};

struct pid_scan;

/* How owners are found. */
enum pid_scan_how {
	PID_SCAN_PROC,	/* /proc/<pid>/fdinfo of every process */
	PID_SCAN_ANY,	/* task_file iterator: plain loads (6.15+), else probe reads */
	PID_SCAN_PROBE,	/* the iterator with probe reads only, as before 6.15 */
};

/*
 * Find owners as @how says; where no iterator loads, fall back to
 * /proc/<pid>/fdinfo.
 */
int pid_scan__new(struct pid_scan **out, enum pid_scan_how how);
void pid_scan__free(struct pid_scan *p);
/* The iterator's program id, to leave out of the table (0 if none). */
uint32_t pid_scan__own_prog_id(const struct pid_scan *p);

/*
 * Every (program, process) pair, sorted by program id then pid, one entry
 * per pair however many fds the process holds (nr_fds says how many). The array is reused by the
 * next call. Returns 0 or a negative errno.
 */
int pid_scan__collect(struct pid_scan *p, const struct pid_ref **refs,
		      size_t *n);

#endif
