// SPDX-License-Identifier: MIT
/*
 * nvrec_cupti.c - libuvm-nvcupti.so, the CUDA injection library
 * (CUDA_INJECTION64_PATH) `uvm-trace record-nvidia` gives the program it
 * records where CUDA's CUPTI is: the program's kernel launches (name,
 * start, end, device, stream), which NVIDIA's UVM tools interface does not
 * report. Built only where CUPTI's headers and library are.
 *
 * CUPTI is asked for its timestamps through a callback that reads
 * CLOCK_MONOTONIC_RAW, the clock NVIDIA's driver stamps UVM events with:
 * CUPTI maps the GPU's own timestamps onto it, so the kernels line up with
 * the trace. Each process writes $UVM_NVREC_KERNELS.<pid>, one line a
 * kernel and a last line with what CUPTI says it dropped:
 *
 *   K <start_ns> <end_ns> <device> <stream> <correlation> <name>
 *   D <dropped>
 *
 * The recorder merges those files (record_nvidia.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#define KBUF_SIZE	(4 << 20)
#define KBUF_ALIGN	8

static FILE *kout;
static uint64_t kdropped;

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

static void CUPTIAPI kbuf_done(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
			       size_t valid)
{
	CUpti_Activity *rec = NULL;
	size_t dropped = 0;

	while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
		if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && kout)
			kwrite((const CUpti_ActivityKernel10 *)rec);
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
}

static int kfail(const char *what, CUptiResult r)
{
	const char *msg = "?";

	cuptiGetResultString(r, &msg);
	fprintf(stderr, "uvm-trace record-nvidia: kernels not recorded: %s: %s\n", what, msg);
	if (kout) {
		fclose(kout);
		kout = NULL;
	}
	return 0;
}

__attribute__((visibility("default"))) int InitializeInjection(void);

int InitializeInjection(void)
{
	const char *prefix = getenv("UVM_NVREC_KERNELS");
	char path[4096];
	CUptiResult r;

	if (!prefix || kout)
		return 1;
	snprintf(path, sizeof(path), "%s.%d", prefix, (int)getpid());
	kout = fopen(path, "we");
	if (!kout)
		return 0;
	r = cuptiActivityRegisterTimestampCallback(know);
	if (r != CUPTI_SUCCESS)
		return kfail("cuptiActivityRegisterTimestampCallback", r);
	r = cuptiActivityRegisterCallbacks(kbuf_request, kbuf_done);
	if (r != CUPTI_SUCCESS)
		return kfail("cuptiActivityRegisterCallbacks", r);
	r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	if (r != CUPTI_SUCCESS)
		return kfail("cuptiActivityEnable", r);
	atexit(kfinish);
	return 1;
}
