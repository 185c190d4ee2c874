// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_pci.c - PCI backend: a device's memory is one of its memory BARs.
 */

#include <linux/io.h>
#include <linux/minmax.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <uapi/uvm.h>

#include "uvm_compat.h"
#include "uvm_device.h"
#include "uvm_pci.h"
#include "uvm_sysfs.h"

/**
 * DOC: PCI backend
 *
 * The "uvm" PCI driver has an empty id table: it binds nothing by itself.
 * Any PCIe device with a 64-bit prefetchable memory BAR can be given to it
 * by the administrator, e.g. for QEMU's ivshmem-plain (1af4:1110)::
 *
 *	echo uvm > /sys/bus/pci/devices/0000:00:04.0/driver_override
 *	echo 0000:00:04.0 > /sys/bus/pci/drivers_probe
 *
 * or for every device of a vendor:device pair::
 *
 *	echo 1af4 1110 > /sys/bus/pci/drivers/uvm/new_id
 *
 * (unbind it from its current driver first). The largest 64-bit
 * prefetchable memory BAR becomes the device memory; nothing else of the
 * device is touched. The CPU accesses it through a write-combined mapping:
 * a prefetchable BAR has no read side effects and tolerates merged writes,
 * so WC lets streaming writes (migration to the device, zeroing) go out as
 * full bursts instead of one uncached transaction per store. Reads through
 * WC are uncached, so device-to-host copies are slow; a DMA engine would
 * be the fix on real hardware.
 */

/**
 * struct uvm_pci_device - a device driven through its memory BAR.
 * @udev: the uvm device.
 * @pdev: the PCI device.
 * @bar_map: write-combined kernel mapping of the whole BAR (devm).
 * @bar: BAR index.
 *
 * Immutable after probe. @bar_map is unmapped at unbind, after
 * drm_dev_unplug() has fenced off every user.
 */
struct uvm_pci_device {
	struct uvm_device udev;
	struct pci_dev *pdev;
	void __iomem *bar_map;
	int bar;
};

/* Copy/fill step between cond_resched() calls. */
#define UVM_PCI_STEP	SZ_1M

static struct uvm_pci_device *to_uvm_pci(struct uvm_device *udev)
{
	return container_of(udev, struct uvm_pci_device, udev);
}

/*
 * 64-bit MMIO copies: as fast as memcpy_toio() on write-combined memory on
 * real hardware, and 2-3x faster under emulators, where memcpy_toio()'s
 * string instructions are emulated byte-wise. Copies to or from an
 * aligned buffer (a page) go eight words at a time: all loads, then all
 * stores, which TCG runs faster (about 12% for a prefetch to the device).
 */
static void bar_read64(u64 *dst, const void __iomem *src)
{
	u64 a = readq(src), b = readq(src + 8), c = readq(src + 16);
	u64 d = readq(src + 24), e = readq(src + 32), f = readq(src + 40);
	u64 g = readq(src + 48), h = readq(src + 56);

	dst[0] = a;
	dst[1] = b;
	dst[2] = c;
	dst[3] = d;
	dst[4] = e;
	dst[5] = f;
	dst[6] = g;
	dst[7] = h;
}

static void bar_write64(void __iomem *dst, const u64 *src)
{
	u64 a = READ_ONCE(src[0]), b = READ_ONCE(src[1]), c = READ_ONCE(src[2]);
	u64 d = READ_ONCE(src[3]), e = READ_ONCE(src[4]), f = READ_ONCE(src[5]);
	u64 g = READ_ONCE(src[6]), h = READ_ONCE(src[7]);

	writeq(a, dst);
	writeq(b, dst + 8);
	writeq(c, dst + 16);
	writeq(d, dst + 24);
	writeq(e, dst + 32);
	writeq(f, dst + 40);
	writeq(g, dst + 48);
	writeq(h, dst + 56);
}

static void bar_write(void __iomem *dst, const void *src, u64 n)
{
	u64 i = 0, v;

	if (IS_ALIGNED((unsigned long)src, sizeof(u64)))
		for (; i + 64 <= n; i += 64)
			bar_write64(dst + i, src + i);
	for (; i + sizeof(u64) <= n; i += sizeof(u64)) {
		memcpy(&v, src + i, sizeof(v));	/* @src may be unaligned */
		writeq(v, dst + i);
	}
	for (; i < n; i++)
		writeb(((const u8 *)src)[i], dst + i);
}

static void bar_read(void *dst, const void __iomem *src, u64 n)
{
	u64 i = 0, v;

	if (IS_ALIGNED((unsigned long)dst, sizeof(u64)))
		for (; i + 64 <= n; i += 64)
			bar_read64(dst + i, src + i);
	for (; i + sizeof(u64) <= n; i += sizeof(u64)) {
		v = readq(src + i);
		memcpy(dst + i, &v, sizeof(v));
	}
	for (; i < n; i++)
		((u8 *)dst)[i] = readb(src + i);
}

/*
 * memset_io() with 64-bit writes: memset_io() is memset(), rep stosb on
 * CPUs with ERMS (6.1), which TCG runs 8-12x slower than this loop.
 */
static void bar_fill(void __iomem *dst, u8 value, u64 n)
{
	u64 v = 0x0101010101010101ULL * value, i = 0;

	for (; i < n && !IS_ALIGNED((unsigned long)(dst + i), 8); i++)
		writeb(value, dst + i);
	for (; i + 64 <= n; i += 64) {
		writeq(v, dst + i);
		writeq(v, dst + i + 8);
		writeq(v, dst + i + 16);
		writeq(v, dst + i + 24);
		writeq(v, dst + i + 32);
		writeq(v, dst + i + 40);
		writeq(v, dst + i + 48);
		writeq(v, dst + i + 56);
	}
	for (; i + 8 <= n; i += 8)
		writeq(v, dst + i);
	for (; i < n; i++)
		writeb(value, dst + i);
}

static int uvm_pci_copy(struct uvm_device *udev,
			const struct uvm_copy_seg *segs, unsigned int nr,
			bool to_dev)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);
	void __iomem *bar;
	unsigned int i;
	u64 done, n;

	for (i = 0; i < nr; i++) {
		for (done = 0; done < segs[i].size; done += n) {
			n = min_t(u64, segs[i].size - done, UVM_PCI_STEP);
			bar = upci->bar_map + segs[i].dev_offset + done;
			if (to_dev)
				bar_write(bar, segs[i].host + done, n);
			else
				bar_read(segs[i].host + done, bar, n);
		}
		cond_resched();
	}
	if (to_dev)
		wmb();	/* drain the write-combining buffers before anyone looks */
	return 0;
}

static int uvm_pci_copy_to(struct uvm_device *udev,
			   const struct uvm_copy_seg *segs, unsigned int nr)
{
	return uvm_pci_copy(udev, segs, nr, true);
}

static int uvm_pci_copy_from(struct uvm_device *udev,
			     const struct uvm_copy_seg *segs, unsigned int nr)
{
	return uvm_pci_copy(udev, segs, nr, false);
}

static int uvm_pci_fill(struct uvm_device *udev, u64 offset, u64 size,
			u8 value)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);
	u64 done, n;

	for (done = 0; done < size; done += n) {
		n = min_t(u64, size - done, UVM_PCI_STEP);
		bar_fill(upci->bar_map + offset + done, value, n);
		cond_resched();
	}
	/* Drain the write-combining buffers, as after copy_to. */
	wmb();
	return 0;
}

/*
 * BAR to BAR: the CPU reads the source BAR and writes the destination BAR
 * directly, 64 bits at a time, no bounce through host memory. (A DMA
 * engine, or PCIe peer-to-peer DMA where the platform routes it, would
 * plug in here.)
 */
static int uvm_pci_copy_peer(struct uvm_device *dst, u64 dst_offset,
			     struct uvm_device *src, u64 src_offset, u64 size)
{
	void __iomem *d = to_uvm_pci(dst)->bar_map + dst_offset;
	void __iomem *s = to_uvm_pci(src)->bar_map + src_offset;
	u64 done;

	for (done = 0; done + sizeof(u64) <= size; done += sizeof(u64)) {
		writeq(readq(s + done), d + done);
		if (IS_ALIGNED(done + sizeof(u64), UVM_PCI_STEP))
			cond_resched();
	}
	for (; done < size; done++)
		writeb(readb(s + done), d + done);
	/* Drain the write-combining buffers, as after copy_to. */
	wmb();
	return 0;
}

static int uvm_pci_cpu_pfn(struct uvm_device *udev, u64 offset,
			   unsigned long *pfn)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);

	*pfn = PHYS_PFN(pci_resource_start(upci->pdev, upci->bar) + offset);
	return 0;
}

static int uvm_pci_bus_addr(struct uvm_device *udev, u64 offset,
			    phys_addr_t *addr)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);

	*addr = pci_bus_address(upci->pdev, upci->bar) + offset;
	return 0;
}

static void uvm_pci_fill_info(struct uvm_device *udev,
			      struct uvm_device_info *info)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);
	struct pci_dev *pdev = upci->pdev;

	info->pci_domain = pci_domain_nr(pdev->bus);
	info->pci_bus = pdev->bus->number;
	info->pci_dev = PCI_SLOT(pdev->devfn);
	info->pci_func = PCI_FUNC(pdev->devfn);
	info->bar = upci->bar;
	info->pci_vendor = pdev->vendor;
	info->pci_device = pdev->device;
	info->bar_addr = pci_bus_address(pdev, upci->bar);
	info->bar_size = pci_resource_len(pdev, upci->bar);
}

static const struct uvm_backend_ops uvm_pci_ops = {
	.name = "pci",
	.backend = UVM_BACKEND_PCI_BAR,
	.caps = UVM_DEVICE_CAP_CPU_MAPPABLE | UVM_DEVICE_CAP_PEER_COPY,
	.copy_to = uvm_pci_copy_to,
	.copy_from = uvm_pci_copy_from,
	.fill = uvm_pci_fill,
	.copy_peer = uvm_pci_copy_peer,
	.cpu_pfn = uvm_pci_cpu_pfn,
	.bus_addr = uvm_pci_bus_addr,
	.fill_info = uvm_pci_fill_info,
};

/* The largest 64-bit prefetchable memory BAR, or -ENODEV. */
static int uvm_pci_pick_bar(struct pci_dev *pdev)
{
	const unsigned long want = IORESOURCE_MEM | IORESOURCE_MEM_64 |
				   IORESOURCE_PREFETCH;
	int bar, best = -ENODEV;

	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++) {
		if ((pci_resource_flags(pdev, bar) & want) != want ||
		    pci_resource_len(pdev, bar) < PAGE_SIZE)
			continue;
		if (best < 0 ||
		    pci_resource_len(pdev, bar) > pci_resource_len(pdev, best))
			best = bar;
	}
	return best;
}

static int uvm_pci_map_bar(struct pci_dev *pdev, int bar,
			   void __iomem **map)
{
	int ret;

	ret = uvm_pcim_request_region(pdev, bar, "uvm");
	if (ret) {
		dev_err(&pdev->dev, "BAR%d busy: %d\n", bar, ret);
		return ret;
	}
	*map = devm_ioremap_wc(&pdev->dev, pci_resource_start(pdev, bar),
			       pci_resource_len(pdev, bar));
	if (!*map) {
		dev_err(&pdev->dev, "cannot map BAR%d\n", bar);
		return -ENOMEM;
	}
	return 0;
}

static int uvm_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct uvm_pci_device *upci;
	void __iomem *map;
	int bar, ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	/* Remote mappings DMA-map host pages for the device (uvm_block_dev.c). */
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&pdev->dev, "no usable DMA mask\n");
		return ret;
	}
	bar = uvm_pci_pick_bar(pdev);
	if (bar < 0) {
		dev_err(&pdev->dev, "no 64-bit prefetchable memory BAR\n");
		return bar;
	}
	ret = uvm_pci_map_bar(pdev, bar, &map);
	if (ret)
		return ret;

	upci = uvm_device_alloc(&pdev->dev, &uvm_pci_ops,
				struct uvm_pci_device, udev);
	if (IS_ERR(upci))
		return PTR_ERR(upci);
	upci->pdev = pdev;
	upci->bar = bar;
	upci->bar_map = map;
	upci->udev.mem_size = pci_resource_len(pdev, bar);
	upci->udev.numa_node = dev_to_node(&pdev->dev);
	pci_set_drvdata(pdev, &upci->udev);

	return uvm_device_register(&upci->udev);
}

static void uvm_pci_remove(struct pci_dev *pdev)
{
	struct uvm_device *udev = pci_get_drvdata(pdev);

	uvm_device_unregister(udev);
}

/* Empty on purpose: bind through driver_override or new_id (see DOC). */
static const struct pci_device_id uvm_pci_ids[] = {
	{ }
};

static struct pci_driver uvm_pci_driver = {
	.name = "uvm",
	.id_table = uvm_pci_ids,
	.probe = uvm_pci_probe,
	.remove = uvm_pci_remove,
	.dev_groups = uvm_sysfs_groups,
};

int uvm_pci_init(void)
{
	return pci_register_driver(&uvm_pci_driver);
}

void uvm_pci_exit(void)
{
	pci_unregister_driver(&uvm_pci_driver);
}
