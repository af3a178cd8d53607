// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "profiler/nullprog.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* The kernel's "not supported" (not in userspace errno.h). */
#ifndef ENOTSUPP
#define ENOTSUPP 524
#endif

/* A verdict that lets the packet (or whatever the context is) through. */
static int neutral_verdict(enum bpf_prog_type type)
{
	switch (type) {
	case BPF_PROG_TYPE_XDP:
		return 2;	/* XDP_PASS */
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
	case BPF_PROG_TYPE_SOCK_OPS:
		return 1;	/* allow */
	case BPF_PROG_TYPE_SOCKET_FILTER:
		return -1;	/* keep the whole packet */
	default:
		return 0;
	}
}

int nullprog_load(enum bpf_prog_type type, const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = neutral_verdict(type) },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_func_info fi = { .insn_off = 0 };
	struct btf *btf = btf__new_empty();
	int int_id, ptr_id, proto, fd, err;

	if (!btf)
		return -errno ? -errno : -ENOMEM;
	/* int name(void *ctx) */
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	ptr_id = btf__add_ptr(btf, 0);
	proto = btf__add_func_proto(btf, int_id);
	err = int_id < 0 ? int_id : ptr_id < 0 ? ptr_id : proto < 0 ? proto : 0;
	if (!err)
		err = btf__add_func_param(btf, "ctx", ptr_id);
	if (!err) {
		err = btf__add_func(btf, name, BTF_FUNC_GLOBAL, proto);
		if (err > 0) {
			fi.type_id = (__u32)err;
			err = 0;
		}
	}
	if (!err)
		err = btf__load_into_kernel(btf);
	if (err) {
		btf__free(btf);
		return err < 0 ? err : -EINVAL;
	}
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			    .prog_btf_fd = btf__fd(btf), .func_info = &fi,
			    .func_info_cnt = 1,
			    .func_info_rec_size = sizeof(fi));

		fd = bpf_prog_load(type, name, "GPL", insns,
				   sizeof(insns) / sizeof(insns[0]), &opts);
		err = fd < 0 ? -errno : 0;
	}
	/* The program holds its own reference on the BTF. */
	btf__free(btf);
	return err ? err : fd;
}

int nullprog_test_run(int fd, unsigned int repeat, double *ns_per_run)
{
	unsigned char pkt[64] = { 0 };
	double total = 0.0;
	int err;

	/* Packet programs first; then programs that take no data. */
	for (int with_data = 1; with_data >= 0; with_data--) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .repeat = repeat);

		if (with_data) {
			opts.data_in = pkt;
			opts.data_size_in = sizeof(pkt);
		}
		if (!bpf_prog_test_run_opts(fd, &opts)) {
			*ns_per_run = (double)opts.duration;
			return 0;
		}
		err = -errno;
		if (err != -EINVAL)
			break;
	}
	if (err != -EINVAL)
		return err == -ENOTSUPP || err == -EOPNOTSUPP ? -EOPNOTSUPP : err;
	/* Types that take no repeat count (raw_tp): one run at a time. */
	for (unsigned int i = 0; i < repeat; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts);

		if (bpf_prog_test_run_opts(fd, &opts))
			return errno == EINVAL || errno == ENOTSUPP ||
					       errno == EOPNOTSUPP ?
				       -EOPNOTSUPP :
				       -errno;
		total += (double)opts.duration;
	}
	*ns_per_run = repeat ? total / repeat : 0.0;
	return 0;
}

int nullprog_attach_tracing(int target_fd, int fexit)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_prog_info info = {};
	struct bpf_func_info fi = {};
	__u32 len = sizeof(info);
	int fd, link, err;

	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(fi);
	info.func_info = (__u64)(unsigned long)&fi;
	if (bpf_obj_get_info_by_fd(target_fd, &info, &len))
		return -errno;
	if (!info.btf_id || !info.nr_func_info)
		return -EINVAL;
	{
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			    .expected_attach_type = fexit ? BPF_TRACE_FEXIT :
							    BPF_TRACE_FENTRY,
			    .attach_prog_fd = (__u32)target_fd,
			    .attach_btf_id = fi.type_id);

		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING,
				   fexit ? "bench_fexit" : "bench_fentry", "GPL",
				   insns, sizeof(insns) / sizeof(insns[0]),
				   &opts);
	}
	if (fd < 0)
		return -errno;
	link = bpf_link_create(fd, 0, fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY,
			       NULL);
	err = link < 0 ? -errno : 0;
	/* The link holds the program. */
	close(fd);
	return err ? err : link;
}
