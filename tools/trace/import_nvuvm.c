// SPDX-License-Identifier: MIT
/*
 * import_nvuvm.c - uvm-trace import nvuvm: NVIDIA UVM tools events, the
 * UvmEventEntry_V2 records of the open driver's kernel-open/nvidia-uvm/
 * uvm_types.h (github.com/NVIDIA/open-gpu-kernel-modules), 72 bytes each,
 * one after the other, as read from a tools event queue (UVM_TOOLS_INIT_
 * EVENT_TRACKER_V2). The layouts used, little-endian, offsets in bytes:
 *
 *   every record   eventType u8 @0 (UvmEventType)
 *   CpuFault (1)   accessType u8 @1, address u64 @8, timeStamp u64 @16,
 *                  pid u32 @24, threadId u32 @28          (UvmEventCpuFaultInfo)
 *   Migration (2)  migrationCause u8 @1, srcIndex u16 @4, dstIndex u16 @6,
 *                  srcNid s32 @8, dstNid s32 @12, address u64 @16,
 *                  migratedBytes u64 @24, beginTimeStamp u64 @32,
 *                  endTimeStamp u64 @40                   (UvmEventMigrationInfo_V2)
 *   GpuFault (3)   faultType u8 @1, gpuIndex u16 @2, address u64 @8,
 *                  timeStamp u64 @16, batchId u32 @32, accessType u8 @37
 *                                                         (UvmEventGpuFaultInfo_V2)
 *   GpuFaultReplay (4)  gpuIndex u16 @2, batchId u32 @4, timeStamp u64 @8
 *   Eviction (14)  srcIndex u16 @4, dstIndex u16 @6, addressOut u64 @8,
 *                  addressIn u64 @16, size u64 @24, timeStamp u64 @32
 *
 * Processor indices: 0 the CPU, 1.. the GPUs (device = index - 1). Other
 * event types (5..13: replays of other kinds, fatal faults, read
 * duplication, page size changes, thrashing, throttling, remote maps) are
 * checked for a known type and skipped. A stream: two passes, one batch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define NV_ENTRY_SIZE	72	/* sizeof(UvmEventEntry_V2) */

enum {	/* UvmEventType */
	NV_CPU_FAULT = 1, NV_MIGRATION, NV_GPU_FAULT, NV_GPU_FAULT_REPLAY,
	NV_EVICTION = 14, NV_TYPE_MAX = 14,
};

enum {	/* UvmEventMigrationCause */
	NV_CAUSE_USER = 1, NV_CAUSE_COHERENCE, NV_CAUSE_PREFETCH, NV_CAUSE_EVICTION,
	NV_CAUSE_ACCESS_COUNTERS, NV_CAUSE_MAX = NV_CAUSE_ACCESS_COUNTERS,
};

#define NV_ACCESS_WRITE		2	/* UvmEventMemoryAccessType: write, atomic */
#define NV_ACCESS_MAX		4
#define NV_FAULT_TYPE_MAX	16	/* UvmEventFaultType */

static uint64_t get(const unsigned char *r, unsigned int off, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, r + off, size);
	return v;
}

/* The record's time stamp (CPU time, ns). */
static uint64_t nv_time(const unsigned char *r)
{
	switch (r[0]) {
	case NV_MIGRATION:
		return get(r, 40, 8) ?: get(r, 32, 8);
	case NV_GPU_FAULT_REPLAY:
		return get(r, 8, 8);
	case NV_EVICTION:
		return get(r, 32, 8);
	}
	return get(r, 16, 8);	/* CPU and GPU faults */
}

/* A record that cannot be a V2 entry: 0 if it looks like one. */
static int nv_check(struct imp *im, const unsigned char *r)
{
	if (!r[0] || r[0] > NV_TYPE_MAX)
		return imp_error(im, "unknown event type %u: not UvmEventEntry_V2 records",
				 r[0]);
	if ((r[0] == NV_CPU_FAULT && (r[1] > NV_ACCESS_MAX || get(r, 2, 2))) ||
	    (r[0] == NV_GPU_FAULT && (r[1] > NV_FAULT_TYPE_MAX ||
				      r[37] > NV_ACCESS_MAX || get(r, 38, 2))) ||
	    (r[0] == NV_MIGRATION && (r[1] > NV_CAUSE_MAX || get(r, 2, 2))) ||
	    (r[0] == NV_EVICTION && get(r, 1, 3)))
		return imp_error(im, "event type %u: a field out of range or padding "
				 "not zero: not a UvmEventEntry_V2 record", r[0]);
	return 0;
}

/* Our device for processor index @idx (a GPU: idx >= 1). */
static int nv_dev(struct imp *im, uint64_t idx)
{
	char name[64];

	if (!idx)
		return imp_error(im, "a GPU index of 0 (the CPU's)");
	snprintf(name, sizeof(name), "nvuvm processor %llu", (unsigned long long)idx);
	return imp_device(im, idx, name);
}

static int nv_scan_one(struct imp *im, const unsigned char *r)
{
	int ret = nv_check(im, r);

	if (ret)
		return ret;
	if (r[0] > NV_GPU_FAULT_REPLAY && r[0] != NV_EVICTION)
		return 0;
	imp_time_seen(im, nv_time(r));
	switch (r[0]) {
	case NV_CPU_FAULT:
		imp_pid(im, (uint32_t)get(r, 24, 4));
		return imp_touch(im, get(r, 8, 8), 1);
	case NV_MIGRATION:
		if ((get(r, 4, 2) && nv_dev(im, get(r, 4, 2)) < 0) ||
		    (get(r, 6, 2) && nv_dev(im, get(r, 6, 2)) < 0))
			return -EINVAL;
		return imp_touch(im, get(r, 16, 8), get(r, 24, 8));
	case NV_GPU_FAULT:
		if (nv_dev(im, get(r, 2, 2)) < 0)
			return -EINVAL;
		return imp_touch(im, get(r, 8, 8), 1);
	case NV_EVICTION:
		if (nv_dev(im, get(r, 4, 2)) < 0)
			return -EINVAL;
		return imp_touch(im, get(r, 8, 8), get(r, 24, 8));
	}
	return 0;
}

static uint32_t nv_cause(unsigned int cause, int to_device)
{
	switch (cause) {
	case NV_CAUSE_USER:
		return UVM_EVENT_CAUSE_USER;
	case NV_CAUSE_PREFETCH:
		return UVM_EVENT_CAUSE_PREFETCH;
	case NV_CAUSE_EVICTION:
		return UVM_EVENT_CAUSE_EVICTION;
	}
	/* coherence, access counters, unknown: the faulting side's */
	return to_device ? UVM_EVENT_CAUSE_DEVICE_FAULT : UVM_EVENT_CAUSE_CPU_FAULT;
}

static int nv_migrate(struct imp *im, const unsigned char *r)
{
	uint64_t src = get(r, 4, 2), dst = get(r, 6, 2);
	uint64_t begin = get(r, 32, 8), end = get(r, 40, 8);
	struct uvm_event_migrate m = {
		.addr = get(r, 16, 8), .bytes = get(r, 24, 8),
		.cause = nv_cause(r[1], dst != 0),
		.src_type = src ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.src_id = src ? nv_dev(im, src) : (int32_t)get(r, 8, 4),
		.dst_type = dst ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.dst_id = dst ? nv_dev(im, dst) : (int32_t)get(r, 12, 4),
		.duration_ns = end > begin ? end - begin : 0,
	};

	return imp_migrate(im, nv_time(r), 0, &m);
}

static int nv_write_one(struct imp *im, const unsigned char *r)
{
	uint64_t t = nv_time(r);

	switch (r[0]) {
	case NV_CPU_FAULT:
		return imp_cpu_fault(im, t, (uint32_t)get(r, 24, 4), (uint32_t)get(r, 28, 4),
				     get(r, 8, 8), r[1] >= NV_ACCESS_WRITE, -1);
	case NV_MIGRATION:
		return nv_migrate(im, r);
	case NV_GPU_FAULT:
		/* NVIDIA's batch ids count from 0, ours from 1 */
		return imp_fault(im, t, (uint32_t)nv_dev(im, get(r, 2, 2)),
				 get(r, 32, 4) + 1, get(r, 8, 8),
				 r[37] >= NV_ACCESS_WRITE, 1);
	case NV_GPU_FAULT_REPLAY:
		return imp_batch_end(im);
	case NV_EVICTION:
		return imp_evict(im, t, 0, get(r, 8, 8), get(r, 24, 8),
				 (uint32_t)nv_dev(im, get(r, 4, 2)));
	}
	return 0;
}

/* Every record of @f through @fn; a short last record is an error. */
static int nv_each(struct imp *im, FILE *f, int (*fn)(struct imp *, const unsigned char *))
{
	unsigned char r[NV_ENTRY_SIZE];
	size_t n;
	int ret;

	im->unit = "record";
	for (im->pos = 1;; im->pos++) {
		n = fread(r, 1, sizeof(r), f);
		if (!n)
			break;
		if (n < sizeof(r))
			return imp_error(im, "truncated: %zu of %d bytes", n, NV_ENTRY_SIZE);
		ret = fn(im, r);
		if (ret)
			return ret;
	}
	im->pos = 0;
	return ferror(f) ? imp_error(im, "%s", strerror(errno)) : 0;
}

int imp_nvuvm(struct imp *im)
{
	FILE *f = fopen(im->in, "re");
	int ret;

	if (!f)
		return imp_error(im, "%s", strerror(errno));
	ret = nv_each(im, f, nv_scan_one);
	if (!ret && !im->have_t0)
		ret = imp_error(im, "no fault, migration or eviction record");
	if (!ret)
		ret = imp_begin(im);
	if (!ret) {
		rewind(f);
		ret = nv_each(im, f, nv_write_one);
	}
	if (!ret)
		ret = imp_end(im);
	fclose(f);
	return ret;
}
