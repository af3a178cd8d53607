// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "demo/packet.h"

#include <string.h>

#include "bpf/xdp_classifier.h"

const uint8_t demo_tx_mac[6] = { 0x02, 0xeb, 0x0f, 0x00, 0x00, 0x01 };
const uint8_t demo_rx_mac[6] = { 0x02, 0xeb, 0x0f, 0x00, 0x00, 0x02 };

uint32_t demo_source_addr(uint64_t seq)
{
	return DEMO_SRC_BASE + (uint32_t)(seq % DEMO_SRC_SPAN);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint16_t ip_checksum(const uint8_t *h, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void demo_frame_build(uint8_t buf[DEMO_FRAME_LEN], uint32_t saddr,
		      uint16_t sport, int magic)
{
	uint8_t *ip = buf + 14, *udp = ip + 20, *payload = udp + 8;

	memset(buf, 0, DEMO_FRAME_LEN);
	memcpy(buf, demo_rx_mac, 6);
	memcpy(buf + 6, demo_tx_mac, 6);
	put16(buf + 12, 0x0800);		/* ETH_P_IP */

	ip[0] = 0x45;				/* version 4, 20 bytes */
	put16(ip + 2, DEMO_FRAME_LEN - 14);	/* total length */
	put16(ip + 6, 0x4000);			/* DF, no fragment */
	ip[8] = 64;				/* TTL */
	ip[9] = 17;				/* UDP */
	put32(ip + 12, saddr);
	put32(ip + 16, DEMO_RX_ADDR);
	put16(ip + 10, ip_checksum(ip, 20));

	put16(udp, sport);
	put16(udp + 2, XDPC_DEMO_PORT);
	put16(udp + 4, DEMO_FRAME_LEN - 14 - 20);
	/* UDP checksum 0: none, which IPv4 allows. */
	if (magic)
		memcpy(payload, XDPC_MAGIC, XDPC_MAGIC_LEN);
}
