// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "util/bpf_prog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "util/msg.h"

uint32_t prog_id_of_fd(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len) ? info.id : 0;
}

int map_info_by_id(uint32_t id, struct bpf_map_info *mi)
{
	__u32 len = sizeof(*mi);
	int fd = bpf_map_get_fd_by_id(id), err = 0;

	if (fd < 0)
		return -errno;
	memset(mi, 0, sizeof(*mi));
	if (bpf_obj_get_info_by_fd(fd, mi, &len))
		err = -errno;
	close(fd);
	return err;
}

int prog_fd_by_id(uint32_t id, char *msg, size_t len)
{
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd >= 0)
		return fd;
	err = -errno;
	if (err == -ENOENT)
		return msg_fail(msg, len, err,
				"program %u does not exist (it may have just been unloaded)",
				id);
	if (err == -EPERM || err == -EACCES)
		return msg_fail(msg, len, err,
				"not allowed to open program %u: run as root (CAP_SYS_ADMIN, CAP_BPF and CAP_PERFMON)",
				id);
	return msg_fail(msg, len, err, "cannot open program %u: %s", id,
			strerror(-err));
}

int prog_btf_name(int fd, const struct bpf_prog_info *info, char *name,
		  size_t len)
{
	struct bpf_func_info finfo = {};
	struct bpf_prog_info fi = {};
	__u32 fi_len = sizeof(fi);
	const struct btf_type *type;
	const char *s;
	struct btf *btf;
	int err = 0;

	if (!info->btf_id || !info->nr_func_info)
		return -ENOENT;
	fi.nr_func_info = 1;
	fi.func_info_rec_size = sizeof(finfo);
	fi.func_info = (__u64)(unsigned long)&finfo;
	if (bpf_obj_get_info_by_fd(fd, &fi, &fi_len))
		return -errno;
	btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!btf)
		return -errno;
	type = btf__type_by_id(btf, finfo.type_id);
	s = type ? btf__name_by_offset(btf, type->name_off) : NULL;
	if (s && *s)
		snprintf(name, len, "%s", s);
	else
		err = -ENOENT;
	btf__free(btf);
	return err;
}
