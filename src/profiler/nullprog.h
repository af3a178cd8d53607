/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Empty BPF programs of any type, with BTF so that fentry/fexit can attach
 * to them, and BPF_PROG_TEST_RUN on any program: what calibration and the
 * profiler benchmark need.
 */
#ifndef EBPFTOP_PROFILER_NULLPROG_H
#define EBPFTOP_PROFILER_NULLPROG_H

#include <stdint.h>

#include <linux/bpf.h>

/*
 * Load "return <neutral verdict>" as a program of @type named @name, with
 * a BTF description of its one function. Returns the fd or -errno.
 */
int nullprog_load(enum bpf_prog_type type, const char *name);

/*
 * Run program @fd @repeat times with BPF_PROG_TEST_RUN (a 64-byte zeroed
 * packet where the type takes one) and give the kernel's average time per
 * run in @ns_per_run. 0 or -errno (-EOPNOTSUPP: the type cannot be run).
 */
int nullprog_test_run(int fd, unsigned int repeat, double *ns_per_run);

/*
 * Load an fentry (@fexit false) or fexit program that does nothing, for
 * the main function of program @target_fd, and attach it. Returns the
 * link fd (closing it detaches and frees both) or -errno.
 */
int nullprog_attach_tracing(int target_fd, int fexit);

#endif
