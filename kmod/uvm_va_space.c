// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_va_space.c - /dev/uvm: one VA space per open file.
 */

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "uvm_alloc.h"
#include "uvm_drv.h"
#include "uvm_ioctl.h"
#include "uvm_test.h"
#include "uvm_va_space.h"

/**
 * DOC: VA spaces
 *
 * Opening /dev/uvm creates a VA space; closing the last reference to the
 * file destroys it, and with it everything it owns (test allocations now,
 * managed ranges). The file holds a module reference
 * (fops.owner = THIS_MODULE), so the module cannot be unloaded while any
 * VA space exists. mmap() of /dev/uvm creates managed ranges (see
 * uvm_managed.c); every VMA holds the file, so the VA space outlives them.
 */

static int uvm_va_space_open(struct inode *inode, struct file *filp)
{
	struct uvm_va_space *va_space;

	va_space = kzalloc(sizeof(*va_space), GFP_KERNEL_ACCOUNT);
	if (!va_space)
		return -ENOMEM;
	if (uvm_managed_init(&va_space->mgd, filp)) {
		kfree(va_space);
		return -ENOMEM;
	}
	init_rwsem(&va_space->lock);
	xa_init_flags(&va_space->test_allocs, XA_FLAGS_ALLOC1);
	uvm_alloc_space_init(&va_space->allocs);
	filp->private_data = va_space;
	atomic_inc(&uvm_acct.va_spaces);
	return 0;
}

static int uvm_va_space_release(struct inode *inode, struct file *filp)
{
	struct uvm_va_space *va_space = filp->private_data;

	uvm_alloc_space_fini(&va_space->allocs);
	uvm_managed_fini(&va_space->mgd);
	uvm_test_va_space_fini(va_space);
	xa_destroy(&va_space->test_allocs);
	kfree(va_space);
	atomic_dec(&uvm_acct.va_spaces);
	return 0;
}

/*
 * Offset 0 maps managed memory; any other offset is the cookie of an
 * allocation made by ioctl (device memory, pinned host memory) and maps that
 * allocation (uvm_alloc_mmap(), issue 5).
 */
static int uvm_va_space_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct uvm_va_space *va_space = filp->private_data;

	if (!vma->vm_pgoff)
		return uvm_managed_mmap(&va_space->mgd, vma);
	return uvm_alloc_mmap(va_space, vma);
}

static const struct file_operations uvm_fops = {
	.owner = THIS_MODULE,
	.open = uvm_va_space_open,
	.release = uvm_va_space_release,
	.unlocked_ioctl = uvm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = uvm_va_space_mmap,
	.get_unmapped_area = uvm_managed_get_unmapped_area,
	.llseek = noop_llseek,
};

static struct miscdevice uvm_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "uvm",
	.fops = &uvm_fops,
	.mode = 0666,
};

int uvm_va_space_init(void)
{
	return misc_register(&uvm_misc);
}

void uvm_va_space_exit(void)
{
	misc_deregister(&uvm_misc);
}
