// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Policies
 *
 * Advice (preferred location, accessed-by, read-mostly) and the last
 * prefetch location are per page, but they are set on ranges and are nearly
 * always uniform over long runs. They are kept as extents in a maple tree:
 * an update splits the extents at its two ends, changes the extents in
 * between in place and merges neighbours that became equal again. Every
 * managed page is covered by exactly one extent from mmap() to munmap().
 * Splitting first means an allocation failure changes nothing visible.
 */
#include <linux/slab.h>
#include <uapi/uvm.h>

#include "uvm_policy.h"

void uvm_policy_map_init(struct uvm_policy_map *map)
{
	mt_init(&map->tree);
}

void uvm_policy_map_destroy(struct uvm_policy_map *map)
{
	struct uvm_policy_extent *ext;
	unsigned long index = 0;

	mt_for_each(&map->tree, ext, index, ULONG_MAX)
		kfree(ext);
	mtree_destroy(&map->tree);
}

static int policy_store(struct uvm_policy_map *map,
			struct uvm_policy_extent *ext, gfp_t gfp)
{
	return mtree_store_range(&map->tree, ext->start, ext->end - 1, ext,
				 gfp);
}

/**
 * uvm_policy_add() - cover [start, end) with the default policy.
 * @map: the map; [start, end) must not be covered yet.
 * @start: page-aligned start.
 * @end: page-aligned end.
 *
 * Return: 0 or -ENOMEM.
 */
int uvm_policy_add(struct uvm_policy_map *map, unsigned long start,
		   unsigned long end)
{
	struct uvm_policy_extent *ext;
	int ret;

	ext = kzalloc(sizeof(*ext), GFP_KERNEL_ACCOUNT);
	if (!ext)
		return -ENOMEM;
	ext->start = start;
	ext->end = end;
	ret = mtree_insert_range(&map->tree, start, end - 1, ext, GFP_KERNEL);
	if (ret)
		kfree(ext);
	return ret;
}

/* Make @addr the start of an extent (if it lies inside one). */
static int policy_split(struct uvm_policy_map *map, unsigned long addr,
			gfp_t gfp)
{
	struct uvm_policy_extent *ext, *upper;
	int ret;

	ext = mtree_load(&map->tree, addr);
	if (!ext || ext->start == addr)
		return 0;

	upper = kmemdup(ext, sizeof(*ext), gfp | __GFP_ACCOUNT);
	if (!upper)
		return -ENOMEM;
	upper->start = addr;
	ret = policy_store(map, upper, gfp);
	if (ret) {
		kfree(upper);
		return ret;
	}
	ext->end = addr;
	return 0;
}

/* Make [start, end) a run of whole extents. */
static int policy_split_range(struct uvm_policy_map *map, unsigned long start,
			      unsigned long end, gfp_t gfp)
{
	int ret = policy_split(map, start, gfp);

	return ret ?: policy_split(map, end, gfp);
}

static bool policy_equal(const struct uvm_policy *a, const struct uvm_policy *b)
{
	return uvm_loc_equal(&a->preferred, &b->preferred) &&
	       uvm_loc_equal(&a->last_prefetch, &b->last_prefetch) &&
	       a->accessed_by == b->accessed_by &&
	       a->accessed_by_host == b->accessed_by_host &&
	       a->read_mostly == b->read_mostly;
}

/* Merge the extent starting at @addr into its left neighbour if equal. */
static void policy_merge_at(struct uvm_policy_map *map, unsigned long addr)
{
	struct uvm_policy_extent *left, *right;
	unsigned long old_end;

	if (!addr)
		return;
	left = mtree_load(&map->tree, addr - 1);
	right = mtree_load(&map->tree, addr);
	if (!left || !right || left == right || left->end != right->start ||
	    !policy_equal(&left->pol, &right->pol))
		return;

	old_end = left->end;
	left->end = right->end;
	if (policy_store(map, left, GFP_KERNEL)) {
		left->end = old_end;	/* still correct, just not merged */
		return;
	}
	kfree(right);
}

/**
 * uvm_policy_update() - apply @fn to the policy of every page in a range.
 * @map: the map; [start, end) must be fully covered.
 * @start: page-aligned start.
 * @end: page-aligned end.
 * @fn: called once per extent inside [start, end).
 * @arg: passed to @fn.
 *
 * Return: 0, or -ENOMEM with no policy changed.
 */
int uvm_policy_update(struct uvm_policy_map *map, unsigned long start,
		      unsigned long end, uvm_policy_fn fn, const void *arg)
{
	struct uvm_policy_extent *ext;
	unsigned long index = start;
	int ret;

	ret = policy_split_range(map, start, end, GFP_KERNEL);
	if (ret)
		return ret;

	mt_for_each(&map->tree, ext, index, end - 1)
		fn(&ext->pol, arg);

	/* Merge from the right so every extent we look at is still live. */
	policy_merge_at(map, end);
	index = start;
	mt_for_each(&map->tree, ext, index, end - 1)
		if (ext->start != start)
			policy_merge_at(map, ext->start);
	policy_merge_at(map, start);
	return 0;
}

/**
 * uvm_policy_remove() - drop the extents of [start, end) (munmap).
 * @map: the map.
 * @start: page-aligned start.
 * @end: page-aligned end.
 *
 * Called from ->close, which cannot fail: the split and the tree updates
 * allocate with __GFP_NOFAIL (a few small objects; fault injection leaves
 * such allocations alone). Each extent leaves the tree before it is freed.
 */
void uvm_policy_remove(struct uvm_policy_map *map, unsigned long start,
		       unsigned long end)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOFAIL;
	struct uvm_policy_extent *ext;
	unsigned long index = start;

	policy_split_range(map, start, end, gfp);
	while ((ext = mt_find(&map->tree, &index, end - 1))) {
		mtree_store_range(&map->tree, ext->start, ext->end - 1, NULL,
				  gfp);
		index = ext->end;
		kfree(ext);
	}
}

/**
 * uvm_policy_at() - the policy of the page at @addr.
 * @map: the map.
 * @addr: a managed address.
 *
 * Return: the policy, valid while the caller holds the map's lock; NULL if
 * @addr is not managed.
 */
const struct uvm_policy *uvm_policy_at(struct uvm_policy_map *map,
				       unsigned long addr)
{
	struct uvm_policy_extent *ext = mtree_load(&map->tree, addr);

	return ext ? &ext->pol : NULL;
}

/**
 * uvm_policy_extent_at() - the extent covering @addr.
 * @map: the policies; caller holds the VA space's lock.
 * @addr: an address.
 *
 * Return: the extent (valid while the lock is held) or NULL if @addr is not
 * managed.
 */
const struct uvm_policy_extent *uvm_policy_extent_at(struct uvm_policy_map *map,
						     unsigned long addr)
{
	return mtree_load(&map->tree, addr);
}

static void loc_fold(struct uvm_loc *sum, const struct uvm_loc *loc)
{
	if (!uvm_loc_equal(sum, loc))
		*sum = (struct uvm_loc){ .type = UVM_LOC_NONE };
}

/**
 * uvm_policy_summarize() - what every page of [start, end) agrees on.
 * @map: the map; [start, end) must be fully covered.
 * @start: page-aligned start.
 * @end: page-aligned end.
 * @sum: out: locations where all pages agree (else NONE), the AND of the
 *       accessed-by sets and of read-mostly.
 */
void uvm_policy_summarize(struct uvm_policy_map *map, unsigned long start,
			  unsigned long end, struct uvm_policy *sum)
{
	struct uvm_policy_extent *ext;
	unsigned long index = start;
	bool first = true;

	memset(sum, 0, sizeof(*sum));
	mt_for_each(&map->tree, ext, index, end - 1) {
		uvm_policy_fold(sum, &ext->pol, first);
		first = false;
	}
}

/**
 * uvm_policy_fold() - fold one more page run's policy into a summary.
 * @sum: the summary so far.
 * @pol: the run's policy.
 * @first: @pol is the first: the summary becomes it.
 */
void uvm_policy_fold(struct uvm_policy *sum, const struct uvm_policy *pol,
		     bool first)
{
	if (first) {
		*sum = *pol;
		return;
	}
	loc_fold(&sum->preferred, &pol->preferred);
	loc_fold(&sum->last_prefetch, &pol->last_prefetch);
	sum->accessed_by &= pol->accessed_by;
	sum->accessed_by_host &= pol->accessed_by_host;
	sum->read_mostly &= pol->read_mostly;
}
