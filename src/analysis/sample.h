/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_ANALYSIS_SAMPLE_H
#define EBPFTOP_ANALYSIS_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#define PROG_NAME_MAX 128
#define PROG_TAG_LEN 17		/* 8 bytes in hex plus NUL */
#define PROG_COMM_LEN 16

struct prog_owner {
	uint32_t pid;		/* thread group id */
	char comm[PROG_COMM_LEN];
};

/* One program as seen at one refresh: plain data, no kernel handles. */
struct prog_sample {
	uint32_t id;
	uint32_t type;			/* enum bpf_prog_type */
	const char *type_name;		/* static string, e.g. "xdp" */
	char name[PROG_NAME_MAX];	/* full name (BTF) or kernel name; "" if none */
	char tag[PROG_TAG_LEN];
	uint64_t run_cnt;		/* kernel's cumulative counters */
	uint64_t run_time_ns;
	uint64_t recursion_misses;
	uint64_t load_time_ns;		/* CLOCK_BOOTTIME at load */
	uint32_t uid;
	uint32_t btf_id;
	uint32_t xlated_len;
	uint32_t jited_len;
	uint32_t nr_map_ids;
	uint32_t nr_owners;
	struct prog_owner *owners;	/* owned by the table */
};

#endif
