// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "profiler/profiler.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/profiler.h"
#include "profiler.skel.h"
#include "profiler/nullprog.h"
#include "util/bpf_prog.h"
#include "util/msg.h"
#include "util/quiet.h"

_Static_assert(PROF_MAX_EVENTS == PROFILE_MAX_EVENTS,
	       "the BPF side and the report hold the same number of events");
_Static_assert(sizeof(struct prof_value) == sizeof(struct bpf_perf_event_value),
	       "prof_value mirrors bpf_perf_event_value");

/* Runs per calibration round, and rounds (the fastest counts). */
#define CALIB_RUNS 1000
#define CALIB_ROUNDS 3

struct profiler {
	struct profiler_bpf *skel;
	int *pfd;			/* [event * ncpu + cpu], -1: none */
	int ncpu;			/* possible CPUs */
	struct event_set ev;
	uint32_t id;
	enum bpf_prog_type type;
	char name[128];			/* the target's full name */
	double overhead_ns;		/* NAN when not calibrated */
	char overhead_note[128];
	double baseline[PROFILE_MAX_EVENTS];
};

/* ---- the target --------------------------------------------------------- */

/*
 * Open program @id and find its main function's name in its BTF (the
 * kernel's name is cut at 15 characters). Refuses targets fentry cannot
 * attach to.
 */
static int open_target(uint32_t id, int *fd_out, enum bpf_prog_type *type,
		       char *name, size_t name_len, char *msg, size_t len)
{
	struct bpf_prog_info info = {};
	struct bpf_func_info fi = {};
	__u32 info_len = sizeof(info);
	int fd, err;

	fd = prog_fd_by_id(id, msg, len);
	if (fd < 0)
		return fd;
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(fi);
	info.func_info = (__u64)(unsigned long)&fi;
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len)) {
		err = -errno;
		msg_fail(msg, len, err, "cannot read program %u: %s", id,
			 strerror(-err));
		goto err;
	}
	*type = info.type;
	if (info.type == BPF_PROG_TYPE_TRACING) {
		const char *tn = libbpf_bpf_prog_type_str(info.type);

		err = msg_fail(msg, len, -EOPNOTSUPP,
			       "program %u is a %s program (fentry, fexit, tp_btf or iterator): fentry/fexit cannot attach to it",
			       id, tn ? tn : "tracing");
		goto err;
	}
	if (!info.btf_id || !info.nr_func_info) {
		err = msg_fail(msg, len, -EINVAL,
			       "program %u has no BTF; fentry needs it: build it with -g",
			       id);
		goto err;
	}
	err = prog_btf_name(fd, &info, name, name_len);
	if (err == -ENOENT) {
		err = msg_fail(msg, len, -EINVAL,
			       "program %u has no function name in its BTF; fentry needs one",
			       id);
		goto err;
	}
	if (err) {
		msg_fail(msg, len, err, "cannot read the BTF of program %u: %s",
			 id, strerror(-err));
		goto err;
	}
	*fd_out = fd;
	return 0;
err:
	close(fd);
	return err;
}

/* ---- the fentry/fexit pair ------------------------------------------------ */

static int load_skel(struct profiler *p, int tgt_fd, char *msg, size_t len)
{
	libbpf_print_fn_t old = libbpf_capture();
	int err;

	p->skel = profiler_bpf__open();
	if (!p->skel) {
		err = -errno;
		msg_fail(msg, len, err, "cannot open the profiler's BPF object: %s",
		     strerror(-err));
		goto out;
	}
	p->skel->rodata->nr_events = (__u32)p->ev.n;
	p->skel->rodata->nr_cpus = (__u32)p->ncpu;
	err = bpf_map__set_max_entries(p->skel->maps.events,
				       (__u32)(p->ev.n * (size_t)p->ncpu));
	if (!err)
		err = bpf_program__set_attach_target(p->skel->progs.ebpftop_fentry,
						     tgt_fd, p->name);
	if (!err)
		err = bpf_program__set_attach_target(p->skel->progs.ebpftop_fexit,
						     tgt_fd, p->name);
	if (err) {
		msg_fail(msg, len, err, "cannot set up the profiler for program %u: %s",
		     p->id, *libbpf_captured() ? libbpf_captured() : strerror(-err));
		goto out;
	}
	err = profiler_bpf__load(p->skel);
	if (err) {
		err = err < 0 ? err : -errno;
		if (err == -EPERM || err == -EACCES)
			msg_fail(msg, len, err, "the kernel refused to load the profiler's fentry/fexit programs (%s): lockdown or an LSM policy may forbid BPF trampolines on this machine",
			     err == -EPERM ? "EPERM" : "EACCES");
		else
			msg_fail(msg, len, err, "the kernel refused the profiler's fentry/fexit programs for program %u: %s",
			     p->id, *libbpf_captured() ? libbpf_captured() : strerror(-err));
	}
out:
	libbpf_set_print(old);
	return err;
}

static long perf_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return syscall(__NR_perf_event_open, attr, -1, cpu, group_fd,
		       PERF_FLAG_FD_CLOEXEC);
}

static void event_error(const struct profiler *p, size_t e, int cpu, int err,
			char *msg, size_t len)
{
	const struct prof_event *ev = &p->ev.ev[e];

	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
		msg_fail(msg, len, err, "cannot open event '%s' on CPU %d (%s): no PMU counts it here (a VM without a hardware PMU?); use -e sw for software events",
		     ev->name, cpu, strerror(-err));
		break;
	case -EACCES:
	case -EPERM:
		msg_fail(msg, len, err, "not allowed to open perf events: run as root, or grant CAP_PERFMON");
		break;
	case -EMFILE:
	case -ENFILE:
		msg_fail(msg, len, err, "out of file descriptors opening %zu events on %d CPUs",
		     p->ev.n, p->ncpu);
		break;
	default:
		msg_fail(msg, len, err, "cannot open event '%s' (type %u, config 0x%llx) on CPU %d: %s",
		     ev->name, ev->attr.type,
		     (unsigned long long)ev->attr.config, cpu, strerror(-err));
		break;
	}
}

/*
 * Per CPU, the events as one group (so they are scheduled together),
 * counting the kernel on that CPU whoever runs; offline CPUs are skipped.
 */
static int open_events(struct profiler *p, char *msg, size_t len)
{
	int map_fd = bpf_map__fd(p->skel->maps.events), opened = 0;
	size_t n = p->ev.n * (size_t)p->ncpu;

	p->pfd = malloc(n * sizeof(*p->pfd));
	if (!p->pfd)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		p->pfd[i] = -1;
	for (int cpu = 0; cpu < p->ncpu; cpu++) {
		int leader = -1;

		for (size_t e = 0; e < p->ev.n; e++) {
			struct perf_event_attr attr = p->ev.ev[e].attr;
			__u32 key = (__u32)(e * (size_t)p->ncpu + (size_t)cpu);
			long fd;
			int err;

			attr.size = sizeof(attr);
			attr.disabled = 0;
			attr.inherit = 0;
			fd = perf_open(&attr, cpu, leader);
			if (fd < 0) {
				err = -errno;
				if (err == -ENODEV && e == 0)
					break;	/* offline CPU */
				if (err == -EINVAL && e > 0) {
					/* Alone it opens: the group is too big. */
					long alone = perf_open(&attr, cpu, -1);

					if (alone >= 0) {
						close((int)alone);
						return msg_fail(msg, len, -E2BIG,
								"too many events for this CPU's counters: the %zu events do not fit in one group; choose fewer events with -e",
								p->ev.n);
					}
				}
				event_error(p, e, cpu, err, msg, len);
				return err;
			}
			p->pfd[key] = (int)fd;
			if (leader < 0)
				leader = (int)fd;
			if (bpf_map_update_elem(map_fd, &key, &p->pfd[key], BPF_ANY)) {
				err = -errno;
				msg_fail(msg, len, err, "cannot hand event '%s' to the profiler: %s",
				     p->ev.ev[e].name, strerror(-err));
				return err;
			}
		}
		if (leader >= 0)
			opened++;
	}
	if (!opened)
		return msg_fail(msg, len, -ENODEV,
				"no CPU is online to count on");
	return 0;
}

static int attach_links(struct profiler *p, char *msg, size_t len)
{
	libbpf_print_fn_t old = libbpf_capture();
	struct bpf_link *l;
	int err = 0;

	/*
	 * fexit first: a run that starts between the two attachments then
	 * meets an fexit without its fentry (counted as unpaired), never an
	 * fentry without its fexit, which would leave the nesting depth
	 * raised for good. The links go where the skeleton's destroy finds
	 * them.
	 */
	l = bpf_program__attach(p->skel->progs.ebpftop_fexit);
	if (!l)
		err = -errno;
	p->skel->links.ebpftop_fexit = l;
	if (!err) {
		l = bpf_program__attach(p->skel->progs.ebpftop_fentry);
		if (!l)
			err = -errno;
		p->skel->links.ebpftop_fentry = l;
	}
	libbpf_set_print(old);
	if (!err)
		return 0;
	if (err == -E2BIG)
		msg_fail(msg, len, err, "program %u has as many fentry/fexit programs attached as the kernel allows",
		     p->id);
	else if (err == -EBUSY)
		msg_fail(msg, len, err, "program %u is being replaced by an freplace program: fentry/fexit cannot attach meanwhile",
		     p->id);
	else if (err == -EPERM || err == -EACCES)
		msg_fail(msg, len, err, "the kernel refused to attach the profiler (%s): lockdown or an LSM policy may forbid BPF trampolines on this machine",
		     strerror(-err));
	else
		msg_fail(msg, len, err, "cannot attach the profiler to program %u: %s",
		     p->id, *libbpf_captured() ? libbpf_captured() : strerror(-err));
	return err;
}

static struct profiler *profiler_new(const struct event_set *ev)
{
	struct profiler *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->ev = *ev;
	p->ncpu = libbpf_num_possible_cpus();
	p->overhead_ns = (double)NAN;
	for (int i = 0; i < PROFILE_MAX_EVENTS; i++)
		p->baseline[i] = (double)NAN;
	if (p->ncpu <= 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* Load, open counters, attach: a profiler on the program behind @tgt_fd. */
static int attach_fd(struct profiler *p, int tgt_fd, char *msg, size_t len)
{
	int err = load_skel(p, tgt_fd, msg, len);

	if (!err)
		err = open_events(p, msg, len);
	if (!err)
		err = attach_links(p, msg, len);
	return err;
}

/* ---- calibration ------------------------------------------------------------ */

static int fastest_run(int fd, double *ns)
{
	double best = (double)INFINITY;

	for (int r = 0; r < CALIB_ROUNDS; r++) {
		double v;
		int err = nullprog_test_run(fd, CALIB_RUNS, &v);

		if (err)
			return err;
		if (v < best)
			best = v;
	}
	*ns = best;
	return 0;
}

/*
 * What the profiler costs per run, and what its own window counts: run an
 * empty program of the target's type without and with a second profiler
 * on it (same events).
 */
static void calibrate(struct profiler *p)
{
	const char *tn = libbpf_bpf_prog_type_str(p->type);
	struct profile_report r;
	struct profiler *c = NULL;
	double base, with;
	char msg[256] = "";
	int fd, err;

	if (!tn)
		tn = "this type of";
	fd = nullprog_load(p->type, "ebpftop_calib");
	if (fd < 0) {
		snprintf(p->overhead_note, sizeof(p->overhead_note),
			 "not calibrated: cannot load an empty %s program (%s)",
			 tn, strerror(-fd));
		return;
	}
	err = fastest_run(fd, &base);
	if (err) {
		snprintf(p->overhead_note, sizeof(p->overhead_note),
			 err == -EOPNOTSUPP ?
				 "not calibrated: %s programs cannot be test-run" :
				 "not calibrated: test runs of %s programs fail (%s)",
			 tn, strerror(-err));
		goto out;
	}
	c = profiler_new(&p->ev);
	if (!c) {
		snprintf(p->overhead_note, sizeof(p->overhead_note),
			 "not calibrated: out of memory");
		goto out;
	}
	c->id = 0;
	c->type = p->type;
	snprintf(c->name, sizeof(c->name), "ebpftop_calib");
	err = attach_fd(c, fd, msg, sizeof(msg));
	if (!err)
		err = fastest_run(fd, &with);
	if (!err)
		err = profiler__read(c, &r);
	if (err) {
		snprintf(p->overhead_note, sizeof(p->overhead_note),
			 "not calibrated: %s", msg[0] ? msg : strerror(-err));
		goto out;
	}
	p->overhead_ns = with > base ? with - base : 0.0;
	for (size_t i = 0; i < r.nr_events && i < PROFILE_MAX_EVENTS; i++)
		p->baseline[i] = r.ev[i].per_run;
out:
	profiler__free(c);
	close(fd);
}

/* ---- the interface ----------------------------------------------------------------- */

int profiler__new(struct profiler **out, uint32_t prog_id,
		  const struct event_set *ev, unsigned int flags, char *msg,
		  size_t len)
{
	libbpf_print_fn_t old;
	struct profiler *p;
	int tgt_fd = -1, err;

	*out = NULL;
	if (!ev->n || ev->n > PROF_MAX_EVENTS)
		return msg_fail(msg, len, -EINVAL,
				"between 1 and %d events can be profiled at a time",
				PROF_MAX_EVENTS);
	p = profiler_new(ev);
	if (!p)
		return msg_fail(msg, len, -ENOMEM, "out of memory");
	p->id = prog_id;
	/* libbpf's warnings (BTF, calibration) must not reach the TUI's screen. */
	old = libbpf_capture();
	err = open_target(prog_id, &tgt_fd, &p->type, p->name, sizeof(p->name),
			  msg, len);
	if (err)
		goto err;
	/* Load first: if the kernel refuses trampolines, say that. */
	err = load_skel(p, tgt_fd, msg, len);
	if (err)
		goto err;
	if (!(flags & PROFILER_NO_CALIBRATE))
		calibrate(p);
	else
		snprintf(p->overhead_note, sizeof(p->overhead_note),
			 "not calibrated");
	err = open_events(p, msg, len);
	if (!err)
		err = attach_links(p, msg, len);
	if (err)
		goto err;
	/* The links hold the target from here on. */
	close(tgt_fd);
	libbpf_set_print(old);
	*out = p;
	return 0;
err:
	if (tgt_fd >= 0)
		close(tgt_fd);
	profiler__free(p);
	libbpf_set_print(old);
	return err;
}

int profiler__read(struct profiler *p, struct profile_report *r)
{
	struct profile_totals t = {};
	struct prof_accum *v;
	__u32 zero = 0;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->id = p->id;
	snprintf(r->prog_name, sizeof(r->prog_name), "%s", p->name);
	r->nr_events = p->ev.n;
	for (size_t i = 0; i < p->ev.n; i++) {
		snprintf(r->ev[i].name, sizeof(r->ev[i].name), "%s",
			 p->ev.ev[i].name);
		r->ev[i].metric = p->ev.ev[i].metric;
		r->ev[i].role = p->ev.ev[i].role;
		r->ev[i].baseline_per_run = p->baseline[i];
	}
	r->td_model = p->ev.td;
	snprintf(r->topdown_note, sizeof(r->topdown_note), "%s", p->ev.td_note);
	snprintf(r->pmu, sizeof(r->pmu), "%s", p->ev.pmu);
	r->overhead_ns_per_run = p->overhead_ns;
	snprintf(r->overhead_note, sizeof(r->overhead_note), "%s",
		 p->overhead_note);

	v = calloc((size_t)p->ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map__lookup_elem(p->skel->maps.accum, &zero, sizeof(zero), v,
				 sizeof(*v) * (size_t)p->ncpu, 0)) {
		err = -errno;
		goto out;
	}
	for (int c = 0; c < p->ncpu; c++) {
		t.runs += v[c].runs;
		t.partial += v[c].partial;
		t.read_errors += v[c].read_errors;
		t.unpaired += v[c].unpaired;
		for (size_t i = 0; i < p->ev.n; i++) {
			t.counter[i] += v[c].counter[i];
			t.enabled[i] += v[c].enabled[i];
			t.running[i] += v[c].running[i];
		}
	}
	profile_report_fill(r, &t);
out:
	free(v);
	return err;
}

void profiler__free(struct profiler *p)
{
	if (!p)
		return;
	/* Links first: no run reads a counter that is going away. */
	profiler_bpf__destroy(p->skel);
	if (p->pfd) {
		for (size_t i = 0; i < p->ev.n * (size_t)p->ncpu; i++) {
			if (p->pfd[i] >= 0)
				close(p->pfd[i]);
		}
		free(p->pfd);
	}
	free(p);
}

void profiler__own_ids(const struct profiler *p, uint32_t ids[2])
{
	ids[0] = prog_id_of_fd(bpf_program__fd(p->skel->progs.ebpftop_fentry));
	ids[1] = prog_id_of_fd(bpf_program__fd(p->skel->progs.ebpftop_fexit));
}
