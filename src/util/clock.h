/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_CLOCK_H
#define EBPFTOP_UTIL_CLOCK_H

#include <signal.h>
#include <stdint.h>

/*
 * The one clock of ebpftop: CLOCK_MONOTONIC in ns, the clock of refresh
 * times, rates, deadlines and timed messages.
 */
uint64_t mono_now_ns(void);

/*
 * Sleep until @deadline_ns (mono_now_ns() time). A signal ends the sleep
 * early when @stop is set by then (NULL: sleep through signals).
 */
void mono_sleep_until(uint64_t deadline_ns, volatile sig_atomic_t *stop);

#endif
