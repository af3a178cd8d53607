/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_DEMO_PACKET_H
#define EBPFTOP_DEMO_PACKET_H

#include <stddef.h>
#include <stdint.h>

/*
 * The demo's traffic: Ethernet/IPv4/UDP frames to the discard port, the
 * classifier's magic at the start of the payload. Pure functions, shared
 * with the tests and the benchmark so they run the classifier on the very
 * packets the demo sends.
 */

/* Sources cycle through 198.18.0.0 + 0..4095 (RFC 2544's benchmark range). */
#define DEMO_SRC_BASE 0xc6120000u	/* 198.18.0.0 */
#define DEMO_SRC_SPAN 4096u
/* The two ends of the veth pair: 198.19.0.1 sends, 198.19.0.2 receives. */
#define DEMO_TX_ADDR 0xc6130001u
#define DEMO_RX_ADDR 0xc6130002u
#define DEMO_PREFIX_LEN 24

/* 60 bytes: the shortest Ethernet frame (without its FCS). */
#define DEMO_FRAME_LEN 60

extern const uint8_t demo_tx_mac[6];	/* 02:eb:0f:00:00:01 */
extern const uint8_t demo_rx_mac[6];	/* 02:eb:0f:00:00:02 */

/* Source address (host order) of the demo's packet number @seq. */
uint32_t demo_source_addr(uint64_t seq);

/*
 * Write into @buf (DEMO_FRAME_LEN bytes) the frame from @saddr (host
 * order) to DEMO_RX_ADDR, UDP source port @sport, with valid IPv4
 * checksum. @magic false leaves the magic out (a packet the classifier
 * counts but passes).
 */
void demo_frame_build(uint8_t buf[DEMO_FRAME_LEN], uint32_t saddr,
		      uint16_t sport, int magic);

#endif
