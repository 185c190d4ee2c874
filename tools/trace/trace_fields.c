// SPDX-License-Identifier: MIT
/*
 * trace_fields.c - the record types and their fields by name: the names
 * export writes and docs/trace-format.md defines. The reserved pad fields
 * (zero) are not listed.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "trace_format.h"
#include "uvm_tool.h"

#define EV	struct uvm_event
#define IS_SIGNED(x)	_Generic((x), __s16: 1, __s32: 1, __s64: 1, default: 0)
#define HF(m)	{ #m, offsetof(EV, hdr.m), sizeof(((EV *)0)->hdr.m), \
		  IS_SIGNED(((EV *)0)->hdr.m), 0 }
#define PF(t, m) { #m, offsetof(EV, u.t.m), sizeof(((EV *)0)->u.t.m), \
		   IS_SIGNED(((EV *)0)->u.t.m), 0 }
/* A string field: char[], NUL-padded. */
#define SF(t, m) { #m, offsetof(EV, u.t.m), sizeof(((EV *)0)->u.t.m), 0, 1 }
#define NF(a)	(sizeof(a) / sizeof((a)[0]))

const struct tr_field tr_hdr_fields[] = {
	HF(size), HF(version), HF(pid), HF(tid), HF(timestamp_ns), HF(va_space),
};
const unsigned int tr_hdr_nfields = NF(tr_hdr_fields);

static const struct tr_field f_overflow[] = { PF(overflow, lost) };
static const struct tr_field f_batch[] = {
	PF(batch, batch), PF(batch, device), PF(batch, faults), PF(batch, pages),
	PF(batch, duplicates), PF(batch, blocks), PF(batch, prefetched),
	PF(batch, duration_ns), PF(batch, migrated), PF(batch, remote),
	PF(batch, evictions), PF(batch, wait_ns), PF(batch, copy_ns),
	PF(batch, map_ns), PF(batch, unmap_ns), PF(batch, evict_ns),
};
static const struct tr_field f_dfault[] = {
	PF(device_fault, addr), PF(device_fault, batch), PF(device_fault, device),
	PF(device_fault, write),
};
static const struct tr_field f_cfault[] = {
	PF(cpu_fault, addr), PF(cpu_fault, write), PF(cpu_fault, node),
	PF(cpu_fault, duration_ns), PF(cpu_fault, pages),
};
static const struct tr_field f_migrate[] = {
	PF(migrate, addr), PF(migrate, bytes), PF(migrate, pages), PF(migrate, cause),
	PF(migrate, src_type), PF(migrate, src_id), PF(migrate, dst_type),
	PF(migrate, dst_id), PF(migrate, duration_ns),
};
static const struct tr_field f_evict[] = {
	PF(evict, addr), PF(evict, bytes), PF(evict, device), PF(evict, own),
	PF(evict, duration_ns),
};
static const struct tr_field f_thrash[] = {
	PF(thrash, addr), PF(thrash, kind), PF(thrash, proc), PF(thrash, policy),
	PF(thrash, pages),
};
static const struct tr_field f_rdup[] = {
	PF(read_dup, addr), PF(read_dup, pages), PF(read_dup, device),
	PF(read_dup, collapse),
};
static const struct tr_field f_rmap[] = {
	PF(remote_map, addr), PF(remote_map, pages), PF(remote_map, device),
	PF(remote_map, target),
};
static const struct tr_field f_policy[] = {
	PF(policy, set), PF(policy, flags), PF(policy, evict_policy),
	PF(policy, prefetch_policy), PF(policy, thrash_policy), PF(policy, fault_batch),
};
static const struct tr_field f_alloc[] = { PF(alloc, addr), PF(alloc, bytes) };
static const struct tr_field f_free[] = { PF(free, addr), PF(free, bytes) };
static const struct tr_field f_prefetch[] = {
	PF(prefetch, addr), PF(prefetch, bytes), PF(prefetch, dst_type),
	PF(prefetch, dst_id), PF(prefetch, status),
};
static const struct tr_field f_advise[] = {
	PF(advise, addr), PF(advise, bytes), PF(advise, advice),
	PF(advise, loc_type), PF(advise, loc_id),
};
static const struct tr_field f_kernel[] = {
	PF(kernel, start_ns), PF(kernel, end_ns), PF(kernel, device), PF(kernel, stream),
	PF(kernel, correlation), SF(kernel, name), PF(kernel, name_len),
	PF(kernel, name_hash),
};

const struct tr_type tr_types[TR_TYPES] = {
	[UVM_EVENT_OVERFLOW] = { "overflow", f_overflow, NF(f_overflow) },
	[UVM_EVENT_FAULT_BATCH] = { "fault_batch", f_batch, NF(f_batch) },
	[UVM_EVENT_DEVICE_FAULT] = { "device_fault", f_dfault, NF(f_dfault) },
	[UVM_EVENT_CPU_FAULT] = { "cpu_fault", f_cfault, NF(f_cfault) },
	[UVM_EVENT_MIGRATE] = { "migrate", f_migrate, NF(f_migrate) },
	[UVM_EVENT_EVICT] = { "evict", f_evict, NF(f_evict) },
	[UVM_EVENT_THRASH] = { "thrash", f_thrash, NF(f_thrash) },
	[UVM_EVENT_READ_DUP] = { "read_dup", f_rdup, NF(f_rdup) },
	[UVM_EVENT_REMOTE_MAP] = { "remote_map", f_rmap, NF(f_rmap) },
	[UVM_EVENT_POLICY] = { "policy", f_policy, NF(f_policy) },
	[UVM_EVENT_ALLOC] = { "alloc", f_alloc, NF(f_alloc) },
	[UVM_EVENT_FREE] = { "free", f_free, NF(f_free) },
	[UVM_EVENT_PREFETCH] = { "prefetch", f_prefetch, NF(f_prefetch) },
	[UVM_EVENT_ADVISE] = { "advise", f_advise, NF(f_advise) },
	[UVM_EVENT_KERNEL] = { "kernel", f_kernel, NF(f_kernel) },
};

const char *tr_type_name(unsigned int type)
{
	return type < TR_TYPES ? tr_types[type].name : NULL;
}

/*
 * One name of a --events list: a type's name (any case) or "all": the
 * event stream's types (record asks the module for them), not the
 * trace-only ones.
 */
static int parse_one(const char *name, size_t len, uint64_t *mask)
{
	unsigned int t;

	if (len == 3 && !strncasecmp(name, "all", 3)) {
		*mask |= (1ULL << UVM_EVENT_COUNT) - 1;
		return 0;
	}
	for (t = 0; t < UVM_EVENT_COUNT; t++) {
		if (strlen(tr_types[t].name) == len &&
		    !strncasecmp(name, tr_types[t].name, len)) {
			*mask |= 1ULL << t;
			return 0;
		}
	}
	return -1;
}

/* "migrate,fault_batch" or "all" into bits (1 << type); -1 if a name is bad. */
int tr_parse_types(const char *list, uint64_t *mask)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len || parse_one(p, len, mask))
			return -1;
		p += len;
		if (*p == ',' && !*++p)
			return -1;
	}
	return *mask ? 0 : -1;
}

/* A field's value, zero-extended (0 for a string). */
uint64_t tr_field_u(const struct uvm_event *ev, const struct tr_field *f)
{
	const unsigned char *p = (const unsigned char *)ev + f->off;
	uint64_t v = 0;

	if (!f->is_string)
		memcpy(&v, p, f->size);
	return v;
}

/* A string field's bytes into @buf (f->size + 1 bytes), NUL-terminated; its length. */
size_t tr_field_str(const struct uvm_event *ev, const struct tr_field *f, char *buf)
{
	size_t n = strnlen((const char *)ev + f->off, f->size);

	memcpy(buf, (const char *)ev + f->off, n);
	buf[n] = '\0';
	return n;
}

/* A field's value as a decimal integer, signed if the field is; a string as JSON's. */
int tr_field_print(FILE *out, const struct uvm_event *ev, const struct tr_field *f)
{
	char str[256];
	uint64_t v;
	int64_t s;

	if (f->is_string) {
		tr_field_str(ev, f, str);
		ut_json_str(out, str);
		return 0;
	}
	v = tr_field_u(ev, f);

	if (!f->is_signed)
		return fprintf(out, "%" PRIu64, v);
	if (f->size == 4)
		s = (int32_t)(uint32_t)v;
	else if (f->size == 2)
		s = (int16_t)(uint16_t)v;
	else
		s = (int64_t)v;
	return fprintf(out, "%" PRId64, s);
}

/* kind 0: eviction, 1: prefetch, 2: thrashing policy names. */
const char *tr_policy_name(unsigned int kind, unsigned int val)
{
	static const char *const evict[] = { "lru", "fifo", "lfu", "random" };
	static const char *const prefetch[] = { "none", "density", "sequential" };
	static const char *const thrash[] = { "none", "throttle", "pin" };

	if (kind == 0 && val < NF(evict))
		return evict[val];
	if (kind == 1 && val < NF(prefetch))
		return prefetch[val];
	if (kind == 2 && val < NF(thrash))
		return thrash[val];
	return "unknown";
}
