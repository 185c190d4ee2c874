/* SPDX-License-Identifier: MIT */
/*
 * import.h - what the importers (uvm-trace import FORMAT IN [-o OUT]) share:
 * the output trace (written to OUT.tmp, renamed at the end, removed on an
 * error), the time base, the devices, the allocations (the format's own, or
 * reconstructed from the addresses used) and the grouping of device faults
 * into batches. docs/trace-import.md is the definition.
 *
 * An importer makes two passes over its input. The first checks every line
 * or record and tells this layer which addresses, devices and allocations
 * the trace uses (imp_touch(), imp_device(), imp_extent()); then
 * imp_begin() writes the header and the allocations; the second pass emits
 * the records (imp_fault(), imp_cpu_fault(), imp_migrate(), ...), and
 * imp_end() finishes the file. Memory: the touched 2 MiB blocks, the
 * allocations, one batch; never the records.
 */
#ifndef IMPORT_H
#define IMPORT_H

#include <stdint.h>

#include "trace_format.h"


#define IMP_PAGE		4096ULL
#define IMP_BLOCK		(2ULL << 20)	/* reconstructed extents: 2 MiB units */
#define IMP_START_NS		1000000000ULL	/* the first event's timestamp */
#define IMP_MAX_DEVICES		32
#define IMP_GROUP_PAGES		256	/* distinct pages of a grouped batch */
#define IMP_BATCH_PAGES		65536	/* a batch with its own id is split beyond */
#define IMP_MAX_RANGE		(1ULL << 40)	/* bytes one record may cover */

/* imp_fault()'s batch key when the format has no batch ids. */
#define IMP_BATCH_GROUP		UINT64_MAX

struct imp_extent {
	uint64_t addr, bytes;
};

struct imp_batch {
	int open;
	uint32_t device;
	uint64_t key;		/* the format's batch id, or IMP_BATCH_GROUP */
	uint64_t ts;
	uint32_t faults, n;
	uint64_t page[IMP_BATCH_PAGES];
	uint8_t write[IMP_BATCH_PAGES];
	uint32_t slot[2 * IMP_BATCH_PAGES];	/* hash of page: index + 1 */
};

/** struct imp - one import: input, output, and what is kept between passes. */
struct imp {
	const char *fmt, *in, *out;
	char tmp[4096];
	const char *unit;	/* "line", "record", "row": what pos counts */
	uint64_t pos;
	uint64_t types;		/* the record types this format yields */
	uint32_t pid;		/* the traced process, 0 if unknown or several */
	int pid_set;

	/* time: format clock -> IMP_START_NS + (t - t0), never decreasing */
	int have_t0;
	uint64_t t0, last;

	/* devices: the format's key of each, in order of appearance */
	uint32_t ndev;
	uint64_t dev_key[IMP_MAX_DEVICES];
	char dev_name[IMP_MAX_DEVICES][64];

	/* touched 2 MiB blocks (open hash of block + 1) and the format's extents */
	uint64_t *blocks;
	uint64_t nblocks, bcap;
	struct imp_extent *ext;
	uint64_t next, ecap;
	uint64_t nalloc;	/* ALLOC records written */

	uint64_t batches;	/* batch numbers given (grouped batches) */
	int writing;
	struct tr_writer w;
	struct imp_batch *batch;

	/* time: IMP_START_NS unless the format has a clock of its own */
	uint64_t base;		/* the trace time of t0 */
	uint32_t clock_id;	/* the header's clock_id */
	/* the format's own header fields (a capture of record-nvidia) */
	void (*fill)(struct imp *im, struct tr_info *info);
	void *priv;

	/* kernel records merged in by time (imp_kernels()) */
	const struct uvm_event *kern;
	size_t nkern, ikern;
};

/* Setup, errors. */
int imp_init(struct imp *im, const char *fmt, const char *in, const char *out,
	     uint64_t types);
__attribute__((format(printf, 2, 3)))
int imp_error(struct imp *im, const char *fmt, ...);
int imp_begin(struct imp *im);
int imp_end(struct imp *im);
void imp_abort(struct imp *im);
void imp_kernels(struct imp *im, const struct uvm_event *ev, size_t n);
void imp_release(struct imp *im);

/* Pass 1: what the trace uses. */
void imp_time_seen(struct imp *im, uint64_t t);
int imp_touch(struct imp *im, uint64_t addr, uint64_t bytes);
int imp_extent(struct imp *im, uint64_t addr, uint64_t bytes);
int imp_device(struct imp *im, uint64_t key, const char *name);
void imp_pid(struct imp *im, uint32_t pid);

/* Pass 2: records. @t in the format's clock (imp_time_seen() saw it). */
uint64_t imp_ns(struct imp *im, uint64_t t);
int imp_fault(struct imp *im, uint64_t t, uint32_t dev, uint64_t key,
	      uint64_t addr, int write, uint32_t count);
int imp_batch_end(struct imp *im);
int imp_cpu_fault(struct imp *im, uint64_t t, uint32_t pid, uint32_t tid,
		  uint64_t addr, int write, int node);
int imp_migrate(struct imp *im, uint64_t t, uint32_t pid,
		const struct uvm_event_migrate *m);
int imp_evict(struct imp *im, uint64_t t, uint32_t pid, uint64_t addr,
	      uint64_t bytes, uint32_t dev);
int imp_prefetch(struct imp *im, uint64_t t, uint32_t pid, uint64_t addr,
		 uint64_t bytes, uint32_t dst_type, int32_t dst_id);

/* Any other record (@ev's type and payload; its header is set here). */
int imp_event(struct imp *im, uint64_t t, uint32_t pid, const struct uvm_event *ev);

/* Helpers for the text formats. */
int imp_u64(const char *s, int base, uint64_t *v);
int imp_line(struct imp *im, FILE *f, char **buf, size_t *cap);
int imp_split(char *s, char sep, char **field, int max);

/*
 * One pass of a text importer over the open input: @emit 0 scans
 * (extents, devices, the first time; an error if it found nothing to
 * import), @emit 1 writes the records.
 */
typedef int (*imp_pass_fn)(struct imp *im, FILE *f, char **buf, size_t *cap,
			   int emit);
int imp_text(struct imp *im, imp_pass_fn pass);

/* The importers. */
int imp_uvmeval(struct imp *im);
int imp_nsys(struct imp *im);
int imp_kfd(struct imp *im);
int imp_nvuvm(struct imp *im);
int imp_nvcupti(struct imp *im);
int imp_jsonl(struct imp *im);
int imp_record(struct imp *im, const struct uvm_event *ev);

int tr_import_main(int argc, char **argv);

/* What nvuvm writes (import nvuvm, record-nvidia). */
#define NV_IMPORT_TYPES	((1ULL << UVM_EVENT_FAULT_BATCH) | (1ULL << UVM_EVENT_DEVICE_FAULT) | \
			 (1ULL << UVM_EVENT_CPU_FAULT) | (1ULL << UVM_EVENT_MIGRATE) | \
			 (1ULL << UVM_EVENT_EVICT) | (1ULL << UVM_EVENT_THRASH) | \
			 (1ULL << UVM_EVENT_READ_DUP) | (1ULL << UVM_EVENT_REMOTE_MAP))

/* What nvcupti writes (import nvcupti, record-nvidia --source cupti). */
#define NVC_IMPORT_TYPES ((1ULL << UVM_EVENT_FAULT_BATCH) | (1ULL << UVM_EVENT_DEVICE_FAULT) | \
			  (1ULL << UVM_EVENT_CPU_FAULT) | (1ULL << UVM_EVENT_MIGRATE) | \
			  (1ULL << UVM_EVENT_THRASH) | (1ULL << UVM_EVENT_REMOTE_MAP) | \
			  (1ULL << UVM_EVENT_PREFETCH) | (1ULL << UVM_EVENT_ADVISE))

#endif /* IMPORT_H */
