// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "hot/lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "hot/ring.h"
#include "util/bpf_prog.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void hot_prog__free(struct hot_prog *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; p->func_name && i < p->nr_funcs; i++)
		free(p->func_name[i]);
	for (size_t i = 0; p->lines && i < p->nr_lines; i++) {
		free((char *)p->lines[i].file);
		free((char *)p->lines[i].source);
	}
	bpf_prog_linfo__free(p->linfo);
	free(p->func_start);
	free(p->func_len);
	free(p->func_name);
	free(p->lines);
	free(p->linfo_insn);
	free(p->linfo_line);
	free(p);
}

int hot_prog__func_of(const struct hot_prog *p, uint64_t addr)
{
	for (uint32_t i = 0; i < p->nr_funcs; i++) {
		if (addr >= p->func_start[i] &&
		    addr - p->func_start[i] < p->func_len[i])
			return (int)i;
	}
	return -1;
}

/* One line info record, decoded. */
struct rec {
	uint32_t idx;		/* record number */
	uint32_t insn;
	uint32_t func;
	const char *file;
	const char *text;
	uint32_t line, col;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static bool same_line(const struct rec *x, const struct rec *y)
{
	return x->func == y->func && x->line == y->line &&
	       !strcmp(x->file ? x->file : "", y->file ? y->file : "");
}

/* Which function record @i belongs to: by JIT address, else by insn offset. */
static uint32_t rec_func(const struct hot_prog *p,
			 const struct bpf_prog_info *info, uint32_t i,
			 uint32_t insn)
{
	const struct bpf_func_info *fi;
	uint32_t f = 0;

	if (info->nr_jited_line_info == info->nr_line_info &&
	    info->jited_line_info && p->nr_funcs) {
		const uint8_t *j = (const uint8_t *)(uintptr_t)info->jited_line_info;
		uint64_t addr;
		int k;

		memcpy(&addr, j + (size_t)i * info->jited_line_info_rec_size,
		       sizeof(addr));
		k = hot_prog__func_of(p, addr);
		if (k >= 0)
			return (uint32_t)k;
	}
	for (uint32_t k = 0; k < info->nr_func_info && info->func_info; k++) {
		fi = (const void *)((const uint8_t *)(uintptr_t)info->func_info +
				    (size_t)k * info->func_info_rec_size);
		if (fi->insn_off <= insn)
			f = k;
	}
	return f < p->nr_funcs ? f : 0;
}

static int build_lines(struct hot_prog *p, const struct bpf_prog_info *info,
		       const char *(*str)(void *ctx, uint32_t off), void *ctx)
{
	uint32_t n = info->nr_line_info;
	struct rec *r = NULL;
	size_t nl = 0;
	int err = -ENOMEM;

	if (n && info->line_info_rec_size < sizeof(struct bpf_line_info))
		return -EINVAL;
	if (n) {
		r = calloc(n, sizeof(*r));
		p->linfo_insn = calloc(n, sizeof(*p->linfo_insn));
		p->linfo_line = calloc(n, sizeof(*p->linfo_line));
		if (!r || !p->linfo_insn || !p->linfo_line)
			goto out;
	}
	/* Room for every line plus one no-line bucket per function. */
	p->lines = calloc((size_t)n + p->nr_funcs, sizeof(*p->lines));
	if (!p->lines)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		const struct bpf_line_info *li = (const void *)
			((const uint8_t *)(uintptr_t)info->line_info +
			 (size_t)i * info->line_info_rec_size);

		r[i].idx = i;
		r[i].insn = li->insn_off;
		r[i].line = BPF_LINE_INFO_LINE_NUM(li->line_col);
		r[i].col = BPF_LINE_INFO_LINE_COL(li->line_col);
		r[i].file = str ? str(ctx, li->file_name_off) : NULL;
		r[i].text = str ? str(ctx, li->line_off) : NULL;
		r[i].func = rec_func(p, info, i, li->insn_off);
		p->linfo_insn[i] = li->insn_off;
	}
	if (n)
		qsort(r, n, sizeof(*r), rec_cmp);
	for (uint32_t i = 0; i < n; i++) {
		/* Records without a line go to their function's bucket, below. */
		if (!r[i].line) {
			p->linfo_line[r[i].idx] = UINT32_MAX - r[i].func;
			continue;
		}
		if (!nl || !same_line(&r[i], &r[i - 1]) || !r[i - 1].line) {
			struct hot_line_def *d = &p->lines[nl++];

			d->func = r[i].func;
			d->line = r[i].line;
			d->col = r[i].col;
			d->file = dup_or_null(r[i].file);
			/* The line's text from its first record that has one. */
			d->source = r[i].text && *r[i].text ?
					    strdup(r[i].text) : NULL;
			if ((r[i].file && !d->file) ||
			    (r[i].text && *r[i].text && !d->source))
				goto out;
		} else if (!p->lines[nl - 1].source && r[i].text && *r[i].text) {
			p->lines[nl - 1].source = strdup(r[i].text);
		}
		p->linfo_line[r[i].idx] = (uint32_t)(nl - 1);
	}
	for (uint32_t f = 0; f < p->nr_funcs; f++)
		p->lines[nl + f].func = f;
	/*
	 * Instructions the compiler gave no line (line 0: hoisted, merged)
	 * sit inside the code of the line before them, loops included:
	 * charge them to that line, as debuggers do. Only a function that
	 * starts without a line keeps them in its no-line bucket.
	 */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = p->linfo_line[i];

		if (v < UINT32_MAX - p->nr_funcs + 1)
			continue;
		if (i && p->linfo_line[i - 1] < nl &&
		    p->lines[p->linfo_line[i - 1]].func == UINT32_MAX - v)
			p->linfo_line[i] = p->linfo_line[i - 1];
		else
			p->linfo_line[i] = (uint32_t)nl + (UINT32_MAX - v);
	}
	p->nr_lines = nl + p->nr_funcs;
	p->nr_linfo = n;
	err = 0;
out:
	free(r);
	return err;
}

int hot_prog__build(const struct bpf_prog_info *info,
		    const char *(*str)(void *ctx, uint32_t off), void *ctx,
		    const char *const *func_names, struct hot_prog **out)
{
	const uint64_t *ksyms = (const void *)(uintptr_t)info->jited_ksyms;
	const uint32_t *lens = (const void *)(uintptr_t)info->jited_func_lens;
	struct hot_prog *p;
	int err = -ENOMEM;

	*out = NULL;
	if (info->nr_jited_ksyms != info->nr_jited_func_lens ||
	    (info->nr_jited_ksyms && (!ksyms || !lens)))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->id = info->id;
	p->load_time = info->load_time;
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		snprintf(p->tag + 2 * i, 3, "%02x", info->tag[i]);
	snprintf(p->name, sizeof(p->name), "%s",
		 func_names && func_names[0] ? func_names[0] : info->name);
	p->nr_funcs = info->nr_jited_ksyms;
	if (p->nr_funcs) {
		p->func_start = calloc(p->nr_funcs, sizeof(*p->func_start));
		p->func_len = calloc(p->nr_funcs, sizeof(*p->func_len));
		p->func_name = calloc(p->nr_funcs, sizeof(*p->func_name));
		if (!p->func_start || !p->func_len || !p->func_name)
			goto fail;
	}
	for (uint32_t i = 0; i < p->nr_funcs; i++) {
		char def[32];

		p->func_start[i] = ksyms[i];
		p->func_len[i] = lens[i];
		if (i)
			snprintf(def, sizeof(def), "func%u", i);
		p->func_name[i] = strdup(func_names && func_names[i] ?
						 func_names[i] :
					 i ? def : p->name);
		if (!p->func_name[i])
			goto fail;
	}
	err = build_lines(p, info, str, ctx);
	if (err)
		goto fail;
	p->has_line_info = p->nr_linfo > 0;
	/* libbpf's lookup needs the JIT addresses of the line records. */
	if (p->nr_linfo && info->nr_jited_line_info && p->nr_funcs) {
		p->linfo = bpf_prog_linfo__new(info);
		if (!p->linfo) {
			err = -EINVAL;
			goto fail;
		}
	}
	*out = p;
	return 0;
fail:
	hot_prog__free(p);
	return err;
}

int hot_prog__lookup(const struct hot_prog *p, uint64_t addr, size_t *line)
{
	const struct bpf_line_info *li;
	int f = hot_prog__func_of(p, addr);
	uint32_t lo = 0, hi = p->nr_linfo;

	if (f < 0)
		return -1;
	/* The no-line buckets follow the distinct lines. */
	*line = p->nr_lines - p->nr_funcs + (size_t)f;
	if (!p->linfo)
		return f;
	li = bpf_prog_linfo__lfind_addr_func(p->linfo, addr, (uint32_t)f, 0);
	if (!li)
		return f;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->linfo_insn[mid] < li->insn_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nr_linfo && p->linfo_insn[lo] == li->insn_off)
		*line = p->linfo_line[lo];
	return f;
}

static bool in_irq(const struct hot_irq_ranges *irq, uint64_t a)
{
	for (unsigned int i = 0; irq && i < irq->n; i++) {
		if (a >= irq->start[i] && a < irq->end[i])
			return true;
	}
	return false;
}

enum hot_hit hot_prog__classify(const struct hot_prog *p,
				const struct hot_irq_ranges *irq, uint64_t ip,
				const uint64_t *chain, uint32_t n,
				size_t *line)
{
	bool first = true;

	if (hot_prog__lookup(p, ip, line) >= 0)
		return HOT_OWN;
	if (in_irq(irq, ip))
		return HOT_MISS;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t a = chain[i];

		if (hot_chain_is_marker(a)) {
			if (a == (uint64_t)PERF_CONTEXT_KERNEL)
				continue;
			break;	/* user space, guest: past the kernel part */
		}
		/* The chain starts with the sampled address itself. */
		if (first && a == ip) {
			first = false;
			continue;
		}
		first = false;
		if (in_irq(irq, a))
			return HOT_MISS;
		/* A return address may be the first byte of the next line. */
		if (hot_prog__lookup(p, a - 1, line) >= 0)
			return HOT_HELPER;
	}
	return HOT_MISS;
}

void hot_irq_ranges_load(struct hot_irq_ranges *r)
{
	static const char *const names[][2] = {
		{ "__entry_text_start", "__entry_text_end" },
		{ "__irqentry_text_start", "__irqentry_text_end" },
		{ "__softirqentry_text_start", "__softirqentry_text_end" },
	};
	uint64_t found[3][2] = { { 0 } };
	char line[256], sym[128];
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t;

		if (line[0] != 'f' || sscanf(line, "%llx %c %127s", &a, &t, sym) != 3)
			continue;
		if (strncmp(sym, "__", 2))
			continue;
		for (int i = 0; i < 3; i++) {
			for (int k = 0; k < 2; k++) {
				if (!strcmp(sym, names[i][k]))
					found[i][k] = a;
			}
		}
	}
	fclose(f);
	for (int i = 0; i < 3 && r->n < HOT_IRQ_RANGES_MAX; i++) {
		if (found[i][0] && found[i][1] > found[i][0]) {
			r->start[r->n] = found[i][0];
			r->end[r->n] = found[i][1];
			r->n++;
		}
	}
}

/* ---- loading from the kernel ---------------------------------------------- */

static const char *btf_str(void *ctx, uint32_t off)
{
	return ctx ? btf__name_by_offset(ctx, off) : NULL;
}

static int read_sysctl(const char *path)
{
	char buf[32];
	FILE *f = fopen(path, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = atoi(buf);
	fclose(f);
	return v;
}

int hot_prog__load(uint32_t id, struct hot_prog **out, char *msg, size_t len)
{
	struct bpf_prog_info info = {}, full = {};
	__u32 ilen = sizeof(info);
	uint64_t *ksyms = NULL, *jlinfo = NULL;
	uint32_t *lens = NULL;
	void *linfo = NULL, *finfo = NULL;
	const char **fnames = NULL;
	struct btf *btf = NULL;
	bool hidden = false;
	int fd, err;

	*out = NULL;
	fd = prog_fd_by_id(id, msg, len);
	if (fd < 0)
		return fd;
	if (bpf_obj_get_info_by_fd(fd, &info, &ilen)) {
		err = -errno;
		snprintf(msg, len, "cannot read program %u: %s", id,
			 strerror(-err));
		goto out;
	}
	if (!info.jited_prog_len) {
		snprintf(msg, len,
			 "program %u is not JIT-compiled (net.core.bpf_jit_enable=0 when it was loaded?): samples cannot be placed in it",
			 id);
		err = -ENOEXEC;
		goto out;
	}
	err = -ENOMEM;
	full.nr_jited_ksyms = info.nr_jited_ksyms;
	full.nr_jited_func_lens = info.nr_jited_func_lens;
	full.nr_line_info = info.nr_line_info;
	full.line_info_rec_size = info.line_info_rec_size;
	full.nr_jited_line_info = info.nr_jited_line_info;
	full.jited_line_info_rec_size = info.jited_line_info_rec_size;
	full.nr_func_info = info.nr_func_info;
	full.func_info_rec_size = info.func_info_rec_size;
	ksyms = calloc(info.nr_jited_ksyms + 1, sizeof(*ksyms));
	lens = calloc(info.nr_jited_func_lens + 1, sizeof(*lens));
	linfo = calloc((size_t)info.nr_line_info + 1, info.line_info_rec_size + 1);
	jlinfo = calloc((size_t)info.nr_jited_line_info + 1,
			info.jited_line_info_rec_size + sizeof(uint64_t));
	finfo = calloc((size_t)info.nr_func_info + 1, info.func_info_rec_size + 1);
	if (!ksyms || !lens || !linfo || !jlinfo || !finfo)
		goto out;
	full.jited_ksyms = (uintptr_t)ksyms;
	full.jited_func_lens = (uintptr_t)lens;
	full.line_info = (uintptr_t)linfo;
	full.jited_line_info = (uintptr_t)jlinfo;
	full.func_info = (uintptr_t)finfo;
	ilen = sizeof(full);
	if (bpf_obj_get_info_by_fd(fd, &full, &ilen)) {
		err = -errno;
		snprintf(msg, len, "cannot read program %u: %s", id,
			 strerror(-err));
		goto out;
	}
	/* Without the right to see kernel addresses the kernel leaves them out. */
	if (!full.jited_ksyms || !full.nr_jited_ksyms)
		hidden = true;
	for (uint32_t i = 0; !hidden && i < full.nr_jited_ksyms; i++)
		hidden = !ksyms[i];
	if (hidden) {
		snprintf(msg, len,
			 "the kernel hides program addresses (kernel.kptr_restrict=%d): set it to 0, or 1 with CAP_SYSLOG, to place samples in program %u",
			 read_sysctl("/proc/sys/kernel/kptr_restrict"), id);
		err = -EPERM;
		goto out;
	}
	if (!full.jited_line_info)
		full.nr_jited_line_info = 0;
	if (full.btf_id) {
		btf = btf__load_from_kernel_by_id(full.btf_id);
		if (!btf)
			btf = NULL;	/* names fall back to the kernel's */
	}
	fnames = calloc(full.nr_jited_ksyms, sizeof(*fnames));
	if (!fnames)
		goto out;
	for (uint32_t i = 0; btf && full.func_info && i < full.nr_func_info &&
			     i < full.nr_jited_ksyms; i++) {
		const struct bpf_func_info *fi = (const void *)
			((const uint8_t *)finfo + (size_t)i * full.func_info_rec_size);
		const struct btf_type *t = btf__type_by_id(btf, fi->type_id);

		if (t)
			fnames[i] = btf__name_by_offset(btf, t->name_off);
	}
	full.id = id;
	err = hot_prog__build(&full, btf_str, btf, fnames, out);
	if (err)
		snprintf(msg, len, "cannot map program %u's addresses to lines: %s",
			 id, strerror(-err));
out:
	free(fnames);
	btf__free(btf);
	free(ksyms);
	free(lens);
	free(linfo);
	free(jlinfo);
	free(finfo);
	close(fd);
	return err;
}
