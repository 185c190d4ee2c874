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

/* Why data moved (uvm_migrate's cause). */
#define UVM_CAUSE_PREFETCH	0
#define UVM_CAUSE_CPU_FAULT	1
#define UVM_CAUSE_DEVICE	2	/* device fault or device prefetch */
#define UVM_CAUSE_EVICTION	3

/* uvm_migrate's from/to: a NUMA node, or a device id + UVM_TRACE_DEV. */
#define UVM_TRACE_HOST		(-1)

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

/* duration_ns: the copies (allocation and unmapping excluded). */
TRACE_EVENT(uvm_migrate,
	    TP_PROTO(unsigned long addr, unsigned int npages, int from, int to,
		     int cause, u64 duration_ns),
	    TP_ARGS(addr, npages, from, to, cause, duration_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(int, from)
			     __field(int, to)
			     __field(int, cause)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->cause = cause;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("pid=%d addr=0x%lx npages=%u from=%d to=%d cause=%d duration_ns=%llu",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->from, __entry->to, __entry->cause,
		      __entry->duration_ns)
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

#endif /* _UVM_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE uvm_trace
#include <trace/define_trace.h>
