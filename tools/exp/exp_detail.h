/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exp_detail.h - what a run's (or a recording's) memory system did, from
 * its event records: bytes by direction and by cause, migration records
 * and their sizes, fault batches, CPU faults per 2 MiB block, thrashing by
 * kind, remote maps. One function counts both sides of a fidelity
 * comparison (docs/fidelity.md), so they are counted alike.
 */
#ifndef UVM_EXP_DETAIL_H
#define UVM_EXP_DETAIL_H

#include <stdint.h>
#include <stdio.h>

#include "uapi/uvm_events.h"

#define DETAIL_CAUSES	7	/* UVM_EVENT_CAUSE_* */
#define DETAIL_SIZES	11	/* migration sizes: 4K, 8K, ..., 2M and more */
#define DETAIL_THRASH	3	/* UVM_EVENT_THRASH_* */

/* The 2 MiB blocks the CPU faulted in, and how often. */
struct detail_blocks {
	uint64_t *addr;		/* open addressing; 0: empty (block 0 as 1) */
	uint32_t *faults;
	size_t cap, n;
};

struct exp_detail {
	uint64_t h2d, d2h, d2d, h2h;		/* bytes */
	uint64_t cause[DETAIL_CAUSES];		/* bytes by cause */
	uint64_t ops;				/* migration records */
	uint64_t sizes[DETAIL_SIZES];		/* of them, by size */
	uint64_t batches, fault_pages;		/* device fault batches, their pages */
	uint64_t cpu_faults, cpu_blocks;	/* and the blocks they were in */
	uint64_t thrash[DETAIL_THRASH];		/* events by kind */
	uint64_t remote_maps, remote_bytes;
	uint64_t evictions;
	struct detail_blocks blocks;
};

extern const char *const detail_cause_names[DETAIL_CAUSES];

/* Count one record; 0, or -ENOMEM (the block table could not grow). */
int exp_detail_take(struct exp_detail *d, const struct uvm_event *e);
void exp_detail_free(struct exp_detail *d);
/* As a JSON object ({...}). */
void exp_detail_json(FILE *f, const struct exp_detail *d);
/*
 * Read exp_detail_json()'s object back from @s (the block table stays
 * empty): 0, or -1 if a member is missing.
 */
int exp_detail_parse(const char *s, struct exp_detail *d);

#endif /* UVM_EXP_DETAIL_H */
