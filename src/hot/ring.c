// SPDX-License-Identifier: GPL-2.0-only
#include "config.h"

#include "hot/ring.h"

#include <errno.h>
#include <string.h>

/* The sample_id trailer with sample_id_all: TID, then TIME. */
static int decode_sample_id(const uint8_t *p, const uint8_t *end,
			    struct hot_record *r)
{
	if (end - p < 16)
		return -EINVAL;
	memcpy(&r->pid, p, 4);
	memcpy(&r->tid, p + 4, 4);
	memcpy(&r->time, p + 8, 8);
	return 0;
}

int hot_record_decode(const uint8_t *rec, size_t len, struct hot_record *r)
{
	const uint8_t *p = rec + sizeof(struct perf_event_header);
	const uint8_t *end = rec + len;
	struct perf_event_header h;
	uint64_t nr;

	memset(r, 0, sizeof(*r));
	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, rec, sizeof(h));
	r->type = h.type;
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		/* ip, pid/tid, time, nr, ips[nr] */
		if (end - p < 8 + 8 + 8 + 8)
			return -EINVAL;
		memcpy(&r->ip, p, 8);
		memcpy(&r->pid, p + 8, 4);
		memcpy(&r->tid, p + 12, 4);
		memcpy(&r->time, p + 16, 8);
		memcpy(&nr, p + 24, 8);
		p += 32;
		if (nr > (uint64_t)(end - p) / 8)
			return -EINVAL;
		r->nr_chain = (uint32_t)nr;
		/* Records are 8-byte aligned in the ring and in the scratch. */
		r->chain = nr ? (const uint64_t *)(const void *)p : NULL;
		return 0;
	case PERF_RECORD_LOST:
		/* id, lost, sample_id */
		if (end - p < 16)
			return -EINVAL;
		memcpy(&r->lost, p + 8, 8);
		return 0;
	case PERF_RECORD_KSYMBOL:
		/* addr, len, ksym_type, flags, name[], sample_id */
		if (end - p < 16 + 16)
			return -EINVAL;
		memcpy(&r->ksym_addr, p, 8);
		memcpy(&r->ksym_len, p + 8, 4);
		memcpy(&r->ksym_type, p + 12, 2);
		memcpy(&r->ksym_flags, p + 14, 2);
		return decode_sample_id(end - 16, end, r);
	default:
		return 0;
	}
}

uint64_t hot_ring_read(const uint8_t *data, uint64_t size, uint64_t tail,
		       uint64_t head, uint8_t *scratch, size_t scratch_len,
		       hot_record_fn fn, void *ctx, struct hot_ring_stats *st)
{
	uint64_t mask = size - 1;

	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint64_t off = tail & mask;
		const uint8_t *rec;
		struct hot_record r;

		/* The header itself may straddle the end (8 bytes, aligned: no). */
		if (off + sizeof(h) <= size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t first = (size_t)(size - off);

			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail) {
			/* Cut short or garbage: drop everything up to head. */
			st->malformed++;
			return head;
		}
		if (off + h.size <= size) {
			rec = data + off;
		} else if (h.size <= scratch_len) {
			size_t first = (size_t)(size - off);

			memcpy(scratch, data + off, first);
			memcpy(scratch + first, data, h.size - first);
			rec = scratch;
		} else {
			st->malformed++;
			tail += h.size;
			continue;
		}
		st->records++;
		if (hot_record_decode(rec, h.size, &r)) {
			st->malformed++;
			r.type = 0;
		} else if (r.type == PERF_RECORD_SAMPLE) {
			st->samples++;
		} else if (r.type == PERF_RECORD_LOST) {
			st->lost += r.lost;
		} else if (r.type == PERF_RECORD_THROTTLE) {
			st->throttled++;
		}
		if (fn)
			fn(&r, ctx);
		tail += h.size;
	}
	return tail;
}
