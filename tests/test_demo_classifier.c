// SPDX-License-Identifier: GPL-2.0-only
/*
 * The demo's XDP classifier, driven with BPF_PROG_TEST_RUN through its
 * skeleton (no network, no ebpftop): every class is counted for known
 * source addresses, both implementations agree on all of the demo's 4,096
 * sources, the demo's own packets are dropped and everything else passed,
 * and the regressed implementation costs at least 3 times the fast one.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/xdp_classifier.h"
#include "demo/packet.h"
#include "testutil.h"
#include "xdp_classifier.skel.h"

/* The bound the issue sets: regressed/fast in ns/run, at least this. */
#define MIN_RATIO 3.0

static struct xdp_classifier_bpf *skel;
static int nr_cpus;

static const char *const class_names[XDPC__CLASSES] = {
	"fizzbuzz", "fizz", "buzz", "fibonacci", "other",
};

/* The article's slow is_fibonacci, on one octet, kept apart from the BPF. */
static int ref_is_fibonacci(uint32_t n)
{
	uint32_t a = 0, b = 1, c;

	while (a < n) {
		c = a + b;
		a = b;
		b = c;
	}
	return a == n;
}

static int ref_class(uint32_t addr)
{
	if (ref_is_fibonacci(addr & 0xff))
		return XDPC_FIBONACCI;
	if (addr % 15 == 0)
		return XDPC_FIZZBUZZ;
	if (addr % 3 == 0)
		return XDPC_FIZZ;
	if (addr % 5 == 0)
		return XDPC_BUZZ;
	return XDPC_OTHER;
}

static uint32_t addr4(unsigned a, unsigned b, unsigned c, unsigned d)
{
	return (uint32_t)a << 24 | b << 16 | c << 8 | d;
}

static void reset_counts(void)
{
	uint64_t *zero = calloc((size_t)nr_cpus, sizeof(*zero));
	int fd = bpf_map__fd(skel->maps.xdpc_counts);

	assert_non_null(zero);
	for (uint32_t k = 0; k < XDPC__CLASSES; k++)
		assert_int_equal(bpf_map_update_elem(fd, &k, zero, BPF_ANY), 0);
	free(zero);
}

static void read_counts(uint64_t out[XDPC__CLASSES])
{
	uint64_t *v = calloc((size_t)nr_cpus, sizeof(*v));
	int fd = bpf_map__fd(skel->maps.xdpc_counts);

	assert_non_null(v);
	for (uint32_t k = 0; k < XDPC__CLASSES; k++) {
		assert_int_equal(bpf_map_lookup_elem(fd, &k, v), 0);
		out[k] = 0;
		for (int c = 0; c < nr_cpus; c++)
			out[k] += v[c];
	}
	free(v);
}

/* One run of the classifier on @len bytes; its return value. */
static uint32_t run_once(const void *pkt, size_t len)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
		    .data_size_in = (__u32)len, .repeat = 1);
	int fd = bpf_program__fd(skel->progs.xdp_classifier);

	if (bpf_prog_test_run_opts(fd, &opts))
		fail_msg("BPF_PROG_TEST_RUN: %s", strerror(errno));
	return opts.retval;
}

static void set_regressed(int on)
{
	skel->bss->regressed = (uint32_t)on;
}

static int setup(void **state)
{
	int err;

	tu_require_bpf();
	tu_lock();
	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus <= 0)
		tu_die("cannot count possible CPUs");
	skel = xdp_classifier_bpf__open_and_load();
	if (!skel) {
		err = -errno;
		if (err == -EPERM)
			tu_skip("not allowed to load an XDP program");
		tu_die("cannot load the classifier: %s", strerror(-err));
	}
	return 0;
}

static int teardown(void **state)
{
	xdp_classifier_bpf__destroy(skel);
	return 0;
}

/* Hand-checked addresses, one or more per class, in both modes. */
static void test_known_addresses(void **state)
{
	static const struct {
		unsigned o[4];
		int cls;
	} known[] = {
		{ { 198, 18, 0, 13 }, XDPC_FIBONACCI },
		/* Divisible by 3 too: Fibonacci comes first. */
		{ { 198, 18, 0, 0 }, XDPC_FIBONACCI },
		{ { 198, 18, 0, 233 }, XDPC_FIBONACCI },
		{ { 10, 0, 0, 144 }, XDPC_FIBONACCI },
		{ { 198, 18, 0, 9 }, XDPC_FIZZBUZZ },	/* 3323068425 */
		{ { 198, 18, 0, 6 }, XDPC_FIZZ },	/* 3323068422 */
		{ { 198, 18, 0, 4 }, XDPC_BUZZ },	/* 3323068420 */
		{ { 10, 0, 0, 15 }, XDPC_BUZZ },	/* 167772175 */
		{ { 198, 18, 0, 7 }, XDPC_OTHER },
		{ { 198, 18, 1, 0 }, XDPC_FIBONACCI },	/* 0 is F0 */
		{ { 198, 18, 1, 4 }, XDPC_OTHER },
	};
	uint8_t pkt[DEMO_FRAME_LEN];

	for (int slow = 0; slow < 2; slow++) {
		set_regressed(slow);
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
			uint32_t a = addr4(known[i].o[0], known[i].o[1],
					   known[i].o[2], known[i].o[3]);
			int want = ref_class(a);
			uint64_t c[XDPC__CLASSES];

			if (want != known[i].cls)
				fail_msg("the reference puts %u.%u.%u.%u in %s, the table in %s",
					 known[i].o[0], known[i].o[1],
					 known[i].o[2], known[i].o[3],
					 class_names[want],
					 class_names[known[i].cls]);
			reset_counts();
			demo_frame_build(pkt, a, 1234, 1);
			assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_DROP);
			read_counts(c);
			for (int k = 0; k < XDPC__CLASSES; k++) {
				if (c[k] != (k == want ? 1u : 0u))
					fail_msg("%s: %u.%u.%u.%u: %s counted %llu",
						 slow ? "regressed" : "fast",
						 known[i].o[0], known[i].o[1],
						 known[i].o[2], known[i].o[3],
						 class_names[k],
						 (unsigned long long)c[k]);
			}
		}
	}
	set_regressed(0);
}

/* Every source the demo sends from, in both modes: exact class counts. */
static void test_demo_sources(void **state)
{
	uint64_t want[XDPC__CLASSES] = { 0 };
	uint8_t pkt[DEMO_FRAME_LEN];

	for (uint32_t i = 0; i < DEMO_SRC_SPAN; i++)
		want[ref_class(demo_source_addr(i))]++;
	for (int k = 0; k < XDPC__CLASSES; k++) {
		/* The demo's traffic hits every class. */
		if (!want[k])
			fail_msg("no demo source is in class %s", class_names[k]);
	}
	for (int slow = 0; slow < 2; slow++) {
		uint64_t got[XDPC__CLASSES];

		set_regressed(slow);
		reset_counts();
		for (uint32_t i = 0; i < DEMO_SRC_SPAN; i++) {
			demo_frame_build(pkt, demo_source_addr(i),
					 (uint16_t)(1024 + i), 1);
			if (run_once(pkt, sizeof(pkt)) != XDP_DROP)
				fail_msg("a demo packet was not dropped");
		}
		read_counts(got);
		for (int k = 0; k < XDPC__CLASSES; k++) {
			if (got[k] != want[k])
				fail_msg("%s: %s: %llu counted, %llu expected",
					 slow ? "regressed" : "fast",
					 class_names[k],
					 (unsigned long long)got[k],
					 (unsigned long long)want[k]);
		}
		printf("# %s: fizzbuzz %llu fizz %llu buzz %llu fibonacci %llu other %llu\n",
		       slow ? "regressed" : "fast",
		       (unsigned long long)got[0], (unsigned long long)got[1],
		       (unsigned long long)got[2], (unsigned long long)got[3],
		       (unsigned long long)got[4]);
	}
	set_regressed(0);
}

/* What is not the demo's own is counted if IPv4 and always passed. */
static void test_pass_and_drop(void **state)
{
	uint8_t pkt[DEMO_FRAME_LEN], arp[DEMO_FRAME_LEN];
	uint32_t a = addr4(198, 18, 0, 7);
	uint64_t c[XDPC__CLASSES];

	reset_counts();
	demo_frame_build(pkt, a, 1234, 0);	/* no magic */
	assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_PASS);
	demo_frame_build(pkt, a, 1234, 1);
	pkt[14 + 20 + 3] = 10;			/* another UDP port */
	assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_PASS);
	demo_frame_build(pkt, a, 1234, 1);
	pkt[14 + 6] |= 0x20;			/* a fragment (MF) */
	assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_PASS);
	demo_frame_build(pkt, a, 1234, 1);
	pkt[14 + 9] = 6;			/* TCP */
	assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_PASS);
	read_counts(c);
	assert_int_equal(c[XDPC_OTHER], 4);

	/* Not IPv4, or cut short: passed, not counted. */
	reset_counts();
	memcpy(arp, pkt, sizeof(arp));
	arp[12] = 0x08;
	arp[13] = 0x06;
	assert_int_equal(run_once(arp, sizeof(arp)), XDP_PASS);
	demo_frame_build(pkt, a, 1234, 1);
	assert_int_equal(run_once(pkt, 14 + 19), XDP_PASS);
	pkt[14] = 0x65;				/* version 6 */
	assert_int_equal(run_once(pkt, sizeof(pkt)), XDP_PASS);
	read_counts(c);
	for (int k = 0; k < XDPC__CLASSES; k++)
		assert_int_equal(c[k], 0);
	/* IPv4 with the UDP header cut: counted, passed. */
	demo_frame_build(pkt, a, 1234, 1);
	assert_int_equal(run_once(pkt, 14 + 20 + 4), XDP_PASS);
	read_counts(c);
	assert_int_equal(c[XDPC_OTHER], 1);
}

/* Mean ns/run over a few demo sources, @repeat runs each. */
static double ns_per_run(int slow, unsigned int repeat)
{
	int fd = bpf_program__fd(skel->progs.xdp_classifier);
	uint8_t pkt[DEMO_FRAME_LEN];
	double sum = 0;
	const int n = 8;

	set_regressed(slow);
	for (int i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt,
			    .data_size_in = sizeof(pkt), .repeat = repeat);

		demo_frame_build(pkt, demo_source_addr((uint64_t)i * 509), 1234,
				 1);
		if (bpf_prog_test_run_opts(fd, &opts))
			fail_msg("BPF_PROG_TEST_RUN: %s", strerror(errno));
		sum += opts.duration;
	}
	set_regressed(0);
	return sum / n;
}

/*
 * The regression is plainly visible: a ratio, so it holds on slow and
 * fast machines alike. The best of three rounds of each keeps other load
 * on the machine out of it.
 */
static void test_regressed_costs_more(void **state)
{
	double fast = 1e18, slow = 1e18;

	for (int round = 0; round < 3; round++) {
		double f = ns_per_run(0, 100000), s = ns_per_run(1, 20000);

		if (f < fast)
			fast = f;
		if (s < slow)
			slow = s;
	}
	printf("# BPF_PROG_TEST_RUN: fast %.1f ns/run, regressed %.1f ns/run, ratio %.1f (%u terms)\n",
	       fast, slow, slow / (fast > 0 ? fast : 1), skel->data->slow_terms);
	if (!(slow >= MIN_RATIO * fast))
		fail_msg("regressed %.1f ns/run is less than %.0f times fast %.1f ns/run",
			 slow, MIN_RATIO, fast);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_addresses),
		cmocka_unit_test(test_demo_sources),
		cmocka_unit_test(test_pass_and_drop),
		cmocka_unit_test(test_regressed_costs_more),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
