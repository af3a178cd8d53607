// SPDX-License-Identifier: GPL-2.0-only
/* libpcap, opened when --bench first reads a capture (pcap_lib.h). */
#include "config.h"

#include "bench/pcap_lib.h"

struct pcap_lib libpcap;

static const struct lazy_sym pcap_syms[] = {
	LAZY_SYM(struct pcap_lib, pcap_open_offline),
	LAZY_SYM(struct pcap_lib, pcap_datalink),
	LAZY_SYM(struct pcap_lib, pcap_datalink_val_to_name),
	LAZY_SYM(struct pcap_lib, pcap_datalink_val_to_description),
	LAZY_SYM(struct pcap_lib, pcap_next_ex),
	LAZY_SYM(struct pcap_lib, pcap_geterr),
	LAZY_SYM(struct pcap_lib, pcap_close),
};

static struct lazy_lib pcap_lazy = {
	.soname = EBPFTOP_LIBPCAP_SONAME,
	.package = "libpcap0.8",
	.syms = pcap_syms,
	.nr_syms = sizeof(pcap_syms) / sizeof(pcap_syms[0]),
	.table = &libpcap,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

int pcap_lib_load(char *msg, size_t len)
{
	return lazy_lib_load(&pcap_lazy, msg, len);
}
