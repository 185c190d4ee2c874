/* SPDX-License-Identifier: MIT */
/*
 * nvcupti.h - record-nvidia --source cupti: the line file the CUPTI
 * injection library's per-process files are merged into (record_nvidia.c),
 * and `uvm-trace import nvcupti`, which makes the trace of one
 * (import_nvcupti.c; docs/trace-import.md has the format).
 */
#ifndef NVCUPTI_H
#define NVCUPTI_H

#include <stdint.h>

#include "nvuvm.h"

#define NVC_ENV		"UVM_NVREC_UM"	/* the per-process files' prefix */
#define NVC_MAGIC	"nvcupti 1"	/* a line file's first line */

struct imp;

int nvc_merge(const char *prefix, const char *out, const struct nv_capture *h,
	      uint64_t *lines);
int imp_nvcupti_as(struct imp *im, const char *who);

#endif /* NVCUPTI_H */
