// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pcap_lib.h"
#include "demo/packet.h"

static int add(struct bench_input *in, const uint8_t *data, uint32_t len)
{
	struct bench_packet *p;

	if (!(in->n & (in->n + 1))) {
		/* Grow at 0, 1, 3, 7, ...: doubling. */
		p = realloc(in->pkts, (in->n + 1) * 2 * sizeof(*p));
		if (!p)
			return -ENOMEM;
		in->pkts = p;
	}
	p = &in->pkts[in->n];
	p->data = malloc(len ? len : 1);
	if (!p->data)
		return -ENOMEM;
	memcpy(p->data, data, len);
	p->len = len;
	in->n++;
	return 0;
}

int bench_input_builtin(struct bench_input *in)
{
	uint8_t frame[DEMO_FRAME_LEN];

	memset(in, 0, sizeof(*in));
	/* Spread evenly over the demo's 4096 sources, one per packet. */
	for (unsigned int i = 0; i < BENCH_BUILTIN_PACKETS; i++) {
		demo_frame_build(frame,
				 demo_source_addr((uint64_t)i * DEMO_SRC_SPAN /
						  BENCH_BUILTIN_PACKETS + i % 16),
				 (uint16_t)(1024 + i), 0);
		if (add(in, frame, sizeof(frame))) {
			bench_input_free(in);
			return -ENOMEM;
		}
	}
	snprintf(in->desc, sizeof(in->desc),
		 "input: %u built-in IPv4/UDP packets of %u bytes, one per source address in 198.18.0.0/20",
		 BENCH_BUILTIN_PACKETS, DEMO_FRAME_LEN);
	return 0;
}

int bench_input_pcap(const char *path, struct bench_input *in, char *err,
		     size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int dlt, ret = 0, r;

	memset(in, 0, sizeof(*in));
	ret = pcap_lib_load(err, errlen);
	if (ret)
		return ret;
	p = libpcap.pcap_open_offline(path, perr);
	if (!p) {
		snprintf(err, errlen, "cannot read '%s': %s", path, perr);
		return -EINVAL;
	}
	dlt = libpcap.pcap_datalink(p);
	if (dlt != DLT_EN10MB) {
		const char *name = libpcap.pcap_datalink_val_to_name(dlt);
		const char *what = libpcap.pcap_datalink_val_to_description(dlt);

		snprintf(err, errlen,
			 "'%s' has link type %s (%s): the programs take Ethernet frames (EN10MB)",
			 path, name ? name : "?", what ? what : "unknown");
		libpcap.pcap_close(p);
		return -EINVAL;
	}
	while ((r = libpcap.pcap_next_ex(p, &h, &data)) == 1) {
		if (h->caplen < 14) {
			snprintf(err, errlen,
				 "'%s': packet %zu has %u bytes, less than an Ethernet header",
				 path, in->n + 1, h->caplen);
			ret = -EINVAL;
			break;
		}
		if (in->n == BENCH_PCAP_MAX) {
			snprintf(err, errlen, "'%s' has more than %d packets",
				 path, BENCH_PCAP_MAX);
			ret = -EINVAL;
			break;
		}
		ret = add(in, data, h->caplen);
		if (ret) {
			snprintf(err, errlen, "out of memory");
			break;
		}
	}
	if (!ret && r == PCAP_ERROR) {
		snprintf(err, errlen, "cannot read '%s': %s", path, libpcap.pcap_geterr(p));
		ret = -EINVAL;
	}
	if (!ret && !in->n) {
		snprintf(err, errlen, "'%s' has no packets", path);
		ret = -EINVAL;
	}
	libpcap.pcap_close(p);
	if (ret) {
		bench_input_free(in);
		return ret;
	}
	snprintf(in->desc, sizeof(in->desc), "input: %zu packets from %s",
		 in->n, path);
	return 0;
}

void bench_input_free(struct bench_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->pkts[i].data);
	free(in->pkts);
	memset(in, 0, sizeof(*in));
}
