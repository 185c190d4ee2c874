// SPDX-License-Identifier: MIT
/*
 * uvm_events.c - native API: open and read the module's event stream
 * (UVM_IOCTL_EVENTS_OPEN) and decode its records into text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "uvm_kabi.h"

_Static_assert(UVM_EVENT_TYPE_POLICY == UVM_EVENT_POLICY, "event types");
_Static_assert(UVM_EVENT_TYPE_COUNT == UVM_EVENT_COUNT, "event types");
_Static_assert(UVM_EVENT_RECORD_SIZE == sizeof(struct uvm_event), "record");
_Static_assert(UVM_EVENTS_OPEN_ALL_SPACES == UVM_EVENTS_ALL_SPACES, "flags");

static const char *const type_names[UVM_EVENT_COUNT] = {
	[UVM_EVENT_OVERFLOW] = "overflow",
	[UVM_EVENT_FAULT_BATCH] = "fault_batch",
	[UVM_EVENT_DEVICE_FAULT] = "device_fault",
	[UVM_EVENT_CPU_FAULT] = "cpu_fault",
	[UVM_EVENT_MIGRATE] = "migrate",
	[UVM_EVENT_EVICT] = "evict",
	[UVM_EVENT_THRASH] = "thrash",
	[UVM_EVENT_READ_DUP] = "read_dup",
	[UVM_EVENT_REMOTE_MAP] = "remote_map",
	[UVM_EVENT_POLICY] = "policy",
	[UVM_EVENT_ALLOC] = "alloc",
	[UVM_EVENT_FREE] = "free",
	[UVM_EVENT_PREFETCH] = "prefetch",
	[UVM_EVENT_ADVISE] = "advise",
};

static const char *const cause_names[] = {
	[UVM_EVENT_CAUSE_USER] = "user",
	[UVM_EVENT_CAUSE_CPU_FAULT] = "cpu_fault",
	[UVM_EVENT_CAUSE_DEVICE_FAULT] = "device_fault",
	[UVM_EVENT_CAUSE_EVICTION] = "eviction",
	[UVM_EVENT_CAUSE_PREFETCH] = "prefetch",
	[UVM_EVENT_CAUSE_THRASHING] = "thrashing",
	[UVM_EVENT_CAUSE_COLLAPSE] = "collapse",
};

static const char *const thrash_kinds[] = {
	[UVM_EVENT_THRASH_DETECTED] = "detected",
	[UVM_EVENT_THRASH_THROTTLED] = "throttled",
	[UVM_EVENT_THRASH_PINNED] = "pinned",
};

uvm_public int uvm_events_open(struct uvm_context *ctx, uint64_t types,
			       unsigned int ring_records, unsigned int flags)
{
	struct uvm_events_open args;
	int ret;

	if (!ctx)
		return -EINVAL;
	uvm_memclear(args);
	args.version = UVM_EVENTS_VERSION;
	args.flags = flags;
	args.types = types;
	args.ring_records = ring_records;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_EVENTS_OPEN, &args);
	return ret ? ret : args.fd;
}

uvm_public int uvm_events_read(int fd, void *buf, unsigned int max)
{
	ssize_t n;

	if (fd < 0 || !buf || !max)
		return -EINVAL;
	do {
		n = read(fd, buf, (size_t)max * sizeof(struct uvm_event));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (int)(n / (ssize_t)sizeof(struct uvm_event));
}

uvm_public const char *uvm_event_type_name(unsigned int type)
{
	return type < UVM_EVENT_COUNT ? type_names[type] : NULL;
}

static const char *name_of(const char *const *names, size_t n, uint32_t v)
{
	return v < n && names[v] ? names[v] : "?";
}

/* "host:N" or "device:N". */
static const char *loc(char *buf, size_t len, uint32_t type, int32_t id)
{
	snprintf(buf, len, "%s:%" PRId32,
		 type == UVM_EVENT_LOC_DEVICE ? "device" : "host", id);
	return buf;
}

/* A fault batch record's payload; like snprintf. */
static int format_batch(const struct uvm_event_fault_batch *b, char *buf,
			size_t len)
{
	return snprintf(buf, len, " batch=%llu device=%" PRIu32
			" faults=%" PRIu32 " pages=%" PRIu32
			" duplicates=%" PRIu32 " blocks=%" PRIu32
			" prefetched=%" PRIu32 " migrated=%" PRIu32
			" remote=%" PRIu32 " evictions=%" PRIu32 " ns=%llu"
			" wait_ns=%llu copy_ns=%llu map_ns=%llu"
			" unmap_ns=%llu evict_ns=%llu",
			b->batch, b->device, b->faults, b->pages,
			b->duplicates, b->blocks, b->prefetched, b->migrated,
			b->remote, b->evictions, b->duration_ns, b->wait_ns,
			b->copy_ns, b->map_ns, b->unmap_ns, b->evict_ns);
}

/* The payload of @e after the header's text; like snprintf. */
static int format_payload(const struct uvm_event *e, char *buf, size_t len)
{
	const struct uvm_event_migrate *m = &e->u.migrate;
	char s[24], d[24];

	switch (e->hdr.type) {
	case UVM_EVENT_OVERFLOW:
		return snprintf(buf, len, " lost=%llu", e->u.overflow.lost);
	case UVM_EVENT_FAULT_BATCH:
		return format_batch(&e->u.batch, buf, len);
	case UVM_EVENT_DEVICE_FAULT:
		return snprintf(buf, len, " addr=0x%llx batch=%llu"
				" device=%" PRIu32 " access=%s",
				e->u.device_fault.addr, e->u.device_fault.batch,
				e->u.device_fault.device,
				e->u.device_fault.write ? "write" : "read");
	case UVM_EVENT_CPU_FAULT:
		return snprintf(buf, len, " addr=0x%llx access=%s node=%"
				PRId32 " pages=%" PRIu32 " ns=%llu",
				e->u.cpu_fault.addr,
				e->u.cpu_fault.write ? "write" : "read",
				e->u.cpu_fault.node, e->u.cpu_fault.pages,
				e->u.cpu_fault.duration_ns);
	case UVM_EVENT_MIGRATE:
		return snprintf(buf, len, " addr=0x%llx pages=%" PRIu32
				" bytes=%llu src=%s dst=%s cause=%s ns=%llu",
				m->addr, m->pages, m->bytes,
				loc(s, sizeof(s), m->src_type, m->src_id),
				loc(d, sizeof(d), m->dst_type, m->dst_id),
				name_of(cause_names, UVM_ARRAY_SIZE(cause_names),
					m->cause), m->duration_ns);
	case UVM_EVENT_EVICT:
		return snprintf(buf, len, " addr=0x%llx bytes=%llu"
				" device=%" PRIu32 " own=%" PRIu32 " ns=%llu",
				e->u.evict.addr, e->u.evict.bytes,
				e->u.evict.device, e->u.evict.own,
				e->u.evict.duration_ns);
	case UVM_EVENT_THRASH:
		return snprintf(buf, len, " addr=0x%llx kind=%s proc=%"
				PRIu32 " policy=%" PRIu32 " pages=%" PRIu32,
				e->u.thrash.addr,
				name_of(thrash_kinds,
					UVM_ARRAY_SIZE(thrash_kinds),
					e->u.thrash.kind),
				e->u.thrash.proc, e->u.thrash.policy,
				e->u.thrash.pages);
	case UVM_EVENT_READ_DUP:
		return snprintf(buf, len, " addr=0x%llx pages=%" PRIu32
				" device=%" PRId32 " collapse=%" PRIu32,
				e->u.read_dup.addr, e->u.read_dup.pages,
				e->u.read_dup.device, e->u.read_dup.collapse);
	case UVM_EVENT_REMOTE_MAP:
		return snprintf(buf, len, " addr=0x%llx pages=%" PRIu32
				" device=%" PRIu32 " target=%" PRId32,
				e->u.remote_map.addr, e->u.remote_map.pages,
				e->u.remote_map.device, e->u.remote_map.target);
	case UVM_EVENT_POLICY:
		return snprintf(buf, len, " set=0x%" PRIx32 " flags=%" PRIu32
				" evict=%" PRIu32 " prefetch=%" PRIu32 " thrash=%"
				PRIu32 " batch=%" PRIu32, e->u.policy.set,
				e->u.policy.flags, e->u.policy.evict_policy,
				e->u.policy.prefetch_policy,
				e->u.policy.thrash_policy,
				e->u.policy.fault_batch);
	case UVM_EVENT_ALLOC:
	case UVM_EVENT_FREE:
		return snprintf(buf, len, " addr=0x%llx bytes=%llu",
				e->u.alloc.addr, e->u.alloc.bytes);
	case UVM_EVENT_PREFETCH:
		return snprintf(buf, len, " addr=0x%llx bytes=%llu dst_type=%"
				PRIu32 " dst_id=%" PRId32 " status=%" PRId32,
				e->u.prefetch.addr, e->u.prefetch.bytes,
				e->u.prefetch.dst_type, e->u.prefetch.dst_id,
				e->u.prefetch.status);
	case UVM_EVENT_ADVISE:
		return snprintf(buf, len, " addr=0x%llx bytes=%llu advice=%"
				PRIu32 " loc_type=%" PRIu32 " loc_id=%" PRId32,
				e->u.advise.addr, e->u.advise.bytes,
				e->u.advise.advice, e->u.advise.loc_type,
				e->u.advise.loc_id);
	}
	return snprintf(buf, len, " ?");
}

uvm_public int uvm_event_format(const void *record, char *buf, size_t len)
{
	const struct uvm_event *e = record;
	int n, m;

	if (!e || (!buf && len) || e->hdr.size != sizeof(*e) ||
	    e->hdr.version != UVM_EVENTS_VERSION ||
	    e->hdr.type >= UVM_EVENT_COUNT)
		return -EINVAL;
	n = snprintf(buf, len, "%s t=%llu va_space=%llu pid=%"
		     PRIu32 " tid=%" PRIu32, type_names[e->hdr.type],
		     e->hdr.timestamp_ns, e->hdr.va_space, e->hdr.pid,
		     e->hdr.tid);
	if (n < 0)
		return -EINVAL;
	m = format_payload(e, (size_t)n < len ? buf + n : NULL,
			   (size_t)n < len ? len - (size_t)n : 0);
	return m < 0 ? -EINVAL : n + m;
}
