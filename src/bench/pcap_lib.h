/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_BENCH_PCAP_LIB_H
#define EBPFTOP_BENCH_PCAP_LIB_H

/*
 * The libpcap functions --bench --pcap calls, through libpcap loaded at
 * first use (util/lazy_lib.h): no other run maps it. Call them as
 * libpcap.pcap_open_offline() once pcap_lib_load() returned 0.
 */

#include <stddef.h>

#include <pcap/pcap.h>

#include "util/lazy_lib.h"

struct pcap_lib {
	LAZY_FN(pcap_open_offline);
	LAZY_FN(pcap_datalink);
	LAZY_FN(pcap_datalink_val_to_name);
	LAZY_FN(pcap_datalink_val_to_description);
	LAZY_FN(pcap_next_ex);
	LAZY_FN(pcap_geterr);
	LAZY_FN(pcap_close);
};

extern struct pcap_lib libpcap;

/* 0, or -ELIBACC with one line in @msg (lazy_lib_load()). */
int pcap_lib_load(char *msg, size_t len);

#endif
