/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_OBJECT_H
#define EBPFTOP_BENCH_OBJECT_H

/*
 * Private to --bench (runner.c): checking and preparing the object before
 * libbpf loads it. Failures are -EINVAL with one line in @err.
 */

#include <stddef.h>

#include <bpf/libbpf.h>

#include "bench/result.h"
#include "bench/runner.h"

/* @path is a readable ELF file for the BPF machine. */
int bench_check_elf(const char *path, char *err, size_t errlen);

/*
 * Check the names --bench-prog gives, mark which programs load (those that
 * take a packet, of those named), append every program of @obj to @r (with
 * the reason when it is not run) and set the --bench-set globals.
 */
int bench_object_prepare(struct bpf_object *obj, const struct bench_config *c,
			 struct bench_result *r, char *err, size_t errlen);

#endif
