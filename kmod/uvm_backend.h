/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_backend.h - what a device backend provides: memory access primitives.
 *
 * Two backends exist: uvm_pci.c (a PCI memory BAR) and uvm_emu.c (system RAM
 * posing as device memory). Everything above them (allocator, test ioctls,
 * later migration) only uses these ops.
 */
#ifndef __UVM_BACKEND_H__
#define __UVM_BACKEND_H__

#include <linux/types.h>

struct uvm_device;
struct uvm_device_info;

/**
 * struct uvm_copy_seg - one segment of a batched host <-> device copy.
 * @dev_offset: byte offset in device memory.
 * @host: kernel virtual address of the host side (linear map, vmalloc or
 *	  kmap_local; never a user pointer).
 * @size: bytes to copy.
 */
struct uvm_copy_seg {
	u64 dev_offset;
	void *host;
	u64 size;
};

/**
 * struct uvm_backend_ops - device memory primitives.
 *
 * All offsets and sizes are bytes relative to the start of the device's
 * memory and are already bounds-checked by the caller against mem_size.
 * Callers hold drm_dev_enter() for the duration of any call, so a backend
 * never sees an unplugged device. Copies may sleep; a backend splits large
 * work itself and calls cond_resched(). Copies are synchronous: when an op
 * returns, the data is visible to every later CPU or device access.
 *
 * Copies take arrays of segments so a migration of a 2 MiB block (512
 * scattered system pages) is one call, and a DMA engine backend can turn it
 * into one descriptor list.
 *
 * @name: backend name shown in sysfs ("pci", "emulated").
 * @backend: UVM_BACKEND_* value reported to user space.
 * @caps: UVM_DEVICE_CAP_* bits.
 * @copy_to: device memory <- host memory, @nr segments.
 * @copy_from: host memory <- device memory, @nr segments.
 * @fill: set @size bytes at @offset to @value (zeroing is @value 0).
 * @copy_peer: device memory of @dst <- device memory of @src, both of this
 *	backend. Optional: when NULL, or across backends, the caller bounces
 *	through host memory (@copy_from of @src, then @copy_to of @dst).
 * @cpu_pfn: pfn a CPU mapping of @offset must use (PAGE_SIZE aligned
 *	@offset). -EOPNOTSUPP if device memory is not CPU mappable.
 * @bus_addr: physical/bus address of @offset: for PCI the BAR bus address
 *	(what a peer's DMA would target, subject to P2P routing), for the
 *	emulated backend the host physical address.
 * @fill_info: backend fields of struct uvm_device_info (PCI location...).
 */
struct uvm_backend_ops {
	const char *name;
	u32 backend;
	u64 caps;
	int (*copy_to)(struct uvm_device *udev, const struct uvm_copy_seg *segs,
		       unsigned int nr);
	int (*copy_from)(struct uvm_device *udev,
			 const struct uvm_copy_seg *segs, unsigned int nr);
	int (*fill)(struct uvm_device *udev, u64 offset, u64 size, u8 value);
	int (*copy_peer)(struct uvm_device *dst, u64 dst_offset,
			 struct uvm_device *src, u64 src_offset, u64 size);
	int (*cpu_pfn)(struct uvm_device *udev, u64 offset, unsigned long *pfn);
	int (*bus_addr)(struct uvm_device *udev, u64 offset, phys_addr_t *addr);
	void (*fill_info)(struct uvm_device *udev,
			  struct uvm_device_info *info);
};

#endif /* __UVM_BACKEND_H__ */
