/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_INPUT_H
#define EBPFTOP_BENCH_INPUT_H

/* The packets a benchmark feeds its programs: a capture, or a built-in set. */

#include <stddef.h>
#include <stdint.h>

/* The built-in set: IPv4/UDP frames from this many source addresses. */
#define BENCH_BUILTIN_PACKETS 256
/* A capture may hold at most this many packets. */
#define BENCH_PCAP_MAX 1000000

struct bench_packet {
	uint8_t *data;
	uint32_t len;
};

struct bench_input {
	size_t n;
	struct bench_packet *pkts;
	char desc[160];		/* for the report */
};

/* The built-in set. 0 or -ENOMEM. */
int bench_input_builtin(struct bench_input *in);

/*
 * Every packet of the capture at @path (read with libpcap). 0; -EINVAL
 * for a file that is not a capture, has no packets, a packet shorter than
 * an Ethernet header or a link type other than Ethernet (@err says which);
 * -ELIBACC when libpcap cannot be loaded (@err says so); -ENOMEM.
 */
int bench_input_pcap(const char *path, struct bench_input *in, char *err,
		     size_t errlen);

void bench_input_free(struct bench_input *in);

#endif
