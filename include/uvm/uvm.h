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
#define UVM_LIB_VERSION_MINOR		2

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
	uint64_t buffer_id;	/* unique in the process, never reused, >= 1 */
	uint32_t flags;		/* UVM_MANAGED_ATTACH_* given at allocation */
	int32_t device;		/* device recorded at allocation, -1 if none */
	uint64_t reserved[4];
};

/**
 * struct uvm_range_info - policies every page of a range agrees on
 * (uvm_range_attrs). A location is UVM_MEM_LOC_NONE when pages differ or
 * none is set. HOST_NUMA_CURRENT never appears: it is stored resolved.
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

/* Unmap an allocation by its base address: 0 or -EINVAL (not a base). */
int uvm_managed_free(struct uvm_context *ctx, void *ptr);

/* The allocation containing @ptr (interior pointers too): 0 or -ENOENT. */
int uvm_managed_query(struct uvm_context *ctx, const void *ptr, struct uvm_managed_info *info);

/*
 * Policies and migration on [ptr, ptr + len) rounded out to pages; every
 * page must be managed memory of @ctx. All synchronous. 0 or -EINVAL (bad
 * range, location type or NUMA node), -ENODEV (unknown device),
 * -EOPNOTSUPP (device residency not implemented by the module yet), -ENOMEM.
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

#if defined(__cplusplus)
}
#endif

#endif /* UVM_UVM_H */
