// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_event_records.c - the records of the event stream, one builder per
 * record type (include/uapi/uvm.h documents every field). The mechanism
 * calls them where it counts and traces the same events; each returns at
 * once when no stream takes its type.
 */
#include <linux/mm.h>

#include "uvm_event_records.h"
#include "uvm_managed.h"

void uvm_event_migrate(struct uvm_managed *mgd, unsigned long addr,
		       unsigned int pages, int cause, u32 src_type, int src_id,
		       u32 dst_type, int dst_id, u64 duration_ns)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_MIGRATE };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_MIGRATE))
		return;
	ev.u.migrate = (struct uvm_event_migrate){
		.addr = addr, .bytes = (u64)pages << PAGE_SHIFT,
		.pages = pages, .cause = cause,
		.src_type = src_type, .src_id = src_id,
		.dst_type = dst_type, .dst_id = dst_id,
		.duration_ns = duration_ns,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_cpu_fault(struct uvm_managed *mgd, unsigned long addr,
			 bool write, int node, unsigned int pages,
			 u64 duration_ns)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_CPU_FAULT };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_CPU_FAULT))
		return;
	ev.u.cpu_fault = (struct uvm_event_cpu_fault){
		.addr = addr, .write = write, .node = node,
		.duration_ns = duration_ns, .pages = pages,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_fault_batch(struct uvm_managed *mgd,
			   const struct uvm_event_fault_batch *batch)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_FAULT_BATCH };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_FAULT_BATCH))
		return;
	ev.u.batch = *batch;
	uvm_event_emit(mgd, &ev);
}

void uvm_event_device_fault(struct uvm_managed *mgd, unsigned long addr,
			    u64 batch, u32 device, bool write)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_DEVICE_FAULT };

	ev.u.device_fault = (struct uvm_event_device_fault){
		.addr = addr, .batch = batch, .device = device, .write = write,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_evict(struct uvm_managed *mgd, unsigned long addr, u64 bytes,
		     u32 device, bool own, u64 duration_ns)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_EVICT };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_EVICT))
		return;
	ev.u.evict = (struct uvm_event_evict){
		.addr = own ? addr : 0, .bytes = bytes, .device = device,
		.own = own, .duration_ns = duration_ns,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_thrash(struct uvm_managed *mgd, unsigned long addr, u32 kind,
		      u32 proc, u32 policy, u32 pages)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_THRASH };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_THRASH))
		return;
	ev.u.thrash = (struct uvm_event_thrash){
		.addr = addr, .kind = kind, .proc = proc, .policy = policy,
		.pages = pages,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_read_dup(struct uvm_managed *mgd, unsigned long addr,
			unsigned int pages, int device, bool collapse)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_READ_DUP };

	if (!pages || !uvm_event_wanted(&mgd->events, UVM_EVENT_READ_DUP))
		return;
	ev.u.read_dup = (struct uvm_event_read_dup){
		.addr = addr, .pages = pages, .device = device,
		.collapse = collapse,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_remote_map(struct uvm_managed *mgd, unsigned long addr,
			  unsigned int pages, u32 device, int target)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_REMOTE_MAP };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_REMOTE_MAP))
		return;
	ev.u.remote_map = (struct uvm_event_remote_map){
		.addr = addr, .pages = pages, .device = device,
		.target = target,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_policy(struct uvm_managed *mgd, u32 set, u32 flags,
		      const struct uvm_perf *now)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_POLICY };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_POLICY))
		return;
	ev.u.policy = (struct uvm_event_policy){
		.set = set, .flags = flags,
		.evict_policy = now->evict_policy,
		.prefetch_policy = now->prefetch_policy,
		.thrash_policy = now->thrash_policy,
		.fault_batch = now->fault_batch,
	};
	uvm_event_emit(mgd, &ev);
}

/* UVM_EVENT_ALLOC or UVM_EVENT_FREE of [@start, @end). */
void uvm_event_range(struct uvm_managed *mgd, u16 type, unsigned long start,
		     unsigned long end)
{
	struct uvm_event ev = { .hdr.type = type };

	if (!uvm_event_wanted(&mgd->events, type))
		return;
	ev.u.alloc = (struct uvm_event_alloc){
		.addr = start, .bytes = end - start,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_prefetch(struct uvm_managed *mgd,
			const struct uvm_prefetch *args, int status)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_PREFETCH };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_PREFETCH))
		return;
	ev.u.prefetch = (struct uvm_event_prefetch){
		.addr = args->addr, .bytes = args->length,
		.dst_type = args->dst.type, .dst_id = args->dst.id,
		.status = status,
	};
	uvm_event_emit(mgd, &ev);
}

void uvm_event_advise(struct uvm_managed *mgd, const struct uvm_advise *args)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_ADVISE };

	if (!uvm_event_wanted(&mgd->events, UVM_EVENT_ADVISE))
		return;
	ev.u.advise = (struct uvm_event_advise){
		.addr = args->addr, .bytes = args->length,
		.advice = args->advice, .loc_type = args->loc.type,
		.loc_id = args->loc.id,
	};
	uvm_event_emit(mgd, &ev);
}
