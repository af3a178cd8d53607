/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_QUIET_H
#define EBPFTOP_UTIL_QUIET_H

#include <bpf/libbpf.h>

/*
 * libbpf prints its warnings on stderr, which is the TUI's screen. Around
 * a load that may fail on some kernels (ebpftop falls back, or reports
 * the error in its own words) its messages are silenced or captured. Both
 * return the print function to restore with libbpf_set_print().
 */
libbpf_print_fn_t libbpf_quiet(void);

/*
 * Silence libbpf, but keep its first warning (without "libbpf: ") for
 * libbpf_captured(): what failed, in libbpf's words.
 */
libbpf_print_fn_t libbpf_capture(void);
/* The warning kept since libbpf_capture(); "" if none. */
const char *libbpf_captured(void);

#endif
