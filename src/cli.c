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

const struct cli_option cli_options[] = {
	{ "delay", 'd', "SECS", "refresh interval in seconds, decimal (default 1.0, minimum 0.1)" },
	{ "iterations", 'n', "N", "exit after N refreshes (TUI and batch)" },
	{ "batch", 'b', NULL, "no TUI: print a text table per refresh to stdout" },
	{ "json", 'j', NULL, "batch output as JSON Lines, one object per refresh (implies -b)" },
	{ "sort", 's', "KEY", "initial sort: cpu (default), nsrun, runs, id, name, type, runcnt, runtime" },
	{ "filter", 'f', "TEXT", "show programs whose name, type or owner contains TEXT" },
	{ "no-stats", 0, NULL, "do not turn run-time stats on at start" },
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
		fprintf(f, "  %-22s %s\n", left, o->help);
	}
	fprintf(f, "\nKeys in the TUI: press h, ? or F1. "
		   "See ebpftop(8) for fields and overhead.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 bad usage.\n");
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
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
			return fail(err, errlen, "option '-%c' needs an argument",
				    optopt);
		if (optopt > ' ' && optopt < 0x7f)
			return fail(err, errlen, "unknown option '-%c'", optopt);
		return fail(err, errlen, "unknown option '%s'", word);
	}
	len = strcspn(word + 2, "=");
	if (c == ':')
		return fail(err, errlen, "option '--%.*s' needs an argument",
			    (int)len, word + 2);
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];

		/* getopt accepts unambiguous prefixes: so do the messages. */
		if (len && !strncmp(o->long_name, word + 2, len) &&
		    word[2 + len] == '=' && !o->arg)
			return fail(err, errlen,
				    "option '--%s' takes no argument",
				    o->long_name);
	}
	return fail(err, errlen, "unknown option '--%.*s'", (int)len, word + 2);
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

static int parse_count(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v == 0 || v > LONG_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

int cli_parse(int argc, char **argv, struct ebpftop_opts *o, char *err,
	      size_t errlen)
{
	struct option longopts[sizeof(cli_options) / sizeof(cli_options[0]) + 1];
	char shortopts[2 * sizeof(cli_options) / sizeof(cli_options[0]) + 2];
	size_t ns = 0;
	int c, action = CLI_RUN;

	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->sort = SORT_CPU;

	shortopts[ns++] = ':';	/* report a missing argument as ':' */
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
				return fail(err, errlen,
					    "--delay: '%s' is out of range (%.1f to %.0f seconds)",
					    arg, CLI_DELAY_MIN, CLI_DELAY_MAX);
			if (ret)
				return fail(err, errlen,
					    "--delay: '%s' is not a decimal number of seconds",
					    arg);
			break;
		case 'n':
			if (parse_count(arg, &o->iterations))
				return fail(err, errlen,
					    "--iterations: '%s' is not a positive whole number",
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
				return fail(err, errlen,
					    "--sort: unknown key '%s' (use one of: %s)",
					    arg, sort_key_names());
			break;
		case 'f':
			o->filter = *arg ? arg : NULL;
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
			return fail(err, errlen, "unhandled option");
		}
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s'", argv[optind]);
	return action;
}
