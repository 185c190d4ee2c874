/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the uvm module: enable them under
 * /sys/kernel/tracing/events/uvm/ or with perf trace -e 'uvm:*'.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM uvm

#if !defined(_UVM_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _UVM_TRACE_H_

#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <uapi/uvm.h>

/* Why data moved (uvm_migrate's cause): the event records' values. */
#define UVM_CAUSE_USER		UVM_EVENT_CAUSE_USER
#define UVM_CAUSE_CPU_FAULT	UVM_EVENT_CAUSE_CPU_FAULT
#define UVM_CAUSE_DEVICE	UVM_EVENT_CAUSE_DEVICE_FAULT
#define UVM_CAUSE_EVICTION	UVM_EVENT_CAUSE_EVICTION
#define UVM_CAUSE_PREFETCH	UVM_EVENT_CAUSE_PREFETCH
#define UVM_CAUSE_THRASHING	UVM_EVENT_CAUSE_THRASHING
#define UVM_CAUSE_COLLAPSE	UVM_EVENT_CAUSE_COLLAPSE

/* uvm_migrate's *_dev of host memory, *_node of device memory. */
#define UVM_TRACE_NONE		(-1)

/* duration_ns (ktime_get_ns()): the whole fault. */
TRACE_EVENT(uvm_cpu_fault,
	    TP_PROTO(unsigned long addr, bool write, int nid, u64 duration_ns),
	    TP_ARGS(addr, write, nid, duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(bool, write)
			     __field(int, nid)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->write = write;
			   __entry->nid = nid;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d addr=0x%lx %s nid=%d duration_ns=%llu",
		      __entry->pid, __entry->addr,
		      __entry->write ? "write" : "read", __entry->nid,
		      __entry->duration_ns)
);

TRACE_EVENT(uvm_populate,
	    TP_PROTO(unsigned long addr, unsigned int npages, int nid),
	    TP_ARGS(addr, npages, nid),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(int, nid)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->nid = nid;),
	    TP_printk("pid=%d addr=0x%lx npages=%u nid=%d", __entry->pid,
		      __entry->addr, __entry->npages, __entry->nid)
);

/*
 * Pages of one block moved from one place to another. A place is a host
 * node (*_node, *_dev = -1) or a device (*_dev, *_node = -1); from_node is
 * -1 with from_dev -1 when the host pages were on several nodes.
 * duration_ns: the copies (allocation and unmapping excluded).
 */
TRACE_EVENT(uvm_migrate,
	    TP_PROTO(unsigned long addr, unsigned int npages, int from_node,
		     int from_dev, int to_node, int to_dev, int cause,
		     u64 duration_ns),
	    TP_ARGS(addr, npages, from_node, from_dev, to_node, to_dev, cause,
		    duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(int, from_node)
			     __field(int, from_dev)
			     __field(int, to_node)
			     __field(int, to_dev)
			     __field(int, cause)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->from_node = from_node;
			   __entry->from_dev = from_dev;
			   __entry->to_node = to_node;
			   __entry->to_dev = to_dev;
			   __entry->cause = cause;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d addr=0x%lx npages=%u from_node=%d from_dev=%d to_node=%d to_dev=%d cause=%d duration_ns=%llu",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->from_node, __entry->from_dev, __entry->to_node,
		      __entry->to_dev, __entry->cause, __entry->duration_ns)
);

/* duration_ns: servicing the batch (migrations, mappings), not the accesses. */
TRACE_EVENT(uvm_device_fault_batch,
	    TP_PROTO(u32 device, unsigned int faults, unsigned int pages,
		     u64 duration_ns),
	    TP_ARGS(device, faults, pages, duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u32, device)
			     __field(unsigned int, faults)
			     __field(unsigned int, pages)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->device = device;
			   __entry->faults = faults;
			   __entry->pages = pages;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d device=%u faults=%u pages=%u duration_ns=%llu",
		      __entry->pid, __entry->device, __entry->faults,
		      __entry->pages, __entry->duration_ns)
);

/* duration_ns: the whole eviction of the chunk (copies home and freeing). */
TRACE_EVENT(uvm_evict,
	    TP_PROTO(unsigned long addr, unsigned int npages, u32 device,
		     u64 duration_ns),
	    TP_ARGS(addr, npages, device, duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(u32, device)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->device = device;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d addr=0x%lx npages=%u device=%u duration_ns=%llu",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->device, __entry->duration_ns)
);

/* A prefetch request (recorded before data moves); duration: the move. */
TRACE_EVENT(uvm_prefetch,
	    TP_PROTO(unsigned long addr, unsigned long length, u32 type, s32 id,
		     u64 duration_ns),
	    TP_ARGS(addr, length, type, id, duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned long, length)
			     __field(u32, type)
			     __field(s32, id)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->length = length;
			   __entry->type = type;
			   __entry->id = id;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d addr=0x%lx length=%lu type=%u id=%d duration_ns=%llu",
		      __entry->pid, __entry->addr, __entry->length,
		      __entry->type, __entry->id, __entry->duration_ns)
);

/* Pages whose contents a discard dropped. */
TRACE_EVENT(uvm_discard,
	    TP_PROTO(unsigned long addr, unsigned long npages),
	    TP_ARGS(addr, npages),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned long, npages)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;),
	    TP_printk("pid=%d addr=0x%lx npages=%lu", __entry->pid,
		      __entry->addr, __entry->npages)
);

/*
 * Read duplication: @collapse 0: read-only copies made on @device (-1: the
 * host); 1: the copies of pages collapsed to @device (-1: the host) on a
 * write.
 */
TRACE_EVENT(uvm_read_dup,
	    TP_PROTO(unsigned long addr, unsigned int npages, int device,
		     bool collapse),
	    TP_ARGS(addr, npages, device, collapse),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(int, device)
			     __field(bool, collapse)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->device = device;
			   __entry->collapse = collapse;),
	    TP_printk("pid=%d addr=0x%lx npages=%u device=%d collapse=%d",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->device, __entry->collapse)
);

/* Pages @device mapped remotely: @target a device id, or -1: host memory. */
TRACE_EVENT(uvm_remote_map,
	    TP_PROTO(unsigned long addr, unsigned int npages, u32 device,
		     int target),
	    TP_ARGS(addr, npages, device, target),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(u32, device)
			     __field(int, target)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->device = device;
			   __entry->target = target;),
	    TP_printk("pid=%d addr=0x%lx npages=%u device=%u target=%d",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->device, __entry->target)
);

/*
 * Thrashing: a block found thrashing (@throttled false; @proc: where its
 * data just moved, 255 the host; @policy: UVM_THRASH_* in force), or a
 * fault of @proc napping before it moves the data (@throttled true).
 */
TRACE_EVENT(uvm_thrash,
	    TP_PROTO(unsigned long addr, u8 proc, u32 policy, bool throttled),
	    TP_ARGS(addr, proc, policy, throttled),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(u8, proc)
			     __field(u32, policy)
			     __field(bool, throttled)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->proc = proc;
			   __entry->policy = policy;
			   __entry->throttled = throttled;),
	    TP_printk("pid=%d addr=0x%lx proc=%u policy=%u throttled=%d",
		      __entry->pid, __entry->addr, __entry->proc,
		      __entry->policy, __entry->throttled)
);

#endif /* _UVM_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE uvm_trace
#include <trace/define_trace.h>
