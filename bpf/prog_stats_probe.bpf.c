// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counters iterator for Linux 5.19 to 6.14: prog_stats.bpf.c with
 * bpf_probe_read_kernel() in place of plain loads through
 * bpf_rdonly_cast(), which takes an untyped pointer only from 6.15 on.
 * The records are the same; each read costs a helper call.
 */
#define PROG_STATS_PROBE 1
#include "prog_stats.bpf.c"
