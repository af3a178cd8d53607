// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names kernel addresses the way the kernel's own symbol lookup does (a
 * binary search), for the call targets of the programs ebpftop shows, and
 * finds __bpf_call_base, the address helper calls are relative to:
 * reading /proc/kallsyms for them costs tens of milliseconds, since the
 * kernel formats every line of it up to the last one wanted. One
 * BPF_PROG_TEST_RUN per batch; the addresses go in and the names come out
 * through the global data, which userspace maps.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "ksym_names.h"

const char call_base_sym[] = "__bpf_call_base";
/* "name+0x0/0x40", "name+0x8/0x40 [module]", or "0x..." when unknown */
const char fmt[] = "%pS";

__u64 call_base;			/* out: 0 when not found */
__u32 n;				/* in: addresses to name */
__u64 addr[KSYM_NAMES_MAX];		/* in */
char name[KSYM_NAMES_MAX][KSYM_NAME_LEN];	/* out */

SEC("syscall")
int ebpftop_ksyms(void *ctx)
{
	__u64 base = 0;

	if (bpf_kallsyms_lookup_name(call_base_sym, sizeof(call_base_sym), 0,
				     &base))
		base = 0;
	call_base = base;
	for (__u32 i = 0; i < KSYM_NAMES_MAX && i < n; i++) {
		__u64 a = addr[i];

		bpf_snprintf(name[i], KSYM_NAME_LEN, fmt, &a, sizeof(a));
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
