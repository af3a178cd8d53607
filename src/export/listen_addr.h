/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_EXPORT_LISTEN_ADDR_H
#define EBPFTOP_EXPORT_LISTEN_ADDR_H

#include <stddef.h>
#include <stdint.h>

#define LISTEN_DEFAULT_ADDR "127.0.0.1"

/* Where --listen serves: a numeric address and a port. */
struct listen_addr {
	int family;		/* AF_INET or AF_INET6 */
	char host[48];		/* numeric, without brackets */
	uint16_t port;
};

/*
 * Parse --listen's [ADDR:]PORT: "9100", "0.0.0.0:9100", "[::1]:9100",
 * "localhost:9100" (127.0.0.1). The address defaults to 127.0.0.1; the
 * port is 1 to 65535. Returns 0, or -EINVAL with a one-line message.
 */
int listen_addr_parse(const char *s, struct listen_addr *a, char *err,
		      size_t errlen);

#endif
