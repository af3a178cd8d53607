// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "hot/session.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "hot/agg.h"
#include "hot/lines.h"
#include "hot/ring.h"
#include "profiler/events.h"

/* Data pages per CPU ring (256 KiB): a second at 10 kHz with callchains. */
#define RING_PAGES 64
/* The thread drains at least this often, ms. */
#define DRAIN_MS 100
/* Longest record reassembled across the ring's end. */
#define SCRATCH_BYTES 4096

struct cpu_ring {
	int fd;
	int cpu;
	void *base;		/* the mmap: header page, then data */
	size_t map_len;
};

struct hot_session {
	struct hot_params p;
	char event[64];
	struct hot_prog *prog;
	struct hot_irq_ranges irq;
	size_t nr_rings;
	struct cpu_ring *rings;
	size_t page;
	int stop_fd;
	pthread_t thread;
	bool thread_started;
	pthread_mutex_t mu;
	/* under mu */
	struct hot_agg agg;
	bool cumulative, source_order;
	bool gone;		/* a KSYMBOL record unregistered the program */
	uint64_t gone_ns;	/* ... at this time: later samples are not its */
	uint64_t lost;
	uint64_t throttled;
	uint64_t *scratch;
	/* the main thread's */
	struct hot_counts sum;
	struct hot_report report;
	clockid_t thread_clock;
	uint64_t last_cpu_ns, last_wall_ns;
};

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int read_int(const char *path, long *v)
{
	char buf[32];
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	*v = strtol(buf, NULL, 10);
	return 0;
}

/* Resolve @name into one event's attr. */
static int resolve(const char *name, struct perf_event_attr *attr, char *msg,
		   size_t len)
{
	struct event_set set;
	char why[256];
	int err;

	err = events_parse(name, &set, why, sizeof(why));
	if (err) {
		snprintf(msg, len, "%s", why);
		return err == -ELIBACC ? err : -EINVAL;
	}
	if (set.n != 1) {
		snprintf(msg, len, "'%s' is %zu events: sampling takes one", name,
			 set.n);
		return -EINVAL;
	}
	*attr = set.ev[0].attr;
	return 0;
}

int hot_event_check(const char *event, char *msg, size_t len)
{
	struct perf_event_attr attr;

	return resolve(event, &attr, msg, len);
}

static void set_sampling(struct perf_event_attr *a, unsigned int freq)
{
	a->size = sizeof(*a);
	a->sample_freq = freq;
	a->freq = 1;
	a->sample_type = HOT_SAMPLE_TYPE;
	a->exclude_user = 1;
	a->exclude_idle = 1;
	a->exclude_callchain_user = 1;
	a->sample_max_stack = HOT_MAX_STACK;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->sample_id_all = 1;
	/* BPF programs coming and going, in order with the samples. */
	a->ksymbol = 1;
	a->watermark = 1;
	a->wakeup_watermark = RING_PAGES * (uint32_t)sysconf(_SC_PAGESIZE) / 2;
	a->disabled = 0;
}

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(__NR_perf_event_open, a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Why perf_event_open refused @event: the reason and what to try. */
static void open_refusal(char *msg, size_t len, const char *event, int cpu,
			 int err)
{
	long paranoid = 0;

	if (err == -EACCES || err == -EPERM) {
		read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
		snprintf(msg, len,
			 "perf_event_open refused sampling event '%s' on CPU %d: %s (kernel.perf_event_paranoid=%ld): run as root or grant CAP_PERFMON",
			 event, cpu, strerror(-err), paranoid);
	} else if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV) {
		snprintf(msg, len,
			 "perf_event_open refused sampling event '%s' on CPU %d: %s (no PMU here counts it, or it cannot sample): try --sample-event cpu-clock",
			 event, cpu, strerror(-err));
	} else {
		snprintf(msg, len,
			 "perf_event_open refused sampling event '%s' on CPU %d: %s: try --sample-event cpu-clock",
			 event, cpu, strerror(-err));
	}
}

static void close_rings(struct hot_session *s)
{
	for (size_t i = 0; i < s->nr_rings; i++) {
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->rings[i].map_len);
		if (s->rings[i].fd >= 0)
			close(s->rings[i].fd);
	}
	free(s->rings);
	s->rings = NULL;
	s->nr_rings = 0;
}

/* One event per online CPU (offline ones refuse with ENODEV: skipped). */
static int open_rings(struct hot_session *s, struct perf_event_attr *a,
		      char *msg, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int err;

	if (ncpu < 1)
		ncpu = 1;
	s->rings = calloc((size_t)ncpu, sizeof(*s->rings));
	if (!s->rings)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct cpu_ring *r = &s->rings[s->nr_rings];
		int fd = perf_open(a, cpu);

		/* Some PMUs (arm64's) cannot leave the idle task out. */
		if (fd < 0 && !s->nr_rings && a->exclude_idle &&
		    (errno == EINVAL || errno == EOPNOTSUPP || errno == EPERM)) {
			a->exclude_idle = 0;
			fd = perf_open(a, cpu);
			if (fd < 0)
				a->exclude_idle = 1;
		}
		if (fd < 0) {
			err = -errno;
			if (err == -ENODEV && cpu > 0)
				continue;
			open_refusal(msg, len, s->event, cpu, err);
			return err;
		}
		r->fd = fd;
		r->cpu = cpu;
		r->map_len = (RING_PAGES + 1) * s->page;
		s->nr_rings++;
		r->base = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, 0);
		if (r->base == MAP_FAILED) {
			err = -errno;
			r->base = NULL;
			snprintf(msg, len,
				 "cannot map the sample buffer of CPU %d: %s (perf_event_mlock_kb too small?)",
				 cpu, strerror(-err));
			return err;
		}
	}
	return s->nr_rings ? 0 : -ENODEV;
}

/* ---- the thread ---------------------------------------------------------- */

static void note_ksym(const struct hot_record *r, void *ctx)
{
	struct hot_session *s = ctx;

	if (r->type != PERF_RECORD_KSYMBOL ||
	    r->ksym_type != PERF_RECORD_KSYMBOL_TYPE_BPF ||
	    !(r->ksym_flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER))
		return;
	for (uint32_t f = 0; f < s->prog->nr_funcs; f++) {
		if (r->ksym_addr == s->prog->func_start[f] &&
		    (!s->gone || r->time < s->gone_ns)) {
			s->gone = true;
			s->gone_ns = r->time;
		}
	}
}

static void take_sample(const struct hot_record *r, void *ctx)
{
	struct hot_session *s = ctx;
	enum hot_hit hit = HOT_MISS;
	size_t line = 0;

	if (r->type != PERF_RECORD_SAMPLE)
		return;
	/* After the program went, its addresses may be another's. */
	if (!s->gone || r->time < s->gone_ns)
		hit = hot_prog__classify(s->prog, &s->irq, r->ip, r->chain,
					 r->nr_chain, &line);
	hot_agg_add(&s->agg, r->time, hit, line);
}

/*
 * Drain every ring: first look for the program's unregistration in all
 * of them (samples on one CPU may follow it on another), then count.
 */
static void drain(struct hot_session *s)
{
	uint64_t heads[s->nr_rings];
	uint8_t *scratch = (uint8_t *)s->scratch;

	pthread_mutex_lock(&s->mu);
	for (size_t i = 0; i < s->nr_rings; i++) {
		struct perf_event_mmap_page *m = s->rings[i].base;
		const uint8_t *data = (const uint8_t *)m + s->page;
		struct hot_ring_stats st = {};

		heads[i] = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
		hot_ring_read(data, RING_PAGES * s->page, m->data_tail, heads[i],
			      scratch, SCRATCH_BYTES, note_ksym, s, &st);
	}
	for (size_t i = 0; i < s->nr_rings; i++) {
		struct perf_event_mmap_page *m = s->rings[i].base;
		const uint8_t *data = (const uint8_t *)m + s->page;
		struct hot_ring_stats st = {};
		uint64_t tail;

		tail = hot_ring_read(data, RING_PAGES * s->page, m->data_tail,
				     heads[i], scratch, SCRATCH_BYTES,
				     take_sample, s, &st);
		__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
		s->lost += st.lost;
		s->throttled += st.throttled;
	}
	pthread_mutex_unlock(&s->mu);
}

static void *sampler_main(void *arg)
{
	struct hot_session *s = arg;
	struct pollfd pfd[s->nr_rings + 1];

	for (size_t i = 0; i < s->nr_rings; i++)
		pfd[i] = (struct pollfd){ .fd = s->rings[i].fd, .events = POLLIN };
	pfd[s->nr_rings] = (struct pollfd){ .fd = s->stop_fd, .events = POLLIN };
	for (;;) {
		int r = poll(pfd, s->nr_rings + 1, DRAIN_MS);

		if (r < 0 && errno != EINTR)
			break;
		if (pfd[s->nr_rings].revents)
			break;
		drain(s);
	}
	return NULL;
}

/* ---- the session ----------------------------------------------------------- */

void hot_session_stop(struct hot_session *s)
{
	if (!s)
		return;
	if (s->thread_started) {
		uint64_t one = 1;

		if (write(s->stop_fd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel(s->thread);
		pthread_join(s->thread, NULL);
	}
	close_rings(s);
	if (s->stop_fd >= 0)
		close(s->stop_fd);
	pthread_mutex_destroy(&s->mu);
	hot_agg_free(&s->agg);
	free(s->sum.own);
	free(s->sum.helper);
	hot_report_free(&s->report);
	hot_prog__free(s->prog);
	free(s->scratch);
	free(s);
}

int hot_session_start(struct hot_session **out, const struct hot_params *p,
		      char *msg, size_t len)
{
	struct perf_event_attr attr;
	struct hot_session *s;
	long cap = 0;
	int err, ret = 0;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->p = *p;
	if (!s->p.freq_hz)
		s->p.freq_hz = HOT_FREQ_DEFAULT;
	s->cumulative = p->cumulative;
	s->stop_fd = -1;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	pthread_mutex_init(&s->mu, NULL);
	err = hot_prog__load(p->id, &s->prog, msg, len);
	if (err)
		goto fail;
	if (!read_int("/proc/sys/kernel/perf_event_max_sample_rate", &cap) &&
	    cap > 0 && s->p.freq_hz > (unsigned long)cap) {
		snprintf(msg, len,
			 "sampling at %u Hz is above the kernel's cap of %ld Hz (kernel.perf_event_max_sample_rate): use --sample-freq %ld or less",
			 s->p.freq_hz, cap, cap);
		err = -ERANGE;
		goto fail;
	}
	if (p->event) {
		snprintf(s->event, sizeof(s->event), "%s", p->event);
		err = resolve(p->event, &attr, msg, len);
		if (err)
			goto fail;
		set_sampling(&attr, s->p.freq_hz);
		err = open_rings(s, &attr, msg, len);
	} else {
		/* cycles where a PMU counts them, else the CPU clock. */
		snprintf(s->event, sizeof(s->event), "cycles");
		err = resolve("cycles", &attr, msg, len);
		if (!err) {
			set_sampling(&attr, s->p.freq_hz);
			err = open_rings(s, &attr, msg, len);
		}
		if (err && err != -ENOMEM) {
			close_rings(s);
			snprintf(s->event, sizeof(s->event), "cpu-clock");
			err = resolve("cpu-clock", &attr, msg, len);
			if (!err) {
				set_sampling(&attr, s->p.freq_hz);
				err = open_rings(s, &attr, msg, len);
			}
		}
	}
	if (err)
		goto fail;
	hot_irq_ranges_load(&s->irq);
	s->scratch = calloc(SCRATCH_BYTES / 8, sizeof(uint64_t));
	err = -ENOMEM;
	if (!s->scratch ||
	    hot_agg_init(&s->agg, s->prog->nr_lines, now_ns(CLOCK_MONOTONIC)) ||
	    !(s->sum.own = calloc(s->prog->nr_lines + 1, sizeof(uint64_t))) ||
	    !(s->sum.helper = calloc(s->prog->nr_lines + 1, sizeof(uint64_t)))) {
		snprintf(msg, len, "out of memory");
		goto fail;
	}
	s->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (s->stop_fd < 0) {
		err = -errno;
		snprintf(msg, len, "eventfd: %s", strerror(-err));
		goto fail;
	}
	err = -pthread_create(&s->thread, NULL, sampler_main, s);
	if (err) {
		snprintf(msg, len, "cannot start the sampler thread: %s",
			 strerror(-err));
		goto fail;
	}
	s->thread_started = true;
	/* A name of its own, so its CPU time can be told from the rest. */
	pthread_setname_np(s->thread, "ebpftop-hot");
	pthread_getcpuclockid(s->thread, &s->thread_clock);
	s->last_cpu_ns = now_ns(s->thread_clock);
	s->last_wall_ns = now_ns(CLOCK_MONOTONIC);
	s->report.id = p->id;
	s->report.prog_name = s->prog->name;
	s->report.freq_hz = s->p.freq_hz;
	s->report.has_line_info = s->prog->has_line_info;
	snprintf(s->report.event, sizeof(s->report.event), "%s", s->event);
	if (!s->prog->has_line_info) {
		snprintf(msg, len,
			 "program %u has no line info: build it with clang -g (showing shares per subprogram only)",
			 p->id);
		ret = -ENODATA;
	}
	*out = s;
	return ret;
fail:
	hot_session_stop(s);
	return err;
}

/* Whether program @id is still the one loaded when the session began. */
static bool same_program(const struct hot_session *s)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	bool same;
	int fd = bpf_prog_get_fd_by_id(s->p.id);

	if (fd < 0)
		return errno != ENOENT;	/* only "gone" ends it */
	same = bpf_obj_get_info_by_fd(fd, &info, &len) ||
	       info.load_time == s->prog->load_time;
	close(fd);
	return same;
}

int hot_session_update(struct hot_session *s, char *msg, size_t len)
{
	uint64_t wall = now_ns(CLOCK_MONOTONIC), cpu;
	bool gone;
	int err;

	pthread_mutex_lock(&s->mu);
	s->report.window_s = hot_agg_sum(&s->agg, s->cumulative, wall, &s->sum);
	s->report.cumulative = s->cumulative;
	s->report.lost = s->lost;
	gone = s->gone;
	pthread_mutex_unlock(&s->mu);
	cpu = now_ns(s->thread_clock);
	if (wall > s->last_wall_ns && cpu >= s->last_cpu_ns)
		s->report.overhead_pct = (double)(cpu - s->last_cpu_ns) * 100.0 /
					 (double)(wall - s->last_wall_ns);
	s->last_cpu_ns = cpu;
	s->last_wall_ns = wall;
	err = hot_report_fill(&s->report, s->prog, &s->sum, s->source_order);
	if (err)
		return err;
	if (gone || !same_program(s)) {
		snprintf(msg, len,
			 "program %u was unloaded or replaced: hot lines stopped (its addresses may now be another program's)",
			 s->p.id);
		return 1;
	}
	return 0;
}

const struct hot_report *hot_session_report(const struct hot_session *s)
{
	return &s->report;
}

uint32_t hot_session_id(const struct hot_session *s)
{
	return s->p.id;
}

void hot_session_set_cumulative(struct hot_session *s, bool cumulative)
{
	pthread_mutex_lock(&s->mu);
	s->cumulative = cumulative;
	pthread_mutex_unlock(&s->mu);
}

bool hot_session_cumulative(const struct hot_session *s)
{
	return s->cumulative;
}

void hot_session_set_source_order(struct hot_session *s, bool source_order)
{
	s->source_order = source_order;
	hot_lines_sort(s->report.lines, s->report.nr_lines, source_order);
}

bool hot_session_source_order(const struct hot_session *s)
{
	return s->source_order;
}
