// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "demo/netlink.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

/* One request: header, payload and attributes, built in place. */
struct nl_req {
	struct nlmsghdr *h;
	char buf[1024];
	bool overflow;
};

static void *req_init(struct nl_req *r, uint16_t type, uint16_t flags,
		      size_t payload)
{
	memset(r, 0, sizeof(*r));
	r->h = (struct nlmsghdr *)r->buf;
	r->h->nlmsg_len = NLMSG_LENGTH(payload);
	r->h->nlmsg_type = type;
	r->h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	return NLMSG_DATA(r->h);
}

static struct rtattr *attr_put(struct nl_req *r, uint16_t type,
			       const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(r->h->nlmsg_len);
	struct rtattr *a = (struct rtattr *)(r->buf + off);

	if (off + RTA_SPACE(len) > sizeof(r->buf)) {
		r->overflow = true;
		/* Keep writing somewhere harmless; the request is not sent. */
		return (struct rtattr *)r->buf;
	}
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h->nlmsg_len = (uint32_t)(off + RTA_SPACE(len));
	return a;
}

/* Append @len raw bytes (a header inside an attribute), aligned. */
static void raw_put(struct nl_req *r, const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(r->h->nlmsg_len);

	if (off + NLMSG_ALIGN(len) > sizeof(r->buf)) {
		r->overflow = true;
		return;
	}
	memcpy(r->buf + off, data, len);
	r->h->nlmsg_len = (uint32_t)(off + NLMSG_ALIGN(len));
}

/* Open a nested attribute; nest_end() sets its length. */
static struct rtattr *nest_begin(struct nl_req *r, uint16_t type)
{
	return attr_put(r, type, NULL, 0);
}

static void nest_end(struct nl_req *r, struct rtattr *a)
{
	if (!r->overflow)
		a->rta_len = (unsigned short)(r->buf + r->h->nlmsg_len -
					      (char *)a);
}

/* Send @r and wait for its acknowledgement. */
static int req_send(int fd, struct nl_req *r)
{
	static uint32_t seq;	/* unique per request, any thread */
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	char reply[4096] __attribute__((aligned(4)));

	if (r->overflow)
		return -EMSGSIZE;
	r->h->nlmsg_seq = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	if (sendto(fd, r->buf, r->h->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		ssize_t got = recv(fd, reply, sizeof(reply), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)reply;
		int n;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		n = (int)got;
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			if (h->nlmsg_seq != r->h->nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return e->error;	/* 0 is the ack */
		}
	}
}

int nl_open(void)
{
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&local, sizeof(local))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int nl_veth_add(int fd, const char *name, const uint8_t mac[6],
		const char *peer, const uint8_t peer_mac[6])
{
	struct rtattr *linkinfo, *data, *peerinfo;
	struct ifinfomsg *ifi, pifi = { .ifi_family = AF_UNSPEC };
	struct nl_req r;

	ifi = req_init(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
		       sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	attr_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	attr_put(&r, IFLA_ADDRESS, mac, 6);
	linkinfo = nest_begin(&r, IFLA_LINKINFO);
	attr_put(&r, IFLA_INFO_KIND, "veth", strlen("veth"));
	data = nest_begin(&r, IFLA_INFO_DATA);
	/* VETH_INFO_PEER holds an ifinfomsg, then the peer's attributes. */
	peerinfo = nest_begin(&r, VETH_INFO_PEER);
	raw_put(&r, &pifi, sizeof(pifi));
	attr_put(&r, IFLA_IFNAME, peer, strlen(peer) + 1);
	attr_put(&r, IFLA_ADDRESS, peer_mac, 6);
	nest_end(&r, peerinfo);
	nest_end(&r, data);
	nest_end(&r, linkinfo);
	return req_send(fd, &r);
}

int nl_link_up(int fd, int ifindex)
{
	struct ifinfomsg *ifi;
	struct nl_req r;

	ifi = req_init(&r, RTM_NEWLINK, 0, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return req_send(fd, &r);
}

int nl_addr_add(int fd, int ifindex, uint32_t addr, int prefix)
{
	uint32_t be = htonl(addr);
	struct ifaddrmsg *ifa;
	struct nl_req r;

	ifa = req_init(&r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL,
		       sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = (unsigned char)prefix;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (unsigned int)ifindex;
	attr_put(&r, IFA_LOCAL, &be, sizeof(be));
	attr_put(&r, IFA_ADDRESS, &be, sizeof(be));
	return req_send(fd, &r);
}
