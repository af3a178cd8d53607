// SPDX-License-Identifier: GPL-2.0-only
/* Option values: whole numbers, delays, program ids, and the groups --hot, --regress-*, --bench and the gate, --demo*. */
#include "config.h"

#include "cli_values.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/regress.h"
#include "util/msg.h"

int cli_parse_delay(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return -EINVAL;
	/* Reject hex floats and the like: plain decimal digits only. */
	if (strspn(s, "0123456789.") != strlen(s))
		return -EINVAL;
	if (v < CLI_DELAY_MIN || v > CLI_DELAY_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

/*
 * A whole number from 1 to @max, in plain decimal digits: -EINVAL if @s is
 * not one, -ERANGE if it is one out of range (0, or above @max).
 */
int cli_parse_count(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, NULL, 10);
	if (errno == ERANGE || v == 0 || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* -p ID: a program id, 1 to 2^32-1. */
int cli_parse_prog_id(const char *s, uint32_t *out)
{
	unsigned long v;

	if (cli_parse_count(s, UINT32_MAX, &v))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* --hot ID, --sample-event EV, --sample-freq HZ (the event is resolved at start). */
static int parse_hot_option(const char *name, const char *arg,
			    struct ebpftop_opts *o, char *err, size_t errlen)
{
	unsigned long v;

	if (!strcmp(name, "hot")) {
		if (cli_parse_prog_id(arg, &o->hot_id))
			return msg_fail(err, errlen, -EINVAL,
				    "--hot: '%s' is not a program id (a whole number from 1 to %u)",
				    arg, UINT32_MAX);
		return 0;
	}
	if (!strcmp(name, "sample-event")) {
		if (!*arg || strchr(arg, ','))
			return msg_fail(err, errlen, -EINVAL,
				    "--sample-event: give one event, not '%s'", arg);
		o->sample_event = arg;
		return 0;
	}
	if (cli_parse_count(arg, CLI_SAMPLE_FREQ_MAX, &v))
		return msg_fail(err, errlen, -EINVAL,
			    "--sample-freq: '%s' is not a whole number of samples per second from 1 to %u",
			    arg, CLI_SAMPLE_FREQ_MAX);
	o->sample_freq = (unsigned int)v;
	return 0;
}

/* --demo, --demo-pps, --demo-regress-after. */
static int parse_demo_option(const char *name, const char *arg,
			     struct ebpftop_opts *o, char *err, size_t errlen)
{
	unsigned long pps;
	double secs;
	char *end;

	if (!strcmp(name, "demo")) {
		o->demo = true;
		return 0;
	}
	if (!strcmp(name, "demo-pps")) {
		if (cli_parse_count(arg, CLI_DEMO_PPS_MAX, &pps))
			return msg_fail(err, errlen, -EINVAL,
				    "--demo-pps: '%s' is not a whole number from 1 to %u",
				    arg, CLI_DEMO_PPS_MAX);
		o->demo_pps = (unsigned int)pps;
		return 0;
	}
	/* Written as --delay is; any time above 0, up to a day. */
	if (!*arg || strspn(arg, "0123456789.") != strlen(arg))
		return msg_fail(err, errlen, -EINVAL,
			    "--demo-regress-after: '%s' is not a decimal number of seconds",
			    arg);
	errno = 0;
	secs = strtod(arg, &end);
	if (errno || end == arg || *end || !(secs > 0.0) ||
	    secs > CLI_DELAY_MAX)
		return msg_fail(err, errlen, -EINVAL,
			    "--demo-regress-after: '%s' is not a number of seconds above 0 and at most %.0f",
			    arg, CLI_DELAY_MAX);
	o->demo_regress_after = secs;
	return 0;
}

/* --regress-threshold PCT and --regress-window N. */
static int parse_regress_option(const char *name, const char *arg,
				struct ebpftop_opts *o, char *err,
				size_t errlen)
{
	unsigned long n;
	char *end;
	double v;

	if (!strcmp(name, "regress-window")) {
		if (cli_parse_count(arg, REGRESS_WINDOW_MAX, &n) ||
		    n < REGRESS_WINDOW_MIN)
			return msg_fail(err, errlen, -EINVAL,
				    "--regress-window: '%s' is not a whole number from %u to %u",
				    arg, REGRESS_WINDOW_MIN, REGRESS_WINDOW_MAX);
		o->regress_window = (unsigned int)n;
		return 0;
	}
	/* Plain decimal digits, as --delay: no sign, exponent or "%". */
	errno = 0;
	v = strtod(arg, &end);
	if (*arg && strspn(arg, "0123456789.") == strlen(arg) && !errno &&
	    end != arg && !*end && v >= REGRESS_THRESHOLD_MIN &&
	    v <= REGRESS_THRESHOLD_MAX) {
		o->regress_threshold = v;
		return 0;
	}
	return msg_fail(err, errlen, -EINVAL,
		    "--regress-threshold: '%s' is not a percentage from %.0f to %.0f",
		    arg, REGRESS_THRESHOLD_MIN, REGRESS_THRESHOLD_MAX);
}

/* NAME=VALUE with a C identifier and a whole number (decimal or 0x hex). */
static int check_bench_set(const char *s, char *err, size_t errlen)
{
	const char *eq = strchr(s, '='), *v;
	size_t n = eq ? (size_t)(eq - s) : 0;
	char *end;

	if (!eq || !n || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") != n ||
	    (*s >= '0' && *s <= '9'))
		return msg_fail(err, errlen, -EINVAL, "--bench-set: '%s' is not NAME=VALUE with NAME a C identifier", s);
	v = eq + 1;
	errno = 0;
	if (*v == '-')
		(void)strtoll(v, &end, 0);
	else
		(void)strtoull(v, &end, 0);
	if (!*v || *end || errno || *v == '+' || *v == ' ')
		return msg_fail(err, errlen, -EINVAL, "--bench-set: '%s' is not a whole number (in '%s')", v, s);
	return 0;
}

static bool is_bench_option(const char *name)
{
	static const char *const names[] = { "bench", "bench-prog", "bench-set",
		"bench-rounds", "bench-round-ms", "pcap", "bmf", "record",
		"compare", "report" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* --bench and the options of the CI gate. */
static int parse_bench_option(const char *name, const char *arg,
			      struct ebpftop_opts *o, char *err, size_t errlen)
{
	unsigned long n;

	if (!strcmp(name, "bench")) {
		if (!*arg)
			return msg_fail(err, errlen, -EINVAL, "--bench: the file name is empty");
		o->bench = arg;
	} else if (!strcmp(name, "bench-prog")) {
		size_t len = strlen(arg);

		if (!len || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
			return msg_fail(err, errlen, -EINVAL, "--bench-prog: empty program name in '%s'", arg);
		o->bench_progs = arg;
	} else if (!strcmp(name, "bench-set")) {
		if (check_bench_set(arg, err, errlen))
			return -EINVAL;
		if (o->nr_bench_sets == CLI_BENCH_SETS_MAX)
			return msg_fail(err, errlen, -EINVAL, "--bench-set: more than %d settings", CLI_BENCH_SETS_MAX);
		o->bench_sets[o->nr_bench_sets++] = arg;
	} else if (!strcmp(name, "bench-rounds")) {
		if (cli_parse_count(arg, 1000, &n))
			return msg_fail(err, errlen, -EINVAL, "--bench-rounds: '%s' is not a whole number from 1 to 1000", arg);
		o->bench_rounds = (unsigned int)n;
	} else if (!strcmp(name, "bench-round-ms")) {
		if (cli_parse_count(arg, 10000, &n))
			return msg_fail(err, errlen, -EINVAL, "--bench-round-ms: '%s' is not a whole number from 1 to 10000", arg);
		o->bench_round_ms = (unsigned int)n;
	} else if (!strcmp(name, "pcap")) {
		if (!*arg)
			return msg_fail(err, errlen, -EINVAL, "--pcap: the file name is empty");
		o->pcap = arg;
	} else if (!strcmp(name, "bmf")) {
		o->bmf = true;
	} else if (!strcmp(name, "record")) {
		if (!*arg)
			return msg_fail(err, errlen, -EINVAL, "--record: the file name is empty");
		o->record = arg;
	} else if (!strcmp(name, "compare")) {
		if (!*arg)
			return msg_fail(err, errlen, -EINVAL, "--compare: the file name is empty");
		o->compare = arg;
	} else if (!strcmp(name, "report")) {
		if (strcmp(arg, "md") && strcmp(arg, "text"))
			return msg_fail(err, errlen, -EINVAL, "--report: unknown format '%s' (use text or md)", arg);
		o->report_md = !strcmp(arg, "md");
	} else {
		return msg_fail(err, errlen, -EINVAL, "unhandled option");
	}
	return 0;
}

/* Which options go together: --bench and live batch mode. */
int cli_check_bench_combination(const struct ebpftop_opts *o, char *err,
				size_t errlen)
{
	const char *gate = o->bmf ? "--bmf" : o->record ? "--record" :
			   o->compare ? "--compare" : NULL;

	if (!o->bench) {
		if (o->bench_progs)
			return msg_fail(err, errlen, -EINVAL, "--bench-prog needs --bench");
		if (o->nr_bench_sets)
			return msg_fail(err, errlen, -EINVAL, "--bench-set needs --bench");
		if (o->bench_rounds)
			return msg_fail(err, errlen, -EINVAL, "--bench-rounds needs --bench");
		if (o->bench_round_ms)
			return msg_fail(err, errlen, -EINVAL, "--bench-round-ms needs --bench");
		if (o->pcap)
			return msg_fail(err, errlen, -EINVAL, "--pcap needs --bench");
		if (gate && !o->batch)
			return msg_fail(err, errlen, -EINVAL, "%s needs --bench, or batch mode (-b) with -n", gate);
		if (gate && !o->iterations)
			return msg_fail(err, errlen, -EINVAL, "%s in batch mode needs -n N (the refreshes to measure)", gate);
		if (gate && o->json)
			return msg_fail(err, errlen, -EINVAL, "%s and --json both want stdout: use -b", gate);
		return 0;
	}
	if (o->batch || o->json)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop -b/-j");
	if (o->demo)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop --demo");
	if (o->profile_id || o->events)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop %s",
				o->profile_id ? "--profile" : "--events");
	if (o->hot_id || o->sample_event)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop %s",
				o->hot_id ? "--hot" : "--sample-event");
	if (o->listen || o->prom_file)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop %s",
				o->listen ? "--listen" : "--prom-file");
	return 0;
}

/*
 * The long-only options of a group, by @name: 0, -EINVAL with @err, or
 * -ENOENT when @name belongs to none.
 */
int cli_parse_group_option(const char *name, const char *arg,
			   struct ebpftop_opts *o, char *err, size_t errlen)
{
	int ret;

	if (!strcmp(name, "hot") || !strncmp(name, "sample-", 7))
		return parse_hot_option(name, arg, o, err, errlen);
	if (!strncmp(name, "regress-", 8)) {
		ret = parse_regress_option(name, arg, o, err, errlen);
		if (!ret && !strcmp(name, "regress-threshold"))
			o->regress_threshold_set = true;
		return ret;
	}
	if (is_bench_option(name))
		return parse_bench_option(name, arg, o, err, errlen);
	if (!strncmp(name, "demo", 4))
		return parse_demo_option(name, arg, o, err, errlen);
	return -ENOENT;
}
