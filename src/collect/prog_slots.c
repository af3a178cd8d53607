// SPDX-License-Identifier: GPL-2.0-only
/* The program table's slots: growing them, and one program's sample from BPF_OBJ_GET_INFO_BY_FD. */
#include "config.h"

#include "collect/prog_slots.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util/bpf_prog.h"
#include "util/prog_info.h"

int prog_slots_grow(struct prog_table *t, size_t need, bool scratch)
{
	if (need > t->cap) {
		size_t cap = need < 64 ? 64 : need + need / 2;
		struct slot *a = realloc(t->slots, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		t->slots = a;
		t->cap = cap;
	}
	if (scratch && t->scratch_cap < t->cap) {
		struct slot *b = realloc(t->scratch, t->cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		t->scratch = b;
		t->scratch_cap = t->cap;
	}
	return 0;
}

static void tag_hex(const unsigned char tag[BPF_TAG_SIZE], char *out)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < BPF_TAG_SIZE; i++) {
		out[2 * i] = hex[tag[i] >> 4];
		out[2 * i + 1] = hex[tag[i] & 0xf];
	}
	out[2 * BPF_TAG_SIZE] = '\0';
}

/* How sample_fill() left the name. */
enum name_state { NAME_KEPT, NAME_KERNEL, NAME_ASK_BTF };

/*
 * @s from @info. The name is @old's (NAME_KEPT, with its key), or the
 * kernel's, which may be cut short (NAME_ASK_BTF): then BTF may know the
 * full name. Either way the caller sets name_key.
 */
static enum name_state sample_fill(const struct bpf_prog_info *info,
			const struct prog_sample *old, struct prog_sample *s)
{
	size_t nlen;

	memset(s, 0, sizeof(*s));
	s->id = info->id;
	s->type = info->type;
	s->type_name = libbpf_bpf_prog_type_str(info->type);
	if (!s->type_name)
		s->type_name = "unknown";
	tag_hex(info->tag, s->tag);
	s->run_cnt = info->run_cnt;
	s->run_time_ns = info->run_time_ns;
	s->recursion_misses = info->recursion_misses;
	s->load_time_ns = info->load_time;
	s->uid = info->created_by_uid;
	s->btf_id = info->btf_id;
	s->xlated_len = info->xlated_prog_len;
	s->jited_len = info->jited_prog_len;
	s->nr_map_ids = info->nr_map_ids;
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		s->tag_key = s->tag_key << 8 | info->tag[i];	/* prog_tag_key() */
	if (old && !strcmp(old->tag, s->tag)) {
		memcpy(s->name, old->name, sizeof(s->name));
		s->name_key = old->name_key;
		return NAME_KEPT;
	}
	nlen = strnlen(info->name, sizeof(info->name) - 1);
	memcpy(s->name, info->name, nlen);	/* s->name was zeroed */
	/* The kernel keeps 15 characters: BTF may know more. */
	return nlen >= BPF_OBJ_NAME_LEN - 1 || !nlen ? NAME_ASK_BTF : NAME_KERNEL;
}

int prog_sample_read(int fd, const struct prog_sample *old,
		     struct prog_sample *s)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	switch (sample_fill(&info, old, s)) {
	case NAME_KEPT:
		return 0;
	case NAME_ASK_BTF:
		prog_btf_name(fd, &info, s->name, sizeof(s->name));
		break;
	case NAME_KERNEL:
		break;
	}
	s->name_key = prog_name_key(s->name);
	return 0;
}

int prog_sample_read_full(int fd, struct prog_info_full *f,
			  struct prog_sample *s)
{
	int err = prog_info_full_read(fd, f);

	if (err)
		return err;
	if (sample_fill(&f->info, NULL, s) == NAME_ASK_BTF)
		prog_info_full_btf_name(f, s->name, sizeof(s->name));
	s->name_key = prog_name_key(s->name);
	return 0;
}

int prog_sample_read_new(struct prog_table *t, int fd, struct prog_sample *s)
{
	if (!t->on_new)
		return prog_sample_read(fd, NULL, s);
	if (!t->full) {
		t->full = calloc(1, sizeof(*t->full));
		if (!t->full)
			return -ENOMEM;
	}
	return prog_sample_read_full(fd, t->full, s);
}

void prog_sample_announce(struct prog_table *t)
{
	if (t->on_new)
		t->on_new(t->on_new_ctx, t->full);
}
