// SPDX-License-Identifier: MIT
/*
 * cuda_validate.c - pure argument rules of the managed-memory calls. No
 * state, no module: tests/abi/validate_unit.c links this object alone.
 */
#include <errno.h>

#include "cuda_managed.h"

int uvm_check_batch_loc_idxs(size_t count, const size_t *idxs, size_t nlocs)
{
	size_t k;

	if (!idxs || !nlocs || nlocs > count || idxs[0] != 0)
		return -EINVAL;
	for (k = 1; k < nlocs; k++) {
		if (idxs[k] <= idxs[k - 1])
			return -EINVAL;
	}
	return idxs[nlocs - 1] < count ? 0 : -EINVAL;
}

size_t uvm_batch_loc_of(const size_t *idxs, size_t nlocs, size_t i)
{
	size_t lo = 0, hi = nlocs, mid;

	/* idxs is strictly increasing with idxs[0] == 0: binary search. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (idxs[mid] <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int uvm_check_range_attr_size(int attr, size_t size)
{
	switch (attr) {
	case cudaMemRangeAttributeReadMostly:
	case cudaMemRangeAttributePreferredLocation:
	case cudaMemRangeAttributeLastPrefetchLocation:
	case cudaMemRangeAttributePreferredLocationId:
	case cudaMemRangeAttributeLastPrefetchLocationId:
		return size == sizeof(int) ? 0 : -EINVAL;
	case cudaMemRangeAttributePreferredLocationType:
	case cudaMemRangeAttributeLastPrefetchLocationType:
		return size == sizeof(enum cudaMemLocationType) ? 0 : -EINVAL;
	case cudaMemRangeAttributeAccessedBy:
		return size && size % sizeof(int) == 0 ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

void uvm_fill_accessed_by(int *out, size_t n, uint64_t devices, bool host)
{
	size_t i = 0;
	int d;

	for (d = 0; d < 64 && i < n; d++) {
		if (devices & (1ULL << d))
			out[i++] = d;
	}
	if (host && i < n)
		out[i++] = cudaCpuDeviceId;
	while (i < n)
		out[i++] = cudaInvalidDeviceId;
}

/*
 * The legacy int form (attributes 2 and 4): a device ordinal, or
 * cudaCpuDeviceId for any host location (Host and HostNuma alike: both
 * are "the CPU"), or cudaInvalidDeviceId.
 */
static int loc_legacy_id(const struct uvm_mem_location *l)
{
	switch (l->type) {
	case UVM_MEM_LOC_DEVICE:
		return l->id;
	case UVM_MEM_LOC_HOST:
	case UVM_MEM_LOC_HOST_NUMA:
	case UVM_MEM_LOC_HOST_NUMA_CURRENT:
		return cudaCpuDeviceId;
	default:
		return cudaInvalidDeviceId;
	}
}

/* The id form (attributes 6 and 8): ordinal, node, else -1 (Host) / -2. */
static int loc_id(const struct uvm_mem_location *l)
{
	switch (l->type) {
	case UVM_MEM_LOC_DEVICE:
	case UVM_MEM_LOC_HOST_NUMA:
	case UVM_MEM_LOC_HOST_NUMA_CURRENT:
		return l->id;
	case UVM_MEM_LOC_HOST:
		return cudaCpuDeviceId;
	default:
		return cudaInvalidDeviceId;
	}
}

void uvm_range_attr_value(int attr, const struct uvm_range_info *info, void *data, size_t size)
{
	int *v = data;

	switch (attr) {
	case cudaMemRangeAttributeReadMostly:
		*v = info->read_mostly ? 1 : 0;
		break;
	case cudaMemRangeAttributePreferredLocation:
		*v = loc_legacy_id(&info->preferred);
		break;
	case cudaMemRangeAttributeLastPrefetchLocation:
		*v = loc_legacy_id(&info->last_prefetch);
		break;
	case cudaMemRangeAttributePreferredLocationType:
		*(enum cudaMemLocationType *)data = (enum cudaMemLocationType)info->preferred.type;
		break;
	case cudaMemRangeAttributeLastPrefetchLocationType:
		*(enum cudaMemLocationType *)data = (enum cudaMemLocationType)info->last_prefetch.type;
		break;
	case cudaMemRangeAttributePreferredLocationId:
		*v = loc_id(&info->preferred);
		break;
	case cudaMemRangeAttributeLastPrefetchLocationId:
		*v = loc_id(&info->last_prefetch);
		break;
	case cudaMemRangeAttributeAccessedBy:
		uvm_fill_accessed_by(v, size / sizeof(int), info->accessed_by_devices,
				     info->accessed_by_host);
		break;
	}
}
