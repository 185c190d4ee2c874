/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * uvm.h - user/kernel ABI of the uvm unified-memory module.
 *
 * Two kinds of character devices speak this ABI:
 *
 *  - /dev/uvm (misc device): every open file is one VA space. The UVM_IOCTL_*
 *    ioctls below act on that VA space; managed memory is an mmap() of it.
 *  - /dev/dri/renderD* (one DRM render node per device, driver name "uvm"):
 *    the DRM_IOCTL_UVM_* ioctls describe that device.
 *
 * Rules (Documentation/process/botching-up-ioctls.rst): fixed-width types,
 * explicit padding, struct sizes a multiple of 8, user pointers as __u64.
 * Every field documented "must be zero" and every flag bit outside the
 * documented mask makes the ioctl fail with -EINVAL and change nothing. The
 * ioctl's return value is the status: 0 or -1 with errno set. Structs are
 * only ever extended by appending; new behaviour gets a new flag or ioctl.
 */
#ifndef _UAPI_UVM_H
#define _UAPI_UVM_H

#include <linux/ioctl.h>
#include <linux/types.h>

/** UVM_ABI_VERSION - bumped on every incompatible change (there are none yet). */
#define UVM_ABI_VERSION			1

/** UVM_MAX_DEVICES - upper bound on the number of devices the module drives. */
#define UVM_MAX_DEVICES			32

/* Backends: where a device's memory comes from. */
#define UVM_BACKEND_PCI_BAR		1	/* a PCI device's memory BAR */
#define UVM_BACKEND_EMULATED		2	/* system RAM posing as device memory */

/* Device capability bits (struct uvm_device_info.caps). */
#define UVM_DEVICE_CAP_CPU_MAPPABLE	(1ULL << 0)	/* CPU can map device pages */
#define UVM_DEVICE_CAP_PEER_COPY	(1ULL << 1)	/* direct device-to-device copy */

/* Module capability bits (struct uvm_get_info.caps). */
#define UVM_CAP_TEST_IOCTLS		(1ULL << 0)	/* enable_test_ioctls=1 */
#define UVM_CAP_PAGEABLE_MIRROR		(1ULL << 1)	/* devices access pageable memory */
#define UVM_CAP_PAGEABLE_MIGRATE	(1ULL << 2)	/* and it migrates to devices */

/**
 * struct uvm_device_info - one device, as /dev/uvm and its render node see it.
 * All fields are outputs.
 */
struct uvm_device_info {
	/** @id: device id used by every uvm ioctl (CUDA ordinal order). */
	__u32 id;
	/** @backend: UVM_BACKEND_*. */
	__u32 backend;
	/** @caps: UVM_DEVICE_CAP_* bits. */
	__u64 caps;
	/** @mem_total: bytes of device memory managed by the allocator. */
	__u64 mem_total;
	/** @mem_free: bytes of device memory not allocated right now. */
	__u64 mem_free;
	/** @numa_node: host NUMA node closest to the device, -1 if none. */
	__s32 numa_node;
	/** @render_minor: minor of the device's DRM render node. */
	__u32 render_minor;
	/** @pci_domain: PCI domain (PCI_BAR backend only, else 0). */
	__u32 pci_domain;
	/** @pci_bus: PCI bus number. */
	__u8 pci_bus;
	/** @pci_dev: PCI device (slot) number. */
	__u8 pci_dev;
	/** @pci_func: PCI function number. */
	__u8 pci_func;
	/** @bar: index of the memory BAR used (PCI_BAR backend only). */
	__u8 bar;
	/** @pci_vendor: PCI vendor id (0 for the emulated backend). */
	__u16 pci_vendor;
	/** @pci_device: PCI device id (0 for the emulated backend). */
	__u16 pci_device;
	/** @pad: reserved, zero. */
	__u32 pad;
	/** @bar_addr: bus address of the BAR (0 for the emulated backend). */
	__u64 bar_addr;
	/** @bar_size: size of the BAR in bytes (0 for the emulated backend). */
	__u64 bar_size;
	/** @name: NUL-terminated device name, e.g. "uvm0 (0000:00:04.0)". */
	char name[64];
};

/**
 * struct uvm_get_info - UVM_IOCTL_GET_INFO: the module and its devices.
 *
 * Call once with @devices_count == 0 to learn @num_devices, then again with
 * an array. At most @devices_count entries are written.
 */
struct uvm_get_info {
	/** @abi_version: out, UVM_ABI_VERSION. */
	__u32 abi_version;
	/** @num_devices: out, number of devices present. */
	__u32 num_devices;
	/** @caps: out, UVM_CAP_* bits. */
	__u64 caps;
	/** @page_size: out, CPU page size in bytes. */
	__u32 page_size;
	/** @block_size: out, size of a residency block in bytes (2 MiB). */
	__u32 block_size;
	/** @devices: in, user pointer to an array of struct uvm_device_info. */
	__u64 devices;
	/** @devices_count: in, number of entries in @devices (may be 0). */
	__u32 devices_count;
	/** @flags: in, must be zero. */
	__u32 flags;
};

/* Test-only device memory access (enable_test_ioctls=1, else -ENOTTY). */
#define UVM_TEST_DEVMEM_ALLOC		1	/* allocate @size bytes, zeroed */
#define UVM_TEST_DEVMEM_FREE		2	/* free @handle */
#define UVM_TEST_DEVMEM_WRITE		3	/* copy @size bytes from @buf */
#define UVM_TEST_DEVMEM_READ		4	/* copy @size bytes to @buf */

/**
 * struct uvm_test_devmem - UVM_IOCTL_TEST_DEVMEM: raw device memory access.
 *
 * Proves the allocator and the BAR/RAM path byte-exact. Allocations belong
 * to the VA space and are freed with it.
 */
struct uvm_test_devmem {
	/** @op: in, UVM_TEST_DEVMEM_*. */
	__u32 op;
	/** @device: in, device id. */
	__u32 device;
	/** @handle: ALLOC: out; others: in. Opaque allocation handle. */
	__u64 handle;
	/** @size: in, bytes to allocate (ALLOC) or copy (READ/WRITE). */
	__u64 size;
	/** @offset: in, byte offset into the allocation (READ/WRITE). */
	__u64 offset;
	/** @buf: in, user buffer (READ/WRITE), else must be zero. */
	__u64 buf;
	/** @dev_offset: out (ALLOC), offset of the allocation in device memory. */
	__u64 dev_offset;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

#define UVM_IOCTL_BASE			'u'
#define UVM_IOCTL_GET_INFO		_IOWR(UVM_IOCTL_BASE, 0x80, struct uvm_get_info)
#define UVM_IOCTL_TEST_DEVMEM		_IOWR(UVM_IOCTL_BASE, 0xf0, struct uvm_test_devmem)

/*
 * Managed memory (mmap of /dev/uvm).
 *
 * mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, uvm_fd, 0) creates a
 * managed range. The offset must be 0 and the mapping shared. Ranges of
 * 2 MiB or more start 2 MiB-aligned. The ioctls below take [addr, addr +
 * length) rounded out to whole pages; every page of it must be managed
 * memory of this VA space, else -EINVAL and nothing changes.
 */

/* Location types: the numeric values of cudaMemLocationType. */
#define UVM_LOC_NONE			0	/* no location (queries only) */
#define UVM_LOC_DEVICE			1	/* id = device id */
#define UVM_LOC_HOST			2	/* host memory, node unspecified */
#define UVM_LOC_HOST_NUMA		3	/* id = host NUMA node */
#define UVM_LOC_HOST_NUMA_CURRENT	4	/* the caller's NUMA node */

/**
 * struct uvm_location - where data lives or should live.
 */
struct uvm_location {
	/** @type: UVM_LOC_*. */
	__u32 type;
	/** @id: device id or NUMA node, per @type; else must be zero. */
	__s32 id;
};

/**
 * struct uvm_prefetch - UVM_IOCTL_PREFETCH: move a range to a location.
 *
 * Unpopulated pages are populated at @dst, populated ones migrate there.
 * HOST_NUMA_CURRENT resolves to the calling CPU's node. The requested
 * location is recorded per page as the last prefetch location, its type as
 * asked (HOST_NUMA_CURRENT with the node it resolved to).
 *
 * UVM_PREFETCH_NUMA_CURRENT: @dst is HOST_NUMA, the node a caller resolved
 * for HOST_NUMA_CURRENT earlier, on another thread (an asynchronous
 * prefetch); it is recorded as HOST_NUMA_CURRENT. With another type of
 * @dst: -EINVAL.
 */
#define UVM_PREFETCH_NUMA_CURRENT	(1u << 0)

struct uvm_prefetch {
	/** @addr: in, start of the range. */
	__u64 addr;
	/** @length: in, bytes, non-zero. */
	__u64 length;
	/** @dst: in, destination. */
	struct uvm_location dst;
	/** @flags: in, UVM_PREFETCH_NUMA_CURRENT or zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* Advice: the numeric values of cudaMemoryAdvise. */
#define UVM_ADVISE_SET_READ_MOSTLY		1
#define UVM_ADVISE_UNSET_READ_MOSTLY		2
#define UVM_ADVISE_SET_PREFERRED_LOCATION	3
#define UVM_ADVISE_UNSET_PREFERRED_LOCATION	4
#define UVM_ADVISE_SET_ACCESSED_BY		5
#define UVM_ADVISE_UNSET_ACCESSED_BY		6

/**
 * struct uvm_advise - UVM_IOCTL_ADVISE: set or clear a policy on a range.
 *
 * @loc is ignored (must be zero) for the read-mostly advice and for
 * UNSET_PREFERRED_LOCATION. Accessed-by takes a DEVICE or HOST location.
 */
struct uvm_advise {
	/** @addr: in, start of the range. */
	__u64 addr;
	/** @length: in, bytes, non-zero. */
	__u64 length;
	/** @advice: in, UVM_ADVISE_*. */
	__u32 advice;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @loc: in, location the advice refers to. */
	struct uvm_location loc;
};

/**
 * struct uvm_range_attrs - UVM_IOCTL_RANGE_ATTRS: policies of a range.
 *
 * Every result covers every page of the range: a value is reported only
 * when all pages agree, else the "none" form (what cudaMemRangeGetAttribute
 * reports).
 */
struct uvm_range_attrs {
	/** @addr: in, start of the range. */
	__u64 addr;
	/** @length: in, bytes, non-zero. */
	__u64 length;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @read_mostly: out, 1 if every page is read-mostly. */
	__u32 read_mostly;
	/** @preferred: out, common preferred location or UVM_LOC_NONE. */
	struct uvm_location preferred;
	/** @last_prefetch: out, common last prefetch location or NONE. */
	struct uvm_location last_prefetch;
	/** @accessed_by_devices: out, bit d: device d accesses every page. */
	__u64 accessed_by_devices;
	/** @accessed_by_host: out, 1 if the CPU is set on every page. */
	__u32 accessed_by_host;
	/** @pad: out, zero. */
	__u32 pad;
};

/* struct uvm_page_residency.flags */
#define UVM_PAGE_POPULATED		(1U << 0)	/* backed somewhere */
#define UVM_PAGE_CPU_MAPPED		(1U << 1)	/* CPU PTE may exist */
#define UVM_PAGE_CPU_WRITABLE		(1U << 2)	/* CPU PTE writable */
#define UVM_PAGE_READ_DUPLICATED	(1U << 3)	/* read-only copies */

/**
 * struct uvm_page_residency - where one page lives and who maps it.
 */
struct uvm_page_residency {
	/** @flags: UVM_PAGE_*. */
	__u32 flags;
	/** @cpu_node: NUMA node of the host copy, -1 if none. */
	__s32 cpu_node;
	/** @devices_resident: bit d: device d holds a copy. */
	__u64 devices_resident;
	/** @devices_mapped: bit d: device d maps the page. */
	__u64 devices_mapped;
	/** @pad: zero. */
	__u64 pad;
};

/**
 * struct uvm_residency - UVM_IOCTL_RESIDENCY: per-page snapshot.
 *
 * Fills @npages entries for the pages starting at the page of @addr.
 */
struct uvm_residency {
	/** @addr: in, address inside the first page. */
	__u64 addr;
	/** @npages: in, number of pages (1 .. 1 << 20). */
	__u64 npages;
	/** @pages: in, user pointer to @npages struct uvm_page_residency. */
	__u64 pages;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* Counters (struct uvm_stats.values[]); append only. */
#define UVM_STAT_CPU_FAULTS		0	/* CPU faults serviced */
#define UVM_STAT_CPU_MKWRITE		1	/* write upgrades of mapped pages */
#define UVM_STAT_PAGES_POPULATED	2	/* pages given first backing */
#define UVM_STAT_PREFETCHES		3	/* prefetch requests */
#define UVM_STAT_MIGRATE_H2H_PAGES	4	/* pages moved node to node */
#define UVM_STAT_MIGRATE_H2H_BYTES	5	/* bytes moved node to node */
#define UVM_STAT_ADVISES		6	/* advise requests */
#define UVM_STAT_PAGES_FREED		7	/* host pages released */
#define UVM_STAT_DEVICE_FAULTS		8	/* device faults (pages) */
#define UVM_STAT_FAULT_BATCHES		9	/* device fault batches serviced */
#define UVM_STAT_FAULT_BATCH_PAGES	10	/* distinct pages over all batches */
#define UVM_STAT_MIGRATE_H2D_PAGES	11	/* pages host -> device */
#define UVM_STAT_MIGRATE_H2D_BYTES	12
#define UVM_STAT_MIGRATE_D2H_PAGES	13	/* pages device -> host */
#define UVM_STAT_MIGRATE_D2H_BYTES	14
#define UVM_STAT_MIGRATE_D2D_PAGES	15	/* pages device -> device */
#define UVM_STAT_MIGRATE_D2D_BYTES	16
#define UVM_STAT_EVICTIONS		17	/* chunks evicted from a device */
#define UVM_STAT_EVICTED_BYTES		18	/* bytes of data evicted */
#define UVM_STAT_READ_DUP_COPIES	19	/* read-only copies made */
#define UVM_STAT_READ_DUP_COLLAPSES	20	/* pages whose copies collapsed */
#define UVM_STAT_REMOTE_MAPS		21	/* pages mapped remotely by a device */
#define UVM_STAT_DISCARDED_PAGES	22	/* pages discarded */
#define UVM_STAT_CPU_DEVICE_MAPS	23	/* CPU PTEs to device memory */
#define UVM_STAT_POOL_REUSED		24	/* host pages reused from the pool */
#define UVM_STAT_FAULT_AHEAD_PAGES	25	/* pages brought home by fault-ahead */
#define UVM_STAT_PINNED_SKIPS		26	/* pages a migration left: GUP-held */
#define UVM_STAT_EVICT_PICKS		27	/* victims the eviction policy chose */
#define UVM_STAT_EVICT_BUSY		28	/* chosen victims skipped: block busy */
#define UVM_STAT_FAULT_PREFETCH_PAGES	29	/* pages the prefetch policy brought in */
#define UVM_STAT_THRASH_DETECTED	30	/* blocks found thrashing */
#define UVM_STAT_THRASH_THROTTLED	31	/* faults that napped (throttle) */
#define UVM_STAT_THRASH_PINNED		32	/* pages mapped in place (pin) */
#define UVM_STAT_PREFETCH_USED_PAGES	33	/* prefetched pages a device used */
#define UVM_STAT_PAGEABLE_TO_DEV	34	/* pageable pages migrated to a device */
#define UVM_STAT_PAGEABLE_TO_HOST	35	/* pageable pages migrated home */
#define UVM_STAT_COUNT			36

/* struct uvm_stats.scope */
#define UVM_STATS_VA_SPACE		0	/* this open file */
#define UVM_STATS_GLOBAL		1	/* the whole module */

/**
 * struct uvm_stats - UVM_IOCTL_STATS: read counters.
 *
 * Writes min(@count, UVM_STAT_COUNT) values and sets @count to the number
 * of counters the module knows.
 */
struct uvm_stats {
	/** @values: in, user pointer to an array of @count __u64. */
	__u64 values;
	/** @count: in/out, see above. */
	__u32 count;
	/** @scope: in, UVM_STATS_*. */
	__u32 scope;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* struct uvm_access.type */
#define UVM_ACCESS_READ			1	/* device memory -> @buf */
#define UVM_ACCESS_WRITE		2	/* @buf -> device memory */
#define UVM_ACCESS_ATOMIC_ADD		3	/* 8 bytes: *addr += *buf, old -> buf */

/**
 * struct uvm_access - one access of a device to managed memory.
 */
struct uvm_access {
	/** @addr: in, managed address (ATOMIC_ADD: 8-byte aligned). */
	__u64 addr;
	/** @length: in, bytes (ATOMIC_ADD: 8). */
	__u64 length;
	/** @buf: in, user buffer of @length bytes. */
	__u64 buf;
	/** @type: in, UVM_ACCESS_*. */
	__u32 type;
	/** @pad: must be zero. */
	__u32 pad;
};

/* Most accesses in one UVM_IOCTL_DEVICE_ACCESS. */
#define UVM_ACCESS_MAX			4096

/**
 * struct uvm_device_access - UVM_IOCTL_DEVICE_ACCESS: what a kernel running
 * on a device would do to managed memory.
 *
 * The accesses go through the device's page table; missing or read-only
 * mappings are device faults, gathered in batches (module parameter
 * fault_batch), sorted and serviced per block, then the accesses complete.
 */
struct uvm_device_access {
	/** @device: in, device id. */
	__u32 device;
	/** @count: in, number of entries in @accesses (1..UVM_ACCESS_MAX). */
	__u32 count;
	/** @accesses: in, user pointer to @count struct uvm_access. */
	__u64 accesses;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @faults: out, device faults (pages) this call took. */
	__u32 faults;
};

/* struct uvm_discard.flags */
#define UVM_DISCARD_PREFETCH		(1U << 0)	/* then prefetch to @dst */

/**
 * struct uvm_discard - UVM_IOCTL_DISCARD: drop the contents of a range.
 *
 * Pages wholly inside [addr, addr + length) lose their data everywhere at
 * once (no copy is ever made); the next touch populates zeroed memory.
 * Policies and last-prefetch locations stay. With UVM_DISCARD_PREFETCH the
 * range (rounded out to pages) is then prefetched to @dst.
 */
struct uvm_discard {
	/** @addr: in, start. */
	__u64 addr;
	/** @length: in, bytes, non-zero. */
	__u64 length;
	/** @dst: in, prefetch destination (UVM_DISCARD_PREFETCH), else zero. */
	struct uvm_location dst;
	/** @flags: in, UVM_DISCARD_*. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* NUMA nodes reported by struct uvm_va_space_summary. */
#define UVM_SUMMARY_NODES		64

/**
 * struct uvm_va_space_summary - UVM_IOCTL_VA_SPACE_SUMMARY: where this VA
 * space's managed memory lives, in pages.
 *
 * Counts only, no addresses: unlike the range ioctls, any holder of the file
 * may ask (uvm-smi reads other processes' VA spaces through pidfd_getfd()).
 * A read-duplicated page counts once per copy.
 */
struct uvm_va_space_summary {
	/** @managed_pages: out, pages of managed VA (populated or not). */
	__u64 managed_pages;
	/** @host_pages: out, host copies per NUMA node (nodes >= 64: not counted). */
	__u64 host_pages[UVM_SUMMARY_NODES];
	/** @device_pages: out, device copies per device id. */
	__u64 device_pages[UVM_MAX_DEVICES];
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* struct uvm_perf.evict_policy; module parameter evict_policy by name */
#define UVM_EVICT_LRU			0	/* "lru": least recently accessed chunk first */
#define UVM_EVICT_FIFO			1	/* "fifo": oldest allocation first */
#define UVM_EVICT_LFU			2	/* "lfu": fewest device accesses (aged) first */
#define UVM_EVICT_RANDOM		3	/* "random": seeded by evict_seed */
#define UVM_EVICT_COUNT			4

/* struct uvm_perf.prefetch_policy; module parameter prefetch_policy by name */
#define UVM_PREFETCH_NONE		0	/* "none": only the faulted pages */
#define UVM_PREFETCH_DENSITY		1	/* "density": mostly-there regions of a block */
#define UVM_PREFETCH_SEQUENTIAL		2	/* "sequential": pages after a run of faults */
#define UVM_PREFETCH_DENSITY_64K	3	/* "density64k": density, 64 KiB units, CPU too */
#define UVM_PREFETCH_COUNT		4

/* struct uvm_perf.thrash_policy; module parameter thrash_policy by name */
#define UVM_THRASH_NONE			0	/* "none": detect and count only */
#define UVM_THRASH_THROTTLE		1	/* "throttle": the next processor naps */
#define UVM_THRASH_PIN			2	/* "pin": data stays, others map it */
#define UVM_THRASH_COUNT		3

/* struct uvm_perf.set and .overrides: the policies of a VA space */
#define UVM_PERF_EVICT			(1U << 0)	/* evict_policy, evict_seed */
#define UVM_PERF_FAULT_BATCH		(1U << 1)	/* fault_batch */
#define UVM_PERF_PREFETCH		(1U << 2)	/* prefetch_policy, _threshold, _pages */
#define UVM_PERF_CAP			(1U << 3)	/* cap_bytes of cap_device */
#define UVM_PERF_THRASH			(1U << 4)	/* thrash_policy and its parameters */
#define UVM_PERF_ALL			(UVM_PERF_EVICT | UVM_PERF_FAULT_BATCH | \
					 UVM_PERF_PREFETCH | UVM_PERF_CAP | \
					 UVM_PERF_THRASH)

/* struct uvm_perf.flags */
#define UVM_PERF_RESET			(1U << 0)	/* @set: back to the module's */

#define UVM_PERF_VERSION		1

/**
 * struct uvm_perf - UVM_IOCTL_PERF_SET, UVM_IOCTL_PERF_GET: the
 * memory-management policies of this VA space.
 *
 * A VA space follows the module parameters of the same names until it
 * overrides one; UVM_IOCTL_PERF_SET changes the policies named in @set
 * (their fields are checked, the others ignored) and nothing at all on an
 * error; UVM_IOCTL_PERF_GET reports the policies in force.
 */
struct uvm_perf {
	/** @version: in, UVM_PERF_VERSION. */
	__u32 version;
	/** @set: in (SET), UVM_PERF_* bits: the policies to change. */
	__u32 set;
	/** @flags: in, UVM_PERF_RESET or zero. */
	__u32 flags;
	/** @overrides: out (GET), UVM_PERF_* bits this VA space overrides. */
	__u32 overrides;
	/**
	 * @evict_policy: UVM_EVICT_*: the order of victims when this VA
	 * space needs device memory.
	 */
	__u32 evict_policy;
	/** @fault_batch: device faults gathered per batch, 1..4096. */
	__u32 fault_batch;
	/** @evict_seed: the seed of UVM_EVICT_RANDOM (any value). */
	__u64 evict_seed;
	/**
	 * @prefetch_policy: UVM_PREFETCH_*: what a device fault batch brings
	 * in besides the faulted pages.
	 */
	__u32 prefetch_policy;
	/**
	 * @prefetch_threshold: UVM_PREFETCH_DENSITY and _DENSITY_64K: a region
	 * is brought in whole once more than this percentage of it is
	 * resident on the faulting processor or faulting, 1..100 (module
	 * default 51).
	 */
	__u32 prefetch_threshold;
	/**
	 * @prefetch_pages: UVM_PREFETCH_SEQUENTIAL: pages brought in after a
	 * run of ascending faults, 1..16384 (module default 512).
	 */
	__u32 prefetch_pages;
	/** @pad: must be zero. */
	__u32 pad;
	/**
	 * @cap_device: in, the device @cap_bytes is about (SET with
	 * UVM_PERF_CAP; GET: the device whose cap to report).
	 */
	__u32 cap_device;
	/**
	 * @thrash_policy: UVM_THRASH_*: what happens to a block whose data
	 * moves between processors more than @thrash_threshold times within
	 * @thrash_window_us.
	 */
	__u32 thrash_policy;
	/** @thrash_threshold: moves, 1..1000 (module default 3). */
	__u32 thrash_threshold;
	/** @thrash_window_us: 1..10000000 (module default 500). */
	__u32 thrash_window_us;
	/**
	 * @thrash_nap_us: UVM_THRASH_THROTTLE: how long the next processor
	 * waits, 1..100000 (module default 250).
	 */
	__u32 thrash_nap_us;
	/**
	 * @thrash_pin_ms: UVM_THRASH_PIN: how long the data stays,
	 * 1..60000 (module default 300).
	 */
	__u32 thrash_pin_ms;
	/**
	 * @cap_bytes: the most device memory this VA space's managed data may
	 * take on @cap_device; 0: no cap. A cap is at least 2 MiB (one chunk)
	 * and at most the device's memory. Above it the VA space evicts its
	 * own chunks first; its device queries report the capped size.
	 */
	__u64 cap_bytes;
};

#include "uvm_events.h"

#define UVM_IOCTL_PREFETCH		_IOW(UVM_IOCTL_BASE, 0x81, struct uvm_prefetch)
#define UVM_IOCTL_ADVISE		_IOW(UVM_IOCTL_BASE, 0x82, struct uvm_advise)
#define UVM_IOCTL_RANGE_ATTRS		_IOWR(UVM_IOCTL_BASE, 0x83, struct uvm_range_attrs)
#define UVM_IOCTL_RESIDENCY		_IOW(UVM_IOCTL_BASE, 0x84, struct uvm_residency)
#define UVM_IOCTL_STATS			_IOWR(UVM_IOCTL_BASE, 0x85, struct uvm_stats)
#define UVM_IOCTL_DEVICE_ACCESS		_IOWR(UVM_IOCTL_BASE, 0x86, struct uvm_device_access)
#define UVM_IOCTL_DISCARD		_IOW(UVM_IOCTL_BASE, 0x87, struct uvm_discard)
#define UVM_IOCTL_VA_SPACE_SUMMARY	_IOWR(UVM_IOCTL_BASE, 0x88, struct uvm_va_space_summary)
#define UVM_IOCTL_PERF_SET		_IOW(UVM_IOCTL_BASE, 0x89, struct uvm_perf)
#define UVM_IOCTL_PERF_GET		_IOWR(UVM_IOCTL_BASE, 0x8a, struct uvm_perf)
#define UVM_IOCTL_EVENTS_OPEN		_IOWR(UVM_IOCTL_BASE, 0x8b, struct uvm_events_open)

/*
 * Device allocations, pinned and registered host memory, copies and sets
 * (cudaMalloc, cudaMallocHost/cudaHostAlloc, cudaHostRegister,
 * cudaMemcpy*, cudaMemset*). Every pointer of the process is one unified
 * address: device allocations and pinned host allocations get a VA by an
 * mmap() of /dev/uvm at the allocation's @mmap_offset (length @map_size,
 * MAP_SHARED); registered host memory keeps its own VA. The device address
 * of pinned and registered host memory is its host address.
 */

/* struct uvm_alloc_host.flags: the cudaHostAlloc flag values. */
#define UVM_HOST_ALLOC_PORTABLE		(1U << 0)	/* all devices (always) */
#define UVM_HOST_ALLOC_MAPPED		(1U << 1)	/* device alias (always) */
#define UVM_HOST_ALLOC_WRITECOMBINED	(1U << 2)	/* CPU mapping is WC */
#define UVM_HOST_ALLOC_FLAGS		0x7U

/* struct uvm_host_register.flags: the cudaHostRegister flag values. */
#define UVM_HOST_REGISTER_PORTABLE	(1U << 0)	/* all devices (always) */
#define UVM_HOST_REGISTER_MAPPED	(1U << 1)	/* device alias (always) */
#define UVM_HOST_REGISTER_IOMEMORY	(1U << 2)	/* -EOPNOTSUPP */
#define UVM_HOST_REGISTER_READONLY	(1U << 3)	/* devices only read */
#define UVM_HOST_REGISTER_FLAGS		0xfU

/**
 * struct uvm_alloc_device - UVM_IOCTL_ALLOC_DEVICE: device memory.
 *
 * Allocates @size bytes (rounded up to pages) of zeroed memory on @device,
 * never evicted. mmap() /dev/uvm at @mmap_offset with length @map_size to
 * give it its unified address; the CPU cannot access that mapping (a touch
 * is SIGBUS). Freed by UVM_IOCTL_FREE (by address once mapped) or by
 * munmap() of the whole mapping, whichever comes first.
 */
struct uvm_alloc_device {
	/** @size: in, bytes, non-zero. */
	__u64 size;
	/** @device: in, device id. */
	__u32 device;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @handle: out, allocation handle (for UVM_IOCTL_FREE before mmap). */
	__u64 handle;
	/** @mmap_offset: out, the mmap() offset of this allocation. */
	__u64 mmap_offset;
	/** @map_size: out, @size rounded up to pages: the mmap() length. */
	__u64 map_size;
	/** @buffer_id: out, unique in the module's lifetime, never reused. */
	__u64 buffer_id;
};

/**
 * struct uvm_alloc_host - UVM_IOCTL_ALLOC_HOST: pinned host memory.
 *
 * Allocates @size bytes (rounded up to pages) of zeroed, pinned host pages
 * charged to the caller's memory cgroup, DMA-mapped for every PCI device.
 * mmap() at @mmap_offset (length @map_size, MAP_SHARED) maps all of them at
 * once, write-combined with UVM_HOST_ALLOC_WRITECOMBINED.
 */
struct uvm_alloc_host {
	/** @size: in, bytes, non-zero. */
	__u64 size;
	/** @flags: in, UVM_HOST_ALLOC_* (reported back by UVM_IOCTL_PTR_INFO). */
	__u32 flags;
	/** @numa_node: in, NUMA node of the pages, -1 for the caller's. */
	__s32 numa_node;
	/** @handle: out, allocation handle. */
	__u64 handle;
	/** @mmap_offset: out, the mmap() offset of this allocation. */
	__u64 mmap_offset;
	/** @map_size: out, @size rounded up to pages: the mmap() length. */
	__u64 map_size;
	/** @buffer_id: out, unique in the module's lifetime, never reused. */
	__u64 buffer_id;
};

/**
 * struct uvm_free - UVM_IOCTL_FREE: free a device or pinned host allocation.
 *
 * By @addr (the base of a mapped allocation; @handle must be zero) or, for
 * an allocation never mapped, by @handle (@addr must be zero). The memory
 * is released at once (device memory) or when its mapping goes (host pages,
 * whose CPU mapping is zapped at once); munmap() the mapping afterwards.
 */
struct uvm_free {
	/** @addr: in, base address of the allocation, or 0. */
	__u64 addr;
	/** @handle: in, handle of an unmapped allocation, or 0. */
	__u64 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct uvm_host_register - UVM_IOCTL_HOST_REGISTER: pin existing memory.
 *
 * [@addr, @addr + @size) must be page aligned, mapped, not /dev/uvm memory
 * and overlap no registered range. Pages are pinned long-term (writable
 * unless READONLY) and DMA-mapped for every PCI device until
 * UVM_IOCTL_HOST_UNREGISTER, munmap() of any part of the range, or close.
 */
struct uvm_host_register {
	/** @addr: in, page-aligned start. */
	__u64 addr;
	/** @size: in, page-aligned bytes, non-zero. */
	__u64 size;
	/** @flags: in, UVM_HOST_REGISTER_*. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @dev_addr: out, device address of @addr (== @addr). */
	__u64 dev_addr;
};

/**
 * struct uvm_host_unregister - UVM_IOCTL_HOST_UNREGISTER.
 */
struct uvm_host_unregister {
	/** @addr: in, exactly the @addr that was registered. */
	__u64 addr;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/* struct uvm_ptr_info.type */
#define UVM_PTR_UNREGISTERED		0	/* plain host memory or nothing */
#define UVM_PTR_HOST_ALLOC		1	/* UVM_IOCTL_ALLOC_HOST memory */
#define UVM_PTR_DEVICE			2	/* UVM_IOCTL_ALLOC_DEVICE memory */
#define UVM_PTR_MANAGED			3	/* managed memory (mmap offset 0) */
#define UVM_PTR_HOST_REGISTERED		4	/* UVM_IOCTL_HOST_REGISTER memory */

/**
 * struct uvm_ptr_info - UVM_IOCTL_PTR_INFO: classify an address.
 *
 * Every out field not meaningful for @type is zero (@device: -1).
 */
struct uvm_ptr_info {
	/** @addr: in, any address of the calling process. */
	__u64 addr;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @type: out, UVM_PTR_*. */
	__u32 type;
	/** @base: out, start of the allocation, registration or VMA. */
	__u64 base;
	/** @size: out, its size in bytes. */
	__u64 size;
	/** @dev_addr: out, device address of @addr (== @addr), 0 if none. */
	__u64 dev_addr;
	/** @host_addr: out, host address of @addr, 0 for device memory. */
	__u64 host_addr;
	/** @handle: out, allocation handle (HOST_ALLOC, DEVICE). */
	__u64 handle;
	/** @buffer_id: out, allocation's unique id (HOST_ALLOC, DEVICE). */
	__u64 buffer_id;
	/** @device: out, device id (DEVICE), else -1. */
	__s32 device;
	/** @alloc_flags: out, UVM_HOST_ALLOC_* or UVM_HOST_REGISTER_* used. */
	__u32 alloc_flags;
};

/**
 * struct uvm_memcpy - UVM_IOCTL_MEMCPY: 1D, 2D or 3D copy, synchronous.
 *
 * Copies @depth slices of @height rows of @width bytes. Row r of slice z
 * starts at ptr + z * pitch * rows + r * pitch on each side (pitch and
 * rows: @src_pitch/@src_rows or @dst_pitch/@dst_rows). Pitches are only
 * used (and must be >= @width) when @height > 1 or @depth > 1; rows only
 * when @depth > 1 (must be >= @height). Each side's whole extent must lie
 * in one allocation or registration, or in memory that is none of them
 * (pageable or managed). The two extents must not overlap. @width == 0
 * copies nothing.
 */
struct uvm_memcpy {
	/** @dst: in, destination address. */
	__u64 dst;
	/** @src: in, source address. */
	__u64 src;
	/** @dst_pitch: in, destination row stride in bytes. */
	__u64 dst_pitch;
	/** @src_pitch: in, source row stride in bytes. */
	__u64 src_pitch;
	/** @width: in, bytes per row. */
	__u64 width;
	/** @height: in, rows per slice, >= 1. */
	__u64 height;
	/** @depth: in, slices, >= 1. */
	__u64 depth;
	/** @dst_rows: in, destination rows per slice (slice stride / pitch). */
	__u64 dst_rows;
	/** @src_rows: in, source rows per slice. */
	__u64 src_rows;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct uvm_memset - UVM_IOCTL_MEMSET: 1D, 2D or 3D fill, synchronous.
 *
 * Fills @depth slices of @height rows of @width bytes (layout as for
 * struct uvm_memcpy) with the @elem_size-byte pattern @value (1, 2 or 4;
 * for 2 and 4, @dst, @pitch and @width must be multiples of @elem_size).
 */
struct uvm_memset {
	/** @dst: in, destination address. */
	__u64 dst;
	/** @pitch: in, row stride in bytes. */
	__u64 pitch;
	/** @width: in, bytes per row. */
	__u64 width;
	/** @height: in, rows per slice, >= 1. */
	__u64 height;
	/** @depth: in, slices, >= 1. */
	__u64 depth;
	/** @rows: in, rows per slice. */
	__u64 rows;
	/** @value: in, the pattern (low @elem_size bytes; the rest zero). */
	__u32 value;
	/** @elem_size: in, 1, 2 or 4. */
	__u32 elem_size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct uvm_mem_counters - UVM_IOCTL_MEM_COUNTERS: pinned memory counts.
 */
struct uvm_mem_counters {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
	/** @pinned_pages: out, pages pinned by registrations, whole module. */
	__u64 pinned_pages;
	/** @host_alloc_pages: out, pages of pinned allocations, whole module. */
	__u64 host_alloc_pages;
	/** @va_pinned_pages: out, pages pinned by this VA space's registrations. */
	__u64 va_pinned_pages;
	/** @va_host_alloc_pages: out, pages of this VA space's pinned allocations. */
	__u64 va_host_alloc_pages;
	/** @va_device_bytes: out, device bytes allocated by this VA space. */
	__u64 va_device_bytes;
};

#define UVM_IOCTL_ALLOC_DEVICE		_IOWR(UVM_IOCTL_BASE, 0x90, struct uvm_alloc_device)
#define UVM_IOCTL_ALLOC_HOST		_IOWR(UVM_IOCTL_BASE, 0x91, struct uvm_alloc_host)
#define UVM_IOCTL_FREE			_IOW(UVM_IOCTL_BASE, 0x92, struct uvm_free)
#define UVM_IOCTL_HOST_REGISTER		_IOWR(UVM_IOCTL_BASE, 0x93, struct uvm_host_register)
#define UVM_IOCTL_HOST_UNREGISTER	_IOW(UVM_IOCTL_BASE, 0x94, struct uvm_host_unregister)
#define UVM_IOCTL_PTR_INFO		_IOWR(UVM_IOCTL_BASE, 0x95, struct uvm_ptr_info)
#define UVM_IOCTL_MEMCPY		_IOW(UVM_IOCTL_BASE, 0x96, struct uvm_memcpy)
#define UVM_IOCTL_MEMSET		_IOW(UVM_IOCTL_BASE, 0x97, struct uvm_memset)
#define UVM_IOCTL_MEM_COUNTERS		_IOWR(UVM_IOCTL_BASE, 0x98, struct uvm_mem_counters)

#endif /* _UAPI_UVM_H */
