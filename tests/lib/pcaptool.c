// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcaptool: the --bench tests' helper.
 *
 *   pcaptool write FILE N [raw|big]
 *     Write N IPv4/UDP packets to FILE through libpcap: packet i comes
 *     from 10.1.(i / 256).(i % 256); every 8th one is 150 bytes long, the
 *     others 60. With "raw" the file has link type RAW (IP, no Ethernet).
 *     With "big" every packet is 9000 bytes (a jumbo frame).
 *     Prints what the test programs must answer, as shell assignments:
 *     drop=.. tx=.. pass=.. (bench_codes) long=.. (packets over 100 bytes).
 *   pcaptool direct OBJ PROG FILE ROUNDS REPEAT
 *     Load PROG of OBJ and time it with BPF_PROG_TEST_RUN directly: per
 *     round, every packet of FILE REPEAT times; print
 *     "median=.. min=.. max=.. stats=on|off|mixed": the rounds' mean
 *     kernel ns/run, and whether run-time stats were on meanwhile.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static int write_pcap(const char *path, unsigned long n, int raw, int big)
{
	unsigned long drop = 0, tx = 0, pass = 0, lng = 0;
	pcap_t *p = pcap_open_dead(raw ? DLT_RAW : DLT_EN10MB, 65535);
	pcap_dumper_t *d;

	if (!p)
		return 1;
	d = pcap_dump_open(p, path);
	if (!d) {
		fprintf(stderr, "pcaptool: %s\n", pcap_geterr(p));
		pcap_close(p);
		return 1;
	}
	for (unsigned long i = 0; i < n; i++) {
		static uint8_t pkt[9000];
		uint8_t *eth = pkt, *ip = raw ? pkt : pkt + 14, *udp = ip + 20;
		unsigned int len = big ? 9000 : i % 8 == 7 ? 150 : 60;
		struct pcap_pkthdr h = { .caplen = len, .len = len };
		uint32_t sum = 0;

		memset(pkt, 0, sizeof(pkt));
		if (raw)
			len -= 14;
		h.caplen = h.len = len;
		if (!raw) {
			memset(eth, 0x02, 12);
			put16(eth + 12, 0x0800);
		}
		ip[0] = 0x45;
		put16(ip + 2, (uint16_t)(len - (raw ? 0 : 14)));
		ip[8] = 64;
		ip[9] = 17;
		ip[12] = 10;
		ip[13] = 1;
		ip[14] = (uint8_t)(i / 256);
		ip[15] = (uint8_t)i;
		ip[16] = 198;
		ip[17] = 19;
		ip[19] = 2;
		for (int k = 0; k < 20; k += 2)
			sum += (uint32_t)ip[k] << 8 | ip[k + 1];
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		put16(ip + 10, (uint16_t)~sum);
		put16(udp, (uint16_t)(1024 + i % 1000));
		put16(udp + 2, 9);
		put16(udp + 4, (uint16_t)(len - (raw ? 0 : 14) - 20));
		pcap_dump((u_char *)d, &h, pkt);
		switch (i % 256 % 4) {
		case 0:
			drop++;
			break;
		case 1:
			tx++;
			break;
		default:
			pass++;
		}
		lng += big || i % 8 == 7;
	}
	pcap_dump_close(d);
	pcap_close(p);
	printf("drop=%lu tx=%lu pass=%lu long=%lu\n", drop, tx, pass, lng);
	return 0;
}

/* pcap/pcap.h and linux/bpf.h both define struct bpf_insn: the test runs
 * live in pcaptool_run.c. */
int direct_run(const char *obj_path, const char *name, unsigned char **pkts,
	       const unsigned int *lens, size_t n, unsigned int rounds,
	       unsigned int repeat);

static int direct(const char *obj_path, const char *name, const char *pcap_path,
		  unsigned int rounds, unsigned int repeat)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned char **pkts = NULL;
	unsigned int *lens = NULL;
	size_t n = 0;
	pcap_t *p;
	int ret;

	p = pcap_open_offline(pcap_path, perr);
	if (!p) {
		fprintf(stderr, "pcaptool: %s\n", perr);
		return 1;
	}
	while (pcap_next_ex(p, &h, &data) == 1) {
		pkts = realloc(pkts, (n + 1) * sizeof(*pkts));
		lens = realloc(lens, (n + 1) * sizeof(*lens));
		if (!pkts || !lens)
			return 1;
		pkts[n] = malloc(h->caplen);
		if (!pkts[n])
			return 1;
		memcpy(pkts[n], data, h->caplen);
		lens[n++] = h->caplen;
	}
	pcap_close(p);
	ret = n ? direct_run(obj_path, name, pkts, lens, n, rounds, repeat) : 1;
	for (size_t i = 0; i < n; i++)
		free(pkts[i]);
	free(pkts);
	free(lens);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return write_pcap(argv[2], strtoul(argv[3], NULL, 10),
				  argc > 4 && !strcmp(argv[4], "raw"),
				  argc > 4 && !strcmp(argv[4], "big"));
	if (argc == 7 && !strcmp(argv[1], "direct"))
		return direct(argv[2], argv[3], argv[4],
			      (unsigned int)strtoul(argv[5], NULL, 10),
			      (unsigned int)strtoul(argv[6], NULL, 10));
	fprintf(stderr, "usage: pcaptool write FILE N [raw|big] | direct OBJ PROG FILE ROUNDS REPEAT\n");
	return 2;
}
