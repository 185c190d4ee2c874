/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_event_records.h - builders of the event stream's records
 * (uvm_event_records.c).
 */
#ifndef __UVM_EVENT_RECORDS_H__
#define __UVM_EVENT_RECORDS_H__

#include <linux/types.h>
#include <uapi/uvm.h>

struct uvm_managed;
struct uvm_prefetch;
struct uvm_advise;

void uvm_event_migrate(struct uvm_managed *mgd, unsigned long addr,
		       unsigned int pages, int cause, u32 src_type, int src_id,
		       u32 dst_type, int dst_id, u64 duration_ns);
void uvm_event_cpu_fault(struct uvm_managed *mgd, unsigned long addr,
			 bool write, int node, unsigned int pages,
			 u64 duration_ns);
void uvm_event_fault_batch(struct uvm_managed *mgd,
			   const struct uvm_event_fault_batch *batch);
void uvm_event_device_fault(struct uvm_managed *mgd, unsigned long addr,
			    u64 batch, u32 device, bool write);
void uvm_event_evict(struct uvm_managed *mgd, unsigned long addr, u64 bytes,
		     u32 device, bool own, u64 duration_ns);
void uvm_event_thrash(struct uvm_managed *mgd, unsigned long addr, u32 kind,
		      u32 proc, u32 policy, u32 pages);
void uvm_event_read_dup(struct uvm_managed *mgd, unsigned long addr,
			unsigned int pages, int device, bool collapse);
void uvm_event_remote_map(struct uvm_managed *mgd, unsigned long addr,
			  unsigned int pages, u32 device, int target);
void uvm_event_policy(struct uvm_managed *mgd, u32 set, u32 flags,
		      const struct uvm_perf *now);
void uvm_event_range(struct uvm_managed *mgd, u16 type, unsigned long start,
		     unsigned long end);
void uvm_event_prefetch(struct uvm_managed *mgd,
			const struct uvm_prefetch *args, int status);
void uvm_event_advise(struct uvm_managed *mgd, const struct uvm_advise *args);

#endif /* __UVM_EVENT_RECORDS_H__ */
