// SPDX-License-Identifier: GPL-2.0-only
/* Reads each program's insights once: instructions, subprograms, calls, maps, JIT pages. */
#include "config.h"

#include "insights/reader_impl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "util/bpf_prog.h"
#include "util/grow.h"
#include "util/quiet.h"

#define PAGE_SZ 4096u


struct insights *insights__new(void)
{
	return calloc(1, sizeof(struct insights));
}

void insights__free(struct insights *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nr; i++) {
		prog_insights_clear(in->progs[i]);
		free(in->progs[i]);
	}
	free(in->progs);
	free(in->ids);
	free(in->spare);
	free(in->rc);
	free(in->nrc);
	for (size_t i = 0; i < sizeof(in->scratch) / sizeof(in->scratch[0]); i++)
		free(in->scratch[i]);
	free(in->syms);
	for (size_t i = 0; i < in->nr_names; i++)
		free(in->names[i]);
	free(in->names);
	for (size_t i = 0; i < in->nr_helpers; i++)
		free(in->helpers[i]);
	free(in->helpers);
	free(in);
}

static int add_raw(struct raw_call **v, uint32_t *nr, uint64_t addr,
		   uint8_t kind)
{
	struct raw_call *n;

	for (uint32_t i = 0; i < *nr; i++) {
		if ((*v)[i].addr == addr && (*v)[i].kind == kind) {
			(*v)[i].calls++;
			return 0;
		}
	}
	n = realloc(*v, (*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*v = n;
	n[(*nr)++] = (struct raw_call){ .addr = addr, .calls = 1, .kind = kind };
	return 0;
}

/* Pages touched by the JIT image: functions at @addrs of @lens bytes. */
static uint32_t count_pages(const uint64_t *addrs, const uint32_t *lens,
			    uint32_t n)
{
	uint64_t *pg = NULL;
	size_t np = 0;
	uint32_t distinct = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!addrs[i])
			return 0;
		np += (lens[i] + PAGE_SZ - 1) / PAGE_SZ + 1;
	}
	pg = calloc(np ? np : 1, sizeof(*pg));
	if (!pg)
		return 0;
	np = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t first = addrs[i] / PAGE_SZ;
		uint64_t last = (addrs[i] + (lens[i] ? lens[i] - 1 : 0)) / PAGE_SZ;

		for (uint64_t p = first; p <= last; p++) {
			bool seen = false;

			for (size_t j = 0; j < np && !seen; j++)
				seen = pg[j] == p;
			if (!seen)
				pg[np++] = p;
		}
	}
	distinct = (uint32_t)np;
	free(pg);
	return distinct;
}

static void read_maps(const uint32_t *ids, uint32_t n, struct prog_insights *p)
{
	if (!n)
		return;
	p->maps = calloc(n, sizeof(*p->maps));
	if (!p->maps)
		return;
	for (uint32_t i = 0; i < n; i++) {
		struct insight_map *m = &p->maps[p->nr_maps];
		struct bpf_map_info mi;

		if (map_info_by_id(ids[i], &mi))
			continue;	/* gone meanwhile */
		m->id = ids[i];
		m->type = mi.type;
		m->type_name = libbpf_bpf_map_type_str(mi.type);
		if (!m->type_name)
			m->type_name = "unknown";
		snprintf(m->name, sizeof(m->name), "%s", mi.name);
		m->key_size = mi.key_size;
		m->value_size = mi.value_size;
		m->max_entries = mi.max_entries;
		p->nr_maps++;
	}
}

static void read_subprog_names(const struct bpf_func_info *fi, uint32_t nfi,
			       uint32_t btf_id, struct prog_insights *p)
{
	struct btf *btf = NULL;

	if (btf_id) {
		libbpf_print_fn_t old = libbpf_quiet();

		btf = btf__load_from_kernel_by_id(btf_id);
		libbpf_set_print(old);
	}
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const char *s = NULL;

		if (btf && i < nfi) {
			const struct btf_type *t = btf__type_by_id(btf, fi[i].type_id);

			s = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		}
		p->subprogs[i].name = s && *s ? strdup(s) : NULL;
	}
	btf__free(btf);
}

/* Scratch buffer @which of at least @n elements of @size bytes, zeroed. */
static void *scratch(struct insights *in, int which, size_t n, size_t size)
{
	size_t bytes = (n ? n : 1) * size;

	if (in->scratch_len[which] < bytes) {
		void *b = realloc(in->scratch[which], bytes);

		if (!b)
			return NULL;
		in->scratch[which] = b;
		in->scratch_len[which] = bytes;
	}
	return memset(in->scratch[which], 0, bytes);
}

/* Read program @id; its call targets are left in @rc for naming. */
static int read_prog(struct insights *in, uint32_t id, struct prog_insights *p,
		     struct raw_call **rc, uint32_t *nrc)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), nfi, nks, nfl, nmaps;
	struct bpf_insn *insns = NULL;
	struct bpf_func_info *fi = NULL;
	uint64_t *ksyms = NULL;
	uint32_t *flens = NULL, *map_ids = NULL, *starts = NULL;
	size_t n;
	int fd, err = 0;

	memset(p, 0, sizeof(*p));
	p->id = id;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	p->xlated_len = info.xlated_prog_len;
	p->jited_len = info.jited_prog_len;
	nfi = info.nr_func_info;
	nks = info.nr_jited_ksyms;
	nfl = info.nr_jited_func_lens;
	nmaps = info.nr_map_ids;
	n = info.xlated_prog_len / sizeof(*insns);
	insns = scratch(in, 0, n, sizeof(*insns));
	fi = scratch(in, 1, nfi, sizeof(*fi));
	ksyms = scratch(in, 2, nks, sizeof(*ksyms));
	flens = scratch(in, 3, nfl, sizeof(*flens));
	map_ids = scratch(in, 4, nmaps, sizeof(*map_ids));
	if (!insns || !fi || !ksyms || !flens || !map_ids) {
		err = -ENOMEM;
		goto out;
	}
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = (__u32)(n * sizeof(*insns));
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	info.nr_func_info = nfi;
	info.func_info_rec_size = sizeof(*fi);
	info.func_info = (__u64)(unsigned long)fi;
	info.nr_jited_ksyms = nks;
	info.jited_ksyms = (__u64)(unsigned long)ksyms;
	info.nr_jited_func_lens = nfl;
	info.jited_func_lens = (__u64)(unsigned long)flens;
	info.nr_map_ids = nmaps;
	info.map_ids = (__u64)(unsigned long)map_ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	/* The program is the same; only clamp to what was filled in. */
	if (info.xlated_prog_len / sizeof(*insns) < n)
		n = info.xlated_prog_len / sizeof(*insns);
	nfi = info.nr_func_info < nfi ? info.nr_func_info : nfi;
	nks = info.nr_jited_ksyms < nks ? info.nr_jited_ksyms : nks;
	nfl = info.nr_jited_func_lens < nfl ? info.nr_jited_func_lens : nfl;
	nmaps = info.nr_map_ids < nmaps ? info.nr_map_ids : nmaps;

	if (n) {
		p->have_isa = true;
		isa_classify(insns, n, 1, &p->isa);
	}

	/* Subprograms: BTF func_info, else the JIT's functions. */
	p->nr_subprogs = nfi ? nfi : (nfl ? nfl : 1);
	p->subprogs = calloc(p->nr_subprogs, sizeof(*p->subprogs));
	starts = scratch(in, 5, p->nr_subprogs + 1, sizeof(*starts));
	if (!p->subprogs || !starts) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		starts[i] = nfi ? fi[i].insn_off : 0;
		if (nfl == p->nr_subprogs)
			p->subprogs[i].jited_len = flens[i];
	}
	starts[p->nr_subprogs] = (uint32_t)n;
	if (!nfi && p->nr_subprogs == 1)
		starts[1] = (uint32_t)n;
	/* Instructions, as the ISA counts them: a 64-bit load counts once. */
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		uint32_t end = starts[i + 1] < n ? starts[i + 1] : (uint32_t)n;

		for (uint32_t k = starts[i]; k < end; k++) {
			p->subprogs[i].insns++;
			if (insns[k].code == (BPF_LD | BPF_DW | BPF_IMM))
				k++;
		}
	}
	read_subprog_names(fi, nfi, info.btf_id, p);

	/* Calls: helpers, kfuncs, bpf2bpf, tail calls. */
	for (size_t i = 0; i < n && !err; i++) {
		const struct bpf_insn *c = &insns[i];

		if (c->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			i++;
			continue;
		}
		if (c->code != (BPF_JMP | BPF_CALL))
			continue;
		if (c->src_reg == BPF_PSEUDO_CALL) {
			/* After the JIT, imm is the callee's subprogram index. */
			if (c->imm > 0 && (uint32_t)c->imm < p->nr_subprogs)
				p->subprogs[c->imm].calls++;
			continue;
		}
		if (c->src_reg == 0 && c->imm == BPF_FUNC_tail_call) {
			p->tail_calls++;
			err = add_raw(rc, nrc, BPF_FUNC_tail_call, INSIGHT_HELPER);
			continue;
		}
		if (!c->imm)
			p->calls_hidden = true;
		err = add_raw(rc, nrc,
			      c->imm && in->call_base ?
				      in->call_base + (uint64_t)(int64_t)c->imm : 0,
			      c->src_reg == BPF_PSEUDO_KFUNC_CALL ? INSIGHT_KFUNC :
								    INSIGHT_HELPER);
	}
	for (uint32_t i = 0; i < *nrc && !err; i++)
		if ((*rc)[i].addr > BPF_FUNC_tail_call)
			err = insights_syms_add(in, (*rc)[i].addr);
	if (nks && nks == nfl)
		p->jit_pages = count_pages(ksyms, flens, nks);
	read_maps(map_ids, nmaps, p);
out:
	close(fd);
	return err;
}

static int cmp_call(const void *a, const void *b)
{
	const struct insight_call *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Name the call sites, merge those that name the same helper, sort. */
static int finish_calls(struct insights *in, struct prog_insights *p,
			const struct raw_call *rc, uint32_t nrc)
{
	if (!nrc)
		return 0;
	p->calls = calloc(nrc, sizeof(*p->calls));
	if (!p->calls)
		return -ENOMEM;
	for (uint32_t i = 0; i < nrc; i++) {
		const char *name = insights_call_name(in, &rc[i]);
		uint32_t j;

		if (!name)
			return -ENOMEM;
		for (j = 0; j < p->nr_calls; j++)
			if (p->calls[j].name == name &&
			    p->calls[j].kind == rc[i].kind)
				break;
		if (j == p->nr_calls)
			p->calls[p->nr_calls++] = (struct insight_call){
				.name = name, .kind = rc[i].kind };
		p->calls[j].calls += rc[i].calls;
	}
	qsort(p->calls, p->nr_calls, sizeof(*p->calls), cmp_call);
	return 0;
}

/* Room for @n programs in the spare array and the call targets. */
static int sync_grow(struct insights *in, size_t n)
{
	if (!n)
		n = 1;
	if (in->spare_cap < n) {
		struct prog_insights **s = realloc(in->spare, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		in->spare = s;
		in->spare_cap = n;
	}
	if (in->rc_cap < n) {
		struct raw_call **rc = realloc(in->rc, n * sizeof(*rc));
		uint32_t *nrc;

		if (!rc)
			return -ENOMEM;
		in->rc = rc;
		nrc = realloc(in->nrc, n * sizeof(*nrc));
		if (!nrc)
			return -ENOMEM;
		in->nrc = nrc;
		in->rc_cap = n;
	}
	return 0;
}

int insights__sync(struct insights *in, const uint32_t *ids, size_t n)
{
	struct prog_insights **next;
	struct raw_call **rc;
	uint32_t *nrc;
	size_t i = 0, j = 0, k = 0, fresh = 0;
	int err = 0;

	insights_syms_base(in);
	/* The steady state: the same programs as last time. */
	if (n == in->nr && in->nids == n &&
	    (!n || !memcmp(in->ids, ids, n * sizeof(*ids))))
		return 0;
	if (sync_grow(in, n))
		return -ENOMEM;
	next = in->spare;
	rc = in->rc;
	nrc = in->nrc;
	memset(rc, 0, n * sizeof(*rc));
	memset(nrc, 0, n * sizeof(*nrc));
	/* Merge: keep the known, read the new, drop the gone. */
	while (j < n) {
		if (i < in->nr && in->progs[i]->id < ids[j]) {
			prog_insights_clear(in->progs[i]);
			free(in->progs[i++]);
			continue;
		}
		if (i < in->nr && in->progs[i]->id == ids[j]) {
			next[k++] = in->progs[i++];
			j++;
			continue;
		}
		next[k] = calloc(1, sizeof(**next));
		if (!next[k]) {
			err = -ENOMEM;
			break;
		}
		next[k]->err = read_prog(in, ids[j], next[k], &rc[k], &nrc[k]);
		next[k]->id = ids[j];
		if (next[k]->err == -ENOMEM)
			err = -ENOMEM;
		fresh++;
		k++;
		j++;
	}
	for (; i < in->nr; i++) {
		prog_insights_clear(in->progs[i]);
		free(in->progs[i]);
	}
	/* The old array is the next one's. */
	in->spare = in->progs;
	in->progs = next;
	i = in->spare_cap;
	in->spare_cap = in->cap;
	in->cap = i;
	in->nr = k;
	in->nids = 0;
	if (!ARRAY_GROW(in->ids, in->ids_cap, k, 256)) {
		for (size_t p = 0; p < k; p++)
			in->ids[p] = next[p]->id;
		in->nids = k;
	} else {
		err = -ENOMEM;
	}
	if (fresh) {
		insights_syms_name_all(in);
		for (size_t p = 0; p < k; p++) {
			if (!rc[p] && !nrc[p])
				continue;
			if (finish_calls(in, next[p], rc[p], nrc[p]))
				err = -ENOMEM;
		}
	}
	for (size_t p = 0; p < k; p++)
		free(rc[p]);
	return err;
}

const struct prog_insights *insights__find(const struct insights *in,
					   uint32_t id)
{
	size_t lo = 0, hi = in ? in->nr : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (in->progs[mid]->id < id)
			lo = mid + 1;
		else if (in->progs[mid]->id > id)
			hi = mid;
		else
			return in->progs[mid];
	}
	return NULL;
}

const struct prog_insights *insights__at(const struct insights *in, size_t i,
					 uint32_t id)
{
	if (in && i < in->nids && in->ids[i] == id)
		return in->progs[i];
	return insights__find(in, id);
}

size_t insights__count(const struct insights *in)
{
	return in ? in->nr : 0;
}
