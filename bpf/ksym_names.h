/* SPDX-License-Identifier: GPL-2.0-only */
/* What ksym_names.bpf.c and userspace share: the size of its batches. */
#ifndef EBPFTOP_BPF_KSYM_NAMES_H
#define EBPFTOP_BPF_KSYM_NAMES_H

/* Addresses named per run, and the room for one name. */
#define KSYM_NAMES_MAX 64
#define KSYM_NAME_LEN 160

#endif
