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

/* --hot ID, --sample-event EV, --sample-freq HZ (the event is resolved at start). */
static int parse_hot_option(const char *name, const char *arg,
			    struct ebpftop_opts *o, char *err, size_t errlen)
{
	unsigned long v;

	if (!strcmp(name, "hot")) {
		if (parse_prog_id(arg, &o->hot_id))
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
	if (parse_count(arg, CLI_SAMPLE_FREQ_MAX, &v))
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
		if (parse_count(arg, 1000, &n))
			return msg_fail(err, errlen, -EINVAL, "--bench-rounds: '%s' is not a whole number from 1 to 1000", arg);
		o->bench_rounds = (unsigned int)n;
	} else if (!strcmp(name, "bench-round-ms")) {
		if (parse_count(arg, 10000, &n))
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
static int check_bench_combination(const struct ebpftop_opts *o, char *err,
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
	if (o->profile_id)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop --profile");
	if (o->listen || o->prom_file)
		return msg_fail(err, errlen, -EINVAL, "--bench runs on its own: drop %s",
				o->listen ? "--listen" : "--prom-file");
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
			if (c >= OPT_LONG_BASE &&
			    (!strcmp(cli_options[c - OPT_LONG_BASE].long_name, "hot") ||
			     !strncmp(cli_options[c - OPT_LONG_BASE].long_name,
				      "sample-", 7))) {
				ret = parse_hot_option(
					cli_options[c - OPT_LONG_BASE].long_name,
					arg, o, err, errlen);
				if (ret)
					return ret;
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
				if (!strcmp(cli_options[c - OPT_LONG_BASE].long_name,
					    "regress-threshold"))
					o->regress_threshold_set = true;
				break;
			}
			if (c >= OPT_LONG_BASE &&
			    is_bench_option(cli_options[c - OPT_LONG_BASE].long_name)) {
				ret = parse_bench_option(
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
	if (o->quiet && !o->batch)
		return msg_fail(err, errlen, -EINVAL, "--quiet needs -b (the TUI has no per-refresh output to leave out)");
	if (o->quiet && !o->listen && !o->prom_file)
		return msg_fail(err, errlen, -EINVAL, "--quiet needs --listen or --prom-file (otherwise it would do nothing)");
	if (!o->demo_pps)
		o->demo_pps = CLI_DEMO_PPS_DEFAULT;
	if (action == CLI_RUN && check_bench_combination(o, err, errlen))
		return -EINVAL;
	return action;
}
