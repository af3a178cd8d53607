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

/*
 * One program as seen at one refresh: plain data, no kernel handles. What
 * every refresh reads or writes for every program comes first, together
 * (a refresh of 10,000 programs is bound by cache misses); the name last.
 */
struct prog_sample {
	uint32_t id;
	uint32_t type;			/* enum bpf_prog_type */
	/* What identifies the program across reloads, set with tag and name. */
	uint64_t tag_key;		/* prog_tag_key(tag) */
	uint64_t run_cnt;		/* kernel's cumulative counters */
	uint64_t run_time_ns;
	uint64_t recursion_misses;
	uint64_t name_key;		/* prog_name_key(name) */
	const char *type_name;		/* static string, e.g. "xdp" */
	uint32_t nr_owners;
	uint32_t uid;
	struct prog_owner *owners;	/* owned by the table */
	uint64_t load_time_ns;		/* CLOCK_BOOTTIME at load */
	uint32_t btf_id;
	uint32_t xlated_len;
	uint32_t jited_len;
	uint32_t nr_map_ids;
	char tag[PROG_TAG_LEN];
	char name[PROG_NAME_MAX];	/* full name (BTF) or kernel name; "" if none */
};

/*
 * A tag as a number: its 16 hex digits, or for anything else a hash of
 * the text (tests give made-up tags).
 */
uint64_t prog_tag_key(const char *tag);
/* A name as a number (FNV-1a); "" and NULL alike. */
uint64_t prog_name_key(const char *name);

#endif
