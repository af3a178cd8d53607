// SPDX-License-Identifier: GPL-2.0-only
/* One program's info and arrays, in one BPF_OBJ_GET_INFO_BY_FD once the buffers fit. */
#include "config.h"

#include "util/prog_info.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/quiet.h"

/*
 * Room for most programs from the first call on: 4,096 instructions are
 * 32 KiB; a program larger than what the buffers hold costs a second call,
 * and the buffers keep the larger size for the next one.
 */
#define FIRST_INSNS 4096u
#define FIRST_ENTRIES 64u

static int grow(void **buf, uint32_t *cap, uint32_t need, size_t size)
{
	size_t n;
	void *b;

	if (need <= *cap)
		return 0;
	n = (size_t)need + need / 4;
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	b = realloc(*buf, n * size);
	if (!b)
		return -ENOMEM;
	*buf = b;
	*cap = (uint32_t)n;
	return 0;
}

/* Room for the counts in @in (the program's own), or -ENOMEM. */
static int grow_all(struct prog_info_full *f, const struct bpf_prog_info *in)
{
	if (grow((void **)&f->insns, &f->cap_insns,
		 in->xlated_prog_len / sizeof(*f->insns), sizeof(*f->insns)) ||
	    grow((void **)&f->func_info, &f->cap_func_info, in->nr_func_info,
		 sizeof(*f->func_info)) ||
	    grow((void **)&f->jited_ksyms, &f->cap_jited_ksyms,
		 in->nr_jited_ksyms, sizeof(*f->jited_ksyms)) ||
	    grow((void **)&f->jited_func_lens, &f->cap_jited_func_lens,
		 in->nr_jited_func_lens, sizeof(*f->jited_func_lens)) ||
	    grow((void **)&f->map_ids, &f->cap_map_ids, in->nr_map_ids,
		 sizeof(*f->map_ids)))
		return -ENOMEM;
	return 0;
}

static bool fits(const struct prog_info_full *f, const struct bpf_prog_info *in)
{
	return in->xlated_prog_len / sizeof(*f->insns) <= f->cap_insns &&
	       in->nr_func_info <= f->cap_func_info &&
	       in->nr_jited_ksyms <= f->cap_jited_ksyms &&
	       in->nr_jited_func_lens <= f->cap_jited_func_lens &&
	       in->nr_map_ids <= f->cap_map_ids;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

int prog_info_full_read(int fd, struct prog_info_full *f)
{
	struct bpf_prog_info *in = &f->info;

	btf__free(f->btf);
	f->btf = NULL;
	f->btf_err = 0;
	/* Buffers given room already keep it (tests start them small). */
	if ((!f->cap_insns && grow((void **)&f->insns, &f->cap_insns, FIRST_INSNS,
				   sizeof(*f->insns))) ||
	    (!f->cap_func_info && grow((void **)&f->func_info, &f->cap_func_info,
				       FIRST_ENTRIES, sizeof(*f->func_info))) ||
	    (!f->cap_jited_ksyms && grow((void **)&f->jited_ksyms,
					 &f->cap_jited_ksyms, FIRST_ENTRIES,
					 sizeof(*f->jited_ksyms))) ||
	    (!f->cap_jited_func_lens &&
	     grow((void **)&f->jited_func_lens, &f->cap_jited_func_lens,
		  FIRST_ENTRIES, sizeof(*f->jited_func_lens))) ||
	    (!f->cap_map_ids && grow((void **)&f->map_ids, &f->cap_map_ids,
				     FIRST_ENTRIES, sizeof(*f->map_ids))))
		return -ENOMEM;
	/*
	 * The instructions and functions of a loaded program do not change;
	 * its maps may (BPF_PROG_BIND_MAP adds some): after a few tries,
	 * take what fitted.
	 */
	for (int tries = 0;; tries++) {
		__u32 len = sizeof(*in);

		memset(in, 0, sizeof(*in));
		in->xlated_prog_len = f->cap_insns * (uint32_t)sizeof(*f->insns);
		in->xlated_prog_insns = (__u64)(unsigned long)f->insns;
		in->nr_func_info = f->cap_func_info;
		in->func_info_rec_size = sizeof(*f->func_info);
		in->func_info = (__u64)(unsigned long)f->func_info;
		in->nr_jited_ksyms = f->cap_jited_ksyms;
		in->jited_ksyms = (__u64)(unsigned long)f->jited_ksyms;
		in->nr_jited_func_lens = f->cap_jited_func_lens;
		in->jited_func_lens = (__u64)(unsigned long)f->jited_func_lens;
		in->nr_map_ids = f->cap_map_ids;
		in->map_ids = (__u64)(unsigned long)f->map_ids;
		if (bpf_obj_get_info_by_fd(fd, in, &len))
			return -errno;
		if (fits(f, in) || tries == 3)
			break;
		if (grow_all(f, in))
			return -ENOMEM;
	}
	f->nr_insns = min_u32(in->xlated_prog_len / sizeof(*f->insns),
			      f->cap_insns);
	f->nr_func_info = min_u32(in->nr_func_info, f->cap_func_info);
	f->nr_jited_ksyms = min_u32(in->nr_jited_ksyms, f->cap_jited_ksyms);
	f->nr_jited_func_lens = min_u32(in->nr_jited_func_lens,
					f->cap_jited_func_lens);
	f->nr_map_ids = min_u32(in->nr_map_ids, f->cap_map_ids);
	/* Addresses the kernel hides from this user: it says so with NULL. */
	if (!in->jited_ksyms)
		memset(f->jited_ksyms, 0,
		       f->nr_jited_ksyms * sizeof(*f->jited_ksyms));
	if (!in->jited_func_lens)
		memset(f->jited_func_lens, 0,
		       f->nr_jited_func_lens * sizeof(*f->jited_func_lens));
	return 0;
}

const struct btf *prog_info_full_btf(struct prog_info_full *f)
{
	libbpf_print_fn_t old;

	if (f->btf || f->btf_err || !f->info.btf_id)
		return f->btf;
	old = libbpf_quiet();
	f->btf = btf__load_from_kernel_by_id(f->info.btf_id);
	libbpf_set_print(old);
	if (!f->btf)
		f->btf_err = errno ? -errno : -ENOENT;
	return f->btf;
}

int prog_info_full_btf_name(struct prog_info_full *f, char *name, size_t len)
{
	const struct btf_type *type;
	const struct btf *btf;
	const char *s;

	if (!f->nr_func_info)
		return -ENOENT;
	btf = prog_info_full_btf(f);
	if (!btf)
		return -ENOENT;
	type = btf__type_by_id(btf, f->func_info[0].type_id);
	s = type ? btf__name_by_offset(btf, type->name_off) : NULL;
	if (!s || !*s)
		return -ENOENT;
	snprintf(name, len, "%s", s);
	return 0;
}

void prog_info_full_free(struct prog_info_full *f)
{
	if (!f)
		return;
	btf__free(f->btf);
	free(f->insns);
	free(f->func_info);
	free(f->jited_ksyms);
	free(f->jited_func_lens);
	free(f->map_ids);
	memset(f, 0, sizeof(*f));
}
