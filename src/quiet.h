/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_QUIET_H
#define EBPFTOP_QUIET_H

#include <bpf/libbpf.h>

/*
 * Silence libbpf around a load that may fail on some kernels (ebpftop
 * falls back, or reports the error in its own words); returns the print
 * function to restore with libbpf_set_print().
 */
libbpf_print_fn_t libbpf_quiet(void);

#endif
