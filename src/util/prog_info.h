/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_PROG_INFO_H
#define EBPFTOP_UTIL_PROG_INFO_H

/*
 * One program's info together with the arrays that describe it (the
 * translated instructions, BTF func_info, JIT symbols and lengths, map
 * ids), read with as few BPF_OBJ_GET_INFO_BY_FD calls as the buffers
 * allow: one, once they have grown to the size of the programs seen.
 * What the program table and the insights reader both need of a new
 * program, so that it is opened and read once.
 */

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

struct btf;

struct prog_info_full {
	struct bpf_prog_info info;	/* the counts are the program's own */
	/*
	 * The arrays, each with how many entries were filled in (at most
	 * the program's count) and its room. JIT symbols and lengths the
	 * kernel does not show this user are zeros.
	 */
	struct bpf_insn *insns;
	uint32_t nr_insns, cap_insns;
	struct bpf_func_info *func_info;
	uint32_t nr_func_info, cap_func_info;
	uint64_t *jited_ksyms;
	uint32_t nr_jited_ksyms, cap_jited_ksyms;
	uint32_t *jited_func_lens;
	uint32_t nr_jited_func_lens, cap_jited_func_lens;
	uint32_t *map_ids;
	uint32_t nr_map_ids, cap_map_ids;
	/* The program's BTF, loaded on first use; freed by the next read. */
	struct btf *btf;
	int btf_err;
};

/*
 * Read program @fd into @f, whose buffers are kept and grown for the next
 * program. 0, or a negative errno (-ENOMEM, or the info call's error).
 */
int prog_info_full_read(int fd, struct prog_info_full *f);

/* The program's BTF (loaded once per read), or NULL without one. */
const struct btf *prog_info_full_btf(struct prog_info_full *f);

/*
 * The name of the program's first function in its BTF: the full name,
 * where the kernel keeps 15 characters. 0 with the name in @name, or
 * -ENOENT (no BTF, or no name in it), @name unchanged.
 */
int prog_info_full_btf_name(struct prog_info_full *f, char *name, size_t len);

void prog_info_full_free(struct prog_info_full *f);

#endif
