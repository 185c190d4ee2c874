/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * uvm_events.h - the event stream's records and its open request
 * (UVM_IOCTL_EVENTS_OPEN, in uvm.h). Self-contained, so a program may
 * read records with libuvm's own uvm.h and this header alone.
 */
#ifndef _UAPI_UVM_EVENTS_H
#define _UAPI_UVM_EVENTS_H

#include <linux/types.h>

/*
 * The event stream (UVM_IOCTL_EVENTS_OPEN): a file descriptor whose read()
 * returns the VA space's memory-system events as fixed-size records
 * (struct uvm_event), oldest first.
 */

/* struct uvm_event_header.type, and bit (1 << type) of uvm_events_open.types */
#define UVM_EVENT_OVERFLOW		0	/* records lost (always recorded) */
#define UVM_EVENT_FAULT_BATCH		1	/* a device fault batch serviced */
#define UVM_EVENT_DEVICE_FAULT		2	/* one device fault (many: ask for them) */
#define UVM_EVENT_CPU_FAULT		3	/* a CPU fault serviced */
#define UVM_EVENT_MIGRATE		4	/* pages of one block moved */
#define UVM_EVENT_EVICT			5	/* a device chunk evicted for this VA space */
#define UVM_EVENT_THRASH		6	/* thrashing detected, throttled, pinned */
#define UVM_EVENT_READ_DUP		7	/* read duplicates made or collapsed */
#define UVM_EVENT_REMOTE_MAP		8	/* pages a device mapped where they are */
#define UVM_EVENT_POLICY		9	/* the VA space's policies changed */
#define UVM_EVENT_ALLOC			10	/* a managed range mapped */
#define UVM_EVENT_FREE			11	/* a managed range (or part) unmapped */
#define UVM_EVENT_PREFETCH		12	/* the program asked for a prefetch */
#define UVM_EVENT_ADVISE		13	/* the program gave advice */
#define UVM_EVENT_COUNT			14	/* the stream's types: 0 .. COUNT - 1 */
/* The default set: everything but the individual device faults. */
#define UVM_EVENTS_DEFAULT		(((1ULL << UVM_EVENT_COUNT) - 1) & \
					 ~(1ULL << UVM_EVENT_DEVICE_FAULT))

/*
 * Record types of trace files only (docs/trace-format.md), after the
 * stream's: written by recorders and importers in user space (uvm-trace
 * record-nvidia, import). The module never emits them, and
 * UVM_IOCTL_EVENTS_OPEN refuses their bits as it refuses any bit from
 * UVM_EVENT_COUNT on.
 */
#define UVM_EVENT_KERNEL		14	/* a kernel launch (struct uvm_event_kernel) */
#define UVM_EVENT_TRACE_COUNT		15	/* the types a trace file may hold */

/* struct uvm_events_open.flags */
#define UVM_EVENTS_ALL_SPACES		(1U << 0)	/* every VA space (CAP_PERFMON) */

#define UVM_EVENTS_VERSION		1
#define UVM_EVENTS_RING_MIN		16
#define UVM_EVENTS_RING_MAX		65536

/**
 * struct uvm_events_open - UVM_IOCTL_EVENTS_OPEN: open an event stream.
 *
 * The new file descriptor (O_RDONLY, close-on-exec) carries this VA
 * space's events, or with UVM_EVENTS_ALL_SPACES every VA space's (needs
 * CAP_PERFMON or CAP_SYS_ADMIN). read() returns whole records (a buffer
 * smaller than one: -EINVAL), blocking until there is one unless the file
 * is O_NONBLOCK (-EAGAIN); poll() reports EPOLLIN when a record is there.
 * When the ring is full, new records are lost and counted; the next
 * record the reader gets is then a UVM_EVENT_OVERFLOW with their number.
 * Only the process that owns the VA space may open its stream.
 */
struct uvm_events_open {
	/** @version: in, UVM_EVENTS_VERSION. */
	__u32 version;
	/** @flags: in, UVM_EVENTS_ALL_SPACES or zero. */
	__u32 flags;
	/** @types: in, bits (1 << UVM_EVENT_*) below UVM_EVENT_COUNT; 0: UVM_EVENTS_DEFAULT. */
	__u64 types;
	/** @ring_records: in, records the ring holds: a power of two, 16..65536. */
	__u32 ring_records;
	/** @fd: out, the stream's file descriptor. */
	__s32 fd;
};

/*
 * struct uvm_event_migrate.cause (and the uvm_migrate tracepoint's). A
 * copy that carried pages of several causes is one record per cause.
 */
#define UVM_EVENT_CAUSE_USER		0	/* the program asked: prefetch, migrate */
#define UVM_EVENT_CAUSE_CPU_FAULT	1
#define UVM_EVENT_CAUSE_DEVICE_FAULT	2	/* pages that faulted */
#define UVM_EVENT_CAUSE_EVICTION	3
#define UVM_EVENT_CAUSE_PREFETCH	4	/* added to a fault batch by the prefetch policy */
#define UVM_EVENT_CAUSE_THRASHING	5	/* moved by the thrashing policy (none today) */
#define UVM_EVENT_CAUSE_COLLAPSE	6	/* a write took a read-duplicated page */

/* A location in a record: struct uvm_event_migrate .src_type/.dst_type */
#define UVM_EVENT_LOC_HOST		0	/* id: NUMA node, -1 if several */
#define UVM_EVENT_LOC_DEVICE		1	/* id: device id */

/**
 * struct uvm_event_header - the start of every record.
 * @type: UVM_EVENT_*.
 * @size: bytes of the record, sizeof(struct uvm_event).
 * @version: UVM_EVENTS_VERSION.
 * @pad: zero.
 * @pid: the thread group of the task the event happened in.
 * @tid: its thread (a module worker's for background work).
 * @timestamp_ns: CLOCK_MONOTONIC when the event ended, ns.
 * @va_space: the VA space's id (its owner's pid; for module-wide streams).
 */
struct uvm_event_header {
	__u16 type;
	__u16 size;
	__u16 version;
	__u16 pad;
	__u32 pid;
	__u32 tid;
	__u64 timestamp_ns;
	__u64 va_space;
};

/**
 * struct uvm_event_fault_batch - UVM_EVENT_FAULT_BATCH.
 * @batch: the VA space's batch number (from 1).
 * @device: the faulting device.
 * @faults: faults gathered (duplicates included).
 * @pages: distinct pages.
 * @duplicates: @faults - @pages.
 * @blocks: 2 MiB blocks serviced.
 * @prefetched: pages the prefetch policy added (not faulted).
 * @duration_ns: servicing the batch (migrations, mappings, evictions);
 *		 the five times below are parts of it, the rest is sorting,
 *		 deciding and bookkeeping.
 * @migrated: pages copied to @device (moved or read-duplicated there).
 * @remote: pages mapped remotely (where their data is).
 * @evictions: chunks evicted to make room (UVM_EVENT_EVICT records).
 * @pad: zero.
 * @wait_ns: waiting: for copies running elsewhere (the copy engine's
 *	     helpers), for a block another thread held, a throttle's nap.
 * @copy_ns: copying on the servicing CPU (its share of a copy, zeroing,
 *	     starting copies; a fallback home).
 * @map_ns: mapping the pages in the device's page table (remote ones
 *	    included).
 * @unmap_ns: unmapping: CPU PTE zaps and dropping the old copies and
 *	      their mappings.
 * @evict_ns: getting device memory: allocating, evicting when full.
 */
struct uvm_event_fault_batch {
	__u64 batch;
	__u32 device;
	__u32 faults;
	__u32 pages;
	__u32 duplicates;
	__u32 blocks;
	__u32 prefetched;
	__u64 duration_ns;
	__u32 migrated;
	__u32 remote;
	__u32 evictions;
	__u32 pad;
	__u64 wait_ns;
	__u64 copy_ns;
	__u64 map_ns;
	__u64 unmap_ns;
	__u64 evict_ns;
};

/**
 * struct uvm_event_device_fault - UVM_EVENT_DEVICE_FAULT.
 * @addr: the page.
 * @batch: the batch it was serviced in.
 * @device: the faulting device.
 * @write: 1 for a write or atomic, 0 for a read.
 */
struct uvm_event_device_fault {
	__u64 addr;
	__u64 batch;
	__u32 device;
	__u32 write;
};

/**
 * struct uvm_event_cpu_fault - UVM_EVENT_CPU_FAULT.
 * @addr: the faulting address.
 * @write: 1 for a write fault.
 * @node: the host node of the page mapped, -1 if device memory was mapped.
 * @duration_ns: servicing it.
 * @pages: host pages the fault gave the block: populated, or brought home
 *	   from devices (moved or read-duplicated).
 * @pad: zero.
 */
struct uvm_event_cpu_fault {
	__u64 addr;
	__u32 write;
	__s32 node;
	__u64 duration_ns;
	__u32 pages;
	__u32 pad;
};

/**
 * struct uvm_event_migrate - UVM_EVENT_MIGRATE: pages of one block moved.
 * @addr: the block's first moved page, or the block.
 * @bytes: bytes moved.
 * @pages: pages moved.
 * @cause: UVM_EVENT_CAUSE_*.
 * @src_type: UVM_EVENT_LOC_*.
 * @src_id: node or device id.
 * @dst_type: UVM_EVENT_LOC_*.
 * @dst_id: node or device id.
 * @duration_ns: the copies.
 */
struct uvm_event_migrate {
	__u64 addr;
	__u64 bytes;
	__u32 pages;
	__u32 cause;
	__u32 src_type;
	__s32 src_id;
	__u32 dst_type;
	__s32 dst_id;
	__u64 duration_ns;
};

/**
 * struct uvm_event_evict - UVM_EVENT_EVICT: a chunk evicted because this
 * VA space needed device memory.
 * @addr: the victim block, if it is this VA space's (@own); else 0: never
 *	  another process's addresses.
 * @bytes: device memory freed (the victim's chunk).
 * @device: the device.
 * @own: 1 if the victim was this VA space's.
 * @duration_ns: the eviction.
 */
struct uvm_event_evict {
	__u64 addr;
	__u64 bytes;
	__u32 device;
	__u32 own;
	__u64 duration_ns;
};

/* struct uvm_event_thrash.kind */
#define UVM_EVENT_THRASH_DETECTED	0
#define UVM_EVENT_THRASH_THROTTLED	1	/* a fault napped */
#define UVM_EVENT_THRASH_PINNED		2	/* pages mapped in place */

/**
 * struct uvm_event_thrash - UVM_EVENT_THRASH.
 * @addr: the block.
 * @kind: UVM_EVENT_THRASH_*.
 * @proc: the processor: device id, or 255 for the host.
 * @policy: UVM_THRASH_* in force.
 * @pages: PINNED: pages mapped in place; else 0.
 */
struct uvm_event_thrash {
	__u64 addr;
	__u32 kind;
	__u32 proc;
	__u32 policy;
	__u32 pages;
};

/**
 * struct uvm_event_read_dup - UVM_EVENT_READ_DUP.
 * @addr: the block (or page).
 * @pages: pages.
 * @device: the device that got copies (or collapsed them), -1: the host.
 * @collapse: 1 if copies were dropped back to one.
 */
struct uvm_event_read_dup {
	__u64 addr;
	__u32 pages;
	__s32 device;
	__u32 collapse;
	__u32 pad;
};

/**
 * struct uvm_event_remote_map - UVM_EVENT_REMOTE_MAP.
 * @addr: the first page.
 * @pages: pages mapped.
 * @device: the device that mapped them.
 * @target: where they are: a device id, or -1 for host memory.
 * @pad: zero.
 */
struct uvm_event_remote_map {
	__u64 addr;
	__u32 pages;
	__u32 device;
	__s32 target;
	__u32 pad;
};

/**
 * struct uvm_event_policy - UVM_EVENT_POLICY: UVM_IOCTL_PERF_SET changed
 * the policies.
 * @set: the UVM_PERF_* bits changed.
 * @flags: UVM_PERF_RESET or zero.
 * @evict_policy: in force after the change.
 * @prefetch_policy: in force after the change.
 * @thrash_policy: in force after the change.
 * @fault_batch: in force after the change.
 */
struct uvm_event_policy {
	__u32 set;
	__u32 flags;
	__u32 evict_policy;
	__u32 prefetch_policy;
	__u32 thrash_policy;
	__u32 fault_batch;
};

/**
 * struct uvm_event_alloc - UVM_EVENT_ALLOC: a managed range was mapped
 * (mmap of /dev/uvm: cudaMallocManaged).
 * @addr: its start.
 * @bytes: its length.
 */
struct uvm_event_alloc {
	__u64 addr;
	__u64 bytes;
};

/**
 * struct uvm_event_free - UVM_EVENT_FREE: a managed range, or part of one,
 * was unmapped (munmap, cudaFree, exit); its pages are gone.
 * @addr: the start of the part unmapped.
 * @bytes: its length.
 */
struct uvm_event_free {
	__u64 addr;
	__u64 bytes;
};

/**
 * struct uvm_event_prefetch - UVM_EVENT_PREFETCH: UVM_IOCTL_PREFETCH
 * (cudaMemPrefetchAsync) ran on a managed range; the pages it moved are
 * the UVM_EVENT_MIGRATE records of cause UVM_EVENT_CAUSE_USER before it.
 * @addr: the range's start.
 * @bytes: its length.
 * @dst_type: the destination's UVM_LOC_* (uapi/uvm.h), as asked.
 * @dst_id: its id, as asked.
 * @status: 0, or the negative errno the request failed with.
 * @pad: zero.
 */
struct uvm_event_prefetch {
	__u64 addr;
	__u64 bytes;
	__u32 dst_type;
	__s32 dst_id;
	__s32 status;
	__u32 pad;
};

/**
 * struct uvm_event_advise - UVM_EVENT_ADVISE: UVM_IOCTL_ADVISE
 * (cudaMemAdvise) changed a range's policy.
 * @addr: the range's start.
 * @bytes: its length.
 * @advice: UVM_ADVISE_* (cudaMemoryAdvise's values).
 * @loc_type: the location's UVM_LOC_* (uapi/uvm.h), as asked.
 * @loc_id: its id, as asked.
 * @pad: zero.
 */
struct uvm_event_advise {
	__u64 addr;
	__u64 bytes;
	__u32 advice;
	__u32 loc_type;
	__s32 loc_id;
	__u32 pad;
};

/* struct uvm_event_kernel.name: the bytes of the name a record keeps */
#define UVM_EVENT_KERNEL_NAME		56

/**
 * struct uvm_event_kernel - UVM_EVENT_KERNEL: a kernel ran on a device.
 * @start_ns: when the kernel began, on the trace's clock (ns).
 * @end_ns: when it ended, on the same clock; never before @start_ns.
 * @name_hash: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime
 *	       0x100000001b3) of the whole name's @name_len bytes: two
 *	       names cut to the same first bytes still differ here.
 * @device: the device it ran on (record-nvidia: CUDA's device ordinal).
 * @stream: the stream it was launched on (CUDA's stream id).
 * @correlation: CUDA's correlation id of the launch.
 * @name_len: the whole name's length in bytes, at least 1; more than
 *	      UVM_EVENT_KERNEL_NAME: @name holds its first bytes only.
 * @name: the name as the compiler gave it (mangled), its first
 *	  min(@name_len, UVM_EVENT_KERNEL_NAME) bytes, none of them NUL,
 *	  then NUL bytes to the end (no terminator when it is full).
 *
 * Written into trace files by recorders and importers (CUDA's CUPTI
 * activity records, in uvm-trace record-nvidia); never by the module,
 * never read from an event stream. The record header's timestamp_ns is
 * @start_ns, its pid the process that launched the kernel, its tid 0.
 * No member needs padding: the payload is 96 bytes, all of it used.
 */
struct uvm_event_kernel {
	__u64 start_ns;
	__u64 end_ns;
	__u64 name_hash;
	__u32 device;
	__u32 stream;
	__u32 correlation;
	__u32 name_len;
	char name[UVM_EVENT_KERNEL_NAME];
};

/**
 * struct uvm_event_overflow - UVM_EVENT_OVERFLOW.
 * @lost: records lost since the last one read (the ring was full).
 */
struct uvm_event_overflow {
	__u64 lost;
};

/**
 * struct uvm_event - one record: a header and the payload its type names.
 * @hdr: type, size, time, task.
 * @u: the payload (@u.raw: the whole of it, zero past the type's fields;
 *     @u.kernel only in trace files, see UVM_EVENT_KERNEL).
 */
struct uvm_event {
	struct uvm_event_header hdr;
	union {
		struct uvm_event_fault_batch batch;
		struct uvm_event_device_fault device_fault;
		struct uvm_event_cpu_fault cpu_fault;
		struct uvm_event_migrate migrate;
		struct uvm_event_evict evict;
		struct uvm_event_thrash thrash;
		struct uvm_event_read_dup read_dup;
		struct uvm_event_remote_map remote_map;
		struct uvm_event_policy policy;
		struct uvm_event_overflow overflow;
		struct uvm_event_alloc alloc;
		struct uvm_event_free free;
		struct uvm_event_prefetch prefetch;
		struct uvm_event_advise advise;
		struct uvm_event_kernel kernel;
		__u64 raw[12];
	} u;
};

#endif /* _UAPI_UVM_EVENTS_H */
