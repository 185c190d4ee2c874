// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_pci.c - PCI backend: a device's memory is one of its memory BARs.
 */

#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <uapi/uvm.h>
#ifdef CONFIG_X86_64
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#endif

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
 *
 * Reads of the BAR (device-to-host and BAR-to-BAR copies) use SSE4.1
 * streaming loads (MOVNTDQA) where the CPU has them and they are the
 * faster method on the device (bar_read_method=auto times both at probe):
 * on write-combined memory each fills a 64-byte streaming buffer with one
 * bus read, where the 8-byte loads of readq() take one uncached round trip
 * per 8 bytes. They run inside kernel_fpu_begin()/kernel_fpu_end()
 * (preemption off) a 4 KiB piece at a time, with cond_resched() between
 * pieces. Elsewhere, or with bar_read_method=u64, reads are 8-byte loads
 * in 64 KiB steps
 * with cond_resched() between steps. Writes and fills go out through WC
 * in 1 MiB steps. So no step holds a CPU longer than about a millisecond
 * even over a slow link, though the caller may hold a block lock and the
 * VA space's lock (see docs/architecture.md).
 *
 * Surprise removal: reads of a PCIe device that is gone complete with all
 * ones. A read whose last 8 bytes are all ones (legal data, so only a
 * hint) makes the backend ask the config space (pci_device_is_present());
 * if the device is gone it is marked dead and every later access fails
 * with -ENODEV instead of handing all-ones on as data.
 */

/**
 * struct uvm_pci_device - a device driven through its memory BAR.
 * @udev: the uvm device.
 * @pdev: the PCI device.
 * @bar_map: write-combined kernel mapping of the whole BAR (devm).
 * @bar: BAR index.
 * @dead: the device is gone (surprise removal): set once, read without a
 *	  lock (READ_ONCE()); every access fails with -ENODEV from then on.
 * @auto_nt: bar_read_method=auto reads this BAR with streaming loads: the
 *	     CPU has SSE4.1 and they were the faster method at probe.
 *
 * Immutable after probe except @dead. @bar_map is unmapped at unbind,
 * after drm_dev_unplug() has fenced off every user.
 */
struct uvm_pci_device {
	struct uvm_device udev;
	struct pci_dev *pdev;
	void __iomem *bar_map;
	int bar;
	bool dead;
	bool auto_nt;
};

/* Write/fill step between cond_resched() calls (posted WC writes). */
#define UVM_PCI_STEP		SZ_1M
/* Read step of 8-byte loads between cond_resched() calls. */
#define UVM_PCI_READ_STEP	SZ_64K
/* Streaming loads per kernel_fpu_begin()/end() section. */
#define UVM_PCI_FPU_CHUNK	SZ_4K

/**
 * enum uvm_bar_read - how the CPU reads a BAR (module parameter
 * bar_read_method).
 * @UVM_BAR_READ_AUTO: MOVNTDQA where the CPU has SSE4.1 and they are the
 *	faster of the two on the device (measured at probe), else 8-byte loads.
 * @UVM_BAR_READ_MOVNTDQA: streaming loads (only accepted with SSE4.1).
 * @UVM_BAR_READ_U64: 8-byte uncached loads (readq()).
 */
enum uvm_bar_read {
	UVM_BAR_READ_AUTO,
	UVM_BAR_READ_MOVNTDQA,
	UVM_BAR_READ_U64,
};

static const char * const uvm_bar_read_names[] = {
	[UVM_BAR_READ_AUTO] = "auto",
	[UVM_BAR_READ_MOVNTDQA] = "movntdqa",
	[UVM_BAR_READ_U64] = "u64",
};

/* Written by the parameter's set(), read at every copy: READ_ONCE(). */
static int uvm_bar_read_method = UVM_BAR_READ_AUTO;

static bool bar_have_movntdqa(void)
{
#ifdef CONFIG_X86_64
	return boot_cpu_has(X86_FEATURE_XMM4_1);
#else
	return false;
#endif
}

static int bar_read_method_set(const char *val, const struct kernel_param *kp)
{
	int m = sysfs_match_string(uvm_bar_read_names, val);

	if (m < 0) {
		pr_err("uvm: bar_read_method must be auto, movntdqa or u64\n");
		return -EINVAL;
	}
	if (m == UVM_BAR_READ_MOVNTDQA && !bar_have_movntdqa()) {
		pr_err("uvm: bar_read_method=movntdqa needs SSE4.1\n");
		return -EINVAL;
	}
	WRITE_ONCE(uvm_bar_read_method, m);
	return 0;
}

static int bar_read_method_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  uvm_bar_read_names[READ_ONCE(uvm_bar_read_method)]);
}

static const struct kernel_param_ops bar_read_method_ops = {
	.set = bar_read_method_set,
	.get = bar_read_method_get,
};

module_param_cb(bar_read_method, &bar_read_method_ops, NULL, 0644);
MODULE_PARM_DESC(bar_read_method,
		 "How the CPU reads PCI BARs: auto (default: the faster of movntdqa and u64 on each device, measured at probe; u64 without SSE4.1), movntdqa or u64");

/* Use streaming loads for the reads of this copy from @upci's BAR? */
static bool bar_read_nt(const struct uvm_pci_device *upci)
{
	int m = READ_ONCE(uvm_bar_read_method);

	return m == UVM_BAR_READ_MOVNTDQA ||
	       (m == UVM_BAR_READ_AUTO && upci->auto_nt);
}

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

#ifdef CONFIG_X86_64
/*
 * @n bytes (a multiple of 64, at most UVM_PCI_FPU_CHUNK) from @src (64-byte
 * aligned, WC BAR) to @dst (any alignment; host memory, or a WC BAR for a
 * peer copy) with streaming loads, a cache line at a time: four MOVNTDQA
 * of one line back to back, as Intel advises, so the line is one read.
 * The FPU section is short and never sleeps. The fence orders these
 * weakly ordered loads after the writes other CPUs drained before.
 */
static void bar_read_nt_chunk(void *dst, const void *src, u64 n)
{
	u64 i;

	kernel_fpu_begin();
	mb();	/* MFENCE: order the streaming loads after earlier writes */
	for (i = 0; i < n; i += 64)
		asm volatile("movntdqa   (%[s]), %%xmm0\n\t"
			     "movntdqa 16(%[s]), %%xmm1\n\t"
			     "movntdqa 32(%[s]), %%xmm2\n\t"
			     "movntdqa 48(%[s]), %%xmm3\n\t"
			     "movdqu %%xmm0,   (%[d])\n\t"
			     "movdqu %%xmm1, 16(%[d])\n\t"
			     "movdqu %%xmm2, 32(%[d])\n\t"
			     "movdqu %%xmm3, 48(%[d])\n\t"
			     : : [s] "r" (src + i), [d] "r" (dst + i)
			     : "memory");
	kernel_fpu_end();
}
#else
static void bar_read_nt_chunk(void *dst, const void *src, u64 n)
{
}
#endif

/*
 * Read @n bytes at @src into host memory @dst, at most UVM_PCI_FPU_CHUNK
 * (@nt) or UVM_PCI_READ_STEP: the unaligned ends with 8-byte loads, the
 * 64-byte aligned middle with streaming loads when @nt.
 */
static void bar_read_step(void *dst, const void __iomem *src, u64 n, bool nt)
{
	u64 head, body;

	if (!nt) {
		bar_read(dst, src, n);
		return;
	}
	head = min_t(u64, n, -(unsigned long)src & 63);
	body = round_down(n - head, 64);
	bar_read(dst, src, head);
	if (body)
		bar_read_nt_chunk(dst + head, (const void __force *)src + head,
				  body);
	bar_read(dst + head + body, src + head + body, n - head - body);
}

/* Bytes to read in one step from @off: steps end on step boundaries. */
static u64 bar_read_len(u64 off, u64 left, bool nt)
{
	u64 step = nt ? UVM_PCI_FPU_CHUNK : UVM_PCI_READ_STEP;

	return min(left, step - (off & (step - 1)));
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

/*
 * Is the device gone? Asked when a read returned all ones: legal data, or
 * a device that went away (a surprise removal). Marks it dead if so.
 */
static bool uvm_pci_gone(struct uvm_pci_device *upci)
{
	if (READ_ONCE(upci->dead))
		return true;
	if (pci_device_is_present(upci->pdev))
		return false;
	WRITE_ONCE(upci->dead, true);
	dev_err(&upci->pdev->dev, "device gone: BAR reads fail from now on\n");
	return true;
}

/* Did a read that ended with the @n bytes at @tail hit a gone device? */
static bool uvm_pci_read_failed(struct uvm_pci_device *upci, const void *tail,
				u64 n)
{
	n = min_t(u64, n, sizeof(u64));
	return n && !memchr_inv(tail, 0xff, n) && uvm_pci_gone(upci);
}

static void uvm_pci_write_seg(struct uvm_pci_device *upci,
			      const struct uvm_copy_seg *seg)
{
	u64 done, n;

	for (done = 0; done < seg->size; done += n) {
		n = min_t(u64, seg->size - done, UVM_PCI_STEP);
		bar_write(upci->bar_map + seg->dev_offset + done,
			  seg->host + done, n);
		cond_resched();
	}
}

static void uvm_pci_read_seg(struct uvm_pci_device *upci,
			     const struct uvm_copy_seg *seg, bool nt)
{
	u64 done, n, off;

	for (done = 0; done < seg->size; done += n) {
		off = seg->dev_offset + done;
		n = bar_read_len(off, seg->size - done, nt);
		bar_read_step(seg->host + done, upci->bar_map + off, n, nt);
		cond_resched();
	}
}

static int uvm_pci_copy(struct uvm_device *udev,
			const struct uvm_copy_seg *segs, unsigned int nr,
			bool to_dev)
{
	struct uvm_pci_device *upci = to_uvm_pci(udev);
	bool nt = !to_dev && bar_read_nt(upci);
	const struct uvm_copy_seg *last;
	unsigned int i;

	if (READ_ONCE(upci->dead))
		return -ENODEV;
	for (i = 0; i < nr; i++) {
		if (to_dev)
			uvm_pci_write_seg(upci, &segs[i]);
		else
			uvm_pci_read_seg(upci, &segs[i], nt);
	}
	if (to_dev) {
		wmb();	/* drain the write-combining buffers before anyone looks */
		return 0;
	}
	if (!nr)
		return 0;
	/* A device gone at any point makes the last bytes read all ones. */
	last = &segs[nr - 1];
	if (uvm_pci_read_failed(upci, last->host + last->size -
				      min_t(u64, last->size, sizeof(u64)),
				      last->size))
		return -ENODEV;
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

	if (READ_ONCE(upci->dead))
		return -ENODEV;
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
 * directly, no bounce through host memory, in the read steps of the read
 * method (streaming loads stored straight to the destination's WC
 * mapping, or 64-bit loads and stores). (A DMA engine, or PCIe
 * peer-to-peer DMA where the platform routes it, would plug in here.)
 */
static int uvm_pci_copy_peer(struct uvm_device *dst, u64 dst_offset,
			     struct uvm_device *src, u64 src_offset, u64 size)
{
	struct uvm_pci_device *ud = to_uvm_pci(dst), *us = to_uvm_pci(src);
	void __iomem *d = ud->bar_map + dst_offset;
	void __iomem *s = us->bar_map + src_offset;
	bool nt = bar_read_nt(us);
	u64 done, n, i, head, body, last = 0;

	if (READ_ONCE(ud->dead) || READ_ONCE(us->dead))
		return -ENODEV;
	for (done = 0; done < size; done += n) {
		n = bar_read_len(src_offset + done, size - done, nt);
		head = nt ? min_t(u64, n, -(unsigned long)(s + done) & 63) : n;
		body = nt ? round_down(n - head, 64) : 0;
		for (i = 0; i + sizeof(u64) <= head; i += sizeof(u64))
			writeq(readq(s + done + i), d + done + i);
		for (; i < head; i++)
			writeb(readb(s + done + i), d + done + i);
		if (body)
			bar_read_nt_chunk((void __force *)d + done + head,
					  (const void __force *)s + done + head,
					  body);
		for (i = head + body; i + sizeof(u64) <= n; i += sizeof(u64))
			writeq(readq(s + done + i), d + done + i);
		for (; i < n; i++)
			writeb(readb(s + done + i), d + done + i);
		cond_resched();
	}
	/* Drain the write-combining buffers, as after copy_to. */
	wmb();
	if (size >= sizeof(u64))
		last = readq(s + size - sizeof(u64));
	if (size >= sizeof(u64) && last == ~0ULL && uvm_pci_gone(us))
		return -ENODEV;
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

/* Bytes of the BAR read per calibration run, and runs per method. */
#define UVM_PCI_CAL_BYTES	SZ_16K
#define UVM_PCI_CAL_RUNS	5

/*
 * bar_read_method=auto: are streaming loads the faster way to read this
 * BAR? On hardware they are (one bus read per 64-byte line instead of
 * eight); under an emulator that backs the BAR with RAM, such as QEMU's
 * TCG, the FPU sections cost more than they save and 8-byte loads are 1.6
 * to 3 times faster. So the two are timed on the first 16 KiB of the BAR
 * (a prefetchable BAR has no read side effects), best of five each.
 */
static bool uvm_pci_calibrate(struct uvm_pci_device *upci)
{
	struct uvm_copy_seg seg = { .dev_offset = 0 };
	u64 best[2] = { U64_MAX, U64_MAX }, t;
	int run, nt;

	if (!bar_have_movntdqa())
		return false;
	seg.size = min_t(u64, UVM_PCI_CAL_BYTES, upci->udev.mem_size);
	seg.host = kvmalloc(seg.size, GFP_KERNEL | __GFP_NOWARN);
	if (!seg.host)
		return true;
	for (run = 0; run < UVM_PCI_CAL_RUNS; run++) {
		for (nt = 0; nt < 2; nt++) {
			t = ktime_get_ns();
			uvm_pci_read_seg(upci, &seg, nt);
			best[nt] = min(best[nt], ktime_get_ns() - t);
		}
	}
	kvfree(seg.host);
	dev_info(&upci->pdev->dev,
		 "BAR reads of %llu KiB: movntdqa %llu ns, u64 %llu ns: auto reads with %s\n",
		 seg.size >> 10, best[1], best[0],
		 best[1] < best[0] ? "movntdqa" : "u64");
	return best[1] < best[0];
}

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
	/*
	 * Remote mappings DMA-map host pages for the device (uvm_dev_dma.c):
	 * it must be allowed to master the bus, and a device that cannot
	 * address 64 bits gets 32 (the DMA API bounces what lies above).
	 */
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
		if (!ret)
			dev_info(&pdev->dev, "32-bit DMA only\n");
	}
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
	upci->udev.io_pfn_start = PHYS_PFN(pci_resource_start(pdev, bar));
	upci->udev.io_pfn_end = upci->udev.io_pfn_start +
				PHYS_PFN(pci_resource_len(pdev, bar));
	upci->udev.numa_node = dev_to_node(&pdev->dev);
	upci->auto_nt = uvm_pci_calibrate(upci);
	pci_set_drvdata(pdev, &upci->udev);

	return uvm_device_register(&upci->udev);
}

static void uvm_pci_remove(struct pci_dev *pdev)
{
	struct uvm_device *udev = pci_get_drvdata(pdev);

	/*
	 * A surprise removal (hotplug) calls remove with the device gone:
	 * evicting managed data home then fails with -ENODEV instead of
	 * copying all-ones home as data.
	 */
	if (!pci_device_is_present(pdev))
		WRITE_ONCE(to_uvm_pci(udev)->dead, true);
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
