/* SPDX-License-Identifier: MIT */
/*
 * uvm_proc.h - processes using uvm: who has /dev/uvm or a uvm render node
 * open, and what the module can say about their managed memory.
 */
#ifndef UVM_PROC_H
#define UVM_PROC_H

#include <stdint.h>

#include "uvm_tool.h"

#define UT_MAX_NODES		64

/** struct ut_proc - one process with uvm files open. */
struct ut_proc {
	int pid;
	char comm[64];
	unsigned int uvm_files;		/* open /dev/uvm files (VA spaces) */
	uint64_t render_mask;		/* bit m: renderD(128 + m) open */
	int stats_err;			/* 0, or -errno of reading its counters */
	int nstats;			/* counters read (summed over its VA spaces) */
	uint64_t stats[UT_MAX_STATS];
	int maps_err;			/* 0, or -errno of reading numa_maps */
	uint64_t mapped_pages[UT_MAX_NODES];	/* CPU-mapped managed pages per node */
	int summary_err;		/* 0, or -errno of UVM_IOCTL_VA_SPACE_SUMMARY */
	uint64_t managed_pages;		/* managed VA, summed over its VA spaces */
	uint64_t host_pages[UT_MAX_NODES];	/* host copies per NUMA node */
	uint64_t device_pages[UVM_MAX_DEVICES];	/* device copies per device id */
};

/** struct ut_proc_list - the result of one /proc scan. */
struct ut_proc_list {
	struct ut_proc *p;
	unsigned int n;
	unsigned int cap;
	unsigned int hidden;		/* /proc/PID/fd we could not read */
};

int ut_scan_procs(struct ut_proc_list *l);
void ut_free_procs(struct ut_proc_list *l);
uint64_t ut_proc_pop_freed(const struct ut_proc *p);

#endif /* UVM_PROC_H */
