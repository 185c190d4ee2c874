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

TRACE_EVENT(uvm_cpu_fault,
	    TP_PROTO(unsigned long addr, bool write, int nid),
	    TP_ARGS(addr, write, nid),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(bool, write)
			     __field(int, nid)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->write = write;
			   __entry->nid = nid;),
	    TP_printk("pid=%d addr=0x%lx %s nid=%d", __entry->pid,
		      __entry->addr, __entry->write ? "write" : "read",
		      __entry->nid)
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

TRACE_EVENT(uvm_migrate,
	    TP_PROTO(unsigned long addr, unsigned int npages, int from, int to,
		     int cause),
	    TP_ARGS(addr, npages, from, to, cause),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(int, from)
			     __field(int, to)
			     __field(int, cause)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->from = from;
			   __entry->to = to;
			   __entry->cause = cause;),
	    TP_printk("pid=%d addr=0x%lx npages=%u from=%d to=%d cause=%d",
		      __entry->pid, __entry->addr, __entry->npages,
		      __entry->from, __entry->to, __entry->cause)
);

TRACE_EVENT(uvm_device_fault_batch,
	    TP_PROTO(u32 device, unsigned int faults, unsigned int pages),
	    TP_ARGS(device, faults, pages),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(u32, device)
			     __field(unsigned int, faults)
			     __field(unsigned int, pages)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->device = device;
			   __entry->faults = faults;
			   __entry->pages = pages;),
	    TP_printk("pid=%d device=%u faults=%u pages=%u", __entry->pid,
		      __entry->device, __entry->faults, __entry->pages)
);

TRACE_EVENT(uvm_evict,
	    TP_PROTO(unsigned long addr, unsigned int npages, u32 device),
	    TP_ARGS(addr, npages, device),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(unsigned long, addr)
			     __field(unsigned int, npages)
			     __field(u32, device)),
	    TP_fast_assign(__entry->pid = current->tgid;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->device = device;),
	    TP_printk("pid=%d addr=0x%lx npages=%u device=%u", __entry->pid,
		      __entry->addr, __entry->npages, __entry->device)
);

#endif /* _UVM_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE uvm_trace
#include <trace/define_trace.h>
