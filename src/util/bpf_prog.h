/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EBPFTOP_UTIL_BPF_PROG_H
#define EBPFTOP_UTIL_BPF_PROG_H

#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

/* The id of the program behind @fd; 0 if @fd is not one (or < 0). */
uint32_t prog_id_of_fd(int fd);

/* The info of map @id in @mi: 0, or a negative errno (gone, not allowed). */
int map_info_by_id(uint32_t id, struct bpf_map_info *mi);

/*
 * Open program @id: an fd, or a negative errno with the reason in @msg
 * (may be NULL) in words the user can act on.
 */
int prog_fd_by_id(uint32_t id, char *msg, size_t len);

/*
 * The full name of program @fd (@info: its bpf_prog_info) from the BTF of
 * its first function, as bpftool shows it: the kernel keeps only 15
 * characters. 0 with the name in @name, or a negative errno (-ENOENT: the
 * program has no BTF or no name in it), @name unchanged.
 */
int prog_btf_name(int fd, const struct bpf_prog_info *info, char *name,
		  size_t len);

#endif
