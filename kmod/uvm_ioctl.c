// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_ioctl.c - /dev/uvm ioctl dispatch and UVM_IOCTL_GET_INFO.
 */

#include <linux/bug.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <uapi/uvm.h>

#include "uvm_alloc.h"
#include "uvm_copy.h"
#include "uvm_device.h"
#include "uvm_device_fault.h"
#include "uvm_drv.h"
#include "uvm_hostreg.h"
#include "uvm_ioctl.h"
#include "uvm_pageable.h"
#include "uvm_ptr.h"
#include "uvm_test.h"
#include "uvm_va_space.h"

/**
 * DOC: Ioctl dispatch
 *
 * One table, like DRM's: an entry per ioctl number with its handler and
 * flags. The dispatcher matches type and number, copies in
 * min(user size, kernel size) bytes and zeroes the rest (a shorter struct
 * from an older user space sees appended fields as zero), calls the
 * handler and copies the same number of bytes back for _IOC_READ ioctls.
 * Unknown numbers and disabled test ioctls fail with -ENOTTY, an unreadable
 * or unwritable argument with -EFAULT. Handlers check flags and padding in
 * their first lines.
 *
 * A VA space belongs to the mm that opened the file. Another process that
 * holds the file (a forked child, a process it was passed to, uvm-smi
 * through pidfd_getfd(), which needs ptrace access) may only ask the
 * module-wide UVM_IOCTL_GET_INFO and read the VA space's event counts
 * (UVM_IOCTL_STATS, UVM_IOCTL_VA_SPACE_SUMMARY): every other ioctl answers
 * -EPERM before it reads its argument, so nobody but the owner can free,
 * unregister, copy into, query the addresses of or change the owner's
 * memory.
 */

/* Every ioctl argument: the dispatcher's on-stack buffer. */
union uvm_ioctl_args {
	struct uvm_get_info get_info;
	struct uvm_test_devmem test_devmem;
	struct uvm_prefetch prefetch;
	struct uvm_advise advise;
	struct uvm_range_attrs range_attrs;
	struct uvm_residency residency;
	struct uvm_stats stats;
	struct uvm_alloc_device alloc_device;
	struct uvm_alloc_host alloc_host;
	struct uvm_free free;
	struct uvm_host_register host_register;
	struct uvm_host_unregister host_unregister;
	struct uvm_ptr_info ptr_info;
	struct uvm_memcpy memcpy;
	struct uvm_memset memset;
	struct uvm_mem_counters mem_counters;
	struct uvm_device_access device_access;
	struct uvm_discard discard;
	struct uvm_va_space_summary summary;
	struct uvm_perf perf;
	struct uvm_events_open events_open;
};

typedef int uvm_ioctl_fn(struct uvm_va_space *va_space, void *data);

/* struct uvm_ioctl_desc.flags */
#define UVM_IOCTL_TEST	BIT(0)	/* needs enable_test_ioctls=1 */
#define UVM_IOCTL_ANY_MM	BIT(1)	/* also for processes that do not own the file */

struct uvm_ioctl_desc {
	unsigned int cmd;
	unsigned int flags;
	uvm_ioctl_fn *func;
};

/* Every ioctl's argument struct must also be a member of the union above. */
#define UVM_IOCTL_DEF(ioctl, _func, _flags) \
	{ .cmd = ioctl, .flags = _flags, .func = _func }

/*
 * A VA space capped on the device (UVM_PERF_CAP) sees the capped size:
 * the cap as the total, and what its own chunks leave of it as free.
 */
static void uvm_device_cap_info(struct uvm_va_space *va_space,
				struct uvm_device_info *info)
{
	struct uvm_perf_va *perf = &va_space->mgd.perf;
	u64 cap = uvm_perf_cap(perf, info->id);
	s64 used;

	if (!cap || cap >= info->mem_total)
		return;
	used = atomic64_read(&perf->dev_bytes[info->id]);
	info->mem_total = cap;
	info->mem_free = min_t(u64, info->mem_free,
			       used >= (s64)cap ? 0 : cap - used);
}

static int uvm_device_copy_info(struct uvm_va_space *va_space,
				struct uvm_device *udev,
				struct uvm_device_info __user *uinfo)
{
	struct uvm_device_info info = { };
	int idx;

	if (!drm_dev_enter(&udev->drm, &idx))
		return -ENODEV;
	uvm_device_fill_info(udev, &info);
	drm_dev_exit(idx);
	uvm_device_cap_info(va_space, &info);
	return copy_to_user(uinfo, &info, sizeof(info)) ? -EFAULT : 0;
}

static int uvm_module_get_info_ioctl(struct uvm_va_space *va_space,
				     void *data)
{
	struct uvm_get_info *args = data;
	struct uvm_device_info __user *uinfo;
	struct uvm_device *udev;
	u32 id, n = 0;
	int ret;

	if (args->flags)
		return -EINVAL;

	uinfo = u64_to_user_ptr(args->devices);
	for (id = 0; id < UVM_MAX_DEVICES; id++) {
		udev = uvm_device_get(id);
		if (!udev)
			continue;
		ret = 0;
		if (n < args->devices_count)
			ret = uvm_device_copy_info(va_space, udev, uinfo + n);
		uvm_device_put(udev);
		if (ret == -ENODEV)
			continue;	/* unplugged meanwhile */
		if (ret)
			return ret;
		n++;
	}

	args->abi_version = UVM_ABI_VERSION;
	args->num_devices = n;
	args->caps = (uvm_enable_test_ioctls ? UVM_CAP_TEST_IOCTLS : 0) |
		     uvm_pageable_caps();
	args->page_size = PAGE_SIZE;
	args->block_size = SZ_2M;
	return 0;
}

static int uvm_managed_prefetch_ioctl(struct uvm_va_space *va_space,
				      void *data)
{
	return uvm_prefetch_ioctl(&va_space->mgd, data);
}

static int uvm_managed_advise_ioctl(struct uvm_va_space *va_space, void *data)
{
	return uvm_advise_ioctl(&va_space->mgd, data);
}

static int uvm_managed_attrs_ioctl(struct uvm_va_space *va_space, void *data)
{
	return uvm_range_attrs_ioctl(&va_space->mgd, data);
}

static int uvm_managed_residency_ioctl(struct uvm_va_space *va_space,
				       void *data)
{
	return uvm_residency_ioctl(&va_space->mgd, data);
}

static int uvm_managed_stats_ioctl(struct uvm_va_space *va_space, void *data)
{
	return uvm_stats_ioctl(&va_space->mgd, data);
}

static int uvm_managed_device_access_ioctl(struct uvm_va_space *va_space,
					   void *data)
{
	return uvm_device_access_ioctl(&va_space->mgd, data);
}

static int uvm_managed_discard_ioctl(struct uvm_va_space *va_space, void *data)
{
	return uvm_discard_ioctl(&va_space->mgd, data);
}

static int uvm_managed_summary_ioctl(struct uvm_va_space *va_space, void *data)
{
	return uvm_va_space_summary_ioctl(&va_space->mgd, data);
}

static int uvm_managed_perf_set_ioctl(struct uvm_va_space *va_space,
				      void *data)
{
	return uvm_perf_set(&va_space->mgd.perf, data);
}

static int uvm_managed_events_open_ioctl(struct uvm_va_space *va_space,
					 void *data)
{
	return uvm_events_open_ioctl(&va_space->mgd, data);
}

static int uvm_managed_perf_get_ioctl(struct uvm_va_space *va_space,
				      void *data)
{
	return uvm_perf_get(&va_space->mgd.perf, data);
}

static const struct uvm_ioctl_desc uvm_ioctls[] = {
	UVM_IOCTL_DEF(UVM_IOCTL_GET_INFO, uvm_module_get_info_ioctl,
		      UVM_IOCTL_ANY_MM),
	UVM_IOCTL_DEF(UVM_IOCTL_TEST_DEVMEM, uvm_test_devmem_ioctl,
		      UVM_IOCTL_TEST),
	UVM_IOCTL_DEF(UVM_IOCTL_PREFETCH, uvm_managed_prefetch_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_ADVISE, uvm_managed_advise_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_RANGE_ATTRS, uvm_managed_attrs_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_RESIDENCY, uvm_managed_residency_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_STATS, uvm_managed_stats_ioctl,
		      UVM_IOCTL_ANY_MM),
	UVM_IOCTL_DEF(UVM_IOCTL_DEVICE_ACCESS, uvm_managed_device_access_ioctl,
		      0),
	UVM_IOCTL_DEF(UVM_IOCTL_DISCARD, uvm_managed_discard_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_VA_SPACE_SUMMARY, uvm_managed_summary_ioctl,
		      UVM_IOCTL_ANY_MM),
	UVM_IOCTL_DEF(UVM_IOCTL_PERF_SET, uvm_managed_perf_set_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_EVENTS_OPEN, uvm_managed_events_open_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_PERF_GET, uvm_managed_perf_get_ioctl,
		      UVM_IOCTL_ANY_MM),
	UVM_IOCTL_DEF(UVM_IOCTL_ALLOC_DEVICE, uvm_alloc_device_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_ALLOC_HOST, uvm_alloc_host_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_FREE, uvm_free_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_HOST_REGISTER, uvm_host_register_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_HOST_UNREGISTER, uvm_host_unregister_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_PTR_INFO, uvm_ptr_info_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_MEMCPY, uvm_memcpy_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_MEMSET, uvm_memset_ioctl, 0),
	UVM_IOCTL_DEF(UVM_IOCTL_MEM_COUNTERS, uvm_mem_counters_ioctl, 0),
};

static const struct uvm_ioctl_desc *uvm_ioctl_lookup(unsigned int cmd)
{
	const struct uvm_ioctl_desc *desc;

	if (_IOC_TYPE(cmd) != UVM_IOCTL_BASE)
		return NULL;
	for (desc = uvm_ioctls; desc < uvm_ioctls + ARRAY_SIZE(uvm_ioctls);
	     desc++) {
		if (_IOC_NR(desc->cmd) != _IOC_NR(cmd) ||
		    _IOC_DIR(desc->cmd) != _IOC_DIR(cmd))
			continue;
		if ((desc->flags & UVM_IOCTL_TEST) && !uvm_enable_test_ioctls)
			return NULL;
		return desc;
	}
	return NULL;
}

/**
 * uvm_ioctl - unlocked_ioctl of /dev/uvm.
 * @filp: the VA space's file.
 * @cmd: ioctl command.
 * @arg: user pointer to the argument struct.
 *
 * Runs without locks; handlers take what they need.
 */
long uvm_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct uvm_va_space *va_space = filp->private_data;
	void __user *uarg = (void __user *)arg;
	const struct uvm_ioctl_desc *desc;
	union uvm_ioctl_args kdata;
	unsigned int size;
	int ret;

	desc = uvm_ioctl_lookup(cmd);
	if (!desc)
		return -ENOTTY;
	if (!(desc->flags & UVM_IOCTL_ANY_MM) && current->mm != va_space->mgd.mm)
		return -EPERM;

	if (WARN_ON_ONCE(_IOC_SIZE(desc->cmd) > sizeof(kdata)))
		return -EINVAL;
	size = min(_IOC_SIZE(cmd), _IOC_SIZE(desc->cmd));
	memset(&kdata, 0, sizeof(kdata));
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&kdata, uarg, size))
		return -EFAULT;

	ret = desc->func(va_space, &kdata);

	if (!ret && (_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, &kdata, size))
		return -EFAULT;
	return ret;
}
