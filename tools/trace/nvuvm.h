/* SPDX-License-Identifier: MIT */
/*
 * nvuvm.h - what uvm-trace knows of NVIDIA's UVM tools interface
 * (/dev/nvidia-uvm-tools of the nvidia-uvm module, open driver 565 and
 * later; read from kernel-open/nvidia-uvm/uvm_tools.c, uvm_ioctl.h,
 * uvm_linux_ioctl.h and uvm_types.h of github.com/NVIDIA/open-gpu-kernel-
 * modules, 580.x), written here from those sources' description; and the
 * capture file and socket protocol of `uvm-trace record-nvidia`
 * (docs/fidelity.md, docs/trace-import.md).
 *
 * The tools interface: an event tracker is a /dev/nvidia-uvm-tools file
 * bound (UVM_TOOLS_INIT_EVENT_TRACKER_V2) to one process's /dev/nvidia-uvm
 * file, given as a descriptor of the caller. The caller's memory holds the
 * queue (a power of two of 72-byte UvmEventEntry_V2 records) and a control
 * page (get/put indices, and per event type the events dropped because the
 * queue was full). Every ioctl returns 0 and its status in rmStatus
 * (NV_STATUS, 0 is NV_OK); an unknown ioctl fails with EINVAL.
 */
#ifndef NVUVM_H
#define NVUVM_H

#include <stdint.h>

/* ioctl numbers (plain numbers, not _IOWR codes) */
#define NV_UVM_INITIALIZE			0x30000001u	/* on /dev/nvidia-uvm */
#define NV_UVM_TOOLS_SET_NOTIFICATION_THRESHOLD	57u
#define NV_UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS	58u
#define NV_UVM_TOOLS_FLUSH_EVENTS		67u		/* on /dev/nvidia-uvm */
#define NV_UVM_TOOLS_INIT_EVENT_TRACKER_V2	76u

#define NV_UVM_DEV		"/dev/nvidia-uvm"
#define NV_UVM_TOOLS_DEV	"/dev/nvidia-uvm-tools"

struct nv_init_params {			/* UVM_INITIALIZE_PARAMS */
	uint64_t flags;
	uint32_t rm_status;
	uint32_t pad;
};

struct nv_tracker_params {		/* UVM_TOOLS_INIT_EVENT_TRACKER(_V2)_PARAMS */
	uint64_t queue_buffer;		/* the queue's address */
	uint64_t queue_buffer_size;	/* entries: a power of two, >= 2 */
	uint64_t control_buffer;	/* struct nv_control's address */
	uint8_t processor[16];		/* NvProcessorUuid: counters only */
	uint32_t all_processors;	/* counters only */
	uint32_t uvm_fd;		/* the caller's /dev/nvidia-uvm descriptor */
	uint32_t rm_status;		/* out */
	uint32_t pad;
};

struct nv_threshold_params {		/* ..._SET_NOTIFICATION_THRESHOLD_PARAMS */
	uint32_t threshold;		/* entries queued before poll() wakes */
	uint32_t rm_status;
};

struct nv_events_params {		/* ..._EVENT_QUEUE_ENABLE_EVENTS_PARAMS */
	uint64_t flags;			/* 1 << type, per event type */
	uint32_t rm_status;
	uint32_t pad;
};

struct nv_flush_params {		/* UVM_TOOLS_FLUSH_EVENTS_PARAMS */
	uint32_t rm_status;
};

#define NV_TYPES_ALL		64	/* UvmEventNumTypesAll: dropped[]'s length */

/* UvmToolsEventControlData: the queue's indices, the drops per type. */
struct nv_control {
	uint32_t get_ahead;
	uint32_t get_behind;
	uint32_t put_ahead;
	uint32_t put_behind;
	uint64_t dropped[NV_TYPES_ALL];
};

_Static_assert(sizeof(struct nv_init_params) == 16, "UVM_INITIALIZE_PARAMS");
_Static_assert(sizeof(struct nv_tracker_params) == 56, "INIT_EVENT_TRACKER_PARAMS");
_Static_assert(sizeof(struct nv_threshold_params) == 8, "SET_NOTIFICATION_THRESHOLD");
_Static_assert(sizeof(struct nv_events_params) == 16, "EVENT_QUEUE_ENABLE_EVENTS");
_Static_assert(sizeof(struct nv_control) == 528, "UvmToolsEventControlData");

/* UvmEventType */
enum {
	NV_CPU_FAULT = 1, NV_MIGRATION, NV_GPU_FAULT, NV_GPU_FAULT_REPLAY,
	NV_FAULT_BUFFER_OVERFLOW, NV_FATAL_FAULT, NV_READ_DUP, NV_READ_DUP_INVALIDATE,
	NV_PAGE_SIZE_CHANGE, NV_THRASHING, NV_THROTTLING_START, NV_THROTTLING_END,
	NV_MAP_REMOTE, NV_EVICTION, NV_TYPE_MAX = NV_EVICTION,
};

/* Every type above: what record-nvidia asks for. */
#define NV_EVENTS_RECORDED	(((1ULL << (NV_TYPE_MAX + 1)) - 1) & ~1ULL)

#define NV_ENTRY_SIZE		72	/* sizeof(UvmEventEntry_V2) */

/*
 * Records of a capture that are uvm-trace's own, in the 72-byte frame:
 * type @0, pid u32 @4, address u64 @8, bytes u64 @16, time u64 @24 (the
 * driver's clock). A managed range is an mmap() of the /dev/nvidia-uvm
 * file; the preloaded library sees it (record_nvidia.c).
 */
#define NV_OWN_ALLOC		0xf0	/* a managed range mapped */
#define NV_OWN_FREE		0xf1	/* a managed range, or part, unmapped */

/*
 * The capture file (`record-nvidia --raw FILE`, `import nvuvm FILE`): this
 * 1024-byte header, then the records as the queues gave them (and the own
 * records), 72 bytes each. The header is written again at the end with
 * @finished set and the drop counts.
 */
#define NV_CAP_MAGIC		"UVMNVCAP"
#define NV_CAP_VERSION		1
#define NV_CAP_GPUS		4

struct nv_capture {
	char magic[8];
	uint32_t version;
	uint32_t entry_size;		/* NV_ENTRY_SIZE */
	uint32_t finished;		/* 1: the recording ended, drops counted */
	uint32_t pid;			/* the command's process */
	uint64_t start_raw_ns;		/* CLOCK_MONOTONIC_RAW (the driver's clock) */
	uint64_t start_realtime_ns;	/* CLOCK_REALTIME at the same moment */
	uint64_t end_raw_ns;
	uint64_t dropped[NV_TYPES_ALL];	/* summed over the trackers */
	uint32_t trackers;		/* processes followed */
	uint32_t num_gpus;		/* names below */
	char driver_version[32];
	char hostname[64];
	char command[136];
	char gpu_name[NV_CAP_GPUS][56];
};

_Static_assert(sizeof(struct nv_capture) == 1024, "nv_capture");

/*
 * The preloaded library (libuvm-nvrec.so) and the recorder: a SOCK_SEQPACKET
 * socket whose descriptor is in NVREC_SOCK_ENV. After the program's
 * UVM_INITIALIZE succeeds, the library sends NVREC_HELLO with two
 * descriptors (the /dev/nvidia-uvm file and one end of a new socket pair
 * of its own) and waits on its end for NVREC_ACK: the tracker is bound
 * before the program goes on. NVREC_ALLOC/FREE follow on that pair.
 */
#define NVREC_SOCK_ENV		"UVM_NVREC_SOCK"

enum { NVREC_HELLO = 1, NVREC_ACK, NVREC_ALLOC, NVREC_FREE };

struct nvrec_msg {
	uint32_t kind;
	uint32_t pid;
	uint64_t addr;
	uint64_t bytes;
	uint64_t time_ns;		/* CLOCK_MONOTONIC_RAW */
};

#endif /* NVUVM_H */
