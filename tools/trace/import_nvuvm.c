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
 *   ReadDuplicate (7), ThrashingDetected (10)  address u64 @8, size u64 @16,
 *                  timeStamp u64 @24, processors u64[5] @32 (a mask)
 *   ReadDuplicateInvalidate (8)  residentIndex u16 @2, address u64 @8,
 *                  size u64 @16, timeStamp u64 @24
 *   ThrottlingStart/End (11, 12)  processorIndex u16 @2, address u64 @8,
 *                  timeStamp u64 @16
 *   MapRemote (13) mapRemoteCause u8 @1, srcIndex u16 @4 (the processor that
 *                  maps), dstIndex u16 @6 (where the memory is), address u64 @8,
 *                  size u64 @16, timeStamp u64 @24
 *   Eviction (14)  srcIndex u16 @4, dstIndex u16 @6, addressOut u64 @8,
 *                  addressIn u64 @16, size u64 @24, timeStamp u64 @32
 *
 * Processor indices: 0 the CPU, 1.. the GPUs (device = index - 1). Types
 * 5, 6 and 9 (fault buffer overflow, fatal fault, page size change) and
 * throttling's end are checked for a known type and skipped. A stream: two
 * passes, one batch.
 *
 * The input is either those records back to back, or a capture of
 * `uvm-trace record-nvidia` (nvuvm.h: a header saying who was recorded,
 * where, and what the driver dropped; the same records, and the managed
 * ranges the program mapped as records of types 0xf0/0xf1). A capture's
 * trace keeps the driver's clock (CLOCK_MONOTONIC_RAW), its allocations,
 * the machine and the completeness.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "nvuvm.h"

enum {	/* UvmEventMigrationCause */
	NV_CAUSE_USER = 1, NV_CAUSE_COHERENCE, NV_CAUSE_PREFETCH, NV_CAUSE_EVICTION,
	NV_CAUSE_ACCESS_COUNTERS, NV_CAUSE_MAX = NV_CAUSE_ACCESS_COUNTERS,
};

#define NV_MAP_CAUSE_MAX	5	/* UvmEventMapRemoteCause */
#define NV_ACCESS_WRITE		2	/* UvmEventMemoryAccessType: write, atomic */
#define NV_ACCESS_MAX		4
#define NV_FAULT_TYPE_MAX	16	/* UvmEventFaultType */

static uint64_t get(const unsigned char *r, unsigned int off, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, r + off, size);
	return v;
}

/* The record's time stamp (the driver's CPU clock, ns). */
static uint64_t nv_time(const unsigned char *r)
{
	switch (r[0]) {
	case NV_MIGRATION:
		return get(r, 40, 8) ?: get(r, 32, 8);
	case NV_GPU_FAULT_REPLAY:
		return get(r, 8, 8);
	case NV_EVICTION:
		return get(r, 32, 8);
	case NV_READ_DUP:
	case NV_READ_DUP_INVALIDATE:
	case NV_THRASHING:
	case NV_MAP_REMOTE:
	case NV_OWN_ALLOC:
	case NV_OWN_FREE:
		return get(r, 24, 8);
	}
	return get(r, 16, 8);	/* faults, throttling, fatal faults, page sizes */
}

/* Padding of the V2 layouts that must read zero, by type: offset, bytes. */
static int nv_pad_ok(const unsigned char *r)
{
	switch (r[0]) {
	case NV_CPU_FAULT:
	case NV_MIGRATION:
		return !get(r, 2, 2);
	case NV_GPU_FAULT:
		return !get(r, 38, 2);
	case NV_READ_DUP:
	case NV_THRASHING:
		return !get(r, 1, 7);
	case NV_READ_DUP_INVALIDATE:
	case NV_THROTTLING_START:
	case NV_THROTTLING_END:
		return !r[1] && !get(r, 4, 4);
	case NV_MAP_REMOTE:
		return !get(r, 2, 2);
	case NV_EVICTION:
		return !get(r, 1, 3);
	case NV_OWN_ALLOC:
	case NV_OWN_FREE:
		return !get(r, 1, 3) && !get(r, 32, 8);
	}
	return 1;
}

/* A record that cannot be a V2 entry: 0 if it looks like one. */
static int nv_check(struct imp *im, const unsigned char *r)
{
	int own = r[0] == NV_OWN_ALLOC || r[0] == NV_OWN_FREE;

	if (own ? !im->priv : !r[0] || r[0] > NV_TYPE_MAX)
		return imp_error(im, "unknown event type %u: not UvmEventEntry_V2 records",
				 r[0]);
	if ((r[0] == NV_CPU_FAULT && r[1] > NV_ACCESS_MAX) ||
	    (r[0] == NV_GPU_FAULT && (r[1] > NV_FAULT_TYPE_MAX ||
				      r[37] > NV_ACCESS_MAX)) ||
	    (r[0] == NV_MIGRATION && r[1] > NV_CAUSE_MAX) ||
	    (r[0] == NV_MAP_REMOTE && r[1] > NV_MAP_CAUSE_MAX) || !nv_pad_ok(r))
		return imp_error(im, "event type %u: a field out of range or padding "
				 "not zero: not a UvmEventEntry_V2 record", r[0]);
	if (own && (!get(r, 16, 8) || get(r, 8, 8) + get(r, 16, 8) < get(r, 8, 8)))
		return imp_error(im, "a managed range of 0x%llx + %llu bytes",
				 (unsigned long long)get(r, 8, 8),
				 (unsigned long long)get(r, 16, 8));
	return 0;
}

/* Our device for processor index @idx (a GPU: idx >= 1). */
static int nv_dev(struct imp *im, uint64_t idx)
{
	struct nv_capture *cap = im->priv;
	char name[64];

	if (!idx)
		return imp_error(im, "a GPU index of 0 (the CPU's)");
	if (cap && cap->num_gpus == 1)	/* which GPU an index is: known for one */
		snprintf(name, sizeof(name), "%.55s", cap->gpu_name[0]);
	else
		snprintf(name, sizeof(name), "nvuvm processor %llu",
			 (unsigned long long)idx);
	return imp_device(im, idx, name);
}

/* A processor index (0: the CPU) that must be a GPU's or the CPU's. */
static int nv_proc(struct imp *im, uint64_t idx)
{
	return idx ? nv_dev(im, idx) : 0;
}

/* The lowest GPU of a V2 processor mask at @off (bit 0: the CPU): index, or 0. */
static uint64_t nv_mask_gpu(const unsigned char *r, unsigned int off)
{
	unsigned int w, b;

	for (w = 0; w < 5; w++) {
		uint64_t m = get(r, off + 8 * w, 8) & (w ? ~0ULL : ~1ULL);

		for (b = 0; m && b < 64; b++)
			if (m & (1ULL << b))
				return 64 * w + b;
	}
	return 0;
}

static int nv_scan_one(struct imp *im, const unsigned char *r)
{
	int ret = nv_check(im, r);

	if (ret)
		return ret;
	switch (r[0]) {
	case NV_FAULT_BUFFER_OVERFLOW:
	case NV_FATAL_FAULT:
	case NV_PAGE_SIZE_CHANGE:
	case NV_THROTTLING_END:
		return 0;
	}
	imp_time_seen(im, nv_time(r));
	switch (r[0]) {
	case NV_CPU_FAULT:
		imp_pid(im, (uint32_t)get(r, 24, 4));
		return imp_touch(im, get(r, 8, 8), 1);
	case NV_MIGRATION:
		if (nv_proc(im, get(r, 4, 2)) < 0 || nv_proc(im, get(r, 6, 2)) < 0)
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
	case NV_READ_DUP:
	case NV_THRASHING:
		if (nv_proc(im, nv_mask_gpu(r, 32)) < 0)
			return -EINVAL;
		return imp_touch(im, get(r, 8, 8), get(r, 16, 8) ?: 1);
	case NV_READ_DUP_INVALIDATE:
		return nv_proc(im, get(r, 2, 2)) < 0 ? -EINVAL :
		       imp_touch(im, get(r, 8, 8), get(r, 16, 8) ?: 1);
	case NV_THROTTLING_START:
		return nv_proc(im, get(r, 2, 2)) < 0 ? -EINVAL :
		       imp_touch(im, get(r, 8, 8), 1);
	case NV_MAP_REMOTE:
		if (nv_proc(im, get(r, 4, 2)) < 0 || nv_proc(im, get(r, 6, 2)) < 0)
			return -EINVAL;
		return imp_touch(im, get(r, 8, 8), get(r, 16, 8) ?: 1);
	case NV_OWN_ALLOC:	/* a reservation beyond any allocation: not one */
		if (get(r, 16, 8) > IMP_MAX_RANGE)
			return 0;
		return imp_extent(im, get(r, 8, 8), get(r, 16, 8));
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

static uint32_t nv_pages(uint64_t bytes)
{
	uint64_t p = (bytes + IMP_PAGE - 1) / IMP_PAGE;

	return p > UINT32_MAX ? UINT32_MAX : (uint32_t)p;
}

/* Thrashing detected (10) or a throttled fault (11): who, where. */
static int nv_thrash(struct imp *im, const unsigned char *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_THRASH };
	uint64_t proc;

	if (r[0] == NV_THRASHING) {
		proc = nv_mask_gpu(r, 32);
		ev.u.thrash.kind = UVM_EVENT_THRASH_DETECTED;
		ev.u.thrash.pages = nv_pages(get(r, 16, 8));
	} else {
		proc = get(r, 2, 2);
		ev.u.thrash.kind = UVM_EVENT_THRASH_THROTTLED;
	}
	ev.u.thrash.addr = get(r, 8, 8);
	ev.u.thrash.proc = proc ? (uint32_t)nv_dev(im, proc) : 255;
	ev.u.thrash.policy = 1;	/* NVIDIA's driver throttles (and pins) */
	return imp_event(im, nv_time(r), 0, &ev);
}

static int nv_read_dup(struct imp *im, const unsigned char *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_READ_DUP };
	uint64_t proc = r[0] == NV_READ_DUP ? nv_mask_gpu(r, 32) : get(r, 2, 2);

	ev.u.read_dup.addr = get(r, 8, 8);
	ev.u.read_dup.pages = nv_pages(get(r, 16, 8));
	ev.u.read_dup.device = proc ? nv_dev(im, proc) : -1;
	ev.u.read_dup.collapse = r[0] == NV_READ_DUP_INVALIDATE;
	return imp_event(im, nv_time(r), 0, &ev);
}

static int nv_map_remote(struct imp *im, const unsigned char *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_REMOTE_MAP };
	uint64_t src = get(r, 4, 2), dst = get(r, 6, 2);

	ev.u.remote_map.addr = get(r, 8, 8);
	ev.u.remote_map.pages = nv_pages(get(r, 16, 8));
	ev.u.remote_map.device = src ? (uint32_t)nv_dev(im, src) : UINT32_MAX;
	ev.u.remote_map.target = dst ? nv_dev(im, dst) : -1;
	return imp_event(im, nv_time(r), 0, &ev);
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
	case NV_THRASHING:
	case NV_THROTTLING_START:
		return nv_thrash(im, r);
	case NV_READ_DUP:
	case NV_READ_DUP_INVALIDATE:
		return nv_read_dup(im, r);
	case NV_MAP_REMOTE:
		return nv_map_remote(im, r);
	}
	return 0;	/* allocations were written first; frees are not kept */
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

/* ---- a capture of record-nvidia ---- */

static void nv_fill(struct imp *im, struct tr_info *info)
{
	const struct nv_capture *cap = im->priv;
	struct tr_header *h = &info->h;
	unsigned int i;

	h->mode = TR_MODE_NVIDIA;
	h->pid = cap->pid;
	h->start_realtime_ns = cap->start_realtime_ns;
	h->page_size = IMP_PAGE;
	h->fault_batch = 256;	/* NVIDIA's default (uvm_perf_fault_batch_count) */
	snprintf(h->hostname, sizeof(h->hostname), "%.63s", cap->hostname);
	snprintf(h->command, sizeof(h->command), "%.135s", cap->command);
	snprintf(h->driver_version, sizeof(h->driver_version), "%.31s",
		 cap->driver_version);
	snprintf(h->module_version, sizeof(h->module_version), "nvidia-uvm %.20s",
		 cap->driver_version);
	h->completeness = TR_COMPLETE_YES;
	for (i = 0; i < NV_TYPES_ALL; i++) {
		h->lost += cap->dropped[i];
		if (i < TR_NV_TYPES)
			h->nv_dropped[i] = cap->dropped[i];
	}
	if (h->lost)
		h->completeness = TR_COMPLETE_NO;
}

/* The capture's header, checked; the records follow it. */
static int nv_capture_open(struct imp *im, FILE *f, struct nv_capture *cap)
{
	size_t n = fread(cap, 1, sizeof(*cap), f);

	if (n < sizeof(*cap))
		return imp_error(im, "offset %zu: a capture's header cut short (%zu of %zu "
				 "bytes)", n, n, sizeof(*cap));
	if (cap->version != NV_CAP_VERSION || cap->entry_size != NV_ENTRY_SIZE)
		return imp_error(im, "offset 8: a capture of version %u with %u-byte "
				 "records: this uvm-trace reads version %u, %u bytes",
				 cap->version, cap->entry_size, NV_CAP_VERSION, NV_ENTRY_SIZE);
	if (cap->finished != 1)
		return imp_error(im, "offset 16: the recording did not finish (its "
				 "recorder was stopped): the capture is incomplete");
	if (cap->num_gpus > NV_CAP_GPUS || !cap->start_raw_ns)
		return imp_error(im, "offset 560: a corrupted capture header");
	cap->hostname[sizeof(cap->hostname) - 1] = '\0';
	cap->command[sizeof(cap->command) - 1] = '\0';
	cap->driver_version[sizeof(cap->driver_version) - 1] = '\0';
	for (n = 0; n < NV_CAP_GPUS; n++)
		cap->gpu_name[n][sizeof(cap->gpu_name[n]) - 1] = '\0';
	im->priv = cap;
	im->fill = nv_fill;
	im->types |= 1ULL << UVM_EVENT_ALLOC;
	return 0;
}

/* A capture's records keep the driver's clock: t0 is the recording's start. */
static void nv_capture_clock(struct imp *im, const struct nv_capture *cap)
{
	im->clock_id = 4;	/* CLOCK_MONOTONIC_RAW */
	im->base = cap->start_raw_ns;
	im->t0 = cap->start_raw_ns;
	im->have_t0 = 1;
}

int imp_nvuvm(struct imp *im)
{
	struct nv_capture cap;
	char magic[8];
	FILE *f = fopen(im->in, "re");
	long data = 0;
	int ret = 0;

	if (!f)
		return imp_error(im, "%s", strerror(errno));
	if (fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	    !memcmp(magic, NV_CAP_MAGIC, sizeof(magic))) {
		rewind(f);
		ret = nv_capture_open(im, f, &cap);
		data = (long)sizeof(cap);
	}
	if (!ret && fseek(f, data, SEEK_SET))
		ret = imp_error(im, "%s", strerror(errno));
	if (!ret)
		ret = nv_each(im, f, nv_scan_one);
	if (!ret && !im->have_t0 && !im->priv)
		ret = imp_error(im, "no fault, migration or eviction record");
	if (!ret && im->priv)
		nv_capture_clock(im, &cap);
	if (!ret)
		ret = imp_begin(im);
	if (!ret && fseek(f, data, SEEK_SET))
		ret = imp_error(im, "%s", strerror(errno));
	if (!ret)
		ret = nv_each(im, f, nv_write_one);
	if (!ret)
		ret = imp_end(im);
	im->priv = NULL;
	fclose(f);
	return ret;
}
