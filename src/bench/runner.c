// SPDX-License-Identifier: GPL-2.0-only
/* --bench: load the object and time its packet programs round by round beside a floor. */
#include "config.h"

#include "bench/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <net/if.h>
#include <sched.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench/object.h"
#include "demo/netlink.h"
#include "profiler/nullprog.h"
#include "util/clock.h"
#include "util/msg.h"

/* ---- libbpf's messages, kept for the verifier log -------------------------- */

#define LOG_MAX (64 * 1024)
static char *log_buf;
static size_t log_len;

static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap) __attribute__((format(printf, 2, 0)));

static int capture_print(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG || !log_buf)
		return 0;
	if (log_len > LOG_MAX / 2) {
		/* Keep the newest half: the verifier's last lines matter. */
		memmove(log_buf, log_buf + log_len - LOG_MAX / 4, LOG_MAX / 4);
		log_len = LOG_MAX / 4;
	}
	n = vsnprintf(log_buf + log_len, LOG_MAX - log_len, fmt, ap);
	if (n > 0)
		log_len += (size_t)n < LOG_MAX - log_len ? (size_t)n :
							  LOG_MAX - log_len - 1;
	return 0;
}

/* The last @max lines of the verifier log in the capture, into @out. */
static void verifier_tail(char *out, size_t len, int max)
{
	const char *begin, *end, *p;
	int lines = 0;

	out[0] = '\0';
	if (!log_buf)
		return;
	log_buf[log_len] = '\0';
	begin = strstr(log_buf, "-- BEGIN PROG LOAD LOG --");
	if (!begin)
		return;
	begin = strchr(begin, '\n');
	end = begin ? strstr(begin, "-- END PROG LOAD LOG --") : NULL;
	if (!begin || !end)
		return;
	/* Walk back over @max non-empty lines. */
	p = end;
	while (p > begin + 1 && lines <= max) {
		p--;
		if (*p == '\n' && p + 1 < end && p[1] != '\n')
			lines++;
	}
	if (*p == '\n')
		p++;
	snprintf(out, len, "%.*s", (int)(end - p), p);
	/* No trailing newline: the caller adds one. */
	len = strlen(out);
	while (len && out[len - 1] == '\n')
		out[--len] = '\0';
}

/* libbpf's last non-empty message line, into @out. */
static void last_message(char *out, size_t len)
{
	const char *p, *e;

	out[0] = '\0';
	if (!log_buf || !log_len)
		return;
	log_buf[log_len] = '\0';
	e = log_buf + log_len;
	while (e > log_buf && e[-1] == '\n')
		e--;
	p = e;
	while (p > log_buf && p[-1] != '\n')
		p--;
	snprintf(out, len, "%.*s", (int)(e - p), p);
}

/* ---- running ------------------------------------------------------------- */

static uint64_t run_cnt(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.run_cnt;
}

/*
 * One pass: every packet @repeat times. Gives the mean of the kernel's
 * per-run durations (each packet weighs the same) and the wall time.
 * @codes, when not NULL, gets each packet's return code.
 */
static int pass(int fd, const struct bench_input *in, uint32_t repeat,
		double *ns, uint64_t *wall_ns, int64_t *codes, size_t *bad_pkt)
{
	uint64_t t0 = mono_now_ns();
	double sum = 0;

	for (size_t i = 0; i < in->n; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in->pkts[i].data,
			    .data_size_in = in->pkts[i].len, .repeat = repeat);

		if (bpf_prog_test_run_opts(fd, &o)) {
			*bad_pkt = i;
			return -errno;
		}
		sum += o.duration;
		if (codes)
			codes[i] = (int32_t)o.retval;
	}
	*ns = sum / (double)in->n;
	*wall_ns = mono_now_ns() - t0;
	return 0;
}

/*
 * The repeat count that makes a pass last about @target_ns: the cost of a
 * call from the wall clock of one run per packet (the better of two, as a
 * preempted pass would say calls are dear), the cost of a run from the
 * kernel's own figure over a few runs per packet.
 */
static int size_round(int fd, const struct bench_input *in, uint64_t target_ns,
		      uint32_t *repeat, size_t *bad_pkt)
{
	uint64_t wall, best = UINT64_MAX;
	double ns, call_ns, per_pkt, want;
	int ret;

	for (int i = 0; i < 2; i++) {
		ret = pass(fd, in, 1, &ns, &wall, NULL, bad_pkt);
		if (ret)
			return ret;
		if (wall < best)
			best = wall;
	}
	ret = pass(fd, in, 16, &ns, &wall, NULL, bad_pkt);
	if (ret)
		return ret;
	call_ns = (double)best / (double)in->n;
	per_pkt = (double)target_ns / (double)in->n;
	if (ns < 1)
		ns = 1;	/* the kernel's figure is whole nanoseconds */
	want = per_pkt > call_ns ? (per_pkt - call_ns) / ns : 1;
	*repeat = want < 1 ? 1 : want > 1e8 ? 100000000u : (uint32_t)want;
	return 0;
}

/*
 * BPF_PROG_TEST_RUN of an XDP program with repeat > 1 adds the program to
 * the kernel's XDP dispatcher and takes it out again, two RCU grace periods
 * per call (milliseconds). A program already in the dispatcher skips that:
 * so XDP programs are attached, while measured, to a veth pair in a network
 * namespace of ebpftop's own, where no packet ever arrives.
 */
static int xdp_ifindex[2];	/* 0: not set up (or not possible) */
static bool xdp_tried;

static void xdp_slots_setup(void)
{
	static const uint8_t mac0[6] = { 0x02, 0xeb, 0x0f, 0xbe, 0x00, 0x01 };
	static const uint8_t mac1[6] = { 0x02, 0xeb, 0x0f, 0xbe, 0x00, 0x02 };
	int fd;

	if (xdp_tried)
		return;
	xdp_tried = true;
	/* --bench is all this process does: the namespace dies with it. */
	if (unshare(CLONE_NEWNET))
		return;
	fd = nl_open();
	if (fd < 0)
		return;
	if (!nl_veth_add(fd, "ebpftop-b0", mac0, "ebpftop-b1", mac1)) {
		xdp_ifindex[0] = (int)if_nametoindex("ebpftop-b0");
		xdp_ifindex[1] = (int)if_nametoindex("ebpftop-b1");
		if (!xdp_ifindex[0] || !xdp_ifindex[1])
			xdp_ifindex[0] = xdp_ifindex[1] = 0;
	}
	close(fd);
}

/* Put XDP program @fd in the dispatcher by attaching it to slot @slot. */
static bool xdp_hold(int fd, int slot)
{
	if (!xdp_ifindex[slot])
		return false;
	return !bpf_xdp_attach(xdp_ifindex[slot], fd, XDP_FLAGS_SKB_MODE, NULL);
}

static void xdp_release(int slot)
{
	bpf_xdp_detach(xdp_ifindex[slot], XDP_FLAGS_SKB_MODE, NULL);
}

/* A timed pass, and whether stats were on for all of it, none or part. */
static int measure(int fd, const struct bench_input *in, uint32_t repeat,
		   double *ns, int64_t *codes, enum bench_stats *st,
		   size_t *bad_pkt)
{
	uint64_t before = run_cnt(fd), wall, moved;
	int ret = pass(fd, in, repeat, ns, &wall, codes, bad_pkt);

	/* The kernel counts runs only while stats are on. */
	moved = run_cnt(fd) - before;
	*st = !moved ? BENCH_STATS_OFF :
	      moved == (uint64_t)repeat * in->n ? BENCH_STATS_ON :
						  BENCH_STATS_MIXED;
	return ret;
}

static int run_error(char *err, size_t errlen, int ret, const char *name,
		     const struct bench_input *in, size_t pkt)
{
	return msg_fail(err, errlen, ret == -EINVAL ? -EINVAL : ret,
			"--bench: BPF_PROG_TEST_RUN refused %s on packet %zu (%u bytes): %s",
			name, pkt + 1, in->pkts[pkt].len, strerror(-ret));
}

static int bench_prog(struct bpf_program *prog, const struct bench_config *c,
		      struct bench_prog *p, struct bench_notes *notes,
		      char *err, size_t errlen)
{
	const struct bench_input *in = c->in;
	int fd = bpf_program__fd(prog), floor_fd;
	uint64_t target = (uint64_t)c->round_ms * 1000000u, wall;
	uint32_t repeat, floor_repeat;
	int64_t *first = NULL, *codes = NULL;
	bool held = false, floor_held = false;
	size_t bad = 0;
	double ns;
	int ret;

	floor_fd = nullprog_load(bpf_program__type(prog), "ebpftop_floor");
	if (bpf_program__type(prog) == BPF_PROG_TYPE_XDP) {
		xdp_slots_setup();
		held = xdp_hold(fd, 0);
		floor_held = floor_fd >= 0 && xdp_hold(floor_fd, 1);
		if (!held || (floor_fd >= 0 && !floor_held))
			notes->xdp_slow = true;
	}
	first = calloc(in->n, sizeof(*first));
	codes = calloc(in->n, sizeof(*codes));
	if (!first || !codes) {
		ret = msg_fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	/* One run of every packet: the return codes, and a warm-up. */
	ret = pass(fd, in, 1, &ns, &wall, first, &bad);
	if (ret) {
		ret = run_error(err, errlen, ret, p->name, in, bad);
		goto out;
	}
	for (size_t i = 0; i < in->n; i++)
		bench_prog_count_retval(p, first[i]);
	p->packets = in->n;
	ret = size_round(fd, in, target, &repeat, &bad);
	if (!ret && floor_fd >= 0)
		ret = size_round(floor_fd, in, target, &floor_repeat, &bad);
	if (ret) {
		ret = run_error(err, errlen, ret, p->name, in, bad);
		goto out;
	}
	if (repeat == 1 && wall > target)
		notes->long_rounds = true;
	/* Program and floor take turns, so that drift hits both alike. */
	/*
	 * A round during which run-time stats were turned on or off (someone
	 * started or stopped a monitor) mixes two costs: it is measured
	 * again, up to twice as many extra times as there are rounds.
	 */
	for (unsigned int tries = 1; p->nr_rounds < c->rounds; tries++) {
		enum bench_stats st, fst = BENCH_STATS_OFF;
		double floor_ns = 0;
		bool clean;

		ret = measure(fd, in, repeat, &ns, codes, &st, &bad);
		if (ret) {
			ret = run_error(err, errlen, ret, p->name, in, bad);
			goto out;
		}
		if (memcmp(codes, first, in->n * sizeof(*codes)))
			p->retvals_vary = true;
		if (floor_fd >= 0) {
			ret = measure(floor_fd, in, floor_repeat, &floor_ns, NULL,
				      &fst, &bad);
			if (ret) {
				ret = run_error(err, errlen, ret, "the empty program",
						in, bad);
				goto out;
			}
		}
		clean = st != BENCH_STATS_MIXED && (floor_fd < 0 || fst == st);
		if (!clean && tries < 3 * c->rounds) {
			notes->rounds_redone++;
			continue;
		}
		if (!clean)
			st = BENCH_STATS_MIXED;
		if (bench_prog_add_round(p, ns, (double)repeat * (double)in->n, st) ||
		    (floor_fd >= 0 && bench_prog_add_floor(p, floor_ns))) {
			ret = msg_fail(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
	}
	notes->stats_on |= p->stats_on;
	p->ran = true;
out:
	if (held)
		xdp_release(0);
	if (floor_held)
		xdp_release(1);
	if (floor_fd >= 0)
		close(floor_fd);
	free(first);
	free(codes);
	return ret;
}

int bench_run(const struct bench_config *c, struct bench_result *r,
	      struct bench_notes *notes, char *err, size_t errlen)
{
	libbpf_print_fn_t old;
	struct bpf_object *obj = NULL;
	struct bpf_program *prog;
	char msg[512];
	int ret;

	memset(notes, 0, sizeof(*notes));
	ret = bench_check_elf(c->path, err, errlen);
	if (ret)
		return ret;
	log_buf = malloc(LOG_MAX + 1);
	log_len = 0;
	if (!log_buf)
		return msg_fail(err, errlen, -ENOMEM, "out of memory");
	/* libbpf's print type carries no format attribute; ours does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsuggest-attribute=format"
	old = libbpf_set_print(capture_print);
#pragma GCC diagnostic pop
	obj = bpf_object__open_file(c->path, NULL);
	if (!obj) {
		ret = -errno;
		last_message(msg, sizeof(msg));
		ret = msg_fail(err, errlen, -EINVAL, "--bench: libbpf cannot open '%s': %s",
			       c->path, *msg ? msg : strerror(-ret));
		obj = NULL;
		goto out;
	}
	ret = bench_object_prepare(obj, c, r, err, errlen);
	if (ret)
		goto out;
	ret = bpf_object__load(obj);
	if (ret) {
		char tail[2048];

		verifier_tail(tail, sizeof(tail), 8);
		if (!*tail)
			last_message(tail, sizeof(tail));
		ret = msg_fail(err, errlen, ret == -EINVAL ? -EIO : ret,
			       "--bench: '%s' does not load: %s%s%s%s", c->path,
			       strerror(-ret),
			       ret == -EPERM ? " (run as root or grant CAP_BPF, CAP_NET_ADMIN and CAP_PERFMON)" : "",
			       *tail ? "\n" : "", tail);
		goto out;
	}
	{
		/* The programs were appended in object order, after any earlier ones. */
		size_t base = r->nr_progs;
		size_t k = 0;

		bpf_object__for_each_program(prog, obj)
			k++;
		base -= k;
		k = 0;
		bpf_object__for_each_program(prog, obj) {
			struct bench_prog *p = &r->progs[base + k++];

			if (!bpf_program__autoload(prog))
				continue;
			ret = bench_prog(prog, c, p, notes, err, errlen);
			if (ret)
				goto out;
		}
	}
out:
	libbpf_set_print(old);
	bpf_object__close(obj);
	free(log_buf);
	log_buf = NULL;
	return ret;
}
