// SPDX-License-Identifier: GPL-2.0-only
/* The command line: the option table, --help, and parsing argv into ebpftop_opts. */
#include "config.h"

#include "cli.h"
#include "cli_values.h"

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
	{ "sort", 's', "KEY", "initial sort" },	/* the keys follow, from the column table */
	{ "filter", 'f', "TEXT", "show programs whose name, type or owner contains TEXT" },
	{ "no-stats", 0, NULL, "do not turn run-time stats on at start" },
	{ "regress-threshold", 0, "PCT", "flag a program whose ns/run rises PCT percent or more above its baseline, 1 to 1000 (default 30; 25 with --compare)" },
	{ "regress-window", 0, "N", "refreshes in a row a rise must last to be flagged (and a recovery to clear it), 1 to 100 (default 3)" },
	{ "demo", 0, NULL, "run the demo workload: an XDP classifier on a private veth pair, fed with UDP traffic" },
	{ "demo-pps", 0, "N", "demo traffic in packets per second, 1 to 1000000 (default 20000; needs --demo)" },
	{ "demo-regress-after", 0, "SECS", "land the demo's regression after SECS seconds, decimal (needs --demo)" },
	{ "profile", 'p', "ID", "profile program ID from the start: fentry/fexit counters per run (TUI and batch)" },
	{ "events", 'e', "LIST", "profiler events, comma-separated: presets default, topdown, cache, tlb, sw, or libpfm4 event strings" },
	{ "hot", 0, "ID", "sample program ID from the start and attribute its time to source lines (TUI and batch; key a)" },
	{ "sample-event", 0, "EV", "the event --hot and key a sample: a libpfm4 event string (default cycles where a PMU counts them, else cpu-clock)" },
	{ "sample-freq", 0, "HZ", "samples per second per CPU for --hot and key a, 1 to 1000000 and at most kernel.perf_event_max_sample_rate (default 4000)" },
	{ "listen", 0, "[ADDR:]PORT", "serve Prometheus metrics at http://ADDR:PORT/metrics while running (ADDR defaults to 127.0.0.1)" },
	{ "prom-file", 0, "PATH", "write the Prometheus text exposition to PATH atomically after every refresh" },
	{ "quiet", 'q', NULL, "with -b: print nothing per refresh (a headless exporter with --listen or --prom-file)" },
	{ "list-events", 0, NULL, "print the presets and their event encodings on this machine, then exit" },
	{ "bench", 0, "FILE", "benchmark the packet programs of BPF object FILE with BPF_PROG_TEST_RUN, then exit" },
	{ "bench-prog", 0, "NAMES", "benchmark only these programs of the object, comma-separated" },
	{ "bench-set", 0, "NAME=VALUE", "set integer global NAME (.rodata, .data, .bss) of the object before load; repeatable" },
	{ "bench-rounds", 0, "K", "benchmark rounds per program, 1 to 1000 (default 10)" },
	{ "bench-round-ms", 0, "MS", "target length of one round in milliseconds, 1 to 10000 (default 75)" },
	{ "pcap", 0, "FILE", "feed the benchmark every packet of this capture (Ethernet) instead of the built-in IPv4/UDP set" },
	{ "bmf", 0, NULL, "write Bencher Metric Format JSON to stdout (--bench, or -b with -n)" },
	{ "record", 0, "FILE", "write the measurements as a baseline to FILE (--bench, or -b with -n)" },
	{ "compare", 0, "FILE", "judge this run against baseline FILE; exit 3 if a program regressed" },
	{ "report", 0, "FORMAT", "benchmark tables as text (default) or md (Markdown, for CI job summaries)" },
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
		const char *help = o->help;
		char left[48], keys[160], sort_help[200];

		if (o->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 o->short_name, o->long_name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->long_name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->short_name == 's') {
			snprintf(sort_help, sizeof(sort_help), "%s: %s", o->help,
				 col_sort_names(keys, sizeof(keys), CLI_SORT_DEFAULT));
			help = sort_help;
		}
		/* Long option names get a line of their own. */
		if (strlen(left) > 22)
			fprintf(f, "  %s\n  %-22s %s\n", left, "", help);
		else
			fprintf(f, "  %-22s %s\n", left, help);
	}
	fprintf(f, "\nKeys in the TUI: press h, ? or F1. "
		   "See ebpftop(8) for fields and overhead.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 bad usage, 3 --compare found\n"
		   "a regression.\n");
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


int cli_parse(int argc, char **argv, struct ebpftop_opts *o, char *err,
	      size_t errlen)
{
	struct option longopts[sizeof(cli_options) / sizeof(cli_options[0]) + 1];
	char shortopts[2 * sizeof(cli_options) / sizeof(cli_options[0]) + 3];
	size_t ns = 0;
	int c, action = CLI_RUN;

	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->sort = CLI_SORT_DEFAULT;
	o->regress_threshold = REGRESS_THRESHOLD_DEFAULT;
	o->regress_window = REGRESS_WINDOW_DEFAULT;
	o->sample_freq = CLI_SAMPLE_FREQ_DEFAULT;

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
			ret = cli_parse_delay(arg, &o->delay_s);
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
			ret = cli_parse_count(arg, CLI_ITERATIONS_MAX,
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
		case 's': {
			char keys[160];

			if (col_parse_sort(arg, &o->sort))
				return msg_fail(err, errlen, -EINVAL,
					    "--sort: unknown key '%s' (use one of: %s)",
					    arg, col_sort_names(keys, sizeof(keys),
								COL__MAX));
			break;
		}
		case 'f':
			o->filter = *arg ? arg : NULL;
			break;
		case 'p':
			if (cli_parse_prog_id(arg, &o->profile_id))
				return msg_fail(err, errlen, -EINVAL,
					    "--profile: '%s' is not a program id (a whole number from 1 to %u)",
					    arg, UINT32_MAX);
			break;
		case 'e':
			if (check_events(arg, err, errlen))
				return -EINVAL;
			o->events = arg;
			break;
		case 'q':
			o->quiet = true;
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
				    "listen")) {
				if (listen_addr_parse(arg, &o->listen_addr, err,
						      errlen))
					return -EINVAL;
				o->listen = true;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    !strcmp(cli_options[c - OPT_LONG_BASE].long_name,
				    "prom-file")) {
				if (!*arg)
					return msg_fail(err, errlen, -EINVAL,
							"--prom-file: the path is empty");
				o->prom_file = arg;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    !strcmp(cli_options[c - OPT_LONG_BASE].long_name,
				    "list-events")) {
				action = CLI_LIST_EVENTS;
				break;
			}
			if (c >= OPT_LONG_BASE) {
				ret = cli_parse_group_option(
					cli_options[c - OPT_LONG_BASE].long_name,
					arg, o, err, errlen);
				if (ret != -ENOENT) {
					if (ret)
						return ret;
					break;
				}
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
	if (o->quiet && !o->batch)
		return msg_fail(err, errlen, -EINVAL, "--quiet needs -b (the TUI has no per-refresh output to leave out)");
	if (o->quiet && !o->listen && !o->prom_file)
		return msg_fail(err, errlen, -EINVAL, "--quiet needs --listen or --prom-file (otherwise it would do nothing)");
	if (!o->demo_pps)
		o->demo_pps = CLI_DEMO_PPS_DEFAULT;
	if (action == CLI_RUN && cli_check_bench_combination(o, err, errlen))
		return -EINVAL;
	return action;
}
