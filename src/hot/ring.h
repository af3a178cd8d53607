/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a perf mmap ring buffer: the records between the consumer's
 * tail and the kernel's head, a record that wraps past the end of the
 * data area copied out whole, and the sample layout of the hot-lines
 * sampler (PERF_SAMPLE_IP | TID | TIME | CALLCHAIN) decoded. Pure: no
 * syscalls, so the tests can feed it synthetic buffers.
 */
#ifndef EBPFTOP_HOT_RING_H
#define EBPFTOP_HOT_RING_H

#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

/* What the sampler asks for in every sample, in the kernel's order. */
#define HOT_SAMPLE_TYPE \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CALLCHAIN)

/* Deepest kernel callchain kept (attr.sample_max_stack). */
#define HOT_MAX_STACK 32

/* One record as the reader hands it on. */
struct hot_record {
	uint32_t type;		/* PERF_RECORD_* */
	uint64_t time;		/* sample and ksymbol records (sample_id_all) */
	/* PERF_RECORD_SAMPLE */
	uint64_t ip;
	uint32_t pid, tid;
	uint32_t nr_chain;	/* callchain entries, context markers included */
	const uint64_t *chain;
	/* PERF_RECORD_LOST */
	uint64_t lost;
	/* PERF_RECORD_KSYMBOL */
	uint64_t ksym_addr;
	uint32_t ksym_len;
	uint16_t ksym_type;
	uint16_t ksym_flags;
};

/* Called for every record; a malformed one is reported as type 0. */
typedef void (*hot_record_fn)(const struct hot_record *r, void *ctx);

/* Counts of what one read found. */
struct hot_ring_stats {
	uint64_t records;
	uint64_t samples;
	uint64_t lost;		/* samples the kernel dropped (LOST records) */
	uint64_t throttled;	/* THROTTLE records */
	uint64_t malformed;
};

/*
 * Walk the records of the data area @data (@size bytes, a power of two)
 * from @tail to @head (free-running counters, as in the mmap header),
 * calling @fn for each. A record that crosses the end of the area is
 * reassembled in @scratch (@scratch_len bytes; records longer are
 * skipped as malformed). Returns the new tail (== @head unless a record
 * header is cut short, which would be a kernel bug).
 */
uint64_t hot_ring_read(const uint8_t *data, uint64_t size, uint64_t tail,
		       uint64_t head, uint8_t *scratch, size_t scratch_len,
		       hot_record_fn fn, void *ctx, struct hot_ring_stats *st);

/*
 * Decode one record's body (@rec, @len bytes including the header)
 * into @r. 0, or -EINVAL when it is shorter than its type needs.
 */
int hot_record_decode(const uint8_t *rec, size_t len, struct hot_record *r);

/*
 * For the tests and the sampler alike: whether callchain entry @v is a
 * context marker (PERF_CONTEXT_KERNEL, _USER, ...) rather than an address.
 */
static inline int hot_chain_is_marker(uint64_t v)
{
	return v >= (uint64_t)PERF_CONTEXT_MAX;
}

#endif
