// SPDX-License-Identifier: MIT
/*
 * validate_unit.c - host unit test of libuvm's pure argument rules
 * (libuvm/cuda_validate.c, linked as an object): batch location indices,
 * range-attribute dataSize rules, the AccessedBy fill rule and how range
 * summaries become attribute values. No module needed. TAP output.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_managed.h"

static int test_num, failures;

static void check(int cond, const char *what)
{
	test_num++;
	failures += !cond;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_num, what);
}

static void batch_idx(void)
{
	size_t ok2[] = { 0, 4 }, zero[] = { 0 }, first1[] = { 1 }, dup[] = { 0, 3, 3 };
	size_t desc[] = { 0, 5, 2 }, last[] = { 0, 10 };

	check(!uvm_check_batch_loc_idxs(10, ok2, 2), "idx {0,4} of 10: ok");
	check(!uvm_check_batch_loc_idxs(1, zero, 1), "idx {0} of 1: ok");
	check(uvm_check_batch_loc_idxs(10, first1, 1), "idx[0] != 0 rejected");
	check(uvm_check_batch_loc_idxs(10, dup, 3), "not strictly increasing rejected");
	check(uvm_check_batch_loc_idxs(10, desc, 3), "decreasing rejected");
	check(uvm_check_batch_loc_idxs(10, last, 2), "last index == count rejected");
	check(uvm_check_batch_loc_idxs(1, ok2, 2), "numPrefetchLocs > count rejected");
	check(uvm_check_batch_loc_idxs(10, ok2, 0), "numPrefetchLocs == 0 rejected");
	check(uvm_check_batch_loc_idxs(10, NULL, 1), "NULL index array rejected");
	check(uvm_batch_loc_of(ok2, 2, 0) == 0 && uvm_batch_loc_of(ok2, 2, 3) == 0 &&
	      uvm_batch_loc_of(ok2, 2, 4) == 1 && uvm_batch_loc_of(ok2, 2, 9) == 1,
	      "spec example: ops 0-3 use loc 0, 4-9 use loc 1");
}

static void data_sizes(void)
{
	int a;

	for (a = 1; a <= 8; a++) {
		if (a == cudaMemRangeAttributeAccessedBy)
			continue;
		check(!uvm_check_range_attr_size(a, 4) && uvm_check_range_attr_size(a, 8) &&
		      uvm_check_range_attr_size(a, 0) && uvm_check_range_attr_size(a, 2),
		      "scalar attribute: dataSize must be 4");
	}
	a = cudaMemRangeAttributeAccessedBy;
	check(!uvm_check_range_attr_size(a, 4) && !uvm_check_range_attr_size(a, 12) &&
	      uvm_check_range_attr_size(a, 0) && uvm_check_range_attr_size(a, 6),
	      "AccessedBy: non-zero multiple of 4");
	check(uvm_check_range_attr_size(0, 4) && uvm_check_range_attr_size(9, 4),
	      "unknown attributes 0 and 9 rejected");
}

static void accessed_by(void)
{
	int v[4];

	uvm_fill_accessed_by(v, 3, 1, false);
	check(v[0] == 0 && v[1] == -2 && v[2] == -2, "spec example {0,-2,-2}");
	uvm_fill_accessed_by(v, 4, 0x5, true);
	check(v[0] == 0 && v[1] == 2 && v[2] == cudaCpuDeviceId && v[3] == -2,
	      "devices ascending, then the CPU");
	uvm_fill_accessed_by(v, 1, 0x6, true);
	check(v[0] == 1, "too small: as many as fit");
}

static void values(void)
{
	struct uvm_range_info i;
	enum cudaMemLocationType t;
	int v;

	memset(&i, 0, sizeof(i));
	i.preferred = (struct uvm_mem_location){ UVM_MEM_LOC_HOST_NUMA, 1 };
	i.last_prefetch = (struct uvm_mem_location){ UVM_MEM_LOC_DEVICE, 2 };
	uvm_range_attr_value(cudaMemRangeAttributePreferredLocation, &i, &v, 4);
	check(v == cudaCpuDeviceId, "HostNuma preference: PreferredLocation = cudaCpuDeviceId");
	uvm_range_attr_value(cudaMemRangeAttributePreferredLocationType, &i, &t, 4);
	check(t == cudaMemLocationTypeHostNuma, "PreferredLocationType = HostNuma");
	uvm_range_attr_value(cudaMemRangeAttributePreferredLocationId, &i, &v, 4);
	check(v == 1, "PreferredLocationId = node");
	uvm_range_attr_value(cudaMemRangeAttributeLastPrefetchLocation, &i, &v, 4);
	check(v == 2, "LastPrefetchLocation = ordinal");
	i.last_prefetch.type = UVM_MEM_LOC_NONE;
	uvm_range_attr_value(cudaMemRangeAttributeLastPrefetchLocation, &i, &v, 4);
	check(v == cudaInvalidDeviceId, "never prefetched: cudaInvalidDeviceId");
	uvm_range_attr_value(cudaMemRangeAttributeLastPrefetchLocationType, &i, &t, 4);
	check(t == cudaMemLocationTypeInvalid, "never prefetched: type Invalid");
	i.read_mostly = 1;
	uvm_range_attr_value(cudaMemRangeAttributeReadMostly, &i, &v, 4);
	check(v == 1, "ReadMostly");
}

int main(void)
{
	batch_idx();
	data_sizes();
	accessed_by();
	values();
	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
