// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/regress.h"
#include "util/msg.h"

const struct cli_option cli_options[] = {
	{ "delay", 'd', "SECS", "refresh interval in seconds, decimal (default 1.0, minimum 0.1)" },
	{ "iterations", 'n', "N", "exit after N refreshes (TUI and batch)" },
	{ "batch", 'b', NULL, "no TUI: print a text table per refresh to stdout" },
	{ "json", 'j', NULL, "batch output as JSON Lines, one object per refresh (implies -b)" },
	{ "sort", 's', "KEY", "initial sort: cpu (default), nsrun, runs, id, name, type, runcnt, runtime" },
	{ "filter", 'f', "TEXT", "show programs whose name, type or owner contains TEXT" },
	{ "no-stats", 0, NULL, "do not turn run-time stats on at start" },
	{ "regress-threshold", 0, "PCT", "flag a program whose ns/run rises PCT percent or more above its baseline, 1 to 1000 (default 30)" },
	{ "regress-window", 0, "N", "refreshes in a row a rise must last to be flagged (and a recovery to clear it), 1 to 100 (default 3)" },
	{ "demo", 0, NULL, "run the demo workload: an XDP classifier on a private veth pair, fed with UDP traffic" },
	{ "demo-pps", 0, "N", "demo traffic in packets per second, 1 to 1000000 (default 20000; needs --demo)" },
	{ "demo-regress-after", 0, "SECS", "land the demo's regression after SECS seconds, decimal (needs --demo)" },
	{ "profile", 'p', "ID", "profile program ID from the start: fentry/fexit counters per run (TUI and batch)" },
	{ "events", 'e', "LIST", "profiler events, comma-separated: presets default, topdown, cache, tlb, sw, or libpfm4 event strings" },
	{ "list-events", 0, NULL, "print the presets and their event encodings on this machine, then exit" },
	{ "version", 'V', NULL, "print the version and exit" },
	{ "help", 'h', NULL, "print this help and exit" },
};
const size_t cli_nr_options = sizeof(cli_options) / sizeof(cli_options[0]);

/* Long-only options get values above any character. */
#define OPT_LONG_BASE 0x100

static int opt_val(size_t i)
{
	return cli_options[i].short_name ? cli_options[i].short_name :
					   OPT_LONG_BASE + (int)i;
}

void cli_usage(FILE *f)
{
	fprintf(f, "Usage: ebpftop [OPTIONS]\n"
		   "Show every loaded BPF program live: cost per run, runs per "
		   "second, CPU share, owners.\n\nOptions:\n");
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];
		char left[48];

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		/* Long option names get a line of their own. */
		if (strlen(left) > 22)
			fprintf(f, "  %s\n  %-22s %s\n", left, "", o->help);
		else
			fprintf(f, "  %-22s %s\n", left, o->help);
	}
	fprintf(f, "\nKeys in the TUI: press h, ? or F1. "
		   "See ebpftop(8) for fields and overhead.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 bad usage.\n");
}

/*
 * --@name (@len characters) is not an option: unknown, or an abbreviation
 * of more than one (getopt takes a prefix only when one option has it).
 */
static int ambiguous(const char *name, size_t len, char *err, size_t errlen)
{
	char alts[192] = "";
	size_t n = 0, used = 0;

	for (size_t i = 0; len && i < cli_nr_options; i++) {
		const char *l = cli_options[i].long_name;

		if (strncmp(l, name, len))
			continue;
		n++;
		if (used < sizeof(alts))
			used += (size_t)snprintf(alts + used, sizeof(alts) - used,
						 "%s--%s", n > 1 ? ", " : "", l);
	}
	if (n > 1)
		return msg_fail(err, errlen, -EINVAL,
				"option '--%.*s' is ambiguous: it could be %s",
				(int)len, name, alts);
	return msg_fail(err, errlen, -EINVAL, "unknown option '--%.*s'",
			(int)len, name);
}

/*
 * A message for what getopt refused (@c is ':' for a missing argument,
 * '?' otherwise) in argv word @word. glibc's optopt is not enough: for a
 * long option it holds the option's value, which may be any character.
 */
static int bad_option(int c, const char *word, char *err, size_t errlen)
{
	size_t len;

	if (strncmp(word, "--", 2)) {
		if (c == ':')
			return msg_fail(err, errlen, -EINVAL, "option '-%c' needs an argument",
				    optopt);
		if (optopt > ' ' && optopt < 0x7f)
			return msg_fail(err, errlen, -EINVAL, "unknown option '-%c'", optopt);
		return msg_fail(err, errlen, -EINVAL, "unknown option '%s'", word);
	}
	len = strcspn(word + 2, "=");
	if (c == ':')
		return msg_fail(err, errlen, -EINVAL, "option '--%.*s' needs an argument",
			    (int)len, word + 2);
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];

		/* getopt accepts unambiguous prefixes: so do the messages. */
		if (len && !strncmp(o->long_name, word + 2, len) &&
		    word[2 + len] == '=' && !o->arg)
			return msg_fail(err, errlen, -EINVAL,
				    "option '--%s' takes no argument",
				    o->long_name);
	}
	return ambiguous(word + 2, len, err, errlen);
}

static int parse_delay(const char *s, double *out)
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
static int parse_count(const char *s, unsigned long max, unsigned long *out)
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
static int parse_prog_id(const char *s, uint32_t *out)
{
	unsigned long v;

	if (parse_count(s, UINT32_MAX, &v))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/*
 * -e LIST: only its shape here (the names are resolved with libpfm4 at
 * start); at most 8 names, none empty.
 */
static int check_events(const char *s, char *err, size_t errlen)
{
	size_t items = 1;

	if (!*s)
		return msg_fail(err, errlen, -EINVAL, "--events: the list is empty (give presets or event names, comma-separated)");
	for (const char *p = s; *p; p++) {
		if (*p != ',')
			continue;
		if (p == s || !p[1] || p[1] == ',')
			return msg_fail(err, errlen, -EINVAL, "--events: empty event name in '%s'", s);
		items++;
	}
	if (items > 8)
		return msg_fail(err, errlen, -EINVAL, "--events: too many events in '%s' (at most 8 at a time)", s);
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
		if (parse_count(arg, CLI_DEMO_PPS_MAX, &pps))
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
		if (parse_count(arg, REGRESS_WINDOW_MAX, &n) ||
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

int cli_parse(int argc, char **argv, struct ebpftop_opts *o, char *err,
	      size_t errlen)
{
	struct option longopts[sizeof(cli_options) / sizeof(cli_options[0]) + 1];
	char shortopts[2 * sizeof(cli_options) / sizeof(cli_options[0]) + 3];
	size_t ns = 0;
	int c, action = CLI_RUN;

	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->sort = SORT_CPU;
	o->regress_threshold = REGRESS_THRESHOLD_DEFAULT;
	o->regress_window = REGRESS_WINDOW_DEFAULT;

	/* '+': stop at the first operand (there are none); ':': report a
	 * missing argument as ':'. */
	shortopts[ns++] = '+';
	shortopts[ns++] = ':';
	for (size_t i = 0; i < cli_nr_options; i++) {
		longopts[i] = (struct option){
			.name = cli_options[i].long_name,
			.has_arg = cli_options[i].arg ? required_argument :
							no_argument,
			.val = opt_val(i),
		};
		if (cli_options[i].short_name) {
			shortopts[ns++] = cli_options[i].short_name;
			if (cli_options[i].arg)
				shortopts[ns++] = ':';
		}
	}
	memset(&longopts[cli_nr_options], 0, sizeof(longopts[0]));
	shortopts[ns] = '\0';

	optind = 0;	/* full reset: the parser may run more than once */
	opterr = 0;
	for (;;) {
		/* The word being parsed, for messages (optind 0 means 1). */
		const char *word = argv[optind ? optind : 1];
		const char *arg;
		int ret;

		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1)
			break;
		arg = optarg;

		switch (c) {
		case 'd':
			ret = parse_delay(arg, &o->delay_s);
			if (ret == -ERANGE)
				return msg_fail(err, errlen, -EINVAL,
					    "--delay: '%s' is out of range (%.1f to %.0f seconds)",
					    arg, CLI_DELAY_MIN, CLI_DELAY_MAX);
			if (ret)
				return msg_fail(err, errlen, -EINVAL,
					    "--delay: '%s' is not a decimal number of seconds",
					    arg);
			break;
		case 'n':
			ret = parse_count(arg, CLI_ITERATIONS_MAX,
					  &o->iterations);
			if (ret == -ERANGE)
				return msg_fail(err, errlen, -EINVAL,
						"--iterations: '%s' is out of range (1 to %lu)",
						arg, CLI_ITERATIONS_MAX);
			if (ret)
				return msg_fail(err, errlen, -EINVAL,
						"--iterations: '%s' is not a whole number",
						arg);
			break;
		case 'b':
			o->batch = true;
			break;
		case 'j':
			o->json = true;
			o->batch = true;
			break;
		case 's':
			if (sort_key_parse(arg, &o->sort))
				return msg_fail(err, errlen, -EINVAL,
					    "--sort: unknown key '%s' (use one of: %s)",
					    arg, sort_key_names());
			break;
		case 'f':
			o->filter = *arg ? arg : NULL;
			break;
		case 'p':
			if (parse_prog_id(arg, &o->profile_id))
				return msg_fail(err, errlen, -EINVAL,
					    "--profile: '%s' is not a program id (a whole number from 1 to %u)",
					    arg, UINT32_MAX);
			break;
		case 'e':
			if (check_events(arg, err, errlen))
				return -EINVAL;
			o->events = arg;
			break;
		case 'V':
			action = CLI_VERSION;
			break;
		case 'h':
			action = CLI_HELP;
			break;
		case ':':
		case '?':
			return bad_option(c, word, err, errlen);
		default:
			if (c >= OPT_LONG_BASE &&
			    !strcmp(cli_options[c - OPT_LONG_BASE].long_name,
				    "no-stats")) {
				o->no_stats = true;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    !strcmp(cli_options[c - OPT_LONG_BASE].long_name,
				    "list-events")) {
				action = CLI_LIST_EVENTS;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    !strncmp(cli_options[c - OPT_LONG_BASE].long_name,
				     "regress-", 8)) {
				ret = parse_regress_option(
					cli_options[c - OPT_LONG_BASE].long_name,
					arg, o, err, errlen);
				if (ret)
					return ret;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    !strncmp(cli_options[c - OPT_LONG_BASE].long_name,
				     "demo", 4)) {
				ret = parse_demo_option(
					cli_options[c - OPT_LONG_BASE].long_name,
					arg, o, err, errlen);
				if (ret)
					return ret;
				break;
			}
			return msg_fail(err, errlen, -EINVAL, "unhandled option");
		}
	}
	if (optind < argc)
		return msg_fail(err, errlen, -EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!o->demo && o->demo_pps)
		return msg_fail(err, errlen, -EINVAL, "--demo-pps needs --demo");
	if (!o->demo && o->demo_regress_after > 0.0)
		return msg_fail(err, errlen, -EINVAL, "--demo-regress-after needs --demo");
	if (!o->demo_pps)
		o->demo_pps = CLI_DEMO_PPS_DEFAULT;
	return action;
}
