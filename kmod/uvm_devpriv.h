/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_devpriv.h - a device's memory as device-private pages: where pageable
 * memory migrates at the migration level (uvm_devpriv.c).
 */
#ifndef _UVM_DEVPRIV_H_
#define _UVM_DEVPRIV_H_

#include <linux/types.h>

struct page;
struct uvm_device;
struct uvm_managed;
struct vm_area_struct;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE) && IS_ENABLED(CONFIG_HMM_MIRROR)
#define UVM_HAVE_DEVPRIV 1

int uvm_devpriv_init(struct uvm_device *udev);
void uvm_devpriv_drain(struct uvm_device *udev);
void uvm_devpriv_fini(struct uvm_device *udev);
unsigned int uvm_devpriv_alloc(struct uvm_device *udev,
			       struct uvm_managed *mgd, struct page **pages,
			       unsigned int n);
void uvm_devpriv_unused(struct page *page);
u64 uvm_devpriv_offset(struct page *page);
s64 uvm_devpriv_evict(struct uvm_device *udev, u64 bytes);
int uvm_devpriv_home(struct uvm_device *udev, struct vm_area_struct *vma,
		     unsigned long start, unsigned long end,
		     struct page *fault_page, unsigned long fault_addr);
/* Pages uvm_devpriv_home() moves at most. */
#define UVM_DEVPRIV_HOME_PAGES	16

#else

static inline int uvm_devpriv_init(struct uvm_device *udev) { return 0; }
static inline void uvm_devpriv_drain(struct uvm_device *udev) { }
static inline void uvm_devpriv_fini(struct uvm_device *udev) { }
static inline s64 uvm_devpriv_evict(struct uvm_device *udev, u64 bytes)
{
	return -ENOSPC;
}

static inline u64 uvm_devpriv_offset(struct page *page) { return 0; }

#endif

#endif /* _UVM_DEVPRIV_H_ */
