// SPDX-License-Identifier: MIT
/*
 * nvrec_cupti.c - libuvm-nvcupti.so, the CUDA injection library
 * (CUDA_INJECTION64_PATH) `uvm-trace record-nvidia` gives the program it
 * records where CUDA's CUPTI is. Built only where CUPTI's headers and
 * library are. Two jobs, each asked for by an environment variable the
 * recorder sets:
 *
 * - UVM_NVREC_KERNELS=PREFIX: the program's kernel launches (name, start,
 *   end, device, stream), which NVIDIA's UVM tools interface does not
 *   report, one line a kernel into PREFIX.<pid>, and a last line with what
 *   CUPTI says it dropped:
 *
 *     K <start_ns> <end_ns> <device> <stream> <correlation> <name>
 *     D <dropped>
 *
 * - UVM_NVREC_UM=PREFIX (record-nvidia --source cupti, where the tools
 *   interface cannot be used): CUPTI's unified-memory counters (all eight
 *   kinds), the managed allocations (CUPTI_ACTIVITY_KIND_MEMORY2) and the
 *   program's prefetch calls (the driver's cuMemPrefetchAsync, through a
 *   callback) and advice (cuMemAdvise), one line each into PREFIX.<pid>,
 *   and a last line with what CUPTI says it dropped. Decimal numbers, one
 *   space apart:
 *
 *     U <pid> <counter_kind> <start_ns> <end_ns> <address> <value> <src_id> <dst_id> <flags>
 *     A <pid> <time_ns> <address> <bytes> <device> <operation>
 *     P <pid> <time_ns> <address> <bytes> <location_type> <location_id>
 *     V <pid> <time_ns> <address> <bytes> <advice> <location_type> <location_id>
 *     D <pid> <dropped>
 *
 *   U: a CUpti_ActivityUnifiedMemoryCounter3 as CUPTI gave it: counter_kind
 *   CUpti_ActivityUnifiedMemoryCounterKind (1 HtoD bytes, 2 DtoH bytes, 3
 *   CPU page fault, 4 GPU page fault group, 5 thrashing, 6 throttling, 7
 *   remote map, 8 DtoD bytes), value (bytes; for 3 the faulting
 *   instruction's address; for 4 the faults of the group), flags (the
 *   migration's cause, the fault's access type, the remote map's cause,
 *   CUpti_ActivityFlag for 5 and 6). A: a MEMORY2 record of managed memory,
 *   operation 1 allocation, 2 release. P: cuMemPrefetchAsync's range and
 *   destination (CUmemLocationType: 1 a device, 2 the host, 3 a host node,
 *   4 the caller's node; id), at the call. V: cuMemAdvise's range, advice
 *   (CUmem_advise: 1 set read-mostly, 2 unset, 3 set the preferred
 *   location, 4 unset, 5 set accessed-by, 6 unset) and location. A file
 *   without its D line (a failure here, said on stderr, or a process that
 *   did not exit normally) makes the recording incomplete. The recorder
 *   concatenates the processes' files (record_nvidia.c; import_nvcupti.c
 *   reads them).
 *
 * CUPTI is asked for its timestamps through a callback that reads
 * CLOCK_MONOTONIC_RAW, the clock NVIDIA's driver stamps UVM events with:
 * CUPTI maps the GPU's own timestamps onto it, so the kernels line up with
 * the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#define KBUF_SIZE	(4 << 20)
#define KBUF_ALIGN	8

static FILE *kout, *uout;
static uint64_t kdropped;
static int upid, uon;		/* uon: the unified-memory counters are on */

static void uenable(int early);

static uint64_t CUPTIAPI know(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void CUPTIAPI kbuf_request(uint8_t **buf, size_t *size, size_t *max_records)
{
	*buf = aligned_alloc(KBUF_ALIGN, KBUF_SIZE);
	*size = *buf ? KBUF_SIZE : 0;
	*max_records = 0;
}

static void kwrite(const CUpti_ActivityKernel10 *k)
{
	const char *name = k->name ? k->name : "?";

	fprintf(kout, "K %llu %llu %u %u %u %.*s\n", (unsigned long long)k->start,
		(unsigned long long)k->end, k->deviceId, k->streamId, k->correlationId,
		(int)strcspn(name, "\n"), name);
}

/* One unified-memory counter record: U ... */
static void uwrite_counter(const CUpti_ActivityUnifiedMemoryCounter3 *u)
{
	fprintf(uout, "U %d %u %llu %llu %llu %llu %u %u %u\n", upid,
		(unsigned int)u->counterKind, (unsigned long long)u->start,
		(unsigned long long)u->end, (unsigned long long)u->address,
		(unsigned long long)u->value, u->srcId, u->dstId, u->flags);
}

/* A managed allocation or its release: A ...; other memory is not kept. */
static void uwrite_memory(const CUpti_ActivityMemory4 *m)
{
	if (m->memoryKind != CUPTI_ACTIVITY_MEMORY_KIND_MANAGED)
		return;
	fprintf(uout, "A %d %llu %llu %llu %u %u\n", upid,
		(unsigned long long)m->timestamp, (unsigned long long)m->address,
		(unsigned long long)m->bytes, m->deviceId,
		(unsigned int)m->memoryOperationType);
}

static void CUPTIAPI kbuf_done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
			       size_t valid)
{
	CUpti_Activity *rec = NULL;
	size_t dropped = 0;

	while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
		if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && kout)
			kwrite((const CUpti_ActivityKernel10 *)rec);
		else if (rec->kind == CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER && uout)
			uwrite_counter((const CUpti_ActivityUnifiedMemoryCounter3 *)rec);
		else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMORY2 && uout)
			uwrite_memory((const CUpti_ActivityMemory4 *)rec);
	}
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
		kdropped += dropped;
	(void)size;
	free(buf);
}

static void kfinish(void)
{
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	if (kout) {
		fprintf(kout, "D %llu\n", (unsigned long long)kdropped);
		fclose(kout);
		kout = NULL;
	}
	if (uout && !uon)	/* no context was ever created: no D line either */
		fprintf(stderr, "uvm-trace record-nvidia: managed memory (CUPTI) not "
			"recorded: the unified-memory counters were never enabled\n");
	else if (uout)
		fprintf(uout, "D %d %llu\n", upid, (unsigned long long)kdropped);
	if (uout) {
		fclose(uout);
		uout = NULL;
	}
}

/* Say why, and close *@f without its last line: the recorder says so. */
static void kfail(const char *what, CUptiResult r, FILE **f)
{
	const char *msg = "?";

	cuptiGetResultString(r, &msg);
	fprintf(stderr, "uvm-trace record-nvidia: %s not recorded: %s: %s\n",
		f == &uout ? "managed memory (CUPTI)" : "kernels", what, msg);
	if (*f) {
		fclose(*f);
		*f = NULL;
	}
}

/* A CUdevice as a location: the host for CU_DEVICE_CPU. */
static void dev_loc(CUdevice d, int *type, int *id)
{
	*type = d == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
	*id = d;
}

/*
 * The program's prefetches and advice, at the driver call's entry:
 * P <pid> <time> <address> <bytes> <type> <id> and
 * V <pid> <time> <address> <bytes> <advice> <type> <id>. Every variant's
 * parameters begin with devPtr and count.
 */
static void CUPTIAPI ucallback(void *data, CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
			       const void *info)
{
	const CUpti_CallbackData *cb = info;
	const cuMemPrefetchAsync_params *p;
	const cuMemAdvise_params *a;
	int type, id, advice = -1;

	(void)data;
	if (dom == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED &&
	    uout && !uon)
		uenable(0);
	if (dom != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER || !uout)
		return;
	p = cb->functionParams;
	a = cb->functionParams;
	switch (cbid) {
	case CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync:
	case CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz:
		dev_loc(p->dstDevice, &type, &id);
		break;
	case CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2:
	case CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz:
		type = ((const cuMemPrefetchAsync_v2_params *)p)->location.type;
		id = ((const cuMemPrefetchAsync_v2_params *)p)->location.id;
		break;
	case CUPTI_DRIVER_TRACE_CBID_cuMemAdvise:
		advice = a->advice;
		dev_loc(a->device, &type, &id);
		break;
	case CUPTI_DRIVER_TRACE_CBID_cuMemAdvise_v2:
		advice = ((const cuMemAdvise_v2_params *)a)->advice;
		type = ((const cuMemAdvise_v2_params *)a)->location.type;
		id = ((const cuMemAdvise_v2_params *)a)->location.id;
		break;
	default:
		return;
	}
	if (advice < 0)
		fprintf(uout, "P %d %llu %llu %llu %d %d\n", upid, (unsigned long long)know(),
			(unsigned long long)p->devPtr, (unsigned long long)p->count, type, id);
	else
		fprintf(uout, "V %d %llu %llu %llu %d %d %d\n", upid,
			(unsigned long long)know(), (unsigned long long)a->devPtr,
			(unsigned long long)a->count, advice, type, id);
}

static CUptiResult ucalls(void)
{
	static const CUpti_CallbackId ids[] = {
		CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync,
		CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2,
		CUPTI_DRIVER_TRACE_CBID_cuMemPrefetchAsync_v2_ptsz,
		CUPTI_DRIVER_TRACE_CBID_cuMemAdvise,
		CUPTI_DRIVER_TRACE_CBID_cuMemAdvise_v2,
	};
	CUpti_SubscriberHandle sub;
	CUptiResult r = cuptiSubscribe(&sub, ucallback, NULL);
	unsigned int i;

	for (i = 0; r == CUPTI_SUCCESS && i < sizeof(ids) / sizeof(ids[0]); i++)
		r = cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]);
	if (r == CUPTI_SUCCESS)
		r = cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
					CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
	return r;
}

/*
 * The unified-memory counters. Inside cuInit CUPTI may not be ready for
 * them yet (CUPTI_ERROR_NOT_READY): then they are enabled when the first
 * context is created, before any managed memory can exist.
 */
static void uenable(int early)
{
	CUpti_ActivityUnifiedMemoryCounterConfig cfg[8];
	CUptiResult r;
	unsigned int i;

	for (i = 0; i < 8; i++)
		cfg[i] = (CUpti_ActivityUnifiedMemoryCounterConfig){
			.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE,
			.kind = (CUpti_ActivityUnifiedMemoryCounterKind)(i + 1),
			.deviceId = 0, .enable = 1,
		};
	r = cuptiActivityConfigureUnifiedMemoryCounter(cfg, 8);
	if (r == CUPTI_SUCCESS)
		r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
	if (r == CUPTI_SUCCESS)
		uon = 1;
	else if (!early || r != CUPTI_ERROR_NOT_READY)
		kfail("the unified-memory counters", r, &uout);
}

/* The counters, the managed allocations, the prefetches and advice. */
static void uinit(void)
{
	CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMORY2);

	if (r == CUPTI_SUCCESS)
		r = ucalls();
	if (r == CUPTI_SUCCESS)
		uenable(1);
	else
		kfail("MEMORY2, or the callbacks (cuMemPrefetchAsync, cuMemAdvise, contexts)",
		      r, &uout);
}

/* $@var.<pid>, opened for writing, or NULL. */
static FILE *open_out(const char *var)
{
	const char *prefix = getenv(var);
	char path[4096];

	if (!prefix)
		return NULL;
	snprintf(path, sizeof(path), "%s.%d", prefix, (int)getpid());
	return fopen(path, "we");
}

__attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void)
{
	CUptiResult r;

	if (kout || uout)
		return 1;
	upid = (int)getpid();
	kout = open_out("UVM_NVREC_KERNELS");
	uout = open_out("UVM_NVREC_UM");
	if (!kout && !uout)
		return 1;	/* not asked, or no file: the recorder says so */
	r = cuptiActivityRegisterTimestampCallback(know);
	if (r == CUPTI_SUCCESS)
		r = cuptiActivityRegisterCallbacks(kbuf_request, kbuf_done);
	if (r != CUPTI_SUCCESS) {
		kfail("cuptiActivityRegisterCallbacks", r, &kout);
		kfail("cuptiActivityRegisterCallbacks", r, &uout);
		return 1;
	}
	atexit(kfinish);	/* CUPTI holds our callbacks: stay loaded (return 1) */
	if (kout) {
		r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
		if (r != CUPTI_SUCCESS)
			kfail("cuptiActivityEnable", r, &kout);
	}
	if (uout)
		uinit();
	return 1;
}
