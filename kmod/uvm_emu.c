// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_emu.c - emulated backend: system RAM posing as device memory.
 */

#include <linux/gfp.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/platform_device.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <uapi/uvm.h>

#include <drm/drm_managed.h>

#include "uvm_compat.h"
#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_emu.h"
#include "uvm_sysfs.h"

/**
 * DOC: Emulated backend
 *
 * emulated_devices=N registers N platform devices "uvm-emu.<i>" bound to
 * the "uvm-emu" platform driver, so emulated devices go through the same
 * probe/remove/unplug paths as PCI ones. Device i's memory is
 * emulated_mem_mb MiB of system RAM on the i-th online NUMA node (modulo
 * the number of nodes), allocated as 2 MiB (order-9) blocks with
 * __GFP_THISNODE; when the node is short, the block comes from any node and
 * a warning says so. Each block is split into order-0 pages so every 4 KiB
 * page has its own refcount and pfn for later CPU mappings. The memory
 * lives until the last device reference is dropped (DRM-managed release),
 * not just until unbind. Copies are
 * an unrolled 64-bit loop for whole pages, else memcpy(); fills a 64-bit
 * store loop.
 */

#define UVM_EMU_CHUNK_ORDER	(21 - PAGE_SHIFT)
#define UVM_EMU_CHUNK_SIZE	SZ_2M

/**
 * struct uvm_emu_device - an emulated device.
 * @udev: the uvm device.
 * @chunks: @nr_chunks 2 MiB blocks of split pages; chunk i backs device
 *	offsets [i * 2 MiB, (i + 1) * 2 MiB).
 * @nr_chunks: number of blocks.
 *
 * Immutable after probe, freed by DRM-managed release.
 */
struct uvm_emu_device {
	struct uvm_device udev;
	struct page **chunks;
	unsigned int nr_chunks;
};

/* Platform devices registered at load (emulated_devices of them). */
static struct platform_device **uvm_emu_pdevs;
static unsigned int uvm_emu_count;
static u64 uvm_emu_mem_size;

static struct uvm_emu_device *to_uvm_emu(struct uvm_device *udev)
{
	return container_of(udev, struct uvm_emu_device, udev);
}

/* Kernel address of device @offset and the bytes contiguous from there. */
static void *uvm_emu_addr(struct uvm_emu_device *emu, u64 offset, u64 *len)
{
	u64 in_chunk = offset & (UVM_EMU_CHUNK_SIZE - 1);

	*len = UVM_EMU_CHUNK_SIZE - in_chunk;
	return page_address(emu->chunks[offset / UVM_EMU_CHUNK_SIZE]) +
	       in_chunk;
}

/*
 * One page, eight 64-bit words at a time (the shape of the kernel's own
 * copy_page_regs()). The emulated device's "copy engine": it beats
 * rep movs under emulators such as QEMU's TCG, where string instructions
 * are emulated an iteration at a time, and is close to it on hardware.
 * READ_ONCE()/WRITE_ONCE() keep the compiler from turning the loop back
 * into a memcpy() call.
 */
static void emu_copy_page(void *dst, const void *src)
{
	const u64 *s = src;
	u64 *d = dst, a, b, c, e, f, g, h, k;
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / sizeof(u64); i += 8) {
		a = READ_ONCE(s[i]);
		b = READ_ONCE(s[i + 1]);
		c = READ_ONCE(s[i + 2]);
		e = READ_ONCE(s[i + 3]);
		f = READ_ONCE(s[i + 4]);
		g = READ_ONCE(s[i + 5]);
		h = READ_ONCE(s[i + 6]);
		k = READ_ONCE(s[i + 7]);
		WRITE_ONCE(d[i], a);
		WRITE_ONCE(d[i + 1], b);
		WRITE_ONCE(d[i + 2], c);
		WRITE_ONCE(d[i + 3], e);
		WRITE_ONCE(d[i + 4], f);
		WRITE_ONCE(d[i + 5], g);
		WRITE_ONCE(d[i + 6], h);
		WRITE_ONCE(d[i + 7], k);
	}
}

/* memcpy() for device memory that is RAM: whole aligned pages by the page. */
static void emu_memcpy(void *dst, const void *src, u64 n)
{
	while (n >= PAGE_SIZE && PAGE_ALIGNED(dst) && PAGE_ALIGNED(src)) {
		emu_copy_page(dst, src);
		dst += PAGE_SIZE;
		src += PAGE_SIZE;
		n -= PAGE_SIZE;
	}
	if (n)
		memcpy(dst, src, n);
}

static int uvm_emu_copy(struct uvm_device *udev,
			const struct uvm_copy_seg *segs, unsigned int nr,
			bool to_dev)
{
	struct uvm_emu_device *emu = to_uvm_emu(udev);
	unsigned int i;
	u64 done, n;
	void *dev;

	for (i = 0; i < nr; i++) {
		for (done = 0; done < segs[i].size; done += n) {
			dev = uvm_emu_addr(emu, segs[i].dev_offset + done, &n);
			n = min(n, segs[i].size - done);
			if (to_dev)
				emu_memcpy(dev, segs[i].host + done, n);
			else
				emu_memcpy(segs[i].host + done, dev, n);
			cond_resched();
		}
	}
	return 0;
}

static int uvm_emu_copy_to(struct uvm_device *udev,
			   const struct uvm_copy_seg *segs, unsigned int nr)
{
	return uvm_emu_copy(udev, segs, nr, true);
}

static int uvm_emu_copy_from(struct uvm_device *udev,
			     const struct uvm_copy_seg *segs, unsigned int nr)
{
	return uvm_emu_copy(udev, segs, nr, false);
}

/*
 * memset() for device memory that is RAM: eight 64-bit stores at a time
 * between the unaligned ends. The kernel's memset() is rep stosb where the
 * CPU has ERMS (6.1) and TCG runs that 8-12x slower than this loop.
 */
static void emu_memset(void *dst, u8 value, u64 n)
{
	u64 v = 0x0101010101010101ULL * value, *d;
	u64 head = min_t(u64, n, PTR_ALIGN(dst, 8) - dst);

	memset(dst, value, head);
	dst += head;
	n -= head;
	for (d = dst; n >= 64; d += 8, n -= 64) {
		WRITE_ONCE(d[0], v);
		WRITE_ONCE(d[1], v);
		WRITE_ONCE(d[2], v);
		WRITE_ONCE(d[3], v);
		WRITE_ONCE(d[4], v);
		WRITE_ONCE(d[5], v);
		WRITE_ONCE(d[6], v);
		WRITE_ONCE(d[7], v);
	}
	for (; n >= 8; d++, n -= 8)
		WRITE_ONCE(*d, v);
	memset(d, value, n);
}

static int uvm_emu_fill(struct uvm_device *udev, u64 offset, u64 size,
			u8 value)
{
	struct uvm_emu_device *emu = to_uvm_emu(udev);
	u64 done, n;
	void *dev;

	for (done = 0; done < size; done += n) {
		dev = uvm_emu_addr(emu, offset + done, &n);
		n = min(n, size - done);
		emu_memset(dev, value, n);
		cond_resched();
	}
	return 0;
}

/* Both devices are emulated (the caller checked the ops match). */
static int uvm_emu_copy_peer(struct uvm_device *dst, u64 dst_offset,
			     struct uvm_device *src, u64 src_offset, u64 size)
{
	u64 done, n, src_len;
	void *d, *s;

	for (done = 0; done < size; done += n) {
		d = uvm_emu_addr(to_uvm_emu(dst), dst_offset + done, &n);
		s = uvm_emu_addr(to_uvm_emu(src), src_offset + done, &src_len);
		n = min3(n, src_len, size - done);
		emu_memcpy(d, s, n);
		cond_resched();
	}
	return 0;
}

static int uvm_emu_cpu_pfn(struct uvm_device *udev, u64 offset,
			   unsigned long *pfn)
{
	u64 len;

	*pfn = PHYS_PFN(virt_to_phys(uvm_emu_addr(to_uvm_emu(udev), offset,
						  &len)));
	return 0;
}

static int uvm_emu_bus_addr(struct uvm_device *udev, u64 offset,
			    phys_addr_t *addr)
{
	u64 len;

	*addr = virt_to_phys(uvm_emu_addr(to_uvm_emu(udev), offset, &len));
	return 0;
}

static const struct uvm_backend_ops uvm_emu_ops = {
	.name = "emulated",
	.backend = UVM_BACKEND_EMULATED,
	.caps = UVM_DEVICE_CAP_CPU_MAPPABLE | UVM_DEVICE_CAP_PEER_COPY,
	.copy_to = uvm_emu_copy_to,
	.copy_from = uvm_emu_copy_from,
	.fill = uvm_emu_fill,
	.copy_peer = uvm_emu_copy_peer,
	.cpu_pfn = uvm_emu_cpu_pfn,
	.bus_addr = uvm_emu_bus_addr,
};

/* The (index % nr_online)-th online node. */
static int uvm_emu_node(unsigned int index)
{
	unsigned int n = index % num_online_nodes();
	int node;

	for_each_online_node(node)
		if (!n--)
			return node;
	return first_online_node;
}

static void uvm_emu_free_chunks(struct drm_device *drm, void *arg)
{
	struct uvm_emu_device *emu = to_uvm_emu(to_uvm_device(drm));
	unsigned int i, j;

	for (i = 0; i < emu->nr_chunks; i++) {
		if (!emu->chunks[i])
			continue;
		for (j = 0; j < (1U << UVM_EMU_CHUNK_ORDER); j++)
			__free_page(emu->chunks[i] + j);
		atomic_long_sub(1L << UVM_EMU_CHUNK_ORDER, &uvm_acct.pages);
	}
	kvfree(emu->chunks);
}

static struct page *uvm_emu_alloc_chunk(int node, bool *off_node)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL;
	struct page *page;

	page = alloc_pages_node(node, gfp | __GFP_THISNODE,
				UVM_EMU_CHUNK_ORDER);
	if (!page) {
		page = alloc_pages_node(node, gfp, UVM_EMU_CHUNK_ORDER);
		*off_node |= !!page;
	}
	if (!page)
		return NULL;
	split_page(page, UVM_EMU_CHUNK_ORDER);
	atomic_long_add(1L << UVM_EMU_CHUNK_ORDER, &uvm_acct.pages);
	return page;
}

static int uvm_emu_alloc_memory(struct uvm_emu_device *emu, u64 size)
{
	struct device *dev = emu->udev.drm.dev;
	bool off_node = false;
	unsigned int i, n;

	n = DIV_ROUND_UP(size, UVM_EMU_CHUNK_SIZE);
	emu->chunks = kvcalloc(n, sizeof(*emu->chunks),
			       GFP_KERNEL | __GFP_NOWARN);
	if (!emu->chunks)
		return -ENOMEM;
	emu->nr_chunks = n;
	for (i = 0; i < n; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		emu->chunks[i] = uvm_emu_alloc_chunk(emu->udev.numa_node,
						     &off_node);
		if (!emu->chunks[i]) {
			dev_err(dev, "out of memory for %llu MiB\n", size >> 20);
			return -ENOMEM;
		}
	}
	if (off_node)
		dev_warn(dev, "node %d short of memory, some blocks elsewhere\n",
			 emu->udev.numa_node);
	return 0;
}

static int uvm_emu_probe(struct platform_device *pdev)
{
	struct uvm_emu_device *emu;
	int ret;

	emu = uvm_device_alloc(&pdev->dev, &uvm_emu_ops,
			       struct uvm_emu_device, udev);
	if (IS_ERR(emu))
		return PTR_ERR(emu);
	emu->udev.numa_node = uvm_emu_node(pdev->id);
	emu->udev.mem_size = uvm_emu_mem_size;
	ret = drmm_add_action(&emu->udev.drm, uvm_emu_free_chunks, NULL);
	if (ret)
		return ret;
	ret = uvm_emu_alloc_memory(emu, uvm_emu_mem_size);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, &emu->udev);

	return uvm_device_register(&emu->udev);
}

static void uvm_emu_remove(struct platform_device *pdev)
{
	struct uvm_device *udev = platform_get_drvdata(pdev);

	uvm_device_unregister(udev);
}

static struct platform_driver uvm_emu_driver = {
	.driver = {
		.name = "uvm-emu",
		.dev_groups = uvm_sysfs_groups,
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
	},
	.probe = uvm_emu_probe,
	.UVM_PLATFORM_REMOVE = uvm_emu_remove,
};

static void uvm_emu_unregister_devices(void)
{
	while (uvm_emu_count)
		platform_device_unregister(uvm_emu_pdevs[--uvm_emu_count]);
	kfree(uvm_emu_pdevs);
	uvm_emu_pdevs = NULL;
}

static int uvm_emu_register_devices(unsigned int count)
{
	struct platform_device *pdev;

	uvm_emu_pdevs = kcalloc(count, sizeof(*uvm_emu_pdevs), GFP_KERNEL);
	if (!uvm_emu_pdevs)
		return -ENOMEM;
	while (uvm_emu_count < count) {
		pdev = platform_device_register_simple("uvm-emu", uvm_emu_count,
						       NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
		uvm_emu_pdevs[uvm_emu_count++] = pdev;
		if (!platform_get_drvdata(pdev)) {
			pr_err("uvm: emulated device %u failed to probe\n",
			       uvm_emu_count - 1);
			return -ENODEV;
		}
	}
	return 0;
}

/**
 * uvm_emu_init - register @count emulated devices of @mem_mb MiB each.
 * @count: number of devices (may be 0).
 * @mem_mb: memory per device in MiB.
 *
 * Fails, with nothing left registered, unless every device probes.
 */
int uvm_emu_init(unsigned int count, unsigned int mem_mb)
{
	int ret;

	uvm_emu_mem_size = (u64)mem_mb << 20;
	ret = platform_driver_register(&uvm_emu_driver);
	if (ret)
		return ret;
	if (!count)
		return 0;
	ret = uvm_emu_register_devices(count);
	if (ret)
		goto err_unregister_devices;
	return 0;

err_unregister_devices:
	uvm_emu_unregister_devices();
	platform_driver_unregister(&uvm_emu_driver);
	return ret;
}

void uvm_emu_exit(void)
{
	uvm_emu_unregister_devices();
	platform_driver_unregister(&uvm_emu_driver);
}
