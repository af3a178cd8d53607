// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "bench/runner.h"

#include <elf.h>
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
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "demo/netlink.h"
#include "profiler/nullprog.h"
#include "util/clock.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

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

/* ---- the object ---------------------------------------------------------- */

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

void bench_object_label(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 6 && !strcmp(base + n - 6, ".bpf.o"))
		n -= 6;
	else if (n > 2 && !strcmp(base + n - 2, ".o"))
		n -= 2;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* A readable ELF file for the BPF machine, or -EINVAL with the reason. */
static int check_elf(const char *path, char *err, size_t errlen)
{
	unsigned char h[EI_NIDENT + 4];
	ssize_t n;
	int fd, machine;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, -EINVAL, "--bench: cannot open '%s': %s",
			    path, strerror(errno));
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return fail(err, errlen, -EINVAL,
			    "--bench: '%s' is not a BPF object (not an ELF file)",
			    path);
	machine = h[EI_DATA] == ELFDATA2MSB ? h[18] << 8 | h[19] :
					     h[19] << 8 | h[18];
	if (machine != EM_BPF)
		return fail(err, errlen, -EINVAL,
			    "--bench: '%s' is not a BPF object (ELF for machine %d, not BPF)",
			    path, machine);
	return 0;
}

/* Types BPF_PROG_TEST_RUN runs on a packet. */
static bool takes_packet(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

static const char *why_not(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_SK_LOOKUP:
	case BPF_PROG_TYPE_STRUCT_OPS:
		return "BPF_PROG_TEST_RUN runs it on a context, not a packet";
	case BPF_PROG_TYPE_TRACING:
		return "fentry/fexit and other tracing programs need a target, not a packet";
	default:
		return "BPF_PROG_TEST_RUN cannot run this type";
	}
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, name, n))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Every name of the list is a program of @obj. */
static int check_names(struct bpf_object *obj, const char *path,
		       const char *list, char *err, size_t errlen)
{
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		struct bpf_program *prog;
		bool found = false;
		char names[200] = "";
		size_t o = 0;

		bpf_object__for_each_program(prog, obj) {
			const char *n = bpf_program__name(prog);

			if (strlen(n) == l && !strncmp(n, p, l))
				found = true;
			if (o < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o,
						      "%s%s", o ? ", " : "", n);
		}
		if (!found)
			return fail(err, errlen, -EINVAL,
				    "--bench-prog: no program '%.*s' in '%s' (it has: %s)",
				    (int)l, p, path, *names ? names : "none");
		bpf_object__for_each_program(prog, obj) {
			const char *n = bpf_program__name(prog);
			enum bpf_prog_type t = bpf_program__type(prog);

			if (strlen(n) == l && !strncmp(n, p, l) && !takes_packet(t))
				return fail(err, errlen, -EINVAL,
					    "--bench-prog: '%s' is a %s program: %s",
					    n, libbpf_bpf_prog_type_str(t) ?: "?",
					    why_not(t));
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

/* ---- --bench-set: globals --------------------------------------------------- */

/* The map holding datasec @sec ("<obj prefix>.bss" for ".bss"), or NULL. */
static struct bpf_map *datasec_map(struct bpf_object *obj, const char *sec)
{
	struct bpf_map *map, *prefix = NULL;

	bpf_object__for_each_map(map, obj) {
		const char *dot = strchr(bpf_map__name(map), '.');

		if (!bpf_map__is_internal(map) || !dot)
			continue;
		if (!strcmp(dot, sec))
			return map;
		/* Long section names are cut to fit 15 characters. */
		if (!strncmp(sec, dot, strlen(dot)) && !prefix)
			prefix = map;
	}
	return prefix;
}

static int set_global(struct bpf_object *obj, const char *path,
		      const char *assign, char *err, size_t errlen)
{
	const char *eq = strchr(assign, '=');
	const struct btf *btf = bpf_object__btf(obj);
	size_t nlen = eq ? (size_t)(eq - assign) : 0;
	const char *value = eq ? eq + 1 : "";
	unsigned int nr = btf ? btf__type_cnt(btf) : 0;
	char name[128];

	snprintf(name, sizeof(name), "%.*s", (int)nlen, assign);
	for (unsigned int id = 1; id < nr; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs;
		const struct btf_type *t;
		struct bpf_map *map;
		unsigned char *data;
		const void *init;
		size_t size;
		int64_t sv = 0;
		uint64_t uv = 0;
		bool is_signed;
		char *end;
		int ret;

		if (!btf_is_datasec(sec))
			continue;
		vs = btf_var_secinfos(sec);
		for (unsigned int i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);

			if (btf_is_var(var) &&
			    !strcmp(btf__name_by_offset(btf, var->name_off), name))
				break;
		}
		if (vs == btf_var_secinfos(sec) + btf_vlen(sec))
			continue;
		map = datasec_map(obj, btf__name_by_offset(btf, sec->name_off));
		if (!map)
			return fail(err, errlen, -EINVAL,
				    "--bench-set: '%s' is in section %s, which has no map",
				    name, btf__name_by_offset(btf, sec->name_off));
		t = btf__type_by_id(btf, btf__type_by_id(btf, vs->type)->type);
		while (t && (btf_is_mod(t) || btf_is_typedef(t)))
			t = btf__type_by_id(btf, t->type);
		if (!t || !(btf_is_int(t) || btf_is_enum(t)) ||
		    (btf_is_int(t) && btf_int_offset(t)))
			return fail(err, errlen, -EINVAL,
				    "--bench-set: '%s' is not an integer", name);
		is_signed = btf_is_int(t) ? btf_int_encoding(t) & BTF_INT_SIGNED :
					    btf_kflag(t);
		size = vs->size;
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return fail(err, errlen, -EINVAL,
				    "--bench-set: '%s' is a %zu-byte integer (1, 2, 4 or 8 supported)",
				    name, size);
		errno = 0;
		if (*value == '-') {
			sv = strtoll(value, &end, 0);
			uv = (uint64_t)sv;
		} else {
			uv = strtoull(value, &end, 0);
			sv = (int64_t)uv;
		}
		if (!*value || *end || errno)
			return fail(err, errlen, -EINVAL,
				    "--bench-set: '%s' is not a whole number (for '%s')",
				    value, name);
		if (is_signed ? (*value == '-' ?
					 size < 8 && sv < -(INT64_C(1) << (size * 8 - 1)) :
					 (size < 8 ? uv >= UINT64_C(1) << (size * 8 - 1) :
						     uv > INT64_MAX)) :
				(*value == '-' ||
				 (size < 8 && uv >> (size * 8))))
			return fail(err, errlen, -EINVAL,
				    "--bench-set: %s does not fit '%s' (%s %zu-byte integer)",
				    value, name, is_signed ? "signed" : "unsigned",
				    size);
		init = bpf_map__initial_value(map, &size);
		if (!init || vs->offset + vs->size > size)
			return fail(err, errlen, -EINVAL,
				    "--bench-set: cannot set '%s' in %s", name,
				    bpf_map__name(map));
		data = malloc(size);
		if (!data)
			return -ENOMEM;
		memcpy(data, init, size);
		/* Host byte order: the object was built for this machine. */
		switch (vs->size) {
		case 1: { uint8_t v = (uint8_t)uv; memcpy(data + vs->offset, &v, 1); break; }
		case 2: { uint16_t v = (uint16_t)uv; memcpy(data + vs->offset, &v, 2); break; }
		case 4: { uint32_t v = (uint32_t)uv; memcpy(data + vs->offset, &v, 4); break; }
		default: memcpy(data + vs->offset, &uv, 8); break;
		}
		ret = bpf_map__set_initial_value(map, data, size);
		free(data);
		if (ret)
			return fail(err, errlen, -EINVAL,
				    "--bench-set: cannot set '%s' in %s: %s", name,
				    bpf_map__name(map), strerror(-ret));
		return 0;
	}
	return fail(err, errlen, -EINVAL,
		    "--bench-set: no global variable '%s' in '%s'%s", name, path,
		    btf ? "" : " (it has no BTF)");
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
	return fail(err, errlen, ret == -EINVAL ? -EINVAL : ret,
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
		ret = fail(err, errlen, -ENOMEM, "out of memory");
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
			ret = fail(err, errlen, -ENOMEM, "out of memory");
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
	size_t runnable = 0;
	char msg[512];
	int ret;

	memset(notes, 0, sizeof(*notes));
	ret = check_elf(c->path, err, errlen);
	if (ret)
		return ret;
	log_buf = malloc(LOG_MAX + 1);
	log_len = 0;
	if (!log_buf)
		return fail(err, errlen, -ENOMEM, "out of memory");
	/* libbpf's print type carries no format attribute; ours does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsuggest-attribute=format"
	old = libbpf_set_print(capture_print);
#pragma GCC diagnostic pop
	obj = bpf_object__open_file(c->path, NULL);
	if (!obj) {
		ret = -errno;
		last_message(msg, sizeof(msg));
		ret = fail(err, errlen, -EINVAL, "--bench: libbpf cannot open '%s': %s",
			   c->path, *msg ? msg : strerror(-ret));
		obj = NULL;
		goto out;
	}
	if (c->progs) {
		ret = check_names(obj, c->path, c->progs, err, errlen);
		if (ret)
			goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		enum bpf_prog_type t = bpf_program__type(prog);
		bool want = takes_packet(t) &&
			    (!c->progs || in_list(c->progs, bpf_program__name(prog)));
		struct bench_prog *p;

		bpf_program__set_autoload(prog, want);
		p = bench_result_add(r, bpf_program__name(prog),
				     libbpf_bpf_prog_type_str(t) ?: "unknown");
		if (!p) {
			ret = fail(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
		if (!takes_packet(t))
			snprintf(p->reason, sizeof(p->reason), "%s", why_not(t));
		else if (!want)
			snprintf(p->reason, sizeof(p->reason), "not named by --bench-prog");
		runnable += want;
	}
	if (!runnable) {
		ret = fail(err, errlen, -EINVAL,
			   "--bench: no program in '%s' can be run with a packet (xdp, sched_cls, socket_filter, cgroup_skb, lwt_*, flow_dissector)",
			   c->path);
		goto out;
	}
	for (size_t i = 0; i < c->nr_sets; i++) {
		ret = set_global(obj, c->path, c->sets[i], err, errlen);
		if (ret)
			goto out;
	}
	ret = bpf_object__load(obj);
	if (ret) {
		char tail[2048];

		verifier_tail(tail, sizeof(tail), 8);
		if (!*tail)
			last_message(tail, sizeof(tail));
		ret = fail(err, errlen, ret == -EINVAL ? -EIO : ret,
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
