/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_device.h - a device with memory, and the global device registry.
 */
#ifndef __UVM_DEVICE_H__
#define __UVM_DEVICE_H__

#include <linux/stddef.h>
#include <linux/types.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>

#include "uvm_backend.h"
#include "uvm_managed.h"
#include "uvm_mem.h"

struct uvm_device_info;
struct uvm_devpriv;

/**
 * struct uvm_device - one device whose memory uvm manages.
 * @drm: embedded DRM device (render node). Its reference count is the
 *	device's: uvm_device_get()/uvm_device_put() are drm_dev_get()/put(),
 *	and the structure is freed by DRM-managed release once the backend is
 *	unbound and the last reference (open render node, registry lookup,
 *	device memory allocation) is gone.
 * @ops: backend primitives.
 * @id: registry index (0..UVM_MAX_DEVICES-1); UVM_MAX_DEVICES while not
 *	registered. Stable for the device's registered lifetime.
 * @numa_node: host NUMA node closest to the device, NUMA_NO_NODE if none.
 * @mem_size: bytes of device memory.
 * @io_pfn_start: first pfn of device memory that is I/O memory (a BAR:
 *	no struct page, mapped with vmf_insert_pfn_prot()).
 * @io_pfn_end: one past the last; equal to @io_pfn_start (both 0) for a
 *	device whose memory is RAM (emulated).
 * @pool: the device memory allocator.
 * @lru_lock: protects @lru, @bds, @dying, @evict_allocs, @evict_count,
 *	      @evict_epoch, @evict_hits, @evict_chunks and the struct
 *	      uvm_evict_info of the chunks on @lru.
 * @lru: struct uvm_block_dev that hold a chunk of this device's memory for
 *	managed data, least recently accessed first (uvm_evict.c).
 * @evict_allocs: chunks allocated for managed data so far (their order).
 * @evict_count: chunks evicted so far.
 * @evict_epoch: the aging epoch of the chunks' access counts (LFU): each
 *		 halves them (uvm_evict.c, evict_age()).
 * @evict_hits: the chunks' access counts summed, about (halved with them).
 * @evict_chunks: chunks on @lru.
 * @bds: every struct uvm_block_dev of this device (chunk or not), for
 *	 the unbind's sweep of device mappings (uvm_evict_unmap_all()).
 * @dying: set when unregistering: no new managed chunks, all are evicted.
 * @counters: events that concern this device (uvm_count_dev()); which
 *	counters are kept per device is listed in docs/observability.md.
 * @devpriv: its memory as device-private pages (uvm_devpriv.c), where
 *	     pageable memory migrates; NULL on kernels without DEVICE_PRIVATE
 *	     or if registering them failed. Set before the device is
 *	     registered, cleared after it is unregistered.
 *
 * Immutable after uvm_device_register() except where a member says so.
 * Per-device managed-memory state (residency bitmaps, page tables, fault
 * and copy queues) goes here, each with its own documented lock.
 */
struct uvm_device {
	struct drm_device drm;
	const struct uvm_backend_ops *ops;
	u32 id;
	int numa_node;
	u64 mem_size;
	unsigned long io_pfn_start;
	unsigned long io_pfn_end;
	struct uvm_mem_pool pool;
	spinlock_t lru_lock;	/* Protects lru, bds, dying, evict_* */
	struct list_head lru;
	struct list_head bds;
	bool dying;
	u64 evict_allocs;
	u64 evict_count;
	u32 evict_epoch;
	u32 evict_chunks;
	u64 evict_hits;
	struct uvm_counters counters;
	struct uvm_devpriv *devpriv;
};

/*
 * uvm_count_dev() - uvm_count(), and count it on @udev too. Any context; the
 * caller holds a reference on @udev.
 */
static inline void uvm_count_dev(struct uvm_managed *mgd,
				 struct uvm_device *udev, unsigned int stat,
				 u64 n)
{
	uvm_count(mgd, stat, n);
	atomic64_add(n, &udev->counters.v[stat]);
}

static inline struct uvm_device *to_uvm_device(struct drm_device *drm)
{
	return container_of(drm, struct uvm_device, drm);
}

static inline void uvm_device_get_ref(struct uvm_device *udev)
{
	drm_dev_get(&udev->drm);
}

static inline void uvm_device_put(struct uvm_device *udev)
{
	drm_dev_put(&udev->drm);
}

void *__uvm_device_alloc(struct device *parent,
			 const struct uvm_backend_ops *ops,
			 size_t size, size_t offset);

/**
 * uvm_device_alloc - allocate a backend structure embedding a uvm_device.
 * @parent: the bus device (devm owner).
 * @ops: backend ops.
 * @type: backend structure type.
 * @member: name of its struct uvm_device member.
 *
 * Returns the backend structure or an ERR_PTR. Freed by DRM-managed release.
 */
#define uvm_device_alloc(parent, ops, type, member) \
	((type *)__uvm_device_alloc(parent, ops, sizeof(type), \
				    offsetof(type, member)))

int uvm_device_register(struct uvm_device *udev);
void uvm_device_unregister(struct uvm_device *udev);

/* Registry lookup: a counted reference or NULL. Takes the registry lock. */
struct uvm_device *uvm_device_get(u32 id);
u32 uvm_device_count(void);
bool uvm_device_pfn_is_ram(const struct uvm_device *udev, unsigned long pfn);
void uvm_device_fill_info(struct uvm_device *udev,
			  struct uvm_device_info *info);

#endif /* __UVM_DEVICE_H__ */
