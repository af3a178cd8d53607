// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "export/listen_addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static int parse_port(const char *s, uint16_t *port)
{
	unsigned long v;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

int listen_addr_parse(const char *s, struct listen_addr *a, char *err,
		      size_t errlen)
{
	const char *colon, *port;
	char host[64];
	size_t hlen;
	unsigned char bin[16];

	memset(a, 0, sizeof(*a));
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':') {
			snprintf(err, errlen,
				 "--listen: '%s' is not [ADDR]:PORT (an IPv6 address in brackets, then a colon and the port)",
				 s);
			return -EINVAL;
		}
		hlen = (size_t)(close - s - 1);
		if (hlen >= sizeof(host))
			hlen = sizeof(host) - 1;
		memcpy(host, s + 1, hlen);
		host[hlen] = '\0';
		port = close + 2;
		a->family = AF_INET6;
	} else if ((colon = strrchr(s, ':'))) {
		if (strchr(s, ':') != colon) {
			snprintf(err, errlen,
				 "--listen: '%s': write an IPv6 address in brackets, as [::1]:9100",
				 s);
			return -EINVAL;
		}
		hlen = (size_t)(colon - s);
		if (hlen >= sizeof(host))
			hlen = sizeof(host) - 1;
		memcpy(host, s, hlen);
		host[hlen] = '\0';
		port = colon + 1;
		a->family = AF_INET;
		if (!strcmp(host, "localhost"))
			snprintf(host, sizeof(host), "%s", LISTEN_DEFAULT_ADDR);
	} else {
		snprintf(host, sizeof(host), "%s", LISTEN_DEFAULT_ADDR);
		port = s;
		a->family = AF_INET;
	}
	if (parse_port(port, &a->port)) {
		snprintf(err, errlen,
			 "--listen: '%s' is not a port from 1 to 65535 (use [ADDR:]PORT)",
			 port);
		return -EINVAL;
	}
	if (inet_pton(a->family, host, bin) != 1) {
		snprintf(err, errlen,
			 "--listen: '%s' is not a numeric %s address",
			 host, a->family == AF_INET6 ? "IPv6" : "IPv4");
		return -EINVAL;
	}
	/* The canonical spelling, for messages. */
	inet_ntop(a->family, bin, a->host, sizeof(a->host));
	return 0;
}
