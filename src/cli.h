/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_CLI_H
#define EBPFTOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opts.h"

enum cli_action {
	CLI_RUN,
	CLI_HELP,
	CLI_VERSION,
	CLI_LIST_EVENTS,	/* --list-events */
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

/*
 * Parse the command line into @o. Returns a cli_action, or -EINVAL with a
 * one-line message (naming the option) in @err.
 */
int cli_parse(int argc, char **argv, struct ebpftop_opts *o, char *err,
	      size_t errlen);
void cli_usage(FILE *f);

#endif
