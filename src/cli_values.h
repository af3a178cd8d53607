/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_CLI_VALUES_H
#define EBPFTOP_CLI_VALUES_H

/*
 * Private to the command line: cli.c parses argv, cli_values.c the values
 * and the option groups. Other modules use cli.h.
 */

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

/* Seconds in plain decimal: -EINVAL, or -ERANGE outside the -d range. */
int cli_parse_delay(const char *s, double *out);

/*
 * A whole number from 1 to @max, in plain decimal digits: -EINVAL if @s is
 * not one, -ERANGE if it is one out of range (0, or above @max).
 */
int cli_parse_count(const char *s, unsigned long max, unsigned long *out);

/* A program id, 1 to 2^32-1: 0 or -EINVAL. */
int cli_parse_prog_id(const char *s, uint32_t *out);

/*
 * The long-only options of a group (--hot and --sample-*, --regress-*,
 * --bench and the gate, --demo*), by @name: 0, -EINVAL with @err, or
 * -ENOENT when @name belongs to none.
 */
int cli_parse_group_option(const char *name, const char *arg,
			   struct ebpftop_opts *o, char *err, size_t errlen);

/* Which options go together: --bench and live batch mode. 0 or -EINVAL. */
int cli_check_bench_combination(const struct ebpftop_opts *o, char *err,
				size_t errlen);

#endif
