/* SPDX-License-Identifier: MIT */
/*
 * record_kernels.h - record-nvidia's kernel launches, from the CUPTI
 * injection library's per-process files (record_kernels.c).
 */
#ifndef RECORD_KERNELS_H
#define RECORD_KERNELS_H

#include <stdint.h>

#define NVK_ENV		"UVM_NVREC_KERNELS"	/* the files' prefix */

int nvk_merge(const char *prefix, const char *out, uint64_t *nkernels, uint64_t *dropped);
void nvk_discard(const char *prefix);

#endif /* RECORD_KERNELS_H */
