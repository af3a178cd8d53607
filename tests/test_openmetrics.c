// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exporter's pure parts: escaping, numbers, Accept negotiation, the
 * two exposition formats built from a made-up refresh, --listen's
 * address syntax and the export options.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "cli.h"
#include "export/listen_addr.h"
#include "export/metrics.h"
#include "export/openmetrics.h"
#include "hot/report.h"

/* The text of @s escaped as a label value (or HELP, @help) in format @f. */
static char *escaped(const char *s, bool help, enum om_format f)
{
	struct om_buf b = {};

	om_escape(&b, s, help, f);
	om_buf_put(&b, "", 1);
	assert_false(b.oom);
	return b.p;
}

#define assert_escaped(in, help, f, want)                        \
	do {                                                     \
		char *got_ = escaped(in, help, f);               \
		assert_string_equal(got_, want);                 \
		free(got_);                                      \
	} while (0)

static void test_escape(void **state)
{
	assert_escaped("plain_name.1", false, OM_FORMAT_OPENMETRICS,
		       "plain_name.1");
	assert_escaped("a\\b\"c\nd", false, OM_FORMAT_OPENMETRICS,
		       "a\\\\b\\\"c\\nd");
	assert_escaped("a\\b\"c\nd", false, OM_FORMAT_TEXT, "a\\\\b\\\"c\\nd");
	/* HELP: the text format escapes only backslash and line feed. */
	assert_escaped("say \"hi\"\\\n", true, OM_FORMAT_TEXT,
		       "say \"hi\"\\\\\\n");
	assert_escaped("say \"hi\"", true, OM_FORMAT_OPENMETRICS,
		       "say \\\"hi\\\"");
	/* Valid UTF-8 passes; anything else becomes U+FFFD, byte by byte. */
	assert_escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9d", false,
		       OM_FORMAT_OPENMETRICS,
		       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x9d");
	assert_escaped("a\xff" "b", false, OM_FORMAT_OPENMETRICS,
		       "a\xef\xbf\xbd" "b");
	assert_escaped("\xc0\xaf", false, OM_FORMAT_OPENMETRICS,
		       "\xef\xbf\xbd\xef\xbf\xbd");
	/* A surrogate, and a sequence cut short by the end of the string. */
	assert_escaped("\xed\xa0\x80", false, OM_FORMAT_OPENMETRICS,
		       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	assert_escaped("x\xe2\x82", false, OM_FORMAT_OPENMETRICS,
		       "x\xef\xbf\xbd\xef\xbf\xbd");
}

static void test_double(void **state)
{
	static const double vals[] = { 0.1, 3.1e-07, 1e300, 123456789.125,
				       2.0 / 3.0, 5e-324, 1.7976931348623157e308 };
	char buf[40];

	om_format_double(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	om_format_double(buf, sizeof(buf), 3.1e-07);
	assert_string_equal(buf, "3.1e-07");
	om_format_double(buf, sizeof(buf), 2.0);
	assert_string_equal(buf, "2");
	om_format_double(buf, sizeof(buf), NAN);
	assert_string_equal(buf, "NaN");
	om_format_double(buf, sizeof(buf), INFINITY);
	assert_string_equal(buf, "+Inf");
	om_format_double(buf, sizeof(buf), -INFINITY);
	assert_string_equal(buf, "-Inf");
	/* Every value reads back exactly. */
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		om_format_double(buf, sizeof(buf), vals[i]);
		assert_true(strtod(buf, NULL) == vals[i]);
	}
}

static char *one_sample_ns(uint64_t ns)
{
	struct om_writer w;
	struct om_buf out = {};

	om_writer_init(&w);
	om_family(&w, "x_seconds", OM_GAUGE, "seconds", "h", true);
	om_sample(&w);
	om_value_ns_as_s(&w, ns);
	assert_int_equal(om_render(&w, OM_FORMAT_TEXT, &out), 0);
	om_buf_put(&out, "", 1);
	om_writer_free(&w);
	return out.p;
}

static void test_ns_as_seconds(void **state)
{
	char *s;

	s = one_sample_ns(0);
	assert_non_null(strstr(s, "\nx_seconds 0.000000000\n"));
	free(s);
	s = one_sample_ns(1000000002ull);
	assert_non_null(strstr(s, "\nx_seconds 1.000000002\n"));
	free(s);
	s = one_sample_ns(UINT64_MAX);
	assert_non_null(strstr(s, "\nx_seconds 18446744073.709551615\n"));
	free(s);
}

static void test_negotiate(void **state)
{
	/* What Prometheus 2.x sends by default. */
	const char *prom = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

	assert_int_equal(om_negotiate(NULL), OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate(""), OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate("*/*"), OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate("text/plain"), OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate(prom), OM_FORMAT_OPENMETRICS);
	assert_int_equal(om_negotiate("application/openmetrics-text"),
			 OM_FORMAT_OPENMETRICS);
	assert_int_equal(om_negotiate(" Application/OpenMetrics-Text ; Version=1.0.0 ; charset=utf-8"),
			 OM_FORMAT_OPENMETRICS);
	/* Only the draft version: we do not claim to speak it. */
	assert_int_equal(om_negotiate("application/openmetrics-text; version=0.0.1"),
			 OM_FORMAT_TEXT);
	/* Preferences by q. */
	assert_int_equal(om_negotiate("text/plain;q=0.9,application/openmetrics-text;q=0.5"),
			 OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate("text/plain;q=0.5,application/openmetrics-text;q=0.9"),
			 OM_FORMAT_OPENMETRICS);
	assert_int_equal(om_negotiate("application/openmetrics-text;q=0"),
			 OM_FORMAT_TEXT);
	/* Malformed q: the range is ignored. */
	assert_int_equal(om_negotiate("application/openmetrics-text;q=2"),
			 OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate("application/openmetrics-text;q=abc,text/plain"),
			 OM_FORMAT_TEXT);
	assert_int_equal(om_negotiate(",,;;=,application/json"), OM_FORMAT_TEXT);
	assert_string_equal(om_content_type(OM_FORMAT_OPENMETRICS),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
	assert_string_equal(om_content_type(OM_FORMAT_TEXT),
			    "text/plain; version=0.0.4; charset=utf-8");
}

/* ---- a refresh, rendered ------------------------------------------------- */

static struct prog_owner owners_a[] = {
	{ 100, "agent" }, { 101, "agent" }, { 102, "we\"ird\\" },
};

static struct prog_sample samples[2] = {
	{ .id = 42, .type_name = "xdp", .name = "xdp_fizzbuzz", .tag = "6c007da3187b5b32",
	  .run_cnt = 1234567, .run_time_ns = 386120000ull, .recursion_misses = 3,
	  .nr_owners = 3, .owners = owners_a },
	{ .id = 7, .type_name = "socket_filter", .name = "odd\"name\\\nx",
	  .tag = "0011223344556677", .run_cnt = 0, .run_time_ns = 0 },
};

static void make_snapshot(struct snapshot *s, struct prog_row rows[2],
			  struct profile_report *prof)
{
	memset(s, 0, sizeof(*s));
	memset(rows, 0, 2 * sizeof(rows[0]));
	rows[0].s = &samples[0];
	rows[0].reg.active = true;
	rows[0].reg.baseline_ns = 310.0;
	rows[1].s = &samples[1];
	rows[1].reg.baseline_ns = NAN;
	s->rows = rows;
	s->nr_rows = 2;
	s->stats_on = true;
	s->stats = "on";
	s->seq = 9;
	s->profile = prof;
	if (prof) {
		memset(prof, 0, sizeof(*prof));
		prof->id = 42;
		prof->runs = 1000;
		prof->partial_runs = 10;
		prof->nr_events = 2;
		snprintf(prof->ev[0].name, sizeof(prof->ev[0].name), "cycles");
		prof->ev[0].total = 81234567;
		prof->ev[0].enabled_pct = 100.0;
		snprintf(prof->ev[1].name, sizeof(prof->ev[1].name), "instructions");
		prof->ev[1].total = 91234567;
		prof->ev[1].enabled_pct = NAN;
		prof->overhead_ns_per_run = 25.0;
	}
}

static char *render(const struct snapshot *s, enum om_format f)
{
	struct om_writer w;
	struct om_buf out = {};

	om_writer_init(&w);
	assert_int_equal(metrics_build(&w, s, 0.0125), 0);
	assert_int_equal(om_render(&w, f, &out), 0);
	om_buf_put(&out, "", 1);
	om_writer_free(&w);
	return out.p;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

#define assert_line(text, line)                                        \
	do {                                                           \
		if (!has_line(text, line))                             \
			fail_msg("missing line: %s\n--- in ---\n%s", line, text); \
	} while (0)
#define assert_no_line(text, line)                                     \
	do {                                                           \
		if (has_line(text, line))                              \
			fail_msg("unexpected line: %s", line);         \
	} while (0)

/*
 * Structure every exposition must have: families not interleaved (each
 * sample's name belongs to the latest # TYPE), metadata at most once per
 * family, lines end with \n, and # EOF last for OpenMetrics only.
 */
static void check_structure(const char *text, enum om_format f)
{
	char family[128] = "", seen[64][128];
	size_t nseen = 0, len = strlen(text);
	const char *p = text;

	assert_true(len > 0 && text[len - 1] == '\n');
	if (f == OM_FORMAT_OPENMETRICS)
		assert_true(len >= 6 && !strcmp(text + len - 6, "# EOF\n"));
	else
		assert_null(strstr(text, "# EOF"));
	if (f == OM_FORMAT_TEXT)
		assert_null(strstr(text, "# UNIT"));
	while (*p) {
		const char *nl = strchr(p, '\n');
		char line[1024];

		assert_non_null(nl);
		assert_true((size_t)(nl - p) < sizeof(line));
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		p = nl + 1;
		if (!strncmp(line, "# TYPE ", 7)) {
			sscanf(line + 7, "%127s", family);
			for (size_t i = 0; i < nseen; i++)
				if (!strcmp(seen[i], family))
					fail_msg("family %s twice", family);
			assert_true(nseen < 64);
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", family);
			continue;
		}
		if (line[0] == '#') {
			assert_true(!strncmp(line, "# HELP ", 7) ||
				    !strncmp(line, "# UNIT ", 7) ||
				    !strcmp(line, "# EOF"));
			continue;
		}
		/* A sample: its name starts with the family's. */
		if (strncmp(line, family, strlen(family)))
			fail_msg("sample '%s' outside its family %s", line, family);
	}
}

static void test_exposition_openmetrics(void **state)
{
	struct profile_report prof;
	struct prog_row rows[2];
	struct snapshot s;
	char *t;

	make_snapshot(&s, rows, &prof);
	t = render(&s, OM_FORMAT_OPENMETRICS);
	check_structure(t, OM_FORMAT_OPENMETRICS);
	assert_line(t, "# TYPE ebpftop_program info");
	assert_line(t, "ebpftop_program_info{prog_id=\"42\",prog_name=\"xdp_fizzbuzz\",prog_type=\"xdp\",tag=\"6c007da3187b5b32\"} 1");
	assert_line(t, "ebpftop_program_info{prog_id=\"7\",prog_name=\"odd\\\"name\\\\\\nx\",prog_type=\"socket_filter\",tag=\"0011223344556677\"} 1");
	assert_line(t, "# TYPE ebpftop_program_runs counter");
	assert_line(t, "ebpftop_program_runs_total{prog_id=\"42\"} 1234567");
	assert_line(t, "ebpftop_program_runs_total{prog_id=\"7\"} 0");
	assert_line(t, "# TYPE ebpftop_program_run_time_seconds counter");
	assert_line(t, "# UNIT ebpftop_program_run_time_seconds seconds");
	assert_line(t, "ebpftop_program_run_time_seconds_total{prog_id=\"42\"} 0.386120000");
	assert_line(t, "ebpftop_program_recursion_misses_total{prog_id=\"42\"} 3");
	assert_line(t, "ebpftop_program_regressed{prog_id=\"42\"} 1");
	assert_line(t, "ebpftop_program_regressed{prog_id=\"7\"} 0");
	assert_line(t, "ebpftop_program_regression_baseline_seconds{prog_id=\"42\"} 3.1e-07");
	/* Still learning: no sample rather than a NaN. */
	assert_null(strstr(t, "ebpftop_program_regression_baseline_seconds{prog_id=\"7\"}"));
	/* Owners: one series per command name. */
	assert_line(t, "# TYPE ebpftop_program_owner info");
	assert_line(t, "ebpftop_program_owner_info{prog_id=\"42\",comm=\"agent\"} 1");
	assert_line(t, "ebpftop_program_owner_info{prog_id=\"42\",comm=\"we\\\"ird\\\\\"} 1");
	assert_int_equal(strstr(strstr(t, "comm=\"agent\"") + 1, "comm=\"agent\"") ==
				 NULL, 1);
	assert_line(t, "ebpftop_bpf_stats_enabled 1");
	assert_line(t, "ebpftop_programs 2");
	assert_line(t, "# TYPE ebpftop_refreshes counter");
	assert_line(t, "ebpftop_refreshes_total 9");
	assert_line(t, "# UNIT ebpftop_refresh_duration_seconds seconds");
	assert_line(t, "ebpftop_refresh_duration_seconds 0.0125");
	/* The profile. */
	assert_line(t, "ebpftop_profile_runs_total{prog_id=\"42\"} 1000");
	assert_line(t, "ebpftop_profile_partial_runs_total{prog_id=\"42\"} 10");
	assert_line(t, "ebpftop_profile_events_total{prog_id=\"42\",event=\"cycles\"} 81234567");
	assert_line(t, "ebpftop_profile_events_total{prog_id=\"42\",event=\"instructions\"} 91234567");
	assert_line(t, "ebpftop_profile_event_running_ratio{prog_id=\"42\",event=\"cycles\"} 1");
	assert_null(strstr(t, "running_ratio{prog_id=\"42\",event=\"instructions\"}"));
	assert_line(t, "ebpftop_profile_overhead_seconds{prog_id=\"42\"} 2.5e-08");
	/* No label named type alone, no averages. */
	assert_null(strstr(t, ",type=\""));
	assert_null(strstr(t, "{type=\""));
	assert_null(strstr(t, "per_run"));
	free(t);
}

static void test_exposition_text(void **state)
{
	struct prog_row rows[2];
	struct snapshot s;
	char *t;

	make_snapshot(&s, rows, NULL);
	t = render(&s, OM_FORMAT_TEXT);
	check_structure(t, OM_FORMAT_TEXT);
	/* The text format names the samples in TYPE; info becomes a gauge. */
	assert_line(t, "# TYPE ebpftop_program_info gauge");
	assert_line(t, "# TYPE ebpftop_program_runs_total counter");
	assert_line(t, "# TYPE ebpftop_program_run_time_seconds_total counter");
	assert_line(t, "# TYPE ebpftop_program_owner_info gauge");
	assert_line(t, "# TYPE ebpftop_program_regressed gauge");
	assert_no_line(t, "# TYPE ebpftop_program info");
	/* Same samples as OpenMetrics. */
	assert_line(t, "ebpftop_program_runs_total{prog_id=\"42\"} 1234567");
	assert_line(t, "ebpftop_program_run_time_seconds_total{prog_id=\"42\"} 0.386120000");
	/* Without a profile there are no profile families at all. */
	assert_null(strstr(t, "ebpftop_profile"));
	free(t);
}

static void test_exposition_hot(void **state)
{
	struct hot_report_line lines[2] = {
		{ .file = "/src/prog.bpf.c", .line = 42, .subprog = "xdp_main",
		  .samples = 300, .pct = 75.0 },
		{ .file = NULL, .line = 0, .subprog = "helper\"x", .samples = 100,
		  .pct = 25.0 },
	};
	struct hot_report h = { .id = 42, .window_s = 5.0, .samples_in_prog = 400,
				.nr_lines = 2, .lines = lines };
	struct prog_row rows[2];
	struct snapshot s;
	char *t;

	make_snapshot(&s, rows, NULL);
	s.hot = &h;
	t = render(&s, OM_FORMAT_OPENMETRICS);
	check_structure(t, OM_FORMAT_OPENMETRICS);
	assert_line(t, "# UNIT ebpftop_hot_window_seconds seconds");
	assert_line(t, "ebpftop_hot_window_seconds{prog_id=\"42\"} 5");
	assert_line(t, "ebpftop_hot_samples{prog_id=\"42\"} 400");
	assert_line(t, "ebpftop_hot_line_ratio{prog_id=\"42\",file=\"prog.bpf.c\",line=\"42\",subprog=\"xdp_main\"} 0.75");
	assert_line(t, "ebpftop_hot_line_ratio{prog_id=\"42\",file=\"\",line=\"0\",subprog=\"helper\\\"x\"} 0.25");
	free(t);
	s.hot = NULL;
	t = render(&s, OM_FORMAT_OPENMETRICS);
	assert_null(strstr(t, "ebpftop_hot"));
	free(t);
}

static void test_exposition_empty(void **state)
{
	struct snapshot s;
	char *t;

	memset(&s, 0, sizeof(s));
	s.stats_on = false;
	s.stats = "off";
	t = render(&s, OM_FORMAT_OPENMETRICS);
	check_structure(t, OM_FORMAT_OPENMETRICS);
	assert_line(t, "ebpftop_bpf_stats_enabled 0");
	assert_line(t, "ebpftop_programs 0");
	/* Families are described even with no program loaded. */
	assert_line(t, "# TYPE ebpftop_program_runs counter");
	free(t);
}

/* ---- --listen and the export options ----------------------------------------- */

static void test_listen_addr(void **state)
{
	struct listen_addr a;
	char err[256];

	assert_int_equal(listen_addr_parse("9100", &a, err, sizeof(err)), 0);
	assert_string_equal(a.host, "127.0.0.1");
	assert_int_equal(a.port, 9100);
	assert_int_equal(a.family, AF_INET);
	assert_int_equal(listen_addr_parse("0.0.0.0:1", &a, err, sizeof(err)), 0);
	assert_string_equal(a.host, "0.0.0.0");
	assert_int_equal(a.port, 1);
	assert_int_equal(listen_addr_parse("localhost:65535", &a, err, sizeof(err)), 0);
	assert_string_equal(a.host, "127.0.0.1");
	assert_int_equal(a.port, 65535);
	assert_int_equal(listen_addr_parse("[::1]:9100", &a, err, sizeof(err)), 0);
	assert_string_equal(a.host, "::1");
	assert_int_equal(a.family, AF_INET6);
	assert_int_equal(listen_addr_parse("[0:0::1]:80", &a, err, sizeof(err)), 0);
	assert_string_equal(a.host, "::1");

	static const char *const bad[] = {
		"", "0", "65536", "99999999", "-1", "+80", "80a", "0x50", ":80",
		"1.2.3:80", "256.1.1.1:80", "example.com:80", "::1:9100",
		"[::1]", "[::1]9100", "[127.0.0.1]:80", "[::1]:", "1.2.3.4:",
		"1.2.3.4:0", " 80",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (!listen_addr_parse(bad[i], &a, err, sizeof(err)))
			fail_msg("'%s' was accepted", bad[i]);
		assert_non_null(strstr(err, "--listen"));
	}
}

static int parse(char *err, size_t errlen, struct ebpftop_opts *o, ...)
{
	static char *pool[16];
	char *argv[16];
	int argc = 0, ret;
	va_list ap;

	/* getopt keeps pointers into argv: the strings outlive the parse. */
	for (size_t i = 0; i < 16; i++) {
		free(pool[i]);
		pool[i] = NULL;
	}
	pool[argc] = strdup("ebpftop");
	argv[argc] = pool[argc];
	argc++;
	va_start(ap, o);
	for (const char *a; (a = va_arg(ap, const char *)) && argc < 15; argc++) {
		pool[argc] = strdup(a);
		argv[argc] = pool[argc];
	}
	va_end(ap);
	argv[argc] = NULL;
	ret = cli_parse(argc, argv, o, err, errlen);
	return ret;
}

static void test_options(void **state)
{
	struct ebpftop_opts o;
	char err[256];

	assert_int_equal(parse(err, sizeof(err), &o, "--listen", "9100", NULL), CLI_RUN);
	assert_true(o.listen);
	assert_int_equal(o.listen_addr.port, 9100);
	assert_false(o.quiet);
	assert_int_equal(parse(err, sizeof(err), &o, "-b", "-q", "--listen=[::]:9", NULL),
			 CLI_RUN);
	assert_true(o.quiet && o.batch && o.listen);
	assert_int_equal(parse(err, sizeof(err), &o, "-bq", "--prom-file", "/x/y.prom", NULL),
			 CLI_RUN);
	assert_string_equal(o.prom_file, "/x/y.prom");
	assert_false(o.listen);

	assert_int_equal(parse(err, sizeof(err), &o, "-q", "--listen", "9100", NULL), -EINVAL);
	assert_non_null(strstr(err, "--quiet"));
	assert_int_equal(parse(err, sizeof(err), &o, "-b", "-q", NULL), -EINVAL);
	assert_non_null(strstr(err, "--quiet"));
	assert_int_equal(parse(err, sizeof(err), &o, "--listen", "x:1", NULL), -EINVAL);
	assert_non_null(strstr(err, "--listen"));
	assert_int_equal(parse(err, sizeof(err), &o, "--listen", NULL), -EINVAL);
	assert_non_null(strstr(err, "--listen"));
	assert_int_equal(parse(err, sizeof(err), &o, "--bench", "x.bpf.o", "--listen", "9100", NULL), -EINVAL);
	assert_non_null(strstr(err, "--listen"));
	assert_int_equal(parse(err, sizeof(err), &o, "--bench", "x.bpf.o", "--prom-file", "x", NULL), -EINVAL);
	assert_non_null(strstr(err, "--prom-file"));
	assert_int_equal(parse(err, sizeof(err), &o, "--prom-file=", NULL), -EINVAL);
	assert_non_null(strstr(err, "--prom-file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_ns_as_seconds),
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_exposition_openmetrics),
		cmocka_unit_test(test_exposition_text),
		cmocka_unit_test(test_exposition_hot),
		cmocka_unit_test(test_exposition_empty),
		cmocka_unit_test(test_listen_addr),
		cmocka_unit_test(test_options),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	struct ebpftop_opts o;
	char err[8];

	parse(err, sizeof(err), &o, NULL);	/* frees the last strings */
	return ret;
}
