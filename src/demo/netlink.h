/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_DEMO_NETLINK_H
#define EBPFTOP_DEMO_NETLINK_H

#include <stdint.h>

/*
 * Just enough rtnetlink for the demo, with libc only: a veth pair, links
 * up, IPv4 addresses. Everything acts in the network namespace of the
 * thread that opened the socket. All return 0 or a negative errno.
 */

/* A NETLINK_ROUTE socket (close it with close()), or -errno. */
int nl_open(void);
/* Create veth @name with peer @peer, and their MAC addresses. */
int nl_veth_add(int fd, const char *name, const uint8_t mac[6],
		const char *peer, const uint8_t peer_mac[6]);
/* Set link @ifindex up. */
int nl_link_up(int fd, int ifindex);
/* Add @addr/@prefix (host order) to link @ifindex. */
int nl_addr_add(int fd, int ifindex, uint32_t addr, int prefix);

#endif
