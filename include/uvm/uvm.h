/* SPDX-License-Identifier: MIT */
/*
 * uvm.h - libuvm's native C API.
 *
 * The CUDA-compatible layer (cuda_runtime_api.h, cuda.h) is built on these
 * calls; programs may also use them directly.
 *
 * Conventions:
 *  - Every function returning int returns 0 (or a non-negative count) on
 *    success and a negative errno on failure. Nothing here sets errno,
 *    prints, or exits.
 *  - Handles are opaque. A context is one open of /dev/uvm, i.e. one unified
 *    address space. All functions are thread-safe; uvm_close() must not race
 *    with other calls on the same context.
 *  - Output structs are versioned by appending: fields are only ever added
 *    in the reserved space, which the library zeroes.
 *
 * Errors of uvm_open() worth knowing: -ENOENT (no /dev/uvm: module not
 * loaded), -EACCES (no permission), -EPROTO (module speaks another ABI).
 */
#ifndef UVM_UVM_H
#define UVM_UVM_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Version of this API; bumped when functions are added. */
#define UVM_LIB_VERSION_MAJOR		0
#define UVM_LIB_VERSION_MINOR		3

/* Opaque context: one open of /dev/uvm plus the devices found on it. */
struct uvm_context;

/* struct uvm_device_info.backend */
#define UVM_DEVICE_BACKEND_PCI_BAR	1	/* memory is a PCI device's BAR */
#define UVM_DEVICE_BACKEND_EMULATED	2	/* system RAM posing as device memory */

/* struct uvm_device_info.caps */
#define UVM_DEVICE_CPU_MAPPABLE		(1ULL << 0)	/* CPU can map device pages */
#define UVM_DEVICE_PEER_COPY		(1ULL << 1)	/* direct device-to-device copy */

/* struct uvm_device_info.flags (what the library could verify) */
#define UVM_DEVICE_HAS_RENDER_NODE	(1U << 0)	/* render node opened, driver "uvm" */
#define UVM_DEVICE_HAS_PCI_INFO		(1U << 1)	/* PCI ids from libdrm */

/* struct uvm_module_info.caps */
#define UVM_MODULE_TEST_IOCTLS		(1ULL << 0)	/* enable_test_ioctls=1 */
#define UVM_MODULE_PAGEABLE_MIRROR	(1ULL << 1)	/* devices access pageable memory */
#define UVM_MODULE_PAGEABLE_MIGRATE	(1ULL << 2)	/* and it migrates to devices */

/** struct uvm_module_info - the kernel module as seen through /dev/uvm. */
struct uvm_module_info {
	uint32_t abi_version;	/* UVM_ABI_VERSION of the module */
	uint32_t num_devices;	/* devices at uvm_open() time */
	uint64_t caps;		/* UVM_MODULE_* */
	uint32_t page_size;	/* CPU page size in bytes */
	uint32_t block_size;	/* residency block size in bytes */
	uint64_t reserved[6];
};

/** struct uvm_device_info - one device, in CUDA ordinal order. */
struct uvm_device_info {
	uint32_t id;		/* module device id == CUDA ordinal */
	uint32_t backend;	/* UVM_DEVICE_BACKEND_* */
	uint64_t caps;		/* UVM_DEVICE_* capability bits */
	uint64_t mem_total;	/* bytes of device memory */
	uint64_t mem_free;	/* bytes free when last queried */
	int32_t numa_node;	/* closest online host NUMA node, -1 if none */
	uint32_t render_minor;	/* DRM render node minor (renderD<minor>) */
	uint32_t flags;		/* UVM_DEVICE_HAS_* */
	uint32_t pci_domain;	/* PCI address; synthetic for emulated devices, */
	uint8_t pci_bus;	/* see docs/libuvm.md */
	uint8_t pci_dev;
	uint8_t pci_func;
	uint8_t pci_revision;
	uint16_t pci_vendor;	/* 0 for emulated devices */
	uint16_t pci_device;
	uint16_t pci_subvendor;
	uint16_t pci_subdevice;
	char name[64];		/* NUL-terminated */
	uint64_t reserved[8];
};

/* Open /dev/uvm and discover its devices. 0 or -errno; *ctx set on success. */
int uvm_open(struct uvm_context **ctx);

/* Release a context and everything it owns. NULL is a no-op. */
void uvm_close(struct uvm_context *ctx);

/* Module ABI version, capabilities and sizes. 0 or -errno. */
int uvm_get_info(struct uvm_context *ctx, struct uvm_module_info *info);

/* Number of devices (>= 0) or -errno. */
int uvm_device_count(struct uvm_context *ctx);

/*
 * Describe device @idx (0 <= idx < uvm_device_count()); mem_free is read
 * fresh from the module. 0, -EINVAL (NULL), -ENODEV (no such index), or the
 * errno of the query.
 */
int uvm_device_get_info(struct uvm_context *ctx, unsigned int idx,
			struct uvm_device_info *info);

/* ---- managed memory ---------------------------------------------------- */

/* uvm_managed_alloc() flags: the initial stream association (CUDA's values). */
#define UVM_MANAGED_ATTACH_GLOBAL	0x1	/* default (0 means the same) */
#define UVM_MANAGED_ATTACH_HOST		0x2

/* struct uvm_mem_location.type: the values of cudaMemLocationType. */
#define UVM_MEM_LOC_NONE		0	/* queries only: no location */
#define UVM_MEM_LOC_DEVICE		1	/* id = device index */
#define UVM_MEM_LOC_HOST		2	/* host memory, any node; id = 0 */
#define UVM_MEM_LOC_HOST_NUMA		3	/* id = host NUMA node */
#define UVM_MEM_LOC_HOST_NUMA_CURRENT	4	/* the calling CPU's node; id = 0 */

/** struct uvm_mem_location - a device, the host or a host NUMA node. */
struct uvm_mem_location {
	uint32_t type;		/* UVM_MEM_LOC_* */
	int32_t id;		/* per type, else 0 */
};

/* uvm_advise() advice: the values of cudaMemoryAdvise. */
#define UVM_MEM_ADVISE_SET_READ_MOSTLY		1
#define UVM_MEM_ADVISE_UNSET_READ_MOSTLY	2
#define UVM_MEM_ADVISE_SET_PREFERRED_LOCATION	3
#define UVM_MEM_ADVISE_UNSET_PREFERRED_LOCATION	4
#define UVM_MEM_ADVISE_SET_ACCESSED_BY		5
#define UVM_MEM_ADVISE_UNSET_ACCESSED_BY	6

/** struct uvm_managed_info - one managed allocation (uvm_managed_query). */
struct uvm_managed_info {
	uint64_t base;		/* start address */
	uint64_t size;		/* bytes requested (mapping is page-rounded) */
	uint64_t buffer_id;	/* unique in the process, never reused; bit 63 set */
	uint32_t flags;		/* UVM_MANAGED_ATTACH_* given at allocation */
	int32_t device;		/* device recorded at allocation, -1 if none */
	uint64_t reserved[4];
};

/**
 * struct uvm_range_info - policies every page of a range agrees on
 * (uvm_range_attrs). A location is UVM_MEM_LOC_NONE when pages differ or
 * none is set. HOST_NUMA_CURRENT appears only as a last prefetch location
 * (with the node it resolved to); a preferred location is stored resolved.
 */
struct uvm_range_info {
	uint32_t read_mostly;			/* 1 if every page is read-mostly */
	uint32_t accessed_by_host;		/* 1 if the CPU is set on every page */
	struct uvm_mem_location preferred;	/* common preferred location */
	struct uvm_mem_location last_prefetch;	/* common last prefetch target */
	uint64_t accessed_by_devices;		/* bit d: device d on every page */
	uint64_t reserved[4];
};

/* struct uvm_page_info.flags */
#define UVM_PAGE_INFO_POPULATED		(1U << 0)	/* backed somewhere */
#define UVM_PAGE_INFO_CPU_MAPPED	(1U << 1)	/* CPU PTE may exist */
#define UVM_PAGE_INFO_CPU_WRITABLE	(1U << 2)	/* CPU PTE writable */
#define UVM_PAGE_INFO_READ_DUPLICATED	(1U << 3)	/* read-only copies */

/**
 * struct uvm_page_info - one page (uvm_residency). The layout is the
 * module's and is fixed: arrays of it are filled in place.
 */
struct uvm_page_info {
	uint32_t flags;			/* UVM_PAGE_INFO_* */
	int32_t cpu_node;		/* node of the host copy, -1 if none */
	uint64_t devices_resident;	/* bit d: device d holds a copy */
	uint64_t devices_mapped;	/* bit d: device d maps the page */
	uint64_t reserved;
};

/* uvm_stats() scope and counter indices (the module's, append-only). */
#define UVM_STATS_SCOPE_CONTEXT		0	/* this context's VA space */
#define UVM_STATS_SCOPE_GLOBAL		1	/* the whole module */
#define UVM_COUNTER_CPU_FAULTS		0
#define UVM_COUNTER_CPU_MKWRITE		1
#define UVM_COUNTER_PAGES_POPULATED	2
#define UVM_COUNTER_PREFETCHES		3
#define UVM_COUNTER_MIGRATE_H2H_PAGES	4
#define UVM_COUNTER_MIGRATE_H2H_BYTES	5
#define UVM_COUNTER_ADVISES		6
#define UVM_COUNTER_PAGES_FREED		7
#define UVM_COUNTER_DEVICE_FAULTS	8
#define UVM_COUNTER_FAULT_BATCHES	9
#define UVM_COUNTER_FAULT_BATCH_PAGES	10
#define UVM_COUNTER_MIGRATE_H2D_PAGES	11
#define UVM_COUNTER_MIGRATE_H2D_BYTES	12
#define UVM_COUNTER_MIGRATE_D2H_PAGES	13
#define UVM_COUNTER_MIGRATE_D2H_BYTES	14
#define UVM_COUNTER_MIGRATE_D2D_PAGES	15
#define UVM_COUNTER_MIGRATE_D2D_BYTES	16
#define UVM_COUNTER_EVICTIONS		17
#define UVM_COUNTER_EVICTED_BYTES	18
#define UVM_COUNTER_READ_DUP_COPIES	19
#define UVM_COUNTER_READ_DUP_COLLAPSES	20
#define UVM_COUNTER_REMOTE_MAPS		21
#define UVM_COUNTER_DISCARDED_PAGES	22
#define UVM_COUNTER_CPU_DEVICE_MAPS	23
#define UVM_COUNTER_POOL_REUSED		24
#define UVM_COUNTER_FAULT_AHEAD_PAGES	25
#define UVM_COUNTER_PINNED_SKIPS	26
#define UVM_COUNTER_EVICT_PICKS		27
#define UVM_COUNTER_EVICT_BUSY		28
#define UVM_COUNTER_FAULT_PREFETCH_PAGES 29
#define UVM_COUNTER_THRASH_DETECTED	30
#define UVM_COUNTER_THRASH_THROTTLED	31
#define UVM_COUNTER_THRASH_PINNED	32
#define UVM_COUNTER_PREFETCH_USED_PAGES	33
#define UVM_COUNTER_PAGEABLE_TO_DEV	34
#define UVM_COUNTER_PAGEABLE_TO_HOST	35

/*
 * The context the CUDA runtime layer uses (initialising it if needed), so
 * native calls can inspect memory from cudaMallocManaged. Owned by the
 * library: never uvm_close() it. 0 or -errno (-ENOENT: no module, -ENODEV:
 * no devices, as the runtime's own initialisation found it).
 */
int uvm_runtime_context(struct uvm_context **ctx);

/* The context's /dev/uvm file descriptor (>= 0), for the module's own
 * ioctls, or -EINVAL. Owned by the context: do not close it. */
int uvm_context_fd(struct uvm_context *ctx);

/*
 * Map @size bytes of managed memory (page-rounded; 2 MiB-aligned when
 * size >= 2 MiB). @flags: 0 or exactly one UVM_MANAGED_ATTACH_*.
 * 0, -EINVAL (NULL, size 0, bad flags), -ENOMEM (impossible size, no memory).
 */
int uvm_managed_alloc(struct uvm_context *ctx, size_t size, uint32_t flags, void **out);

/*
 * uvm_managed_alloc(), mapped exactly at @addr (page-aligned) or not at
 * all: a replay places each allocation where its recording had it, so that
 * allocations share 2 MiB blocks as they did (docs/replay.md).
 * 0, -EINVAL (NULL, size 0, unaligned @addr, bad flags), -EEXIST
 * (something is mapped in [@addr, @addr + size)), -ENOMEM.
 */
int uvm_managed_alloc_at(struct uvm_context *ctx, void *addr, size_t size, uint32_t flags,
			 void **out);

/* Unmap an allocation by its base address: 0 or -EINVAL (not a base). */
int uvm_managed_free(struct uvm_context *ctx, void *ptr);

/* The allocation containing @ptr (interior pointers too): 0 or -ENOENT. */
int uvm_managed_query(struct uvm_context *ctx, const void *ptr, struct uvm_managed_info *info);

/*
 * Policies and migration on [ptr, ptr + len) rounded out to pages; every
 * page must be managed memory of @ctx. All synchronous. 0 or -EINVAL (bad
 * range, location type or NUMA node), -ENODEV (unknown device), -ENOSPC,
 * -ENOMEM.
 */
int uvm_prefetch(struct uvm_context *ctx, const void *ptr, size_t len,
		 struct uvm_mem_location loc);
int uvm_advise(struct uvm_context *ctx, const void *ptr, size_t len, uint32_t advice,
	       struct uvm_mem_location loc);
int uvm_range_attrs(struct uvm_context *ctx, const void *ptr, size_t len,
		    struct uvm_range_info *info);

/* Fill @npages entries for the pages from the one containing @ptr. */
int uvm_residency(struct uvm_context *ctx, const void *ptr, size_t npages,
		  struct uvm_page_info *pages);

/*
 * Read min(@count, known) counters of @scope into @values; returns the
 * number of counters the module knows (>= 0) or -errno.
 */
int uvm_stats(struct uvm_context *ctx, uint32_t scope, uint64_t *values, unsigned int count);

/* ---- device, pinned and registered memory; copies (docs/memory-model.md) */

/* uvm_host_alloc() flags: the cudaHostAlloc values. */
#define UVM_HOST_ALLOC_FLAG_PORTABLE		0x1
#define UVM_HOST_ALLOC_FLAG_MAPPED		0x2
#define UVM_HOST_ALLOC_FLAG_WRITECOMBINED	0x4

/* uvm_host_register() flags: the cudaHostRegister values. */
#define UVM_HOST_REGISTER_FLAG_PORTABLE		0x1
#define UVM_HOST_REGISTER_FLAG_MAPPED		0x2
#define UVM_HOST_REGISTER_FLAG_IOMEMORY		0x4	/* -EOPNOTSUPP */
#define UVM_HOST_REGISTER_FLAG_READONLY		0x8

/*
 * Device memory on device @device: @size bytes (page-rounded), zeroed, never
 * evicted, mapped at its unified address (the CPU cannot touch it: SIGBUS).
 * 0, -EINVAL (size 0), -ENODEV (no such device), -ENOSPC (device full).
 */
int uvm_device_alloc(struct uvm_context *ctx, unsigned int device, size_t size, void **out);

/*
 * Pinned host memory: @size bytes (page-rounded), zeroed, on NUMA node
 * @numa_node (-1: the caller's). Device address == host address.
 * 0, -EINVAL, -ENOMEM.
 */
int uvm_host_alloc(struct uvm_context *ctx, size_t size, uint32_t flags, int numa_node,
		   void **out);

/*
 * Free a uvm_device_alloc()/uvm_host_alloc() allocation by its base address.
 * 0, -EINVAL (interior pointer), -ENOENT (no such allocation).
 */
int uvm_mem_free(struct uvm_context *ctx, void *base);

/*
 * Pin existing memory [ptr, ptr + size) (page-aligned, non-zero) until
 * uvm_host_unregister(ptr), munmap or close. 0, -EINVAL, -EEXIST (overlaps
 * a registration or pinned allocation), -EFAULT (hole), -EOPNOTSUPP (IOMEMORY).
 */
int uvm_host_register(struct uvm_context *ctx, void *ptr, size_t size, uint32_t flags);
/* Undo a registration by its exact base: 0 or -ENOENT. */
int uvm_host_unregister(struct uvm_context *ctx, void *ptr);

/* struct uvm_pointer_info.type */
#define UVM_POINTER_UNREGISTERED	0	/* pageable memory or nothing */
#define UVM_POINTER_HOST_ALLOC		1	/* uvm_host_alloc() */
#define UVM_POINTER_DEVICE		2	/* uvm_device_alloc() */
#define UVM_POINTER_MANAGED		3	/* managed memory */
#define UVM_POINTER_HOST_REGISTERED	4	/* uvm_host_register() */

/** struct uvm_pointer_info - what the module knows about an address. */
struct uvm_pointer_info {
	uint32_t type;		/* UVM_POINTER_* */
	int32_t device;		/* device of device memory, else -1 */
	uint64_t base;		/* allocation, registration or managed VMA */
	uint64_t size;		/* its size in bytes (page-rounded) */
	uint64_t dev_addr;	/* device address of ptr (== ptr), 0 if none */
	uint64_t host_addr;	/* host address of ptr, 0 for device memory */
	uint64_t buffer_id;	/* module-unique id (device, pinned), else 0 */
	uint32_t flags;		/* host alloc / register flags used */
	uint32_t pad;
	uint64_t reserved[4];
};

/* Classify any address (UVM_IOCTL_PTR_INFO): 0 or -errno. */
int uvm_ptr_info(struct uvm_context *ctx, const void *ptr, struct uvm_pointer_info *info);

/**
 * struct uvm_copy_desc - a 1D/2D/3D copy: @depth slices of @height rows of
 * @width bytes; row r of slice z at ptr + (z * rows + r) * pitch per side.
 * Pitches matter when height or depth > 1, rows when depth > 1.
 */
struct uvm_copy_desc {
	uint64_t dst, src;
	uint64_t dst_pitch, src_pitch;
	uint64_t width, height, depth;
	uint64_t dst_rows, src_rows;
	uint64_t reserved[2];
};

/** struct uvm_fill_desc - a 1D/2D/3D fill with a 1, 2 or 4-byte pattern. */
struct uvm_fill_desc {
	uint64_t dst, pitch;
	uint64_t width, height, depth, rows;
	uint32_t value, elem_size;
	uint64_t reserved[2];
};

/*
 * Synchronous copy / fill between any memory of the process (device,
 * pinned, registered, managed, pageable). 0, -EINVAL (bad layout, extent
 * straddles an allocation, overlap), -EACCES (read-only registration),
 * -EFAULT (unmapped or freed memory).
 */
int uvm_memcpy(struct uvm_context *ctx, const struct uvm_copy_desc *desc);
int uvm_memset(struct uvm_context *ctx, const struct uvm_fill_desc *desc);

/** struct uvm_mem_counters_info - pinned/device memory accounting. */
struct uvm_mem_counters_info {
	uint64_t pinned_pages;		/* registrations, whole module */
	uint64_t host_alloc_pages;	/* pinned allocations, whole module */
	uint64_t ctx_pinned_pages;	/* registrations of this context */
	uint64_t ctx_host_alloc_pages;	/* pinned allocations of this context */
	uint64_t ctx_device_bytes;	/* device memory of this context */
	uint64_t reserved[3];
};
int uvm_mem_counters(struct uvm_context *ctx, struct uvm_mem_counters_info *info);

/* struct uvm_device_access_op.type */
#define UVM_DEVICE_ACCESS_READ		1	/* managed memory -> buf */
#define UVM_DEVICE_ACCESS_WRITE		2	/* buf -> managed memory */
#define UVM_DEVICE_ACCESS_ATOMIC_ADD	3	/* 8 bytes: *addr += *buf, old -> buf */

/** struct uvm_device_access_op - one access a device kernel would make. */
struct uvm_device_access_op {
	uint64_t addr;		/* managed address */
	uint64_t length;	/* bytes (ATOMIC_ADD: 8) */
	uint64_t buf;		/* user buffer of @length bytes */
	uint32_t type;		/* UVM_DEVICE_ACCESS_* */
	uint32_t pad;
};

/*
 * Perform @count (1..4096) accesses of device @device to managed memory
 * through its page table (device faults are serviced as on real hardware).
 * *faults (may be NULL): device faults taken. 0 or -errno.
 */
int uvm_device_access(struct uvm_context *ctx, unsigned int device,
		      struct uvm_device_access_op *ops, unsigned int count, unsigned int *faults);

/*
 * Discard the contents of the managed pages wholly inside [ptr, ptr + len);
 * with @prefetch non-NULL, then prefetch the page-rounded range there.
 * 0 or -errno.
 */
int uvm_discard(struct uvm_context *ctx, const void *ptr, size_t len,
		const struct uvm_mem_location *prefetch);

/* ---- memory-management policies (docs/policies.md) */

/* struct uvm_policy_info.evict_policy: the module's UVM_EVICT_* */
#define UVM_POLICY_EVICT_LRU		0	/* least recently accessed chunk first */
#define UVM_POLICY_EVICT_FIFO		1	/* oldest allocation first */
#define UVM_POLICY_EVICT_LFU		2	/* fewest device accesses (aged) first */
#define UVM_POLICY_EVICT_RANDOM		3	/* seeded, reproducible */

/* struct uvm_policy_info.prefetch_policy: the module's UVM_PREFETCH_* */
#define UVM_POLICY_PREFETCH_NONE	0	/* only the faulted pages */
#define UVM_POLICY_PREFETCH_DENSITY	1	/* mostly-there regions of a block, whole */
#define UVM_POLICY_PREFETCH_SEQUENTIAL	2	/* prefetch_pages after runs of faults */
#define UVM_POLICY_PREFETCH_DENSITY64K	3	/* density over 64 KiB units, CPU faults too */

/* uvm_policy_set()/uvm_policy_reset() @which, .overrides: the module's UVM_PERF_* */
#define UVM_POLICY_EVICT		(1U << 0)	/* evict_policy and evict_seed */
#define UVM_POLICY_FAULT_BATCH		(1U << 1)	/* fault_batch */
#define UVM_POLICY_PREFETCH		(1U << 2)	/* prefetch_policy, _threshold, _pages */
#define UVM_POLICY_CAP			(1U << 3)	/* .overrides of uvm_policy_get(): a cap */
#define UVM_POLICY_THRASH		(1U << 4)	/* thrash_policy and its parameters */

/* struct uvm_policy_info.thrash_policy: the module's UVM_THRASH_* */
#define UVM_POLICY_THRASH_NONE		0	/* detect and count only */
#define UVM_POLICY_THRASH_THROTTLE	1	/* the next processor naps */
#define UVM_POLICY_THRASH_PIN		2	/* data stays, the others map it */

/* The policies of a context's VA space. */
struct uvm_policy_info {
	uint32_t overrides;	/* UVM_POLICY_* this context sets (out) */
	uint32_t evict_policy;	/* UVM_POLICY_EVICT_* */
	uint64_t evict_seed;	/* seed of UVM_POLICY_EVICT_RANDOM */
	uint32_t fault_batch;	/* device faults per batch, 1..4096 */
	uint32_t prefetch_policy;	/* UVM_POLICY_PREFETCH_* */
	uint32_t prefetch_threshold;	/* density: percent, 1..100 */
	uint32_t prefetch_pages;	/* sequential: pages ahead, 1..16384 */
	uint32_t thrash_policy;		/* UVM_POLICY_THRASH_* */
	uint32_t thrash_threshold;	/* moves within the window, 1..1000 */
	uint32_t thrash_window_us;	/* 1..10000000 */
	uint32_t thrash_nap_us;		/* throttle: 1..100000 */
	uint32_t thrash_pin_ms;		/* pin: 1..60000 */
};

/* The policies in force for @ctx (module defaults where not overridden). */
int uvm_policy_get(struct uvm_context *ctx, struct uvm_policy_info *info);
/* Override the policies of @which with @info's values; 0 or -errno (nothing changed). */
int uvm_policy_set(struct uvm_context *ctx, uint32_t which, const struct uvm_policy_info *info);
/* Follow the module's defaults again for the policies of @which. */
int uvm_policy_reset(struct uvm_context *ctx, uint32_t which);
/*
 * Cap this context's managed data on device @device (ordinal) at @bytes
 * (0: no cap; else 2 MiB up to the device's memory): above it the context
 * evicts its own data first, and the device's size and free memory it
 * sees (uvm_device_get_info, cudaMemGetInfo, cudaGetDeviceProperties)
 * are the capped ones. 0 or -errno (-EINVAL, -ENODEV; nothing changed).
 */
int uvm_policy_cap_set(struct uvm_context *ctx, unsigned int device, uint64_t bytes);
/* The cap of @device (0: none) in *@bytes; 0 or -errno. */
int uvm_policy_cap_get(struct uvm_context *ctx, unsigned int device, uint64_t *bytes);

/* ---- the event stream (docs/events.md) */

/* Record types: the module's UVM_EVENT_* (include/uapi/uvm.h). */
#define UVM_EVENT_TYPE_OVERFLOW		0	/* records lost */
#define UVM_EVENT_TYPE_FAULT_BATCH	1
#define UVM_EVENT_TYPE_DEVICE_FAULT	2	/* only when asked for */
#define UVM_EVENT_TYPE_CPU_FAULT	3
#define UVM_EVENT_TYPE_MIGRATE		4
#define UVM_EVENT_TYPE_EVICT		5
#define UVM_EVENT_TYPE_THRASH		6
#define UVM_EVENT_TYPE_READ_DUP		7
#define UVM_EVENT_TYPE_REMOTE_MAP	8
#define UVM_EVENT_TYPE_POLICY		9
#define UVM_EVENT_TYPE_ALLOC		10	/* a managed range mapped */
#define UVM_EVENT_TYPE_FREE		11	/* a managed range (or part) unmapped */
#define UVM_EVENT_TYPE_PREFETCH		12	/* a prefetch asked for */
#define UVM_EVENT_TYPE_ADVISE		13	/* advice given */
#define UVM_EVENT_TYPE_COUNT		14
#define UVM_EVENT_RECORD_SIZE		128	/* bytes of every record */
/* uvm_events_open() @flags: every VA space's events (CAP_PERFMON). */
#define UVM_EVENTS_OPEN_ALL_SPACES	(1U << 0)

/*
 * Open an event stream on @ctx's VA space: a file descriptor whose read()
 * returns whole UVM_EVENT_RECORD_SIZE records (struct uvm_event of
 * <uapi/uvm.h>). @types: bits (1 << UVM_EVENT_TYPE_*), 0 for all but the
 * individual device faults; @ring_records: a power of two, 16..65536.
 * The descriptor is the caller's to poll() and close(). fd or -errno.
 */
int uvm_events_open(struct uvm_context *ctx, uint64_t types, unsigned int ring_records,
		    unsigned int flags);
/*
 * Read up to @max records into @buf (@max * UVM_EVENT_RECORD_SIZE bytes),
 * waiting for one unless the descriptor is O_NONBLOCK. The number read,
 * or -errno (-EAGAIN: none yet).
 */
int uvm_events_read(int fd, void *buf, unsigned int max);
/* The name of record type @type ("migrate", ...), or NULL. */
const char *uvm_event_type_name(unsigned int type);
/*
 * One record as one line of text, every field by name ("migrate t=...
 * pid=... addr=0x... pages=... src=host:0 dst=device:1 cause=device_fault
 * ns=..."), into @buf of @len bytes. The length it needed (like snprintf),
 * or -EINVAL for a record that is not one (bad size or version).
 */
int uvm_event_format(const void *record, char *buf, size_t len);
/*
 * Apply a policy string, the syntax of the UVM_POLICY environment variable
 * (read when a context is created): comma-separated KEY=VALUE items,
 * preset=nvidia (NVIDIA's driver's defaults; later items change its parts),
 * evict=lru|fifo|lfu|random[:SEED], batch=N,
 * prefetch=none|density[:PERCENT]|sequential[:PAGES]|density64k[:PERCENT],
 * thrash=none|throttle[:NAP_US]|pin[:PIN_MS] (a parameter left out keeps
 * the value in force), capN=BYTES[K|M|G] (device ordinal N; see
 * uvm_policy_cap_set()).
 * All or nothing: 0, or -EINVAL (malformed; then *@err, if not NULL, points
 * at the offending item) or -EOPNOTSUPP (a policy this module lacks).
 */
int uvm_policy_apply(struct uvm_context *ctx, const char *spec, const char **err);

#if defined(__cplusplus)
}
#endif

#endif /* UVM_UVM_H */
