// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_dev_dma.c - DMA addresses of the host pages devices map remotely.
 *
 * DOC: DMA mappings of remote host pages
 *
 * A device that maps a managed page's host copy (a remote mapping:
 * accessed-by, preferred location elsewhere, a full device) reads it over
 * the bus, so its page table holds the page's DMA address, from
 * dma_map_page() for the device's struct device (PCI backend; the emulated
 * backend is system RAM and does no DMA). The mapping lives exactly as
 * long as the device mapping: every path that drops a device mapping of a
 * host page (uvm_block_unmap_devices_locked(), the host copy going away,
 * the host copy moving to another node, a new mapping of the page)
 * unmaps it first. Here the CPU plays the device and reaches the page
 * through its kernel address; the DMA address is what a device with a DMA
 * engine would be given. Peer mappings (another device's memory) need no
 * DMA mapping of host memory; a PCIe peer-to-peer mapping of the BAR is
 * not made (the BAR-to-BAR copies are CPU copies).
 *
 * uvm_acct.dma_pages counts the pages mapped, for the leak check at unload.
 * Caller holds the block's lock for all of these.
 */
#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_managed.h"

static bool uvm_dev_does_dma(const struct uvm_device *udev)
{
	return udev->ops->backend == UVM_BACKEND_PCI_BAR;
}

/**
 * uvm_bd_dma_unmap() - release the DMA mappings of the pages of @mask.
 * @bd: a device's state in a block; the block's lock is held.
 * @mask: pages.
 */
void uvm_bd_dma_unmap(struct uvm_block_dev *bd, const unsigned long *mask)
{
	DECLARE_BITMAP(m, UVM_BLOCK_PAGES);
	unsigned int i, n = 0;

	lockdep_assert_held(&bd->block->lock);
	if (!bitmap_and(m, mask, bd->dma_mapped, UVM_BLOCK_PAGES))
		return;
	for_each_set_bit(i, m, UVM_BLOCK_PAGES) {
		dma_sync_single_for_cpu(bd->udev->drm.dev, bd->dma[i],
					PAGE_SIZE, DMA_BIDIRECTIONAL);
		dma_unmap_page_attrs(bd->udev->drm.dev, bd->dma[i], PAGE_SIZE,
				     DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
		n++;
	}
	bitmap_andnot(bd->dma_mapped, bd->dma_mapped, m, UVM_BLOCK_PAGES);
	atomic_long_sub(n, &uvm_acct.dma_pages);
}

/**
 * uvm_bd_dma_map() - DMA-map the host copies of the pages of @mask for
 * @bd's device (nothing for a device that does no DMA).
 * @bd: a device's state in a block; the block's lock is held.
 * @mask: pages, each with a host copy and not DMA-mapped.
 *
 * Return: 0, or -ENOMEM with none of @mask mapped.
 */
int uvm_bd_dma_map(struct uvm_block_dev *bd, const unsigned long *mask)
{
	struct uvm_va_block *block = bd->block;
	struct device *dev = bd->udev->drm.dev;
	unsigned int i;
	dma_addr_t a;

	lockdep_assert_held(&block->lock);
	if (!uvm_dev_does_dma(bd->udev))
		return 0;
	if (!bd->dma) {
		bd->dma = kvmalloc_array(UVM_BLOCK_PAGES, sizeof(*bd->dma),
					 GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		if (!bd->dma)
			return -ENOMEM;
	}
	for_each_set_bit(i, mask, UVM_BLOCK_PAGES) {
		/*
		 * Several devices may map one page: map without the CPU sync
		 * (the DMA API's debug checks reject overlapping mappings that
		 * each sync) and sync explicitly, as uvm_dma_map_one() does.
		 */
		a = dma_map_page_attrs(dev, block->cpu_pages[i], 0, PAGE_SIZE,
				       DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
		if (dma_mapping_error(dev, a)) {
			uvm_bd_dma_unmap(bd, mask);
			return -ENOMEM;
		}
		dma_sync_single_for_device(dev, a, PAGE_SIZE, DMA_BIDIRECTIONAL);
		bd->dma[i] = a;
		__set_bit(i, bd->dma_mapped);
		atomic_long_inc(&uvm_acct.dma_pages);
	}
	return 0;
}

/**
 * uvm_bd_dma_free() - free @bd's DMA address array (no page is mapped).
 * @bd: a device's state in a block, being freed.
 */
void uvm_bd_dma_free(struct uvm_block_dev *bd)
{
	kvfree(bd->dma);
	bd->dma = NULL;
}
