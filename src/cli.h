/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_CLI_H
#define EBPFTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/sort.h"

struct ebpftop_opts {
	double delay_s;		/* refresh interval */
	unsigned long iterations; /* 0: run until quit */
	bool batch;
	bool json;
	bool no_stats;
	enum sort_key sort;
	const char *filter;	/* NULL: everything */
};

enum cli_action {
	CLI_RUN,
	CLI_HELP,
	CLI_VERSION,
};

/* One documented option; the table drives getopt, --help and a test. */
struct cli_option {
	const char *long_name;
	char short_name;	/* 0 if none */
	const char *arg;	/* argument name, NULL if none */
	const char *help;
};

extern const struct cli_option cli_options[];
extern const size_t cli_nr_options;

#define CLI_DELAY_MIN 0.1
#define CLI_DELAY_MAX 86400.0

/*
 * Parse the command line into @o. Returns a cli_action, or -EINVAL with a
 * one-line message (naming the option) in @err.
 */
int cli_parse(int argc, char **argv, struct ebpftop_opts *o, char *err,
	      size_t errlen);
void cli_usage(FILE *f);

#endif
