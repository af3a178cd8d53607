// SPDX-License-Identifier: GPL-2.0-only
/*
 * profiler_state ID: what ebpftop's profiler has on program ID, for the
 * shell tests: "links N progs M", the tracing links attached to it and the
 * profiler's programs for its function (attached or not, calibration
 * included). Both 0: nothing of a profile is left. Exit 1 when ID has no
 * BTF function, 2 on bad usage.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

int main(int argc, char **argv)
{
	unsigned long id;
	uint32_t func;
	char *end;

	errno = 0;
	id = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
	if (argc != 2 || errno || *end || !id || id > UINT32_MAX) {
		fprintf(stderr, "usage: profiler_state PROGRAM-ID\n");
		return 2;
	}
	func = tu_prog_func((uint32_t)id);
	if (!func) {
		fprintf(stderr, "profiler_state: program %lu has no BTF function\n",
			id);
		return 1;
	}
	printf("links %zu progs %zu\n", tu_tracing_links((uint32_t)id, NULL, 0),
	       tu_profiler_progs(func));
	return 0;
}
