// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "collect/prog_table.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "util/bpf_prog.h"

static const char *str_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

static void link_target(int fd, struct bpf_link_info *li, char *buf,
			size_t len)
{
	char ifname[IF_NAMESIZE] = "", tp[64] = "";

	switch (li->type) {
	case BPF_LINK_TYPE_XDP:
		if (!if_indextoname(li->xdp.ifindex, ifname))
			snprintf(ifname, sizeof(ifname), "?");
		snprintf(buf, len, "xdp on %s (ifindex %u)", ifname,
			 li->xdp.ifindex);
		break;
	case BPF_LINK_TYPE_CGROUP:
		snprintf(buf, len, "%s on cgroup %llu",
			 str_or(libbpf_bpf_attach_type_str(li->cgroup.attach_type), "?"),
			 (unsigned long long)li->cgroup.cgroup_id);
		break;
	case BPF_LINK_TYPE_TRACING:
		snprintf(buf, len, "%s, target btf object %u type %u",
			 str_or(libbpf_bpf_attach_type_str(li->tracing.attach_type), "?"),
			 li->tracing.target_obj_id, li->tracing.target_btf_id);
		break;
	case BPF_LINK_TYPE_RAW_TRACEPOINT:
		/* The name needs a second call with a buffer. */
		memset(li, 0, sizeof(*li));
		li->raw_tracepoint.tp_name = (__u64)(unsigned long)tp;
		li->raw_tracepoint.tp_name_len = sizeof(tp);
		{
			__u32 l = sizeof(*li);

			if (bpf_obj_get_info_by_fd(fd, li, &l))
				tp[0] = '\0';
		}
		snprintf(buf, len, "raw_tracepoint %s", tp[0] ? tp : "?");
		break;
	case BPF_LINK_TYPE_NETNS:
		snprintf(buf, len, "%s in netns %u",
			 str_or(libbpf_bpf_attach_type_str(li->netns.attach_type), "?"),
			 li->netns.netns_ino);
		break;
	default:
		snprintf(buf, len, "%s",
			 str_or(libbpf_bpf_link_type_str(li->type), "link"));
		break;
	}
}

static int add_link(struct prog_detail *d, uint32_t id, uint32_t type,
		    const char *target)
{
	struct prog_link_ref *n;

	n = realloc(d->links, (d->nr_links + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	d->links = n;
	n = &d->links[d->nr_links++];
	n->id = id;
	n->type = type;
	snprintf(n->target, sizeof(n->target), "%s", target);
	return 0;
}

static int find_links(uint32_t prog_id, struct prog_detail *d)
{
	__u32 id = 0;
	int err = 0;

	while (!err) {
		struct bpf_link_info li = {};
		__u32 len = sizeof(li);
		char target[96];
		int fd;

		if (bpf_link_get_next_id(id, &id))
			return errno == ENOENT ? 0 : -errno;
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &li, &len) &&
		    li.prog_id == prog_id) {
			uint32_t type = li.type;

			link_target(fd, &li, target, sizeof(target));
			err = add_link(d, id, type, target);
		}
		close(fd);
	}
	return err;
}

int prog_detail_fetch(uint32_t id, struct prog_detail *d)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), *ids = NULL;
	int fd, err = 0;

	memset(d, 0, sizeof(*d));
	fd = prog_fd_by_id(id, NULL, 0);
	if (fd < 0)
		return fd;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	d->verified_insns = info.verified_insns;
	d->gpl = info.gpl_compatible;
	if (info.nr_map_ids) {
		__u32 nr = info.nr_map_ids;

		ids = calloc(nr, sizeof(*ids));
		d->maps = calloc(nr, sizeof(*d->maps));
		if (!ids || !d->maps) {
			err = -ENOMEM;
			goto out;
		}
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = nr;
		info.map_ids = (__u64)(unsigned long)ids;
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
			err = -errno;
			goto out;
		}
		if (info.nr_map_ids < nr)
			nr = info.nr_map_ids;
		for (__u32 i = 0; i < nr; i++) {
			struct prog_map_ref *m = &d->maps[d->nr_maps++];
			struct bpf_map_info mi;

			m->id = ids[i];
			if (!map_info_by_id(ids[i], &mi)) {
				m->type = mi.type;
				snprintf(m->name, sizeof(m->name), "%s", mi.name);
			}
		}
	}
	err = find_links(id, d);
out:
	free(ids);
	close(fd);
	if (err)
		prog_detail_free(d);
	return err;
}

void prog_detail_free(struct prog_detail *d)
{
	free(d->maps);
	free(d->links);
	memset(d, 0, sizeof(*d));
}
