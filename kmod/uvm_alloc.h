/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_alloc.h - device allocations, pinned host allocations and the VA
 * space's table of everything that has a unified address besides managed
 * memory (allocations and host registrations).
 */
#ifndef __UVM_ALLOC_H__
#define __UVM_ALLOC_H__

#include <linux/atomic.h>
#include <linux/dma-direction.h>
#include <linux/kref.h>
#include <linux/maple_tree.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct uvm_device;
struct uvm_mem;
struct uvm_va_space;

/* struct uvm_obj.kind */
#define UVM_OBJ_DEVICE		1	/* device memory (UVM_IOCTL_ALLOC_DEVICE) */
#define UVM_OBJ_HOST_ALLOC	2	/* pinned host (UVM_IOCTL_ALLOC_HOST) */
#define UVM_OBJ_HOSTREG		3	/* registered host (HOST_REGISTER) */

/**
 * struct uvm_alloc_space - a VA space's allocations and registrations.
 * @lock: protects membership of @handles and @ranges, and the @start and
 *	@linked fields of every object in them. Lookups take it, get a
 *	reference and drop it; nothing sleeps on user memory under it.
 * @handles: handle -> struct uvm_alloc (handles 1..UVM_ALLOC_MAX_HANDLE,
 *	the mmap offset in pages); an entry lives until the allocation is
 *	freed or its mapping goes.
 * @ranges: [start, start + size - 1] -> struct uvm_obj of every mapped
 *	allocation and every registration: the address lookup.
 * @dead_lock: protects @dead (taken by the unmap notifier, which may not
 *	take @lock).
 * @dead: registrations an unmap killed, each with a reference, still to
 *	be unlinked (see uvm_hostreg_reap()).
 * @device_bytes: device bytes allocated (linked allocations).
 * @host_alloc_pages: pinned host allocation pages (linked).
 * @pinned_pages: pages pinned by linked registrations.
 */
struct uvm_alloc_space {
	struct mutex lock;	/* Protects handles, ranges, obj links */
	struct xarray handles;
	struct maple_tree ranges;
	spinlock_t dead_lock;	/* Protects dead */
	struct list_head dead;
	atomic64_t device_bytes;
	atomic64_t host_alloc_pages;
	atomic64_t pinned_pages;
};

/**
 * struct uvm_obj - common head of everything in uvm_alloc_space.ranges.
 * @ref: lifetime; held by the tables while linked and by every user
 *	(copy, query) for its duration. The last put frees the memory.
 * @kind: UVM_OBJ_*.
 * @flags: the user's flags (UVM_HOST_ALLOC_*, UVM_HOST_REGISTER_*).
 * @start: unified address, 0 while not mapped. Written under the table lock.
 * @size: bytes (page multiple).
 * @linked: still in the tables (not freed/unregistered/unmapped).
 */
struct uvm_obj {
	struct kref ref;
	u32 kind;
	u32 flags;
	unsigned long start;
	u64 size;
	bool linked;
};

/**
 * struct uvm_dma_map - the DMA mapping of a host page set for one device.
 * @udev: the device (a reference held while mapped).
 * @sgt: the pages, DMA-mapped for @udev's bus device.
 * @attrs: the DMA attributes it was mapped with (and is unmapped with).
 */
struct uvm_dma_map {
	struct uvm_device *udev;
	struct sg_table sgt;
	unsigned long attrs;
};

/**
 * struct uvm_host_pages - a set of pinned or allocated host pages.
 * @pages: the pages, in address order.
 * @npages: number of @pages.
 * @maps: DMA mappings, one per PCI device present when mapped (a device
 *	  unbound since has none any more).
 * @nr_maps: number of @maps.
 * @dir: DMA direction of @maps.
 * @dma_link: entry of the list of mapped sets, while @dma_listed; the
 *	      list's lock protects it, @maps and @nr_maps once listed.
 * @dma_listed: on that list.
 */
struct uvm_host_pages {
	struct page **pages;
	unsigned long npages;
	struct uvm_dma_map *maps;
	unsigned int nr_maps;
	enum dma_data_direction dir;
	struct list_head dma_link;
	bool dma_listed;
};

/* uvm_hostreg.c: DMA-map for every PCI device present; may sleep. */
int uvm_host_pages_dma_map(struct uvm_host_pages *hp,
			   enum dma_data_direction dir);
int uvm_host_pages_dma_map_unlisted(struct uvm_host_pages *hp,
				    struct page **pages,
				    enum dma_data_direction dir);
void uvm_host_pages_list(struct uvm_host_pages *hp);
void uvm_host_pages_dma_unmap(struct uvm_host_pages *hp);
/* A device's unbind: every set's mappings for it go. */
void uvm_host_pages_dma_unmap_device(struct uvm_device *udev);

/**
 * struct uvm_dev_extent - a physically contiguous piece of an allocation.
 * @start: offset in the allocation.
 * @dev_offset: offset in device memory.
 * @size: bytes.
 */
struct uvm_dev_extent {
	u64 start;
	u64 dev_offset;
	u64 size;
};

/**
 * struct uvm_alloc - a device or pinned host allocation.
 * @obj: head (kind UVM_OBJ_DEVICE or UVM_OBJ_HOST_ALLOC).
 * @handle: index in uvm_alloc_space.handles.
 * @buffer_id: unique for the module's lifetime.
 * @mem: device memory (DEVICE).
 * @ext: @nr_ext extents of @mem in allocation order (DEVICE).
 * @nr_ext: number of @ext.
 * @hp: the pages (HOST_ALLOC).
 */
struct uvm_alloc {
	struct uvm_obj obj;
	u32 handle;
	u64 buffer_id;
	struct uvm_mem *mem;
	struct uvm_dev_extent *ext;
	unsigned int nr_ext;
	struct uvm_host_pages hp;
};

#define UVM_ALLOC_MAX_HANDLE	(U32_MAX >> 1)

static inline struct uvm_alloc *to_uvm_alloc(struct uvm_obj *obj)
{
	return container_of(obj, struct uvm_alloc, obj);
}

void uvm_alloc_space_init(struct uvm_alloc_space *as);
/* File release: frees everything left; no VMA of the file exists. */
void uvm_alloc_space_fini(struct uvm_alloc_space *as);
/* ->mmap of a non-zero offset, mmap_lock held for write. */
int uvm_alloc_mmap(struct uvm_va_space *va_space, struct vm_area_struct *vma);

/*
 * Lookup: the object containing @addr with a reference, or NULL. Reaps
 * dead registrations, takes the table lock: call without mmap_lock.
 */
struct uvm_obj *uvm_obj_lookup(struct uvm_alloc_space *as, unsigned long addr);
/* First object intersecting [start, last], referenced, or NULL. */
struct uvm_obj *uvm_obj_find(struct uvm_alloc_space *as, unsigned long start,
			     unsigned long last);
void uvm_obj_put(struct uvm_obj *obj);
/* Insert @obj at [start, start + size); -EEXIST if anything overlaps. */
int uvm_obj_link_locked(struct uvm_alloc_space *as, struct uvm_obj *obj);
void uvm_obj_unlink_locked(struct uvm_alloc_space *as, struct uvm_obj *obj);
u64 uvm_next_buffer_id(void);
/* Is @vma /dev/uvm memory (managed or an allocation)? mmap_lock held. */
bool uvm_vma_is_uvm(struct vm_area_struct *vma);

/* Device offset of @off in @alloc and bytes contiguous from there. */
u64 uvm_alloc_dev_offset(struct uvm_alloc *alloc, u64 off, u64 *len);

int uvm_alloc_device_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_alloc_host_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_free_ioctl(struct uvm_va_space *va_space, void *data);
int uvm_mem_counters_ioctl(struct uvm_va_space *va_space, void *data);

#endif /* __UVM_ALLOC_H__ */
