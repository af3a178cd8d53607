// SPDX-License-Identifier: GPL-2.0-only
/*
 * The owner walk for kernels before 6.15: pid_iter.bpf.c with
 * bpf_probe_read_kernel() in place of plain loads through
 * bpf_rdonly_cast(), which takes an untyped pointer only from 6.15 on.
 * The records are the same; each read costs a helper call.
 */
#define PID_ITER_PROBE 1
#include "pid_iter.bpf.c"
