/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_pageable.h - device accesses to pageable host memory (HMM mirror).
 */
#ifndef _UVM_PAGEABLE_H_
#define _UVM_PAGEABLE_H_

#include <linux/types.h>
#include <uapi/uvm.h>

struct uvm_managed;
struct uvm_device;
struct uvm_pageable;

/* What this kernel lets devices do with pageable memory (uvm_pageable_level). */
enum uvm_pageable_level {
	UVM_PAGEABLE_NONE,	/* no HMM mirror in this kernel: refused */
	UVM_PAGEABLE_MIRROR,	/* devices map host pages remotely */
	UVM_PAGEABLE_MIGRATE,	/* and anonymous memory migrates to them */
};

enum uvm_pageable_level uvm_pageable_level(void);
u64 uvm_pageable_caps(void);

/**
 * struct uvm_pageable_io - one step of a device access to pageable memory.
 * @addr: start; the step stays within one access.
 * @len: bytes, at most the bounce buffer's size.
 * @type: UVM_ACCESS_*.
 * @buf: the bounce buffer: in for writes and atomics, out for reads and
 *	 the atomic's old value.
 * @pfns: scratch of @batch entries for hmm_range_fault().
 * @batch: most pages one fault takes.
 * @span_end: end of the access: a fault maps ahead up to it.
 * @faults: out, pages faulted (added to).
 */
struct uvm_pageable_io {
	unsigned long addr;
	unsigned int len;
	u32 type;
	u8 *buf;
	unsigned long *pfns;
	unsigned int batch;
	unsigned long span_end;
	u32 faults;
};

int uvm_pageable_access(struct uvm_managed *mgd, struct uvm_device *udev,
			struct uvm_pageable_io *io);

/* A range of addresses munmap took away (uvm_pageable_unmapped()). */
struct uvm_pg_range {
	unsigned long start;
	unsigned long end;
};

#define UVM_PG_UNMAPPED_MAX	16

/* uvm_pageable_vmas() flags */
#define UVM_PGV_MOVABLE		BIT(0)
#define UVM_PGV_DRIVER_EINVAL	BIT(1)

struct mm_struct;
struct vm_area_struct;
bool uvm_pageable_vma_movable(struct vm_area_struct *vma);
int uvm_pageable_vmas_locked(struct mm_struct *mm, unsigned long start,
			     unsigned long end, unsigned int flags);
int uvm_pageable_vmas(struct mm_struct *mm, unsigned long start,
		      unsigned long end, unsigned int flags);

struct uvm_pageable *uvm_pageable_get(struct uvm_managed *mgd);
unsigned int uvm_pageable_unmapped(struct uvm_managed *mgd,
				   struct uvm_pg_range *out, bool *all);
bool uvm_pageable_unmaps_pending(struct uvm_managed *mgd);

struct uvm_policy;
/* uvm_pageable_policy.c */
int uvm_pageable_policy_update(struct uvm_managed *mgd, unsigned long start,
			       unsigned long end,
			       void (*fn)(struct uvm_policy *pol, const void *arg),
			       const void *arg);
int uvm_pageable_policy_attrs(struct uvm_managed *mgd, unsigned long start,
			      unsigned long end, struct uvm_policy *sum);
unsigned long uvm_pageable_policy_moves(struct uvm_managed *mgd,
					const struct uvm_device *udev,
					unsigned long start, unsigned long end,
					bool *moves);
void uvm_pageable_fini(struct uvm_managed *mgd);
long uvm_pageable_migrate(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end);
int uvm_pageable_home(struct uvm_managed *mgd, struct uvm_device *udev,
		      unsigned long start, unsigned long end);
int uvm_pageable_prefetch(struct uvm_managed *mgd, struct uvm_device *udev,
			  unsigned long start, unsigned long end);
void uvm_pageable_unmap_device(struct uvm_device *udev);

#endif /* _UVM_PAGEABLE_H_ */
