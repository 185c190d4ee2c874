// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_drv.c - module entry points, parameters and leak accounting.
 */

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/topology.h>
#include <linux/workqueue.h>

#include "uvm_ce.h"
#include "uvm_drv.h"
#include "uvm_pool.h"
#include "uvm_emu.h"
#include "uvm_pci.h"
#include "uvm_sysfs.h"
#include "uvm_va_space.h"

/**
 * DOC: Overview
 *
 * uvm.ko gives Linux CUDA-style managed memory. It drives devices with
 * memory (uvm_device.c) through backends (uvm_pci.c: a PCI memory BAR;
 * uvm_emu.c: system RAM), manages each device's memory with a buddy
 * allocator (uvm_mem.c), exposes every device as a DRM render node
 * (uvm_drm.c) and gives each process VA spaces through /dev/uvm
 * (uvm_va_space.c, uvm_ioctl.c). Load order: VA spaces (/dev/uvm), PCI
 * driver, emulated devices; unload in reverse, then leak checks.
 */

/**
 * DOC: Locking
 *
 * Lock order, outermost first (docs/locking.md has the reasons):
 *
 * 1. mmap_lock of the VA space's mm (taken by the core for faults/mmap,
 *    and by a prefetch to the host, which maps what it moved, before 2).
 * 2. uvm_va_space.lock (test allocations) and uvm_managed.lock (policies
 *    and the set of blocks), rw_semaphores. Never held across a user
 *    copy that may fault (the device-access pipeline copies with page
 *    faults disabled).
 * 3. uvm_va_block.lock (mutex, per 2 MiB block); then i_mmap_rwsem and PTE
 *    locks (core). CPU faults install their PTEs under it, so zaps need no
 *    page locks. Block locks never nest except by trylock (eviction; a
 *    prefetch beginning block N+1 while it holds N; the device-access
 *    pipeline locking a block while a fault migration holds another).
 * 4. uvm_device.lru_lock (spinlock, also over the device's list of all
 *    its block states) or uvm_mem_pool.lock (mutex), per device;
 *    uvm_page_pool.lock, uvm_fault_ahead.lock and uvm_perf_va.lock
 *    (spinlocks), per VA space; uvm_pageable.lock (mutex, per VA space:
 *    the devices' page tables of pageable memory, taken by its notifier
 *    under whatever an invalidation holds, so nothing under it allocates
 *    with reclaim or faults). (uvm_pools_lock and uvm_pageables_lock,
 *    global, only ever have a pool's or a mirror's lock inside them.)
 * 5. the device registry's xa_lock (spinlock): nothing nests inside.
 *
 * drm_dev_enter()/drm_dev_exit() is an SRCU read section, not a lock: it
 * may be entered under any of the above, and drm_dev_unplug() (which waits
 * for it) is only ever called from remove with none of them held.
 */

struct uvm_accounting uvm_acct;

static int param_range_set(const char *val, const struct kernel_param *kp)
{
	const struct uvm_param_range *r = kp->arg;
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	if (v < r->min || v > r->max) {
		pr_err("uvm: %s must be in [%u, %u]\n", kp->name, r->min, r->max);
		return -EINVAL;
	}
	WRITE_ONCE(*r->val, v);
	return 0;
}

static int param_range_get(char *buf, const struct kernel_param *kp)
{
	const struct uvm_param_range *r = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*r->val));
}

const struct kernel_param_ops uvm_param_range_ops = {
	.set = param_range_set,
	.get = param_range_get,
};

/**
 * uvm_pick_cpus() - CPUs for work that overlaps the caller's.
 * @nid: node the work should run near.
 * @cpus: filled with up to @n CPU numbers.
 * @n: how many are wanted.
 *
 * Online CPUs other than this one (the caller goes on here), @nid's first.
 *
 * Return: how many were found.
 */
unsigned int uvm_pick_cpus(int nid, int *cpus, unsigned int n)
{
	int this = raw_smp_processor_id(), cpu;
	unsigned int nr = 0;

	for_each_cpu_and(cpu, cpumask_of_node(nid), cpu_online_mask)
		if (cpu != this && nr < n)
			cpus[nr++] = cpu;
	for_each_online_cpu(cpu)
		if (cpu != this && cpu_to_node(cpu) != nid && nr < n)
			cpus[nr++] = cpu;
	return nr;
}

/**
 * uvm_helper_cpu() - a CPU for background work that overlaps the caller's.
 * @nid: node the work should run near.
 *
 * The first of uvm_pick_cpus(). Unbound workqueues run an item in the pod
 * (node or cache domain) of the CPU it names.
 *
 * Return: a CPU number or WORK_CPU_UNBOUND, for queue_work_on().
 */
int uvm_helper_cpu(int nid)
{
	int cpu;

	return uvm_pick_cpus(nid, &cpu, 1) ? cpu : WORK_CPU_UNBOUND;
}

static unsigned int emulated_devices;
module_param(emulated_devices, uint, 0444);
MODULE_PARM_DESC(emulated_devices,
		 "Number of emulated (system RAM) devices, 0..8 (default 0)");

static unsigned int emulated_mem_mb = 256;
module_param(emulated_mem_mb, uint, 0444);
MODULE_PARM_DESC(emulated_mem_mb,
		 "Memory of each emulated device in MiB, 16..65536 (default 256)");

bool uvm_enable_test_ioctls;
module_param_named(enable_test_ioctls, uvm_enable_test_ioctls, bool, 0444);
MODULE_PARM_DESC(enable_test_ioctls,
		 "Enable test-only ioctls (default off)");

#define UVM_EMULATED_DEVICES_MAX	8
#define UVM_EMULATED_MEM_MB_MIN		16
#define UVM_EMULATED_MEM_MB_MAX		65536

static int __init uvm_check_params(void)
{
	if (emulated_devices > UVM_EMULATED_DEVICES_MAX) {
		pr_err("uvm: emulated_devices=%u out of range 0..%d\n",
		       emulated_devices, UVM_EMULATED_DEVICES_MAX);
		return -EINVAL;
	}
	if (emulated_mem_mb < UVM_EMULATED_MEM_MB_MIN ||
	    emulated_mem_mb > UVM_EMULATED_MEM_MB_MAX) {
		pr_err("uvm: emulated_mem_mb=%u out of range %d..%d\n",
		       emulated_mem_mb, UVM_EMULATED_MEM_MB_MIN,
		       UVM_EMULATED_MEM_MB_MAX);
		return -EINVAL;
	}
	return 0;
}

static void uvm_check_leaks(void)
{
	if (atomic_read(&uvm_acct.va_spaces))
		pr_err("uvm: leak: %d VA spaces\n",
		       atomic_read(&uvm_acct.va_spaces));
	if (atomic_read(&uvm_acct.devices))
		pr_err("uvm: leak: %d devices\n",
		       atomic_read(&uvm_acct.devices));
	if (atomic64_read(&uvm_acct.devmem_bytes))
		pr_err("uvm: leak: %lld bytes of device memory\n",
		       (long long)atomic64_read(&uvm_acct.devmem_bytes));
	if (atomic_long_read(&uvm_acct.pages))
		pr_err("uvm: leak: %ld pages\n",
		       atomic_long_read(&uvm_acct.pages));
	if (atomic_long_read(&uvm_acct.pinned_pages))
		pr_err("uvm: leak: %ld pinned user pages\n",
		       atomic_long_read(&uvm_acct.pinned_pages));
	if (atomic_long_read(&uvm_acct.host_alloc_pages))
		pr_err("uvm: leak: %ld pinned host allocation pages\n",
		       atomic_long_read(&uvm_acct.host_alloc_pages));
	if (atomic_long_read(&uvm_acct.dma_pages))
		pr_err("uvm: leak: %ld DMA-mapped managed pages\n",
		       atomic_long_read(&uvm_acct.dma_pages));
}

static int __init uvm_init(void)
{
	int ret;

	ret = uvm_check_params();
	if (ret)
		return ret;

	ret = uvm_ce_init();
	if (ret)
		return ret;
	ret = uvm_sysfs_init();
	if (ret)
		goto err_ce_exit;
	ret = uvm_pool_register();
	if (ret)
		goto err_sysfs_exit;
	ret = uvm_va_space_init();
	if (ret)
		goto err_pool_unregister;
	ret = uvm_pci_init();
	if (ret)
		goto err_va_space_exit;
	ret = uvm_emu_init(emulated_devices, emulated_mem_mb);
	if (ret)
		goto err_pci_exit;

	pr_info("uvm: loaded (%u emulated devices, test ioctls %s)\n",
		emulated_devices, uvm_enable_test_ioctls ? "on" : "off");
	return 0;

err_pci_exit:
	uvm_pci_exit();
err_va_space_exit:
	uvm_va_space_exit();
err_pool_unregister:
	uvm_pool_unregister();
err_sysfs_exit:
	uvm_sysfs_exit();
err_ce_exit:
	uvm_ce_exit();
	uvm_check_leaks();
	return ret;
}

static void __exit uvm_exit(void)
{
	uvm_emu_exit();
	uvm_pci_exit();
	uvm_va_space_exit();
	uvm_pool_unregister();
	uvm_sysfs_exit();
	uvm_ce_exit();
	uvm_check_leaks();
	pr_info("uvm: unloaded\n");
}

module_init(uvm_init);
module_exit(uvm_exit);

MODULE_DESCRIPTION("Unified virtual memory: managed memory for CPUs and PCIe devices");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: drm drm_buddy");
