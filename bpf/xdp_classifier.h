/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by bpf/xdp_classifier.bpf.c and userspace (src/demo/, the tests,
 * the benchmark): the class indices of the per-CPU counter array and the
 * marks of the demo's own packets. Only __u32/__u64/char types here.
 */
#ifndef EBPFTOP_BPF_XDP_CLASSIFIER_H
#define EBPFTOP_BPF_XDP_CLASSIFIER_H

/*
 * Counter slots, in the order of enum demo_class (src/demo/demo.h checks
 * that at compile time). Precedence: Fibonacci, then FizzBuzz, Fizz, Buzz.
 */
#define XDPC_FIZZBUZZ 0
#define XDPC_FIZZ 1
#define XDPC_BUZZ 2
#define XDPC_FIBONACCI 3
#define XDPC_OTHER 4
#define XDPC__CLASSES 5

/*
 * The regressed implementation walks this many Fibonacci terms per packet
 * (it saturates at 2^64 - 1 after the 93rd, so only the 13 below 256 ever
 * match). The global slow_terms may lower it; it is capped here.
 */
#define XDPC_SLOW_TERMS 256
#define XDPC_SLOW_TERMS_MAX 1024

/*
 * The demo's own packets: IPv4/UDP to this port (discard), payload starting
 * with XDPC_MAGIC. The classifier counts them and drops them, so that the
 * namespace's network stack does not spend time on them; every other
 * packet is counted and passed.
 */
#define XDPC_DEMO_PORT 9
#define XDPC_MAGIC "ebpftop!"
#define XDPC_MAGIC_LEN 8

#endif
