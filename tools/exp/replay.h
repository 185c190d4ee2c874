/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - what uvm-exp's replay workload reads from a trace file
 * (docs/replay.md): the records it acts on, in a form of its own, so the
 * workload needs neither the trace format's headers nor the uapi's
 * (replay_trace.c is the one file that knows them).
 */
#ifndef UVM_EXP_REPLAY_H
#define UVM_EXP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

/* struct rp_rec.kind */
enum rp_kind {
	RP_OTHER,		/* informational: counted, not acted on */
	RP_ALLOC,		/* addr, bytes */
	RP_FREE,		/* addr, bytes */
	RP_BATCH,		/* a device fault batch begins: batch, device */
	RP_DEVICE_FAULT,	/* addr (a page), batch, device, write */
	RP_CPU_FAULT,		/* addr, write */
	RP_PREFETCH,		/* addr, bytes, loc_type, loc_id (UVM_MEM_LOC_*) */
	RP_ADVISE,		/* addr, bytes, advice, loc_type, loc_id */
	RP_OVERFLOW,		/* bytes: records the recording lost */
};

/** struct rp_rec - one record, as the replay sees it. */
struct rp_rec {
	enum rp_kind kind;
	uint64_t index;		/* the record's number in the file, from 0 */
	uint64_t ts;		/* its timestamp, on the trace's clock (ns) */
	uint64_t addr;
	uint64_t bytes;
	uint64_t batch;
	uint32_t device;
	bool write;
	uint32_t advice;
	uint32_t loc_type;
	int32_t loc_id;
};

/** struct rp_info - what the replay needs of a trace's header. */
struct rp_info {
	uint32_t page_size;
	bool attached;		/* recorded with -p: allocations may predate it */
	bool has_device_faults;	/* its types include device_fault */
	uint32_t num_devices;	/* devices its header lists */
	uint32_t prefetch_policy;	/* the recording's, UVM_POLICY_PREFETCH_* */
	bool incomplete;	/* its recorder lost records (lost, lost_why) */
	uint64_t lost;
	char lost_why[160];	/* which: NVIDIA's drops by type, or "" */
	char command[136];
};

struct rp_source;

/* Open @path: a source, or NULL with the reason in @err. */
struct rp_source *rp_open(const char *path, struct rp_info *info, char *err,
			  size_t errlen);
/* The next record: 1, 0 at the end, -1 with the reason in @err. */
int rp_next(struct rp_source *s, struct rp_rec *rec, char *err, size_t errlen);
void rp_close(struct rp_source *s);

#endif /* UVM_EXP_REPLAY_H */
