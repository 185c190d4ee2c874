// SPDX-License-Identifier: GPL-2.0
/*
 * replay_trace.c - the replay's records from a trace file
 * (docs/trace-format.md), read and checked by uvm-trace's reader
 * (tools/trace/trace_read.c: checksums, sizes, versions; an error names
 * the record and the offset).
 */
#include <stdlib.h>
#include <string.h>

#include "replay.h"
#include "trace/trace_format.h"

struct rp_source {
	struct tr_reader r;
	bool user_copies;	/* no prefetch records: copies of cause user are them */
};

/* The drops NVIDIA's driver counted, by type, as words. */
static void set_drops(const struct tr_header *h, struct rp_info *info)
{
	static const char *const nv[TR_NV_TYPES] = {
		"?", "cpu_fault", "migration", "gpu_fault", "gpu_fault_replay",
		"fault_buffer_overflow", "fatal_fault", "read_duplicate",
		"read_duplicate_invalidate", "page_size_change", "thrashing",
		"throttling_start", "throttling_end", "map_remote", "eviction", "?",
	};
	size_t n = 0, len = sizeof(info->lost_why);
	unsigned int i;

	for (i = 0; i < TR_NV_TYPES && n < len; i++)
		if (h->nv_dropped[i])
			n += (size_t)snprintf(info->lost_why + n, len - n, "%s%s %llu",
					      n ? ", " : "NVIDIA's driver dropped ",
					      nv[i], (unsigned long long)h->nv_dropped[i]);
}

static void set_info(const struct tr_header *h, struct rp_info *info)
{
	memset(info, 0, sizeof(*info));
	info->page_size = h->page_size;
	info->attached = h->mode == TR_MODE_ATTACH;
	info->has_device_faults = h->types & (1ULL << UVM_EVENT_DEVICE_FAULT);
	info->num_devices = h->num_devices;
	info->prefetch_policy = h->prefetch_policy;
	info->incomplete = h->completeness == TR_COMPLETE_NO;
	info->lost = h->lost;
	set_drops(h, info);
	memcpy(info->command, h->command, sizeof(info->command));
	info->command[sizeof(info->command) - 1] = '\0';
}

struct rp_source *rp_open(const char *path, struct rp_info *info, char *err,
			  size_t errlen)
{
	struct rp_source *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (tr_open(&s->r, path)) {
		snprintf(err, errlen, "%s: %s", path, s->r.err);
		rp_close(s);
		return NULL;
	}
	if (s->r.info.h.page_size != 4096) {
		snprintf(err, errlen, "%s: recorded with %u-byte pages, this host has 4096",
			 path, s->r.info.h.page_size);
		rp_close(s);
		return NULL;
	}
	set_info(&s->r.info.h, info);
	s->user_copies = !(s->r.info.h.types & (1ULL << UVM_EVENT_PREFETCH));
	return s;
}

static void set_range(struct rp_rec *rec, enum rp_kind kind, uint64_t addr,
		      uint64_t bytes)
{
	rec->kind = kind;
	rec->addr = addr;
	rec->bytes = bytes;
}

/*
 * A copy the program asked for, in a trace without the requests
 * themselves (NVIDIA's driver reports cudaMemPrefetchAsync only as its
 * copies, of cause user): the prefetch of that range to where it went.
 */
static void user_copy(const struct uvm_event_migrate *m, struct rp_rec *rec)
{
	set_range(rec, RP_PREFETCH, m->addr, m->bytes);
	if (m->dst_type == UVM_EVENT_LOC_DEVICE) {
		rec->loc_type = UVM_LOC_DEVICE;
		rec->loc_id = m->dst_id;
	} else {
		rec->loc_type = UVM_LOC_HOST;
		rec->loc_id = 0;
	}
}

/* The fields of @e the replay uses, by its type. */
static void convert(const struct rp_source *s, const struct uvm_event *e,
		    struct rp_rec *rec)
{
	switch (e->hdr.type) {
	case UVM_EVENT_MIGRATE:
		if (s->user_copies && e->u.migrate.cause == UVM_EVENT_CAUSE_USER)
			user_copy(&e->u.migrate, rec);
		break;
	case UVM_EVENT_ALLOC:
		set_range(rec, RP_ALLOC, e->u.alloc.addr, e->u.alloc.bytes);
		break;
	case UVM_EVENT_FREE:
		set_range(rec, RP_FREE, e->u.free.addr, e->u.free.bytes);
		break;
	case UVM_EVENT_FAULT_BATCH:
		rec->kind = RP_BATCH;
		rec->batch = e->u.batch.batch;
		rec->device = e->u.batch.device;
		break;
	case UVM_EVENT_DEVICE_FAULT:
		rec->kind = RP_DEVICE_FAULT;
		rec->addr = e->u.device_fault.addr;
		rec->batch = e->u.device_fault.batch;
		rec->device = e->u.device_fault.device;
		rec->write = e->u.device_fault.write;
		break;
	case UVM_EVENT_CPU_FAULT:
		rec->kind = RP_CPU_FAULT;
		rec->addr = e->u.cpu_fault.addr;
		rec->write = e->u.cpu_fault.write;
		break;
	case UVM_EVENT_PREFETCH:
		/* A refused request changed nothing: nothing to redo. */
		if (e->u.prefetch.status)
			break;
		set_range(rec, RP_PREFETCH, e->u.prefetch.addr, e->u.prefetch.bytes);
		rec->loc_type = e->u.prefetch.dst_type;
		rec->loc_id = e->u.prefetch.dst_id;
		break;
	case UVM_EVENT_ADVISE:
		set_range(rec, RP_ADVISE, e->u.advise.addr, e->u.advise.bytes);
		rec->advice = e->u.advise.advice;
		rec->loc_type = e->u.advise.loc_type;
		rec->loc_id = e->u.advise.loc_id;
		break;
	case UVM_EVENT_OVERFLOW:
		rec->kind = RP_OVERFLOW;
		rec->bytes = e->u.overflow.lost;
		break;
	}
}

int rp_next(struct rp_source *s, struct rp_rec *rec, char *err, size_t errlen)
{
	const struct uvm_event *e;
	int ret;

	memset(rec, 0, sizeof(*rec));
	rec->index = s->r.index + s->r.n;	/* where an error is */
	ret = tr_next(&s->r, &e);
	if (ret < 0) {
		snprintf(err, errlen, "%s", s->r.err);
		return -1;
	}
	if (ret == 0)
		return 0;
	rec->index = s->r.index + s->r.pos - 1;
	rec->ts = e->hdr.timestamp_ns;
	convert(s, e, rec);
	return 1;
}

void rp_close(struct rp_source *s)
{
	if (!s)
		return;
	tr_close(&s->r);
	free(s);
}
