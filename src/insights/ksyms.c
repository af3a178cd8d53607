// SPDX-License-Identifier: GPL-2.0-only
/* Names of call targets: kernel symbols from /proc/kallsyms, helper names from the kernel BTF. */
#include "config.h"

#include "insights/reader_impl.h"
#include "util/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/btf.h>

/* bpftool's generated code does arithmetic on void pointers. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "ksym_names.lskel.h"
#include "bpf/ksym_names.h"
#pragma GCC diagnostic pop
#include "util/quiet.h"

static const char *intern(struct insights *in, const char *s)
{
	char *d;

	for (size_t i = 0; i < in->nr_names; i++)
		if (!strcmp(in->names[i], s))
			return in->names[i];
	if (ARRAY_GROW(in->names, in->cap_names, in->nr_names + 1, 64))
		return NULL;
	d = strdup(s);
	if (!d)
		return NULL;
	in->names[in->nr_names++] = d;
	return d;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Bytes that follow a struct btf_type of @kind with @vlen entries. */
static long btf_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return (long)sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)(vlen * sizeof(struct btf_member));
	case BTF_KIND_ENUM:
		return (long)(vlen * sizeof(struct btf_enum));
	case BTF_KIND_FUNC_PROTO:
		return (long)(vlen * sizeof(struct btf_param));
	case BTF_KIND_DATASEC:
		return (long)(vlen * sizeof(struct btf_var_secinfo));
	case BTF_KIND_ENUM64:
		return (long)(vlen * sizeof(struct btf_enum64));
	default:
		return 0;
	}
}

/* String @off of the string section at @base, into @buf. */
static bool btf_str(int fd, off_t base, uint32_t off, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, base + (off_t)off);

	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

/*
 * The helper names the running kernel knows: enum bpf_func_id in its BTF.
 * The kernel's BTF is read as a stream, one type at a time, rather than
 * loaded whole: that would cost several MiB for one enum.
 */
static void read_helper_names(struct insights *in)
{
	struct btf_header hdr;
	off_t strs;
	long pos = 0;
	FILE *f;

	in->helpers_read = true;
	f = fopen("/sys/kernel/btf/vmlinux", "re");
	if (!f)
		return;
	if (fread(&hdr, sizeof(hdr), 1, f) != 1 || hdr.magic != BTF_MAGIC ||
	    fseek(f, (long)hdr.hdr_len + (long)hdr.type_off, SEEK_SET))
		goto out;
	strs = (off_t)hdr.hdr_len + hdr.str_off;
	while (pos < (long)hdr.type_len) {
		struct btf_type t;
		uint32_t kind, vlen;
		char name[16], ename[128];
		long extra;

		if (fread(&t, sizeof(t), 1, f) != 1)
			break;
		kind = BTF_INFO_KIND(t.info);
		vlen = BTF_INFO_VLEN(t.info);
		extra = btf_extra(kind, vlen);
		pos += (long)sizeof(t) + extra;
		if (kind != BTF_KIND_ENUM ||
		    !btf_str(fileno(f), strs, t.name_off, name, sizeof(name)) ||
		    strcmp(name, "bpf_func_id")) {
			if (extra && fseek(f, extra, SEEK_CUR))
				break;
			continue;
		}
		in->helpers = calloc(vlen ? vlen : 1, sizeof(*in->helpers));
		if (!in->helpers)
			break;
		for (uint32_t i = 0; i < vlen; i++) {
			struct btf_enum e;

			if (fread(&e, sizeof(e), 1, f) != 1)
				break;
			if (!btf_str(fileno(f), strs, e.name_off, ename,
				     sizeof(ename)) ||
			    strncmp(ename, "BPF_FUNC_", 9) || !ename[9] ||
			    !strcmp(ename + 9, "unspec"))
				continue;
			in->helpers[in->nr_helpers] = strdup(ename + 9);
			if (in->helpers[in->nr_helpers])
				in->nr_helpers++;
		}
		qsort(in->helpers, in->nr_helpers, sizeof(*in->helpers),
		      cmp_str);
		break;
	}
out:
	fclose(f);
}

static bool is_helper(const struct insights *in, const char *s)
{
	return in->nr_helpers &&
	       bsearch(&s, in->helpers, in->nr_helpers, sizeof(*in->helpers),
		       cmp_str);
}

/*
 * The helper a kernel function implements: the longest tail of its name,
 * at an underscore, that enum bpf_func_id names ("bpf_ktime_get_ns",
 * "htab_map_lookup_elem" -> map_lookup_elem, "bpf_xdp_sk_lookup_tcp" ->
 * sk_lookup_tcp). @out gets "bpf_" and the helper's name; false if none.
 */
static bool helper_of(const struct insights *in, const char *sym, char *out,
		      size_t len)
{
	for (const char *p = sym; *p; p++) {
		const char *c = p;

		if (p != sym && p[-1] != '_')
			continue;
		if (!strncmp(c, "bpf_", 4) && is_helper(in, c + 4)) {
			snprintf(out, len, "%s", c);
			return true;
		}
		if (is_helper(in, c)) {
			snprintf(out, len, "bpf_%s", c);
			return true;
		}
	}
	return false;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct ksym *find_sym(const struct insights *in, uint64_t addr)
{
	struct ksym key = { .addr = addr };

	return in->nr_syms ? bsearch(&key, in->syms, in->nr_syms,
				     sizeof(*in->syms), cmp_ksym) :
			     NULL;
}

int insights_syms_add(struct insights *in, uint64_t addr)
{
	if (find_sym(in, addr))
		return 0;
	if (ARRAY_GROW(in->syms, in->cap_syms, in->nr_syms + 1, 64))
		return -ENOMEM;
	in->syms[in->nr_syms++] = (struct ksym){ .addr = addr };
	qsort(in->syms, in->nr_syms, sizeof(*in->syms), cmp_ksym);
	return 0;
}

static size_t unnamed_syms(const struct insights *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->nr_syms; i++)
		n += !in->syms[i].name;
	return n;
}

/* One line of /proc/kallsyms ("ADDR T NAME[\tmodule]"): what it gives. */
static void kallsyms_line(struct insights *in, char *line, bool *want_base,
			  size_t *todo)
{
	unsigned long long addr = 0;
	char *end = line, *name;
	struct ksym *k;

	for (;; end++) {
		unsigned int d;

		if (*end >= '0' && *end <= '9')
			d = (unsigned int)(*end - '0');
		else if (*end >= 'a' && *end <= 'f')
			d = (unsigned int)(*end - 'a' + 10);
		else if (*end >= 'A' && *end <= 'F')
			d = (unsigned int)(*end - 'A' + 10);
		else
			break;
		addr = addr << 4 | d;
	}
	if (!addr || end[0] != ' ' || !end[1] || end[2] != ' ')
		return;
	name = end + 3;
	name[strcspn(name, " \t\n")] = '\0';
	if (*want_base && !strcmp(name, "__bpf_call_base")) {
		in->call_base = addr;
		*want_base = false;
	}
	k = *todo ? find_sym(in, addr) : NULL;
	if (k && !k->name) {
		k->name = intern(in, name);
		(*todo)--;
	}
}

/*
 * One pass over /proc/kallsyms for the address of __bpf_call_base (the
 * first time) and the names of the call targets not named yet. It stops
 * as soon as it has them: with many programs loaded the file is long, and
 * their own symbols come last. Read in large blocks, parsed in place.
 */
static void scan_kallsyms(struct insights *in, bool want_base)
{
	size_t todo = unnamed_syms(in), have = 0;
	char buf[65536];
	int fd;

	if (!want_base && !todo)
		return;
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (want_base || todo) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *p = buf, *nl;

		if (r <= 0)
			break;
		have += (size_t)r;
		while ((want_base || todo) &&
		       (nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			*nl = '\0';
			kallsyms_line(in, p, &want_base, &todo);
			p = nl + 1;
		}
		have -= (size_t)(p - buf);
		/* A line longer than the buffer says nothing we want. */
		if (have == sizeof(buf) - 1)
			have = 0;
		memmove(buf, p, have);
	}
	close(fd);
}

/* Display names of the call targets just collected. */
static void name_syms(struct insights *in)
{
	char buf[300];

	for (size_t i = 0; i < in->nr_syms; i++) {
		struct ksym *k = &in->syms[i];

		if (!k->name) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, k->addr);
			k->name = intern(in, buf);
		}
	}
}

const char *insights_call_name(struct insights *in, const struct raw_call *rc)
{
	struct ksym *k;
	char buf[300];

	if (rc->kind == INSIGHT_HELPER && rc->addr == BPF_FUNC_tail_call)
		return intern(in, "bpf_tail_call");
	if (!rc->addr)
		return intern(in, "?");
	k = find_sym(in, rc->addr);
	if (!k || !k->name)
		return intern(in, "?");
	if (rc->kind == INSIGHT_HELPER && helper_of(in, k->name, buf, sizeof(buf)))
		return intern(in, buf);
	return k->name;
}

/*
 * The naming program, loaded if need be, run over the first @n addresses
 * of its batch: 0, or a negative errno (then /proc/kallsyms is read, from
 * now on).
 */
static int namer_run(struct insights *in, uint32_t n)
{
	LIBBPF_OPTS(bpf_test_run_opts, o);
	int err;

	if (in->kallsyms_only)
		return -ENOTSUP;
	if (!in->namer) {
		libbpf_print_fn_t old = libbpf_quiet();

		in->namer = ksym_names_bpf__open_and_load();
		libbpf_set_print(old);
		if (!in->namer) {
			in->kallsyms_only = true;
			return -ENOTSUP;
		}
	}
	in->namer->bss->n = n;
	err = bpf_prog_test_run_opts(in->namer->progs.ebpftop_ksyms.prog_fd, &o);
	if (err || o.retval) {
		in->kallsyms_only = true;
		return err ? err : -EINVAL;
	}
	return 0;
}

/*
 * The name "%pS" gave for an address, if the address is where a symbol
 * starts ("name+0x0/0x40", with " [module]" after it for a module's):
 * what /proc/kallsyms lists at that address.
 */
static bool exact_name(char *s)
{
	char *plus = strchr(s, '+');

	if (!plus || plus == s || strncmp(plus, "+0x0/", 5))
		return false;
	*plus = '\0';
	return true;
}

/* Name the call targets not named yet, by the kernel's symbol lookup. */
static int namer_name_all(struct insights *in)
{
	size_t i = 0;

	while (i < in->nr_syms) {
		struct ksym *batch[KSYM_NAMES_MAX];
		uint32_t n = 0;
		int err;

		/* Loaded already, to look up __bpf_call_base, or loaded here. */
		if (!in->namer && (err = namer_run(in, 0)))
			return err;
		for (; i < in->nr_syms && n < KSYM_NAMES_MAX; i++) {
			if (in->syms[i].name)
				continue;
			batch[n] = &in->syms[i];
			in->namer->bss->addr[n++] = in->syms[i].addr;
		}
		if (!n)
			break;
		err = namer_run(in, n);
		if (err)
			return err;
		for (uint32_t k = 0; k < n; k++) {
			char *s = in->namer->bss->name[k];

			s[KSYM_NAME_LEN - 1] = '\0';
			if (exact_name(s))
				batch[k]->name = intern(in, s);
		}
	}
	return 0;
}

void insights_syms_free(struct insights *in)
{
	ksym_names_bpf__destroy(in->namer);
	in->namer = NULL;
}

void insights_syms_base(struct insights *in)
{
	if (in->base_read)
		return;
	in->base_read = true;
	if (!namer_run(in, 0)) {
		in->call_base = in->namer->bss->call_base;
		return;
	}
	scan_kallsyms(in, true);
}

void insights_syms_name_all(struct insights *in)
{
	if (!in->helpers_read)
		read_helper_names(in);
	if (unnamed_syms(in)) {
		if (namer_name_all(in))
			scan_kallsyms(in, false);
		name_syms(in);
	}
	/* Loaded for this batch of programs only: it is a program too. */
	if (in->namer) {
		ksym_names_bpf__destroy(in->namer);
		in->namer = NULL;
	}
}
