// SPDX-License-Identifier: MIT
/*
 * import_uvmeval.c - uvm-trace import uvm-eval: the fault logs of uvm-eval's
 * patched NVIDIA UVM driver (github.com/tallendev/uvm-eval, drivers/.../
 * nvidia-uvm/uvm_gpu_replayable_faults.c, uvm_va_block.c, uvm_va_range.c)
 * as its tools/sys2csv/log2csv.sh keeps them: first the allocation extents
 * ("0x<start>, <bytes>", from the "uvm range destroy" lines), then the
 * lines starting with s, b, f, p or e:
 *
 *   s,                      a batch starts
 *   f,<addr hex>,<gpu timestamp ns>,<fault_type>,<access_type>,<mask>,
 *     <num_instances>,<client_type>,<mmu_engine_type>,<client_id>,
 *     <mmu_engine_id>,<utlb_id>,<gpc_id>,<channel_id>,<ve_id>
 *                           one coalesced fault of the batch
 *   e,<addr hex>            a page (or block) evicted while servicing it
 *   p,<addr hex>            a page the prefetcher added
 *   b,<ns>,<status>         the batch ends (the batchd driver: b,<t0>,... )
 *
 * A stream: two passes over the file, one batch in memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define UE_FIELDS	40
#define UE_F_FIELDS	15	/* "f" and 14 values */
#define UE_ACCESS_WRITE	2	/* uvm_fault_access_type_t: prefetch, read, write, atomics */
#define UE_ACCESS_MAX	4

struct ue_line {
	char kind;		/* r(ange) s f b e p, or 0: nothing to do */
	uint64_t addr, bytes, ts;
	uint32_t count;
	int write;
};

/* "0x<hex>, <decimal>": an allocation extent. */
static int ue_range(struct imp *im, char *line, struct ue_line *l)
{
	char *f[3];

	if (imp_split(line, ',', f, 2) != 2 || imp_u64(f[0] + 2, 16, &l->addr) ||
	    imp_u64(f[1] + strspn(f[1], " "), 10, &l->bytes))
		return imp_error(im, "not an allocation extent (\"0x<start>, <bytes>\")");
	l->kind = 'r';
	return 0;
}

static int ue_fault(struct imp *im, char **f, int n, struct ue_line *l)
{
	uint64_t v[UE_F_FIELDS];
	int i;

	if (n != UE_F_FIELDS)
		return imp_error(im, "an f line has 14 values, this one %d", n - 1);
	if (imp_u64(f[1], 16, &l->addr))
		return imp_error(im, "bad fault address '%s'", f[1]);
	for (i = 2; i < n; i++)
		if (imp_u64(f[i], 10, &v[i]))
			return imp_error(im, "bad value '%s' in field %d", f[i], i);
	if (v[4] > UE_ACCESS_MAX)
		return imp_error(im, "unknown access type %llu", (unsigned long long)v[4]);
	l->ts = v[2];
	l->write = v[4] >= UE_ACCESS_WRITE;
	l->count = v[6] ? (uint32_t)v[6] : 1;
	l->kind = 'f';
	return 0;
}

/* One line of the log into @l; an error names the line. */
static int ue_parse(struct imp *im, char *line, struct ue_line *l)
{
	char *f[UE_FIELDS + 1];
	int i, n;

	memset(l, 0, sizeof(*l));
	if (!*line)
		return 0;
	if (!strncmp(line, "0x", 2))
		return ue_range(im, line, l);
	if (line[0] == 0 || line[1] != ',')
		return imp_error(im, "not a uvm-eval log line");
	n = imp_split(line, ',', f, UE_FIELDS);
	switch (line[0]) {
	case 's':
		return 0;
	case 'f':
		return ue_fault(im, f, n, l);
	case 'b':
		for (i = 1; i < n; i++)
			if (imp_u64(f[i], 10, &l->ts))
				return imp_error(im, "bad value '%s' in a b line", f[i]);
		l->kind = n >= 3 ? 'b' : 0;
		return n >= 3 ? 0 : imp_error(im, "a b line has at least 2 values");
	case 'e':
		if (n > 2)	/* the batchd driver's per-batch statistics */
			return 0;
		/* fall through */
	case 'p':
		if (n != 2 || imp_u64(f[1], 16, &l->addr))
			return imp_error(im, "an %c line is %c,<address in hex>", line[0], line[0]);
		l->kind = line[0];
		return 0;
	}
	return imp_error(im, "not a uvm-eval log line (kind '%c')", line[0]);
}

/* Pass 1: check every line; the extents, touched pages and clock. */
static int ue_scan(struct imp *im, FILE *f, char **buf, size_t *cap)
{
	struct ue_line l;
	int ret;

	while ((ret = imp_line(im, f, buf, cap)) > 0) {
		ret = ue_parse(im, *buf, &l);
		if (!ret && l.kind == 'r')
			ret = imp_extent(im, l.addr, l.bytes);
		if (!ret && l.kind == 'f')
			imp_time_seen(im, l.ts);
		if (!ret && (l.kind == 'f' || l.kind == 'e' || l.kind == 'p'))
			ret = imp_touch(im, l.addr, IMP_PAGE);
		if (ret)
			return ret;
	}
	return ret;
}

static int ue_emit(struct imp *im, const struct ue_line *l, uint64_t *batch,
		   uint64_t *t)
{
	struct uvm_event_migrate m = {
		.addr = l->addr & ~(IMP_PAGE - 1), .bytes = IMP_PAGE, .pages = 1,
		.cause = UVM_EVENT_CAUSE_PREFETCH, .src_type = UVM_EVENT_LOC_HOST,
		.src_id = -1, .dst_type = UVM_EVENT_LOC_DEVICE, .dst_id = 0,
	};

	switch (l->kind) {
	case 'f':
		*t = l->ts;
		return imp_fault(im, l->ts, 0, *batch, l->addr, l->write, l->count);
	case 'e':
		return imp_evict(im, *t, 0, l->addr, 0, 0);
	case 'p':
		return imp_migrate(im, *t, 0, &m);
	case 'b':
		(*batch)++;
		return imp_batch_end(im);
	}
	return 0;
}

/* Pass 2: the records. Batches are numbered by their b lines, from 1. */
static int ue_write(struct imp *im, FILE *f, char **buf, size_t *cap)
{
	uint64_t batch = 1, t = im->t0;
	struct ue_line l;
	int ret;

	while ((ret = imp_line(im, f, buf, cap)) > 0) {
		ret = ue_parse(im, *buf, &l);
		if (!ret)
			ret = ue_emit(im, &l, &batch, &t);
		if (ret)
			return ret;
	}
	return ret;
}

static int ue_pass(struct imp *im, FILE *f, char **buf, size_t *cap, int emit)
{
	int ret;

	if (emit)
		return ue_write(im, f, buf, cap);
	ret = ue_scan(im, f, buf, cap);
	if (!ret && !im->have_t0)
		ret = imp_error(im, "no fault (f,) line: not a uvm-eval fault log");
	if (!ret)
		ret = imp_device(im, 0, "uvm-eval GPU") < 0;
	return ret;
}

int imp_uvmeval(struct imp *im)
{
	return imp_text(im, ue_pass);
}
