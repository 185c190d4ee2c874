/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-page policies of managed memory, kept as extents.
 */
#ifndef _UVM_POLICY_H_
#define _UVM_POLICY_H_

#include <linux/maple_tree.h>
#include <linux/types.h>

/**
 * struct uvm_loc - a resolved location (UVM_LOC_* type, id).
 * @type: UVM_LOC_NONE, UVM_LOC_DEVICE, UVM_LOC_HOST or UVM_LOC_HOST_NUMA
 *        (HOST_NUMA_CURRENT is resolved before it is stored).
 * @id: device id or NUMA node; 0 for NONE and HOST.
 */
struct uvm_loc {
	u32 type;
	s32 id;
};

/**
 * struct uvm_policy - what advice and prefetches left on a page.
 * @preferred: preferred location (type NONE when unset).
 * @last_prefetch: location of the last prefetch request (NONE if never).
 * @accessed_by: bit d for device d.
 * @accessed_by_host: the CPU is in the accessed-by set.
 * @read_mostly: read-mostly advice is set.
 */
struct uvm_policy {
	struct uvm_loc preferred;
	struct uvm_loc last_prefetch;
	u64 accessed_by;
	bool accessed_by_host;
	bool read_mostly;
};

/**
 * struct uvm_policy_extent - one run of pages sharing a policy.
 * @start: first byte (page aligned).
 * @end: one past the last byte (page aligned).
 * @pol: the policy.
 */
struct uvm_policy_extent {
	unsigned long start;
	unsigned long end;
	struct uvm_policy pol;
};

/**
 * struct uvm_policy_map - extents covering every managed page of a VA space.
 * @tree: maple tree [start, end - 1] -> struct uvm_policy_extent.
 *
 * Callers serialise: writers hold the owning VA space's lock for write,
 * readers for read.
 */
struct uvm_policy_map {
	struct maple_tree tree;
};

typedef void (*uvm_policy_fn)(struct uvm_policy *pol, const void *arg);

void uvm_policy_map_init(struct uvm_policy_map *map);
void uvm_policy_map_destroy(struct uvm_policy_map *map);
int uvm_policy_add(struct uvm_policy_map *map, unsigned long start,
		   unsigned long end);
void uvm_policy_remove(struct uvm_policy_map *map, unsigned long start,
		       unsigned long end);
int uvm_policy_update(struct uvm_policy_map *map, unsigned long start,
		      unsigned long end, uvm_policy_fn fn, const void *arg);
const struct uvm_policy *uvm_policy_at(struct uvm_policy_map *map,
				       unsigned long addr);
const struct uvm_policy_extent *uvm_policy_extent_at(struct uvm_policy_map *map,
						     unsigned long addr);
void uvm_policy_summarize(struct uvm_policy_map *map, unsigned long start,
			  unsigned long end, struct uvm_policy *sum);
void uvm_policy_fold(struct uvm_policy *sum, const struct uvm_policy *pol,
		     bool first);

static inline bool uvm_loc_equal(const struct uvm_loc *a,
				 const struct uvm_loc *b)
{
	return a->type == b->type && a->id == b->id;
}

#endif /* _UVM_POLICY_H_ */
