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
#include "util/prog_info.h"

#define PAGE_SZ 4096u


struct insights *insights__new(void)
{
	struct insights *in = calloc(1, sizeof(struct insights));
	const char *v = getenv("EBPFTOP_NO_KSYM_PROG");

	if (in)
		in->kallsyms_only = v && *v && strcmp(v, "0");
	return in;
}

static void pending_free(struct pending_prog *q)
{
	prog_insights_clear(q->p);
	free(q->p);
	free(q->rc);
	memset(q, 0, sizeof(*q));
}

/* Let go of the programs added and not taken, from the @from-th on. */
static void drop_incoming(struct insights *in, size_t from)
{
	for (size_t i = from; i < in->nr_incoming; i++)
		if (in->incoming[i].p)
			pending_free(&in->incoming[i]);
	in->nr_incoming = 0;
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
	prog_info_full_free(&in->full);
	insights_syms_free(in);
	drop_incoming(in, 0);
	free(in->incoming);
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
		   int32_t imm, uint8_t kind)
{
	struct raw_call *n;

	for (uint32_t i = 0; i < *nr; i++) {
		if ((*v)[i].addr == addr && (*v)[i].imm == imm &&
		    (*v)[i].kind == kind) {
			(*v)[i].calls++;
			return 0;
		}
	}
	n = realloc(*v, (*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*v = n;
	n[(*nr)++] = (struct raw_call){ .addr = addr, .imm = imm, .calls = 1,
					.kind = kind };
	return 0;
}

/* Pages touched by the JIT image: functions at @addrs of @lens bytes. */
static uint32_t count_pages(const uint64_t *addrs, const uint32_t *lens,
			    uint32_t n)
{
	uint64_t small[64], *pg = small;
	size_t np = 0;
	uint32_t distinct = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!addrs[i])
			return 0;
		np += (lens[i] + PAGE_SZ - 1) / PAGE_SZ + 1;
	}
	/* Most programs take a page or two: no allocation for them. */
	if (np > sizeof(small) / sizeof(small[0]))
		pg = calloc(np, sizeof(*pg));
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
	if (pg != small)
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

static void read_subprog_names(struct prog_info_full *f,
			       struct prog_insights *p)
{
	const struct btf *btf = prog_info_full_btf(f);

	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		const char *s = NULL;

		if (btf && i < f->nr_func_info) {
			const struct btf_type *t =
				btf__type_by_id(btf, f->func_info[i].type_id);

			s = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		}
		p->subprogs[i].name = s && *s ? strdup(s) : NULL;
	}
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

/*
 * Program @f's insights into @p, from what its info says: no system call
 * but for its maps and BTF. Its call sites are left in @rc, to be named
 * once the batch is read (resolve_calls()).
 */
static int from_full(struct insights *in, struct prog_info_full *f,
		     struct prog_insights *p, struct raw_call **rc,
		     uint32_t *nrc)
{
	const struct bpf_insn *insns = f->insns;
	const struct bpf_func_info *fi = f->func_info;
	uint32_t nfi = f->nr_func_info, nks = f->nr_jited_ksyms;
	uint32_t nfl = f->nr_jited_func_lens, *starts;
	size_t n = f->nr_insns;
	int err = 0;

	memset(p, 0, sizeof(*p));
	p->id = f->info.id;
	p->xlated_len = f->info.xlated_prog_len;
	p->jited_len = f->info.jited_prog_len;
	if (n) {
		p->have_isa = true;
		isa_classify(insns, n, 1, &p->isa);
	}

	/* Subprograms: BTF func_info, else the JIT's functions. */
	p->nr_subprogs = nfi ? nfi : (nfl ? nfl : 1);
	p->subprogs = calloc(p->nr_subprogs, sizeof(*p->subprogs));
	starts = scratch(in, 0, p->nr_subprogs + 1, sizeof(*starts));
	if (!p->subprogs || !starts)
		return -ENOMEM;
	for (uint32_t i = 0; i < p->nr_subprogs; i++) {
		starts[i] = nfi ? fi[i].insn_off : 0;
		if (nfl == p->nr_subprogs)
			p->subprogs[i].jited_len = f->jited_func_lens[i];
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
	read_subprog_names(f, p);

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
			err = add_raw(rc, nrc, BPF_FUNC_tail_call, 0,
				      INSIGHT_HELPER);
			continue;
		}
		if (!c->imm)
			p->calls_hidden = true;
		/* Named later: the target is __bpf_call_base + imm. */
		err = add_raw(rc, nrc, 0, c->imm,
			      c->src_reg == BPF_PSEUDO_KFUNC_CALL ? INSIGHT_KFUNC :
								    INSIGHT_HELPER);
	}
	if (nks && nks == nfl)
		p->jit_pages = count_pages(f->jited_ksyms, f->jited_func_lens,
					   nks);
	read_maps(f->map_ids, f->nr_map_ids, p);
	return err;
}

/* Read program @id; its call sites are left in @rc for naming. */
static int read_prog(struct insights *in, uint32_t id, struct prog_insights *p,
		     struct raw_call **rc, uint32_t *nrc)
{
	int fd, err;

	memset(p, 0, sizeof(*p));
	p->id = id;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	err = prog_info_full_read(fd, &in->full);
	close(fd);
	if (err)
		return err;
	return from_full(in, &in->full, p, rc, nrc);
}

/*
 * The addresses of the call sites of the programs just read, from
 * __bpf_call_base (looked up the first time a program calls anything),
 * and the targets to name.
 */
static int resolve_calls(struct insights *in, struct raw_call *rc, uint32_t nrc)
{
	int err = 0;

	for (uint32_t i = 0; i < nrc && !err; i++) {
		if (!rc[i].imm)
			continue;
		insights_syms_base(in);
		rc[i].addr = in->call_base ?
				     in->call_base + (uint64_t)(int64_t)rc[i].imm :
				     0;
		rc[i].imm = 0;
		if (rc[i].addr > BPF_FUNC_tail_call)
			err = insights_syms_add(in, rc[i].addr);
	}
	return err;
}

int insights__add(struct insights *in, struct prog_info_full *f)
{
	struct pending_prog *q;
	int err;

	if (ARRAY_GROW(in->incoming, in->cap_incoming, in->nr_incoming + 1, 64))
		return -ENOMEM;
	q = &in->incoming[in->nr_incoming];
	memset(q, 0, sizeof(*q));
	q->p = calloc(1, sizeof(*q->p));
	if (!q->p)
		return -ENOMEM;
	err = from_full(in, f, q->p, &q->rc, &q->nrc);
	if (err) {
		pending_free(q);
		return err;
	}
	in->nr_incoming++;
	return 0;
}

static int cmp_pending(const void *a, const void *b)
{
	uint32_t x = ((const struct pending_prog *)a)->p->id;
	uint32_t y = ((const struct pending_prog *)b)->p->id;

	return x < y ? -1 : x > y;
}

/* The programs added, ascending: most often they came in one order. */
static void sort_incoming(struct insights *in)
{
	size_t n = in->nr_incoming;
	bool up = true, down = true;

	for (size_t i = 1; i < n; i++) {
		up = up && in->incoming[i - 1].p->id < in->incoming[i].p->id;
		down = down && in->incoming[i - 1].p->id > in->incoming[i].p->id;
	}
	if (up)
		return;
	if (down) {
		for (size_t i = 0; i < n / 2; i++) {
			struct pending_prog t = in->incoming[i];

			in->incoming[i] = in->incoming[n - 1 - i];
			in->incoming[n - 1 - i] = t;
		}
		return;
	}
	qsort(in->incoming, n, sizeof(*in->incoming), cmp_pending);
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
	size_t i = 0, j = 0, k = 0, q = 0, fresh = 0;
	int err = 0;

	/* The steady state: the same programs as last time. */
	if (n == in->nr && in->nids == n && !in->nr_incoming &&
	    (!n || !memcmp(in->ids, ids, n * sizeof(*ids))))
		return 0;
	if (sync_grow(in, n))
		return -ENOMEM;
	sort_incoming(in);
	next = in->spare;
	rc = in->rc;
	nrc = in->nrc;
	memset(rc, 0, n * sizeof(*rc));
	memset(nrc, 0, n * sizeof(*nrc));
	/*
	 * Merge: keep the known, take the added (read already, with the
	 * program table's info), read the others new, drop the gone.
	 */
	while (j < n) {
		struct pending_prog *add = NULL;

		if (i < in->nr && in->progs[i]->id < ids[j]) {
			prog_insights_clear(in->progs[i]);
			free(in->progs[i++]);
			continue;
		}
		while (q < in->nr_incoming && in->incoming[q].p->id < ids[j])
			pending_free(&in->incoming[q++]);
		if (q < in->nr_incoming && in->incoming[q].p->id == ids[j])
			add = &in->incoming[q++];
		if (i < in->nr && in->progs[i]->id == ids[j]) {
			if (!add) {
				next[k++] = in->progs[i++];
				j++;
				continue;
			}
			/* The id came back with another program. */
			prog_insights_clear(in->progs[i]);
			free(in->progs[i++]);
		}
		if (add) {
			next[k] = add->p;
			rc[k] = add->rc;
			nrc[k] = add->nrc;
			memset(add, 0, sizeof(*add));
		} else {
			next[k] = calloc(1, sizeof(**next));
			if (!next[k]) {
				err = -ENOMEM;
				break;
			}
			next[k]->err = read_prog(in, ids[j], next[k], &rc[k],
						 &nrc[k]);
			next[k]->id = ids[j];
			if (next[k]->err == -ENOMEM)
				err = -ENOMEM;
		}
		if (resolve_calls(in, rc[k], nrc[k]))
			err = -ENOMEM;
		fresh++;
		k++;
		j++;
	}
	drop_incoming(in, q);
	/* Many at once happens at start-up: their array is not kept for later. */
	if (in->cap_incoming > 256) {
		free(in->incoming);
		in->incoming = NULL;
		in->cap_incoming = 0;
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
