/* SPDX-License-Identifier: MIT */
/*
 * record_kernels.h - kernel launches for the trace's kernel records
 * (UVM_EVENT_KERNEL): from the CUPTI injection library's per-process
 * files (record-nvidia), or from a FILE.kernels of an earlier
 * record-nvidia (import nvuvm --kernels); record_kernels.c.
 */
#ifndef RECORD_KERNELS_H
#define RECORD_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/uvm.h"

#define NVK_ENV		"UVM_NVREC_KERNELS"	/* the files' prefix */

struct nvk {
	uint64_t start, end;	/* ns, the trace's clock (CLOCK_MONOTONIC_RAW) */
	uint32_t pid, device, stream, corr;
	char *name;
};

/** struct nvk_set - kernel launches, by start once complete. */
struct nvk_set {
	struct nvk *v;
	size_t n, cap;
	uint64_t dropped;	/* records CUPTI said it dropped */
};

int nvk_collect(struct nvk_set *s, const char *prefix);
int nvk_load(struct nvk_set *s, const char *path);
struct uvm_event *nvk_events(const struct nvk_set *s);
void nvk_free(struct nvk_set *s);
void nvk_discard(const char *prefix);

#endif /* RECORD_KERNELS_H */
