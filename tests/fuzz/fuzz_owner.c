// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_owner.c - the ownership contract (docs/uapi.md): a VA space belongs
 * to the mm that opened the file. A forked child holding the file may
 * only ask GET_INFO, STATS and VA_SPACE_SUMMARY; every other ioctl must
 * answer EPERM, even with arguments that would be valid for the owner
 * (the parent's own allocations, registrations and managed ranges), so
 * that nobody else frees, unregisters, copies into or changes its memory.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

/* The parent's live regions the child aims at (0 when there is none). */
struct fz_targets {
	uint64_t managed, alloc, reg, scratch;
};

static uint64_t fz_target_of(struct fz_thread *t, int kind)
{
	struct fz_region r;

	return fz_pick_snapshot(t, kind, &r) ? 0 : r.addr;
}

/* One owner-only ioctl with arguments valid for the owner: its result. */
static int fz_owned_call(int fd, unsigned int k, const struct fz_targets *g,
			 const char **name)
{
	union {
		struct uvm_prefetch pf;
		struct uvm_advise ad;
		struct uvm_range_attrs ra;
		struct uvm_residency rs;
		struct uvm_device_access da;
		struct uvm_discard dc;
		struct uvm_alloc_device ald;
		struct uvm_alloc_host alh;
		struct uvm_free fr;
		struct uvm_host_register hr;
		struct uvm_host_unregister hu;
		struct uvm_ptr_info pi;
		struct uvm_memcpy mc;
		struct uvm_memset ms;
		struct uvm_mem_counters mcn;
	} a;
	struct uvm_access *acc = (void *)(g->scratch + FZ_PAGE);
	unsigned long cmd;

	memset(&a, 0, sizeof(a));
	switch (k) {
	case 0:
		*name = "PREFETCH", cmd = UVM_IOCTL_PREFETCH;
		a.pf = (struct uvm_prefetch){ .addr = g->managed, .length = FZ_PAGE,
					      .dst = { .type = UVM_LOC_HOST } };
		break;
	case 1:
		*name = "ADVISE", cmd = UVM_IOCTL_ADVISE;
		a.ad = (struct uvm_advise){ .addr = g->managed, .length = FZ_PAGE,
					    .advice = UVM_ADVISE_SET_READ_MOSTLY };
		break;
	case 2:
		*name = "RANGE_ATTRS", cmd = UVM_IOCTL_RANGE_ATTRS;
		a.ra = (struct uvm_range_attrs){ .addr = g->managed, .length = FZ_PAGE };
		break;
	case 3:
		*name = "RESIDENCY", cmd = UVM_IOCTL_RESIDENCY;
		a.rs = (struct uvm_residency){ .addr = g->managed, .npages = 1,
					       .pages = g->scratch };
		break;
	case 4:
		*name = "DEVICE_ACCESS", cmd = UVM_IOCTL_DEVICE_ACCESS;
		*acc = (struct uvm_access){ .addr = g->managed, .length = 8,
					    .buf = g->scratch, .type = UVM_ACCESS_READ };
		a.da = (struct uvm_device_access){ .count = 1,
						   .accesses = (uintptr_t)acc };
		break;
	case 5:
		*name = "DISCARD", cmd = UVM_IOCTL_DISCARD;
		a.dc = (struct uvm_discard){ .addr = g->managed, .length = FZ_PAGE };
		break;
	case 6:
		*name = "ALLOC_DEVICE", cmd = UVM_IOCTL_ALLOC_DEVICE;
		a.ald = (struct uvm_alloc_device){ .size = FZ_PAGE };
		break;
	case 7:
		*name = "ALLOC_HOST", cmd = UVM_IOCTL_ALLOC_HOST;
		a.alh = (struct uvm_alloc_host){ .size = FZ_PAGE, .numa_node = -1 };
		break;
	case 8:
		*name = "FREE", cmd = UVM_IOCTL_FREE;
		a.fr = (struct uvm_free){ .addr = g->alloc };
		break;
	case 9:
		*name = "HOST_REGISTER", cmd = UVM_IOCTL_HOST_REGISTER;
		a.hr = (struct uvm_host_register){ .addr = g->scratch, .size = FZ_PAGE };
		break;
	case 10:
		*name = "HOST_UNREGISTER", cmd = UVM_IOCTL_HOST_UNREGISTER;
		a.hu = (struct uvm_host_unregister){ .addr = g->reg };
		break;
	case 11:
		*name = "PTR_INFO", cmd = UVM_IOCTL_PTR_INFO;
		a.pi = (struct uvm_ptr_info){ .addr = g->managed };
		break;
	case 12:
		*name = "MEMCPY", cmd = UVM_IOCTL_MEMCPY;
		a.mc = (struct uvm_memcpy){ .dst = g->managed, .src = g->scratch,
					    .width = 64, .height = 1, .depth = 1 };
		break;
	case 13:
		*name = "MEMSET", cmd = UVM_IOCTL_MEMSET;
		a.ms = (struct uvm_memset){ .dst = g->managed, .width = 64,
					    .height = 1, .depth = 1, .elem_size = 1 };
		break;
	default:
		*name = "MEM_COUNTERS", cmd = UVM_IOCTL_MEM_COUNTERS;
	}
	return ioctl(fd, cmd, &a) ? -errno : 0;
}

#define FZ_OWNED_IOCTLS	15

/* In the child: every owner-only ioctl must be refused with EPERM. */
static void fz_owner_child(struct fz_thread *t, int fd,
			   const struct fz_targets *g)
{
	const char *name;
	unsigned int k;
	int ret;

	alarm(10);
	for (k = 0; k < FZ_OWNED_IOCTLS; k++) {
		if ((k == 8 && !g->alloc) || (k == 10 && !g->reg))
			continue;	/* nothing of the owner's to aim at */
		ret = fz_owned_call(fd, k, g, &name);
		if (ret != -EPERM)
			fz_data_error(t, "ownership: %s from a forked child on the parent's file: %s, not EPERM",
				      name, ret ? strerror(-ret) : "success");
	}
	_exit(0);
}

static int op_owner(struct fz_thread *t)
{
	struct fz_targets g = {
		.managed = fz_target_of(t, FZ_MANAGED),
		.alloc = fz_target_of(t, fz_chance(t, 50) ? FZ_DEVICE : FZ_PINNED),
		.reg = fz_target_of(t, FZ_REGISTERED),
		.scratch = (uintptr_t)t->scratch + 3 * FZ_MIB,
	};
	int fd = t->w->fds[0], status;
	pid_t pid;

	if (!g.managed)
		return 0;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		fz_owner_child(t, fd, &g);
	return waitpid(pid, &status, 0) < 0 ? -errno : 0;
}

const struct fz_op fz_owner_ops[] = {
	{ "owner", op_owner, 1 },
};

const unsigned int fz_owner_nops = FZ_ARRAY_SIZE(fz_owner_ops);
