// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "demo/demo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/xdp_classifier.h"
#include "demo/netlink.h"
#include "demo/packet.h"
#include "util/bpf_prog.h"
#include "util/clock.h"
#include "util/msg.h"
#include "util/quiet.h"
#include "xdp_classifier.skel.h"

_Static_assert(DEMO_FIZZBUZZ == XDPC_FIZZBUZZ && DEMO_FIZZ == XDPC_FIZZ &&
		       DEMO_BUZZ == XDPC_BUZZ &&
		       DEMO_FIBONACCI == XDPC_FIBONACCI &&
		       DEMO_OTHER == XDPC_OTHER && DEMO__CLASSES == XDPC__CLASSES,
	       "demo.h and xdp_classifier.h disagree on the classes");

/* The pair lives in a namespace of its own: these names never clash. */
#define DEMO_TX_IF "ebpftop-demo-tx"
#define DEMO_RX_IF "ebpftop-demo-rx"

#define TICK_NS 1000000ull	/* at most one wake-up per ms */
#define MAX_SLEEP_NS 100000000ull /* notice a stop within 100 ms */
#define BATCH 64		/* packets per sendmmsg() */

struct demo {
	struct demo_params p;
	struct xdp_classifier_bpf *skel;
	uint32_t prog_id;
	int nr_cpus;
	uint64_t *values;		/* one per-CPU map value */
	uint64_t start_ns;
	bool auto_landed;		/* --demo-regress-after done */

	/* Written by the thread before it reports, read after. */
	int netns_fd;			/* the namespace: ours alone */
	int link_fd;			/* XDP link on the receiving end */
	int sock;			/* AF_PACKET, sending end */
	int tx_ifindex;

	pthread_t thread;
	bool thread_started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int setup;			/* 1 pending, 0 done, -errno failed */
	char msg[256];

	atomic_bool stop;
};

static const char *const class_names[DEMO__CLASSES] = {
	[DEMO_FIZZBUZZ] = "fizzbuzz", [DEMO_FIZZ] = "fizz",
	[DEMO_BUZZ] = "buzz", [DEMO_FIBONACCI] = "fibonacci",
	[DEMO_OTHER] = "other",
};

const char *demo_class_name(enum demo_class c)
{
	return (unsigned int)c < DEMO__CLASSES ? class_names[c] : "?";
}

/* Best effort: the file may not exist (no IPv6 in this kernel). */
static void write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, value, strlen(value)) < 0) {
		/* Nothing to do about it: the demo works either way. */
	}
	close(fd);
}

/*
 * In the demo thread: a namespace of its own (unshare affects this thread
 * only), the veth pair, addresses, the XDP link, the sending socket.
 */
static int setup_netns(struct demo *d)
{
	LIBBPF_OPTS(bpf_link_create_opts, xdp_opts,
		    .flags = XDP_FLAGS_DRV_MODE);
	int nl, rx, one = 1, err;

	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		if (err == -EPERM)
			return msg_fail(d->msg, sizeof(d->msg), err, "the demo needs CAP_SYS_ADMIN to create its network namespace: run as root");
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot create the demo's network namespace: %s",
				  strerror(-err));
	}
	d->netns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (d->netns_fd < 0) {
		err = -errno;
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot open the demo's network namespace: %s",
				  strerror(-err));
	}

	/*
	 * No IPv6 on the pair: its neighbour discovery and router
	 * solicitations would be runs of the classifier the demo did not
	 * send. /proc/sys/net is the opening thread's namespace.
	 */
	write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");

	nl = nl_open();
	if (nl < 0)
		return msg_fail(d->msg, sizeof(d->msg), nl, "cannot open rtnetlink for the demo: %s",
				  strerror(-nl));
	err = nl_veth_add(nl, DEMO_TX_IF, demo_tx_mac, DEMO_RX_IF, demo_rx_mac);
	if (err) {
		close(nl);
		if (err == -EPERM)
			return msg_fail(d->msg, sizeof(d->msg), err, "the demo needs CAP_NET_ADMIN to create its veth pair: run as root");
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot create the demo's veth pair: %s (the kernel needs CONFIG_VETH)",
				  strerror(-err));
	}
	d->tx_ifindex = (int)if_nametoindex(DEMO_TX_IF);
	rx = (int)if_nametoindex(DEMO_RX_IF);
	if (!d->tx_ifindex || !rx) {
		close(nl);
		return msg_fail(d->msg, sizeof(d->msg), -ENODEV, "the demo's veth pair vanished");
	}
	err = nl_addr_add(nl, d->tx_ifindex, DEMO_TX_ADDR, DEMO_PREFIX_LEN);
	if (!err)
		err = nl_addr_add(nl, rx, DEMO_RX_ADDR, DEMO_PREFIX_LEN);
	if (!err)
		err = nl_link_up(nl, rx);
	if (!err)
		err = nl_link_up(nl, d->tx_ifindex);
	close(nl);
	if (err)
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot set up the demo's veth pair: %s",
				  strerror(-err));

	/* A link, not a netlink attachment: it goes with our fd. */
	d->link_fd = bpf_link_create(bpf_program__fd(d->skel->progs.xdp_classifier),
				     rx, BPF_XDP, &xdp_opts);
	if (d->link_fd < 0) {
		err = -errno;
		if (err == -EPERM)
			return msg_fail(d->msg, sizeof(d->msg), err, "the demo needs CAP_NET_ADMIN and CAP_BPF to attach its XDP classifier: run as root");
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot attach the demo's classifier in native XDP mode to %s: %s",
				  DEMO_RX_IF, strerror(-err));
	}

	/* Protocol 0: this socket only sends, it receives nothing. */
	d->sock = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (d->sock < 0) {
		err = -errno;
		if (err == -EPERM)
			return msg_fail(d->msg, sizeof(d->msg), err, "the demo needs CAP_NET_RAW to send its traffic: run as root");
		return msg_fail(d->msg, sizeof(d->msg), err, "cannot open a packet socket for the demo's traffic: %s",
				  strerror(-err));
	}
	/* Straight to the driver: no qdisc, no taps. */
	setsockopt(d->sock, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	return 0;
}

/* Send about p.pps packets a second, in small batches, until told to stop. */
static void generate(struct demo *d)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_IP),
		.sll_ifindex = d->tx_ifindex,
		.sll_halen = 6,
	};
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	const double pps = d->p.pps;
	uint64_t start, done = 0, seq = 0, wake;
	uint8_t *frames;

	memcpy(to.sll_addr, demo_rx_mac, 6);
	frames = malloc((size_t)DEMO_SRC_SPAN * DEMO_FRAME_LEN);
	if (!frames)
		return;	/* no traffic: the table shows the classifier idle */
	for (uint32_t i = 0; i < DEMO_SRC_SPAN; i++)
		demo_frame_build(frames + (size_t)i * DEMO_FRAME_LEN,
				 demo_source_addr(i),
				 (uint16_t)(1024 + i), 1);
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = sizeof(to);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	start = wake = mono_now_ns();
	while (!atomic_load_explicit(&d->stop, memory_order_relaxed)) {
		uint64_t now = mono_now_ns(), due, next;

		due = (uint64_t)((double)(now - start) * pps / 1e9);
		/* More than 100 ms behind: drop the backlog, do not burst. */
		if (due > done + (uint64_t)(pps / 10) + BATCH)
			done = due - BATCH;
		while (done < due) {
			unsigned int n = due - done < BATCH ?
						 (unsigned int)(due - done) :
						 BATCH;
			int r;

			for (unsigned int i = 0; i < n; i++) {
				iov[i].iov_base = frames +
					(size_t)((seq + i) % DEMO_SRC_SPAN) *
						DEMO_FRAME_LEN;
				iov[i].iov_len = DEMO_FRAME_LEN;
			}
			/* A full queue (ENOBUFS) only costs packets. */
			r = sendmmsg(d->sock, msgs, n, 0);
			if (r < 0)
				r = 0;
			/* What could not go now is skipped, not resent. */
			seq += n;
			done += n;
			if ((unsigned int)r < n)
				break;
		}
		/* When the next packet is due, but at most once a ms. */
		next = start + (uint64_t)((double)(done + 1) * 1e9 / pps);
		wake += TICK_NS;
		if (next > wake)
			wake = next;
		if (wake < now)
			wake = now + TICK_NS / 4;
		if (wake > now + MAX_SLEEP_NS)
			wake = now + MAX_SLEEP_NS;
		mono_sleep_until(wake, NULL);
	}
	free(frames);
}

static void *demo_thread(void *arg)
{
	struct demo *d = arg;
	int err = setup_netns(d);

	pthread_mutex_lock(&d->lock);
	d->setup = err;
	pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
	if (!err)
		generate(d);
	return NULL;
}

static int load_classifier(struct demo *d, char *msg, size_t msglen)
{
	libbpf_print_fn_t old = libbpf_quiet();
	int err = 0;

	d->skel = xdp_classifier_bpf__open_and_load();
	if (!d->skel)
		err = -errno ? -errno : -EINVAL;
	libbpf_set_print(old);
	if (err == -EPERM || err == -EACCES)
		return msg_fail(msg, msglen, err,
				"not allowed to load the demo's XDP classifier: run as root, or grant CAP_BPF, CAP_NET_ADMIN and CAP_SYS_ADMIN");
	if (err)
		return msg_fail(msg, msglen, err,
				"cannot load the demo's XDP classifier: %s",
				strerror(-err));
	d->prog_id = prog_id_of_fd(bpf_program__fd(d->skel->progs.xdp_classifier));
	if (!d->prog_id)
		return msg_fail(msg, msglen, -ENOENT,
				"cannot read the demo classifier's id");
	return 0;
}

int demo__new(struct demo **out, const struct demo_params *p, char *msg,
		size_t msglen)
{
	sigset_t all, old;
	struct demo *d;
	int err;

	*out = NULL;
	if (!p->pps)
		return msg_fail(msg, msglen, -EINVAL,
				"the demo needs a packet rate above 0");
	d = calloc(1, sizeof(*d));
	if (!d)
		return msg_fail(msg, msglen, -ENOMEM, "out of memory");
	d->p = *p;
	d->netns_fd = d->link_fd = d->sock = -1;
	d->setup = 1;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);

	d->nr_cpus = libbpf_num_possible_cpus();
	if (d->nr_cpus <= 0) {
		err = d->nr_cpus ? d->nr_cpus : -EINVAL;
		snprintf(msg, msglen, "cannot count the possible CPUs: %s",
			 strerror(-err));
		goto fail;
	}
	d->values = calloc((size_t)d->nr_cpus, sizeof(*d->values));
	if (!d->values) {
		err = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto fail;
	}
	err = load_classifier(d, msg, msglen);
	if (err)
		goto fail;

	/* Signals are for the main thread: it is the one that must wake. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&d->thread, NULL, demo_thread, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		snprintf(msg, msglen, "cannot start the demo thread: %s",
			 strerror(-err));
		goto fail;
	}
	d->thread_started = true;
	pthread_mutex_lock(&d->lock);
	while (d->setup > 0)
		pthread_cond_wait(&d->cond, &d->lock);
	err = d->setup;
	pthread_mutex_unlock(&d->lock);
	if (err) {
		snprintf(msg, msglen, "%s", d->msg);
		goto fail;
	}
	d->start_ns = mono_now_ns();
	*out = d;
	return 0;
fail:
	demo__free(d);
	return err;
}

void demo__free(struct demo *d)
{
	if (!d)
		return;
	atomic_store(&d->stop, true);
	if (d->thread_started)
		pthread_join(d->thread, NULL);
	if (d->sock >= 0)
		close(d->sock);
	/* Detach first, then unload, then let the namespace go. */
	if (d->link_fd >= 0)
		close(d->link_fd);
	xdp_classifier_bpf__destroy(d->skel);
	if (d->netns_fd >= 0)
		close(d->netns_fd);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d->values);
	free(d);
}

int demo__set_regressed(struct demo *d, bool on)
{
	if (!d || !d->skel || !d->skel->bss)
		return -EINVAL;
	__atomic_store_n(&d->skel->bss->regressed, on ? 1u : 0u,
			 __ATOMIC_RELAXED);
	return 0;
}

bool demo__regressed(const struct demo *d)
{
	if (!d || !d->skel || !d->skel->bss)
		return false;
	return __atomic_load_n(&d->skel->bss->regressed, __ATOMIC_RELAXED);
}

void demo__tick(struct demo *d)
{
	if (!d || d->auto_landed || d->p.regress_after_s <= 0)
		return;
	if ((double)(mono_now_ns() - d->start_ns) >= d->p.regress_after_s * 1e9) {
		d->auto_landed = true;
		demo__set_regressed(d, true);
	}
}

uint32_t demo__prog_id(const struct demo *d)
{
	return d ? d->prog_id : 0;
}

int demo__counts(struct demo *d, uint64_t counts[DEMO__CLASSES])
{
	int fd;

	if (!d || !d->skel)
		return -EINVAL;
	fd = bpf_map__fd(d->skel->maps.xdpc_counts);
	for (__u32 k = 0; k < DEMO__CLASSES; k++) {
		counts[k] = 0;
		if (bpf_map_lookup_elem(fd, &k, d->values))
			return -errno;
		for (int c = 0; c < d->nr_cpus; c++)
			counts[k] += d->values[c];
	}
	return 0;
}
