// SPDX-License-Identifier: GPL-2.0-only
/* --bench's object: the ELF check, which programs run, --bench-set globals. */
#include "config.h"

#include "bench/object.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/msg.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif

void bench_object_label(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 6 && !strcmp(base + n - 6, ".bpf.o"))
		n -= 6;
	else if (n > 2 && !strcmp(base + n - 2, ".o"))
		n -= 2;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/* A readable ELF file for the BPF machine, or -EINVAL with the reason. */
int bench_check_elf(const char *path, char *err, size_t errlen)
{
	unsigned char h[EI_NIDENT + 4];
	ssize_t n;
	int fd, machine;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(err, errlen, -EINVAL, "--bench: cannot open '%s': %s",
				path, strerror(errno));
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG))
		return msg_fail(err, errlen, -EINVAL,
				"--bench: '%s' is not a BPF object (not an ELF file)",
				path);
	machine = h[EI_DATA] == ELFDATA2MSB ? h[18] << 8 | h[19] :
					     h[19] << 8 | h[18];
	if (machine != EM_BPF)
		return msg_fail(err, errlen, -EINVAL,
				"--bench: '%s' is not a BPF object (ELF for machine %d, not BPF)",
				path, machine);
	return 0;
}

/* Types BPF_PROG_TEST_RUN runs on a packet. */
static bool takes_packet(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

static const char *why_not(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_SK_LOOKUP:
	case BPF_PROG_TYPE_STRUCT_OPS:
		return "BPF_PROG_TEST_RUN runs it on a context, not a packet";
	case BPF_PROG_TYPE_TRACING:
		return "fentry/fexit and other tracing programs need a target, not a packet";
	default:
		return "BPF_PROG_TEST_RUN cannot run this type";
	}
}

static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");

		if (l == n && !strncmp(p, name, n))
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

/* Every name of the list is a program of @obj. */
static int check_names(struct bpf_object *obj, const char *path,
		       const char *list, char *err, size_t errlen)
{
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		struct bpf_program *prog;
		bool found = false;
		char names[200] = "";
		size_t o = 0;

		bpf_object__for_each_program(prog, obj) {
			const char *n = bpf_program__name(prog);

			if (strlen(n) == l && !strncmp(n, p, l))
				found = true;
			if (o < sizeof(names))
				o += (size_t)snprintf(names + o, sizeof(names) - o,
						      "%s%s", o ? ", " : "", n);
		}
		if (!found)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-prog: no program '%.*s' in '%s' (it has: %s)",
					(int)l, p, path, *names ? names : "none");
		bpf_object__for_each_program(prog, obj) {
			const char *n = bpf_program__name(prog);
			enum bpf_prog_type t = bpf_program__type(prog);

			if (strlen(n) == l && !strncmp(n, p, l) && !takes_packet(t))
				return msg_fail(err, errlen, -EINVAL,
						"--bench-prog: '%s' is a %s program: %s",
						n, libbpf_bpf_prog_type_str(t) ?: "?",
						why_not(t));
		}
		p += l + (p[l] == ',');
	}
	return 0;
}

/* ---- --bench-set: globals --------------------------------------------------- */

/* The map holding datasec @sec ("<obj prefix>.bss" for ".bss"), or NULL. */
static struct bpf_map *datasec_map(struct bpf_object *obj, const char *sec)
{
	struct bpf_map *map, *prefix = NULL;

	bpf_object__for_each_map(map, obj) {
		const char *dot = strchr(bpf_map__name(map), '.');

		if (!bpf_map__is_internal(map) || !dot)
			continue;
		if (!strcmp(dot, sec))
			return map;
		/* Long section names are cut to fit 15 characters. */
		if (!strncmp(sec, dot, strlen(dot)) && !prefix)
			prefix = map;
	}
	return prefix;
}

static int set_global(struct bpf_object *obj, const char *path,
		      const char *assign, char *err, size_t errlen)
{
	const char *eq = strchr(assign, '=');
	const struct btf *btf = bpf_object__btf(obj);
	size_t nlen = eq ? (size_t)(eq - assign) : 0;
	const char *value = eq ? eq + 1 : "";
	unsigned int nr = btf ? btf__type_cnt(btf) : 0;
	char name[128];

	snprintf(name, sizeof(name), "%.*s", (int)nlen, assign);
	for (unsigned int id = 1; id < nr; id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs;
		const struct btf_type *t;
		struct bpf_map *map;
		unsigned char *data;
		const void *init;
		size_t size;
		int64_t sv = 0;
		uint64_t uv = 0;
		bool is_signed;
		char *end;
		int ret;

		if (!btf_is_datasec(sec))
			continue;
		vs = btf_var_secinfos(sec);
		for (unsigned int i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);

			if (btf_is_var(var) &&
			    !strcmp(btf__name_by_offset(btf, var->name_off), name))
				break;
		}
		if (vs == btf_var_secinfos(sec) + btf_vlen(sec))
			continue;
		map = datasec_map(obj, btf__name_by_offset(btf, sec->name_off));
		if (!map)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: '%s' is in section %s, which has no map",
					name, btf__name_by_offset(btf, sec->name_off));
		t = btf__type_by_id(btf, btf__type_by_id(btf, vs->type)->type);
		while (t && (btf_is_mod(t) || btf_is_typedef(t)))
			t = btf__type_by_id(btf, t->type);
		if (!t || !(btf_is_int(t) || btf_is_enum(t)) ||
		    (btf_is_int(t) && btf_int_offset(t)))
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: '%s' is not an integer", name);
		is_signed = btf_is_int(t) ? btf_int_encoding(t) & BTF_INT_SIGNED :
					    btf_kflag(t);
		size = vs->size;
		if (size != 1 && size != 2 && size != 4 && size != 8)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: '%s' is a %zu-byte integer (1, 2, 4 or 8 supported)",
					name, size);
		errno = 0;
		if (*value == '-') {
			sv = strtoll(value, &end, 0);
			uv = (uint64_t)sv;
		} else {
			uv = strtoull(value, &end, 0);
			sv = (int64_t)uv;
		}
		if (!*value || *end || errno)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: '%s' is not a whole number (for '%s')",
					value, name);
		if (is_signed ? (*value == '-' ?
					 size < 8 && sv < -(INT64_C(1) << (size * 8 - 1)) :
					 (size < 8 ? uv >= UINT64_C(1) << (size * 8 - 1) :
						     uv > INT64_MAX)) :
				(*value == '-' ||
				 (size < 8 && uv >> (size * 8))))
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: %s does not fit '%s' (%s %zu-byte integer)",
					value, name, is_signed ? "signed" : "unsigned",
					size);
		init = bpf_map__initial_value(map, &size);
		if (!init || vs->offset + vs->size > size)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: cannot set '%s' in %s", name,
					bpf_map__name(map));
		data = malloc(size);
		if (!data)
			return -ENOMEM;
		memcpy(data, init, size);
		/* Host byte order: the object was built for this machine. */
		switch (vs->size) {
		case 1: { uint8_t v = (uint8_t)uv; memcpy(data + vs->offset, &v, 1); break; }
		case 2: { uint16_t v = (uint16_t)uv; memcpy(data + vs->offset, &v, 2); break; }
		case 4: { uint32_t v = (uint32_t)uv; memcpy(data + vs->offset, &v, 4); break; }
		default: memcpy(data + vs->offset, &uv, 8); break;
		}
		ret = bpf_map__set_initial_value(map, data, size);
		free(data);
		if (ret)
			return msg_fail(err, errlen, -EINVAL,
					"--bench-set: cannot set '%s' in %s: %s", name,
					bpf_map__name(map), strerror(-ret));
		return 0;
	}
	return msg_fail(err, errlen, -EINVAL,
			"--bench-set: no global variable '%s' in '%s'%s", name, path,
			btf ? "" : " (it has no BTF)");
}

/*
 * Check the names --bench-prog gives, mark which programs load (those that
 * take a packet, of those named), append every program to @r (with the
 * reason it is not run) and set the --bench-set globals.
 */
int bench_object_prepare(struct bpf_object *obj, const struct bench_config *c,
			 struct bench_result *r, char *err, size_t errlen)
{
	struct bpf_program *prog;
	size_t runnable = 0;
	int ret;

	if (c->progs) {
		ret = check_names(obj, c->path, c->progs, err, errlen);
		if (ret)
			return ret;
	}
	bpf_object__for_each_program(prog, obj) {
		enum bpf_prog_type t = bpf_program__type(prog);
		bool want = takes_packet(t) &&
			    (!c->progs || in_list(c->progs, bpf_program__name(prog)));
		struct bench_prog *p;

		bpf_program__set_autoload(prog, want);
		p = bench_result_add(r, bpf_program__name(prog),
				     libbpf_bpf_prog_type_str(t) ?: "unknown");
		if (!p)
			return msg_fail(err, errlen, -ENOMEM, "out of memory");
		if (!takes_packet(t))
			snprintf(p->reason, sizeof(p->reason), "%s", why_not(t));
		else if (!want)
			snprintf(p->reason, sizeof(p->reason), "not named by --bench-prog");
		runnable += want;
	}
	if (!runnable)
		return msg_fail(err, errlen, -EINVAL,
				"--bench: no program in '%s' can be run with a packet (xdp, sched_cls, socket_filter, cgroup_skb, lwt_*, flow_dissector)",
				c->path);
	for (size_t i = 0; i < c->nr_sets; i++) {
		ret = set_global(obj, c->path, c->sets[i], err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
