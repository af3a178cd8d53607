// SPDX-License-Identifier: GPL-2.0-only
/* Option parsing: every option's good values, bad values and their messages. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

#define MAX_ARGS 16

static char err[256];

/*
 * The last argument vector: options such as --filter keep pointers into
 * it, so it lives until the next parse (or the end of the test group).
 */
static char *pool[MAX_ARGS + 2];

static void pool_free(void)
{
	for (size_t i = 0; i < sizeof(pool) / sizeof(pool[0]); i++) {
		free(pool[i]);
		pool[i] = NULL;
	}
}

static int group_teardown(void **state)
{
	pool_free();
	return 0;
}

/* Parse "ebpftop" followed by the NULL-terminated arguments. */
static int parse_v(struct ebpftop_opts *o, char *e, size_t elen, va_list ap)
{
	char *argv[MAX_ARGS + 2];
	const char *a;
	int argc = 0;

	pool_free();
	argv[argc++] = strdup("ebpftop");
	while ((a = va_arg(ap, const char *)) != NULL) {
		assert_true(argc < MAX_ARGS);
		argv[argc++] = strdup(a);
	}
	argv[argc] = NULL;
	/* getopt permutes argv: keep the pointers to free them. */
	memcpy(pool, argv, sizeof(argv[0]) * (size_t)argc);
	memset(e, 0, elen);
	memset(o, 0xa5, sizeof(*o));
	return cli_parse(argc, argv, o, e, elen);
}

static int parse(struct ebpftop_opts *o, ...)
{
	va_list ap;
	int ret;

	va_start(ap, o);
	ret = parse_v(o, err, sizeof(err), ap);
	va_end(ap);
	return ret;
}

/* Expect success with action @want. */
#define assert_parses(want, o, ...)                                       \
	do {                                                               \
		int r_ = parse(o, __VA_ARGS__, (const char *)NULL);        \
		if (r_ != (want))                                          \
			fail_msg("parse returned %d (%s), want %d", r_, err, \
				 (want));                                  \
	} while (0)

/*
 * Expect -EINVAL and a one-line message that contains @name (the option as
 * the user wrote it).
 */
#define assert_bad(name, ...)                                                \
	do {                                                                  \
		struct ebpftop_opts o_;                                       \
		int r_ = parse(&o_, __VA_ARGS__, (const char *)NULL);         \
		if (r_ != -EINVAL)                                            \
			fail_msg("%s: returned %d, want -EINVAL", #__VA_ARGS__, r_); \
		check_message(err, name, #__VA_ARGS__);                       \
	} while (0)

static void check_message(const char *e, const char *name, const char *args)
{
	if (!e[0])
		fail_msg("%s: empty message", args);
	if (strchr(e, '\n'))
		fail_msg("%s: message is more than one line: [%s]", args, e);
	if (!strstr(e, name))
		fail_msg("%s: message [%s] does not name %s", args, e, name);
	for (const char *p = e; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			fail_msg("%s: control character %#x in message [%s]",
				 args, (unsigned char)*p, e);
	}
}

static void test_defaults(void **state)
{
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, (const char *)NULL);
	assert_true(o.delay_s == 1.0);
	assert_int_equal(o.iterations, 0);
	assert_false(o.batch);
	assert_false(o.json);
	assert_false(o.no_stats);
	assert_int_equal(o.sort, COL_CPU);
	assert_null(o.filter);
}

static void test_delay_good(void **state)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{ "0.1", 0.1 }, { "1", 1.0 }, { "1.0", 1.0 }, { "2.5", 2.5 },
		{ ".5", 0.5 }, { "5.", 5.0 }, { "0.25", 0.25 },
		{ "86400", 86400.0 }, { "007", 7.0 },
	};
	struct ebpftop_opts o;
	char eq[64];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_parses(CLI_RUN, &o, "-d", good[i].s);
		assert_true(o.delay_s == good[i].v);
		assert_parses(CLI_RUN, &o, "--delay", good[i].s);
		assert_true(o.delay_s == good[i].v);
		snprintf(eq, sizeof(eq), "--delay=%s", good[i].s);
		assert_parses(CLI_RUN, &o, eq);
		assert_true(o.delay_s == good[i].v);
	}
	assert_parses(CLI_RUN, &o, "-d0.3");
	assert_true(o.delay_s == 0.3);
	assert_true(CLI_DELAY_MIN == 0.1);
}

static void test_delay_bad(void **state)
{
	static const char *const bad[] = {
		"abc", "", "0.05", "-1", "1s", "nan", "inf", "1e3", "0x1",
		"0", "0.0", "0.09999", "86400.5", "100000", "1e-1", " 1", "1 ",
		"1,5", "+1", "1.2.3", ".", "-0", "infinity", "NAN", "0x1p3",
		"1e400",
	};
	char eq[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_bad("--delay", "-d", bad[i]);
		assert_bad("--delay", "--delay", bad[i]);
		snprintf(eq, sizeof(eq), "--delay=%s", bad[i]);
		assert_bad("--delay", eq);
		/* The message quotes the bad value. */
		if (bad[i][0] && bad[i][0] != ' ')
			assert_non_null(strstr(err, bad[i]));
	}
}

static void test_iterations(void **state)
{
	static const char *const bad[] = {
		"0", "-3", "1.5", "abc", "99999999999999999999", "", "+3",
		"0x10", " 3", "3 ", "1e3", "9223372036854775808", "-0",
		"18446744073709551615", "18446744073709551616", "4294967296",
	};
	static const char *const range[] = {
		"0", "00", "4294967296", "9223372036854775807",
		"9223372036854775808", "99999999999999999999999",
	};
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, "-n", "1");
	assert_int_equal(o.iterations, 1);
	assert_parses(CLI_RUN, &o, "--iterations", "10");
	assert_int_equal(o.iterations, 10);
	assert_parses(CLI_RUN, &o, "--iterations=25");
	assert_int_equal(o.iterations, 25);
	assert_parses(CLI_RUN, &o, "-n7");
	assert_int_equal(o.iterations, 7);
	assert_parses(CLI_RUN, &o, "-n", "0010");
	assert_int_equal(o.iterations, 10);
	assert_parses(CLI_RUN, &o, "-n", "4294967295");
	assert_int_equal(o.iterations, 4294967295ul);
	assert_int_equal(CLI_ITERATIONS_MAX, UINT32_MAX);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_bad("--iterations", "-n", bad[i]);
		assert_bad("--iterations", "--iterations", bad[i]);
	}
	/* Whole numbers out of range are called that, not "not a number". */
	for (size_t i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		assert_bad("out of range (1 to 4294967295)", "-n", range[i]);
		assert_null(strstr(err, "not a"));
	}
	assert_bad("is not a whole number", "-n", "abc");
}

/* An abbreviation of two options names both; one of one option works. */
static void test_ambiguous_prefix(void **state)
{
	struct ebpftop_opts o;

	assert_bad("'--demo-' is ambiguous", "--demo-");
	assert_non_null(strstr(err, "--demo-pps"));
	assert_non_null(strstr(err, "--demo-regress-after"));
	assert_null(strstr(err, "unknown"));
	assert_bad("'--regress' is ambiguous", "--regress=5");
	assert_non_null(strstr(err, "--regress-threshold"));
	assert_non_null(strstr(err, "--regress-window"));
	assert_bad("unknown option '--demox'", "--demox");
	assert_parses(CLI_RUN, &o, "--demo-p", "100", "--demo");
	assert_int_equal(o.demo_pps, 100);
	assert_parses(CLI_RUN, &o, "--iter=3");
	assert_int_equal(o.iterations, 3);
}

static void test_flags(void **state)
{
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, "-b");
	assert_true(o.batch);
	assert_false(o.json);
	assert_parses(CLI_RUN, &o, "--batch");
	assert_true(o.batch);
	/* -j implies batch, alone and in every spelling. */
	assert_parses(CLI_RUN, &o, "-j");
	assert_true(o.json && o.batch);
	assert_parses(CLI_RUN, &o, "--json");
	assert_true(o.json && o.batch);
	assert_parses(CLI_RUN, &o, "-bj");
	assert_true(o.json && o.batch);
	assert_parses(CLI_RUN, &o, "-j", "-b");
	assert_true(o.json && o.batch);
	assert_parses(CLI_RUN, &o, "--no-stats");
	assert_true(o.no_stats);
	assert_false(o.batch);
	assert_parses(CLI_RUN, &o, "-bjn3", "-d", "0.2", "--no-stats");
	assert_true(o.json && o.batch && o.no_stats);
	assert_int_equal(o.iterations, 3);
	assert_true(o.delay_s == 0.2);
}

static void test_sort_option(void **state)
{
	static const char *const keys[] = { "cpu", "nsrun", "runs", "id",
					    "name", "type", "runcnt",
					    "runtime" };
	struct ebpftop_opts o;
	char eq[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		enum col k;

		assert_int_equal(col_parse_sort(keys[i], &k), 0);
		assert_parses(CLI_RUN, &o, "-s", keys[i]);
		assert_int_equal(o.sort, k);
		snprintf(eq, sizeof(eq), "--sort=%s", keys[i]);
		assert_parses(CLI_RUN, &o, eq);
		assert_int_equal(o.sort, k);
	}
	assert_bad("--sort", "--sort", "bogus");
	/* The message lists the keys to pick from. */
	assert_non_null(strstr(err, "nsrun"));
	assert_bad("--sort", "-s", "bogus");
	assert_bad("--sort", "-s", "");
	assert_bad("--sort", "-s", "CPU");
}

static void test_filter_option(void **state)
{
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, "-f", "xdp");
	assert_string_equal(o.filter, "xdp");
	/* An empty filter is no filter. */
	assert_parses(CLI_RUN, &o, "--filter", "");
	assert_null(o.filter);
	assert_parses(CLI_RUN, &o, "--filter=a b");
	assert_string_equal(o.filter, "a b");
	assert_parses(CLI_RUN, &o, "-fXDP");
	assert_string_equal(o.filter, "XDP");
}

static void test_help_version(void **state)
{
	struct ebpftop_opts o;

	assert_parses(CLI_HELP, &o, "-h");
	assert_parses(CLI_HELP, &o, "--help");
	assert_parses(CLI_VERSION, &o, "-V");
	assert_parses(CLI_VERSION, &o, "--version");
	assert_parses(CLI_HELP, &o, "-b", "--help", "-n", "3");
	/* Bad usage beats help: the error is reported. */
	assert_bad("--delay", "--help", "-d", "0");
}

static void test_unknown_and_missing(void **state)
{
	/* Unknown options, short and long. */
	assert_bad("-x", "-x");
	assert_bad("-x", "-bx");
	assert_bad("-Z", "-Z");
	assert_bad("--bogus", "--bogus");
	assert_bad("--bogus", "--bogus=1");
	assert_bad("--bogus", "-b", "--bogus", "-j");
	/* Missing arguments, short options at the end. */
	assert_bad("-d", "-d");
	assert_bad("-n", "-n");
	assert_bad("-s", "-s");
	assert_bad("-f", "-f");
	assert_bad("-n", "-bn");
	/* A stray positional argument, before or after options. */
	assert_bad("foo", "foo");
	assert_bad("foo", "-b", "foo");
	assert_bad("foo", "foo", "-b");
	assert_bad("bar", "--", "bar");
}

/* The long spelling of a missing argument names the option either way. */
static void test_missing_long(void **state)
{
	static const struct {
		const char *arg, *lng, *shrt;
	} opts[] = {
		{ "--delay", "--delay", "-d" },
		{ "--iterations", "--iterations", "-n" },
		{ "--sort", "--sort", "-s" },
		{ "--filter", "--filter", "-f" },
	};
	struct ebpftop_opts o;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		assert_int_equal(parse(&o, opts[i].arg, (const char *)NULL),
				 -EINVAL);
		check_message(err, "", opts[i].arg);
		if (!strstr(err, opts[i].lng) && !strstr(err, opts[i].shrt))
			fail_msg("%s: message [%s] names neither %s nor %s",
				 opts[i].arg, err, opts[i].lng, opts[i].shrt);
	}
}

/* A flag given an argument with '=': the message names that flag. */
static void test_flag_with_argument(void **state)
{
	assert_bad("--batch", "--batch=1");
	assert_bad("--json", "--json=yes");
	assert_bad("--help", "--help=x");
	assert_bad("--no-stats", "--no-stats=1");
}

static void test_small_error_buffer(void **state)
{
	struct ebpftop_opts o;
	char small[12];
	const char *args[] = { "--delay", "a-rather-long-bad-value", NULL };
	char *argv[4];
	int r;

	argv[0] = strdup("ebpftop");
	argv[1] = strdup(args[0]);
	argv[2] = strdup(args[1]);
	argv[3] = NULL;
	{
		char *keep[3] = { argv[0], argv[1], argv[2] };

		memset(small, 'x', sizeof(small));
		r = cli_parse(3, argv, &o, small, sizeof(small));
		assert_int_equal(r, -EINVAL);
		/* Cut, terminated, within the buffer. */
		assert_non_null(memchr(small, '\0', sizeof(small)));
		assert_int_equal(strlen(small), sizeof(small) - 1);
		for (int i = 0; i < 3; i++)
			free(keep[i]);
	}
}

static void test_parse_twice(void **state)
{
	struct ebpftop_opts o;

	/* getopt keeps state between calls; cli_parse must reset it. */
	assert_parses(CLI_RUN, &o, "-n", "3", "-b");
	assert_int_equal(o.iterations, 3);
	assert_parses(CLI_RUN, &o, "-j");
	assert_true(o.json);
	assert_int_equal(o.iterations, 0);
	assert_true(o.delay_s == 1.0);

	/* After an error in the middle of a cluster, too. */
	assert_bad("-x", "-bxj");
	assert_parses(CLI_RUN, &o, "-jn2");
	assert_true(o.json);
	assert_int_equal(o.iterations, 2);
	assert_bad("-d", "-d");
	assert_parses(CLI_RUN, &o, "-d", "0.5");
	assert_true(o.delay_s == 0.5);
	assert_parses(CLI_HELP, &o, "-h");
	assert_parses(CLI_RUN, &o, (const char *)NULL);
	assert_parses(CLI_RUN, &o, "-s", "name");
	assert_int_equal(o.sort, COL_NAME);
}

/* --demo and its two settings, which need it. */
static void test_demo_options(void **state)
{
	static const char *const bad_pps[] = {
		"0", "1000001", "abc", "", "-5", "1.5", "1e3", " 5", "5 ",
		"+5", "0x10", "99999999999999999999",
	};
	static const char *const bad_after[] = {
		"0", "0.0", "-1", "abc", "", "1e3", "inf", "nan", "86400.5",
		"0x1", "1s", " 1", "+1", ".", "1.2.3",
	};
	struct ebpftop_opts o;
	char eq[64];

	assert_parses(CLI_RUN, &o, (const char *)NULL);
	assert_false(o.demo);
	assert_int_equal(o.demo_pps, CLI_DEMO_PPS_DEFAULT);
	assert_true(o.demo_regress_after == 0.0);
	assert_parses(CLI_RUN, &o, "--demo");
	assert_true(o.demo);
	assert_false(o.batch);
	assert_int_equal(o.demo_pps, 20000);
	assert_true(o.demo_regress_after == 0.0);
	assert_parses(CLI_RUN, &o, "--demo", "--demo-pps", "1");
	assert_int_equal(o.demo_pps, 1);
	assert_parses(CLI_RUN, &o, "--demo-pps=1000000", "--demo");
	assert_int_equal(o.demo_pps, CLI_DEMO_PPS_MAX);
	assert_parses(CLI_RUN, &o, "--demo", "--demo-regress-after", "2.5");
	assert_true(o.demo_regress_after == 2.5);
	assert_parses(CLI_RUN, &o, "--demo", "--demo-regress-after=.05");
	assert_true(o.demo_regress_after == 0.05);
	assert_parses(CLI_RUN, &o, "-bjn3", "--demo", "--demo-pps", "500",
		      "--demo-regress-after", "86400");
	assert_true(o.demo && o.json && o.batch);
	assert_int_equal(o.demo_pps, 500);
	assert_true(o.demo_regress_after == 86400.0);
	for (size_t i = 0; i < sizeof(bad_pps) / sizeof(bad_pps[0]); i++) {
		assert_bad("--demo-pps", "--demo", "--demo-pps", bad_pps[i]);
		snprintf(eq, sizeof(eq), "--demo-pps=%s", bad_pps[i]);
		assert_bad("--demo-pps", "--demo", eq);
	}
	for (size_t i = 0; i < sizeof(bad_after) / sizeof(bad_after[0]); i++) {
		assert_bad("--demo-regress-after", "--demo",
			   "--demo-regress-after", bad_after[i]);
		snprintf(eq, sizeof(eq), "--demo-regress-after=%s",
			 bad_after[i]);
		assert_bad("--demo-regress-after", eq, "--demo");
	}
	/* The settings alone are bad usage: they need --demo. */
	assert_bad("--demo-pps", "--demo-pps", "100");
	assert_bad("--demo", "--demo-pps", "100");
	assert_bad("--demo-regress-after", "-b", "--demo-regress-after", "3");
	assert_bad("--demo", "--demo=1");
	assert_bad("--demo-pps", "--demo", "--demo-pps");
	assert_bad("--demo-regress-after", "--demo", "--demo-regress-after");
}

/* --regress-threshold PCT and --regress-window N: defaults, range, words. */
static void test_regress_options(void **state)
{
	static const char *const bad_pct[] = { "0", "0.5", "1000.5", "1001",
					       "-5", "+30", "30%", "1e2",
					       "", "abc", "0x1e", "3.0.0",
					       "nan", "inf" };
	static const char *const bad_n[] = { "0", "101", "-1", "+3", "3.5",
					     "", "x", "1e1",
					     "99999999999999999999" };
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, (const char *)NULL);
	assert_true(o.regress_threshold == 30.0);
	assert_int_equal(o.regress_window, 3);
	assert_parses(CLI_RUN, &o, "--regress-threshold", "50");
	assert_true(o.regress_threshold == 50.0);
	assert_int_equal(o.regress_window, 3);
	assert_parses(CLI_RUN, &o, "--regress-threshold=12.5");
	assert_true(o.regress_threshold == 12.5);
	assert_parses(CLI_RUN, &o, "--regress-threshold", "1");
	assert_true(o.regress_threshold == 1.0);
	assert_parses(CLI_RUN, &o, "--regress-threshold", "1000");
	assert_true(o.regress_threshold == 1000.0);
	assert_parses(CLI_RUN, &o, "--regress-window", "1");
	assert_int_equal(o.regress_window, 1);
	assert_parses(CLI_RUN, &o, "--regress-window=100");
	assert_int_equal(o.regress_window, 100);
	assert_parses(CLI_RUN, &o, "-b", "--regress-window", "5",
		      "--regress-threshold", "20");
	assert_int_equal(o.regress_window, 5);
	assert_true(o.regress_threshold == 20.0);
	assert_true(o.batch);
	for (size_t i = 0; i < sizeof(bad_pct) / sizeof(bad_pct[0]); i++) {
		char eq[64];

		assert_bad("--regress-threshold", "--regress-threshold",
			   bad_pct[i]);
		snprintf(eq, sizeof(eq), "--regress-threshold=%s", bad_pct[i]);
		assert_bad("--regress-threshold", eq);
	}
	for (size_t i = 0; i < sizeof(bad_n) / sizeof(bad_n[0]); i++)
		assert_bad("--regress-window", "--regress-window", bad_n[i]);
	assert_bad("--regress-window", "--regress-window");
	assert_bad("--regress-threshold", "--regress-threshold");
}

static void test_usage(void **state)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	cli_usage(f);
	fclose(f);
	assert_true(!strncmp(s, "Usage: ebpftop", 14));
	for (size_t i = 0; i < cli_nr_options; i++) {
		char name[64];

		snprintf(name, sizeof(name), "--%s", cli_options[i].long_name);
		assert_non_null(strstr(s, name));
		assert_non_null(cli_options[i].help);
		assert_non_null(strstr(s, cli_options[i].help));
	}
	free(s);
}

/* -p ID, -e LIST and --list-events (the profiler). */
static void test_profile_options(void **state)
{
	static const char *const bad_ids[] = {
		"0", "-1", "abc", "4294967296", "", "1.5", " 3", "3 ", "+3",
		"0x10", "99999999999999999999",
	};
	static const char *const bad_events[] = {
		"", ",", ",cycles", "cycles,", "cycles,,instructions",
		"a,b,c,d,e,f,g,h,i",
	};
	struct ebpftop_opts o;

	assert_parses(CLI_RUN, &o, (const char *)NULL);
	assert_int_equal(o.profile_id, 0);
	assert_null(o.events);
	assert_parses(CLI_RUN, &o, "-p", "42");
	assert_int_equal(o.profile_id, 42);
	assert_parses(CLI_RUN, &o, "--profile=7", "-b");
	assert_int_equal(o.profile_id, 7);
	assert_true(o.batch);
	assert_parses(CLI_RUN, &o, "-p9");
	assert_int_equal(o.profile_id, 9);
	assert_parses(CLI_RUN, &o, "--profile", "4294967295");
	assert_int_equal(o.profile_id, 4294967295u);
	for (size_t i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		assert_bad("--profile", "-p", bad_ids[i]);
		assert_bad("--profile", "--profile", bad_ids[i]);
	}

	/* Names are resolved at start (libpfm4); here only their shape. */
	assert_parses(CLI_RUN, &o, "-e", "default");
	assert_string_equal(o.events, "default");
	assert_parses(CLI_RUN, &o, "--events=cycles,UOPS_ISSUED:ANY", "-p", "3");
	assert_string_equal(o.events, "cycles,UOPS_ISSUED:ANY");
	assert_int_equal(o.profile_id, 3);
	assert_parses(CLI_RUN, &o, "-e", "a,b,c,d,e,f,g,h");
	for (size_t i = 0; i < sizeof(bad_events) / sizeof(bad_events[0]); i++) {
		assert_bad("--events", "-e", bad_events[i]);
		assert_bad("--events", "--events", bad_events[i]);
	}

	assert_parses(CLI_LIST_EVENTS, &o, "--list-events");
	assert_parses(CLI_LIST_EVENTS, &o, "-e", "sw", "--list-events");
	assert_bad("--list-events", "--list-events=1");
	/* Missing arguments name the option. */
	assert_bad("-p", "-p");
	assert_bad("-e", "-e");
	assert_bad("--profile", "--profile");
	assert_bad("--events", "--events");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_delay_good),
		cmocka_unit_test(test_delay_bad),
		cmocka_unit_test(test_iterations),
		cmocka_unit_test(test_ambiguous_prefix),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_sort_option),
		cmocka_unit_test(test_filter_option),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_unknown_and_missing),
		cmocka_unit_test(test_missing_long),
		cmocka_unit_test(test_flag_with_argument),
		cmocka_unit_test(test_small_error_buffer),
		cmocka_unit_test(test_parse_twice),
		cmocka_unit_test(test_demo_options),
		cmocka_unit_test(test_regress_options),
		cmocka_unit_test(test_profile_options),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, NULL, group_teardown);
}
