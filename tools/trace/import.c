// SPDX-License-Identifier: MIT
/*
 * import.c - uvm-trace import FORMAT IN [-o OUT]: the command, and what the
 * four importers share (import.h): the output file, the clock, the device
 * table, the allocations and the batching of device faults.
 * docs/trace-import.md describes each format and every choice made here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import.h"
#include "record_kernels.h"

#ifndef UT_UVM_VERSION
#define UT_UVM_VERSION "unknown"
#endif

int imp_init(struct imp *im, const char *fmt, const char *in, const char *out,
	     uint64_t types)
{
	memset(im, 0, sizeof(*im));
	im->fmt = fmt;
	im->in = in;
	im->out = out;
	im->unit = "line";
	im->base = IMP_START_NS;
	im->clock_id = 1;
	im->types = types | (1ULL << UVM_EVENT_ALLOC);
	if (snprintf(im->tmp, sizeof(im->tmp), "%s.tmp", out) >= (int)sizeof(im->tmp))
		return -ENAMETOOLONG;
	im->batch = calloc(1, sizeof(*im->batch));
	return im->batch ? 0 : -ENOMEM;
}

/* "uvm-trace import: IN: line N: ..." (the position when there is one). */
int imp_error(struct imp *im, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uvm-trace import: %s: ", im->in);
	if (im->pos)
		fprintf(stderr, "%s %llu: ", im->unit, (unsigned long long)im->pos);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* Strict unsigned parse of the whole of @s. */
int imp_u64(const char *s, int base, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

/*
 * The next line of @f into *@buf, without its newline: 1, or 0 at the end
 * of the file; an error for a last line cut short (no newline) or a NUL.
 */
int imp_line(struct imp *im, FILE *f, char **buf, size_t *cap)
{
	ssize_t n = getline(buf, cap, f);

	if (n < 0) {
		if (ferror(f))
			return imp_error(im, "%s", strerror(errno));
		return 0;
	}
	im->pos++;
	if ((size_t)n != strlen(*buf))
		return imp_error(im, "a NUL byte: not a text log");
	if ((*buf)[n - 1] != '\n')
		return imp_error(im, "truncated: the line has no end");
	(*buf)[--n] = 0;
	if (n && (*buf)[n - 1] == '\r')
		(*buf)[--n] = 0;
	return 1;
}

/* Split @s in place at each @sep into at most @max fields; their number. */
int imp_split(char *s, char sep, char **field, int max)
{
	int n = 0;

	for (;;) {
		char *p = strchr(s, sep);

		if (n == max)
			return max + 1;
		field[n++] = s;
		if (!p)
			return n;
		*p = 0;
		s = p + 1;
	}
}

/**
 * imp_text() - a text importer's two passes over im->in: the scan, the
 * header and allocations (imp_begin()), the records, the end.
 * @im: the import.
 * @pass: the importer's pass (see imp_pass_fn).
 *
 * Return: 0 or an error imp_error() has reported.
 */
int imp_text(struct imp *im, imp_pass_fn pass)
{
	FILE *f = fopen(im->in, "re");
	char *buf = NULL;
	size_t cap = 0;
	int ret;

	if (!f)
		return imp_error(im, "%s", strerror(errno));
	ret = pass(im, f, &buf, &cap, 0);
	if (!ret)
		ret = imp_begin(im);
	if (!ret) {
		rewind(f);
		im->pos = 0;
		ret = pass(im, f, &buf, &cap, 1);
	}
	if (!ret)
		ret = imp_end(im);
	free(buf);
	fclose(f);
	return ret;
}

/* ---- pass 1: time, devices, pid, addresses ---- */

void imp_time_seen(struct imp *im, uint64_t t)
{
	if (!im->have_t0 || t < im->t0)
		im->t0 = t;
	im->have_t0 = 1;
}

void imp_pid(struct imp *im, uint32_t pid)
{
	if (!im->pid_set)
		im->pid = pid;
	else if (im->pid != pid)
		im->pid = 0;	/* several processes */
	im->pid_set = 1;
}

/* Our device id for the format's @key, given in order of appearance. */
int imp_device(struct imp *im, uint64_t key, const char *name)
{
	uint32_t i;

	for (i = 0; i < im->ndev; i++)
		if (im->dev_key[i] == key)
			return (int)i;
	if (im->ndev == IMP_MAX_DEVICES)
		return imp_error(im, "more than %d devices", IMP_MAX_DEVICES);
	im->dev_key[i] = key;
	snprintf(im->dev_name[i], sizeof(im->dev_name[i]), "%s", name);
	im->ndev++;
	return (int)i;
}

static int block_grow(struct imp *im)
{
	uint64_t *old = im->blocks, ocap = im->bcap, i;
	uint64_t cap = ocap ? ocap * 2 : 1024;

	im->blocks = calloc(cap, sizeof(*im->blocks));
	if (!im->blocks) {
		im->blocks = old;
		return -ENOMEM;
	}
	im->bcap = cap;
	im->nblocks = 0;
	for (i = 0; i < ocap; i++) {
		uint64_t h, v = old[i];

		if (!v)
			continue;
		for (h = (v * 0x9e3779b97f4a7c15ULL) & (cap - 1); im->blocks[h];
		     h = (h + 1) & (cap - 1))
			;
		im->blocks[h] = v;
		im->nblocks++;
	}
	free(old);
	return 0;
}

static int block_add(struct imp *im, uint64_t block)
{
	uint64_t h, v = block + 1;

	if (2 * (im->nblocks + 1) > im->bcap && block_grow(im))
		return -ENOMEM;
	for (h = (v * 0x9e3779b97f4a7c15ULL) & (im->bcap - 1); im->blocks[h];
	     h = (h + 1) & (im->bcap - 1))
		if (im->blocks[h] == v)
			return 0;
	im->blocks[h] = v;
	im->nblocks++;
	return 0;
}

/* The record at the current position uses [addr, addr + bytes). */
int imp_touch(struct imp *im, uint64_t addr, uint64_t bytes)
{
	uint64_t b, last;

	if (!bytes)
		bytes = 1;
	if (bytes > IMP_MAX_RANGE || addr + bytes < addr)
		return imp_error(im, "implausible range 0x%llx + %llu bytes",
				 (unsigned long long)addr, (unsigned long long)bytes);
	last = (addr + bytes - 1) / IMP_BLOCK;
	for (b = addr / IMP_BLOCK; b <= last; b++)
		if (block_add(im, b))
			return imp_error(im, "out of memory");
	return 0;
}

/* An allocation the format names: emitted as it is, before every record. */
int imp_extent(struct imp *im, uint64_t addr, uint64_t bytes)
{
	if (!bytes || bytes > IMP_MAX_RANGE || addr + bytes < addr)
		return imp_error(im, "implausible allocation 0x%llx + %llu bytes",
				 (unsigned long long)addr, (unsigned long long)bytes);
	if (im->next == im->ecap) {
		uint64_t cap = im->ecap ? im->ecap * 2 : 64;
		struct imp_extent *e = realloc(im->ext, cap * sizeof(*e));

		if (!e)
			return imp_error(im, "out of memory");
		im->ext = e;
		im->ecap = cap;
	}
	im->ext[im->next].addr = addr;
	im->ext[im->next].bytes = bytes;
	im->next++;
	return 0;
}

/* ---- the header, the allocations ---- */

static void fill_header(struct imp *im, struct tr_info *info)
{
	struct tr_header *h = &info->h;
	uint32_t i;

	h->types = im->types;
	h->clock_id = im->clock_id;
	h->pid = im->pid;
	h->start_ns = im->base;
	h->page_size = IMP_PAGE;
	h->block_size = IMP_BLOCK;
	h->num_devices = im->ndev;
	h->mode = TR_MODE_IMPORT;
	snprintf(h->tool_version, sizeof(h->tool_version), "%s", UT_UVM_VERSION);
	snprintf(h->command, sizeof(h->command), "import %s %s", im->fmt, im->in);
	for (i = 0; i < im->ndev; i++) {
		info->devs[i].id = i;
		info->devs[i].numa_node = -1;
		snprintf(info->devs[i].name, sizeof(info->devs[i].name), "%s",
			 im->dev_name[i]);
	}
	if (im->fill)
		im->fill(im, info);
}

static void emit_init(struct imp *im, struct uvm_event *ev, uint16_t type,
		      uint64_t ns, uint32_t pid)
{
	memset(ev, 0, sizeof(*ev));
	ev->hdr.type = type;
	ev->hdr.size = sizeof(*ev);
	ev->hdr.version = UVM_EVENTS_VERSION;
	ev->hdr.pid = pid ? pid : im->pid;
	ev->hdr.tid = pid ? pid : im->pid;
	ev->hdr.timestamp_ns = ns;
	ev->hdr.va_space = im->pid ? im->pid : 1;
}

/*
 * The kernel records that start before @ts (all with UINT64_MAX): a
 * kernel goes after every record of its start's time or earlier, so it
 * never parts a batch from its pages (they share a time).
 */
static int emit_kernels(struct imp *im, uint64_t ts)
{
	int ret;

	for (; im->ikern < im->nkern && im->kern[im->ikern].hdr.timestamp_ns < ts;
	     im->ikern++) {
		ret = tr_append(&im->w, &im->kern[im->ikern]);
		if (ret)
			return imp_error(im, "%s: %s", im->tmp, strerror(-ret));
	}
	return 0;
}

static int emit(struct imp *im, const struct uvm_event *ev)
{
	int ret = emit_kernels(im, ev->hdr.timestamp_ns);

	if (ret)
		return ret;
	ret = tr_append(&im->w, ev);
	if (ret)
		return imp_error(im, "%s: %s", im->tmp, strerror(-ret));
	return 0;
}

/**
 * imp_kernels() - merge kernel records into the trace by time.
 * @im: the import, before imp_begin().
 * @ev: UVM_EVENT_KERNEL records by start, on the format's clock as the
 *	trace keeps it (a capture's: CLOCK_MONOTONIC_RAW); kept until
 *	imp_end().
 * @n: how many (0: recorded, none ran).
 *
 * The header's types say kernels were recorded, even none.
 */
void imp_kernels(struct imp *im, const struct uvm_event *ev, size_t n)
{
	im->kern = ev;
	im->nkern = n;
	im->ikern = 0;
	im->types |= 1ULL << UVM_EVENT_KERNEL;
}

/*
 * Kernel launches are on CLOCK_MONOTONIC_RAW, which only a capture of
 * record-nvidia keeps (a bare stream's times are moved to IMP_START_NS);
 * kernels that start before the trace or out of order are another clock's.
 */
static int check_kernels(struct imp *im)
{
	size_t i;

	if (im->kern && im->clock_id != 4)
		return imp_error(im, "--kernels: launches are on CLOCK_MONOTONIC_RAW, "
				 "which only a capture of record-nvidia keeps");
	for (i = 0; i < im->nkern; i++) {
		uint64_t t = im->kern[i].hdr.timestamp_ns;

		if (t < im->base || (i && t < im->kern[i - 1].hdr.timestamp_ns))
			return imp_error(im, "kernel launch %zu (%.*s) starts at %llu, %s: "
					 "not on this trace's clock", i + 1,
					 UVM_EVENT_KERNEL_NAME, im->kern[i].u.kernel.name, (unsigned long long)t,
					 t < im->base ? "before the recording" :
					 "before the one listed before it");
	}
	return 0;
}

/* A whole record as it is (import jsonl): after the open batch, if any. */
int imp_record(struct imp *im, const struct uvm_event *ev)
{
	return imp_batch_end(im) ?: emit(im, ev);
}

static int emit_alloc(struct imp *im, uint64_t addr, uint64_t bytes)
{
	struct uvm_event ev;

	emit_init(im, &ev, UVM_EVENT_ALLOC, im->base, 0);
	ev.u.alloc.addr = addr;
	ev.u.alloc.bytes = bytes;
	im->nalloc++;
	return emit(im, &ev);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_ext(const void *a, const void *b)
{
	return cmp_u64(&((const struct imp_extent *)a)->addr,
		       &((const struct imp_extent *)b)->addr);
}

/* Merge overlapping extents of the sorted array (neighbours stay apart). */
static uint64_t merge_extents(struct imp_extent *e, uint64_t n)
{
	uint64_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (k && e[i].addr < e[k - 1].addr + e[k - 1].bytes) {
			uint64_t end = e[i].addr + e[i].bytes;

			if (end > e[k - 1].addr + e[k - 1].bytes)
				e[k - 1].bytes = end - e[k - 1].addr;
			continue;
		}
		e[k++] = e[i];
	}
	return k;
}

/*
 * Emit [start, end) less the format's extents (sorted, merged), from
 * extent *@j on: the part of a run of touched blocks no allocation covers.
 */
static int emit_uncovered(struct imp *im, uint64_t start, uint64_t end, uint64_t *j)
{
	int ret = 0;

	while (*j < im->next && im->ext[*j].addr + im->ext[*j].bytes <= start)
		(*j)++;
	for (uint64_t k = *j; k < im->next && im->ext[k].addr < end && !ret; k++) {
		if (im->ext[k].addr > start)
			ret = emit_alloc(im, start, im->ext[k].addr - start);
		start = im->ext[k].addr + im->ext[k].bytes;
		if (start >= end)
			return ret;
	}
	return ret ?: emit_alloc(im, start, end - start);
}

/* The touched blocks, sorted, into runs of neighbours: reconstructed extents. */
static int emit_reconstructed(struct imp *im)
{
	uint64_t i, n = 0, j = 0, *b;
	int ret = 0;

	b = malloc((im->nblocks + 1) * sizeof(*b));
	if (!b)
		return imp_error(im, "out of memory");
	for (i = 0; i < im->bcap; i++)
		if (im->blocks[i])
			b[n++] = im->blocks[i] - 1;
	qsort(b, n, sizeof(*b), cmp_u64);
	for (i = 0; i < n && !ret;) {
		uint64_t first = b[i];

		while (i + 1 < n && b[i + 1] == b[i] + 1)
			i++;
		ret = emit_uncovered(im, first * IMP_BLOCK, (b[i] + 1) * IMP_BLOCK, &j);
		i++;
	}
	free(b);
	return ret;
}

/*
 * After pass 1: write the header and every allocation (the format's, then
 * the reconstructed ones), all at the first event's time. Each ALLOC comes
 * before any record that uses it; the trace is written to OUT.tmp.
 */
int imp_begin(struct imp *im)
{
	static struct tr_node no_node;	/* zlib's crc32(c, NULL, 0) is 0, not c */
	struct tr_info info;
	uint64_t i;
	int ret;

	memset(&info, 0, sizeof(info));
	info.nodes = &no_node;
	info.devs = calloc(im->ndev + 1, sizeof(*info.devs));
	if (!info.devs)
		return imp_error(im, "out of memory");
	fill_header(im, &info);
	im->pos = 0;
	ret = check_kernels(im);
	if (ret) {
		free(info.devs);
		return ret;
	}
	ret = tr_create(&im->w, im->tmp, &info);
	free(info.devs);
	if (ret)
		return imp_error(im, "%s: %s", im->tmp, strerror(-ret));
	im->writing = 1;
	qsort(im->ext, im->next, sizeof(*im->ext), cmp_ext);
	im->next = merge_extents(im->ext, im->next);
	for (i = 0; i < im->next && !ret; i++)
		ret = emit_alloc(im, im->ext[i].addr, im->ext[i].bytes);
	return ret ?: emit_reconstructed(im);
}

/* Finish OUT.tmp and rename it to OUT. */
int imp_end(struct imp *im)
{
	int ret = imp_batch_end(im) ?: emit_kernels(im, UINT64_MAX);

	im->writing = 0;
	if (tr_finish(&im->w) && !ret)
		ret = imp_error(im, "%s: %s", im->tmp, strerror(errno));
	if (!ret && rename(im->tmp, im->out))
		ret = imp_error(im, "%s: %s", im->out, strerror(errno));
	if (ret)
		unlink(im->tmp);
	return ret;
}

/* An error: nothing is left behind. */
void imp_abort(struct imp *im)
{
	if (im->writing) {
		tr_finish(&im->w);
		unlink(im->tmp);
		im->writing = 0;
	}
}

void imp_release(struct imp *im)
{
	free(im->blocks);
	free(im->ext);
	free(im->batch);
}

/* ---- pass 2: records ---- */

/* The format's time @t as the trace's: never before the previous record. */
uint64_t imp_ns(struct imp *im, uint64_t t)
{
	uint64_t ns = im->base + (t >= im->t0 ? t - im->t0 : 0);

	if (ns < im->last)
		ns = im->last;
	im->last = ns;
	return ns;
}

/* The open batch as a FAULT_BATCH record and one DEVICE_FAULT a page. */
int imp_batch_end(struct imp *im)
{
	struct imp_batch *b = im->batch;
	struct uvm_event ev;
	uint64_t num;
	uint32_t i;
	int ret;

	if (!b->open)
		return 0;
	b->open = 0;
	num = b->key == IMP_BATCH_GROUP ? ++im->batches : b->key;
	emit_init(im, &ev, UVM_EVENT_FAULT_BATCH, b->ts, 0);
	ev.u.batch.batch = num;
	ev.u.batch.device = b->device;
	ev.u.batch.faults = b->faults;
	ev.u.batch.pages = b->n;
	ev.u.batch.duplicates = b->faults - b->n;
	ret = emit(im, &ev);
	for (i = 0; i < b->n && !ret; i++) {
		emit_init(im, &ev, UVM_EVENT_DEVICE_FAULT, b->ts, 0);
		ev.u.device_fault.addr = b->page[i];
		ev.u.device_fault.batch = num;
		ev.u.device_fault.device = b->device;
		ev.u.device_fault.write = b->write[i];
		ret = emit(im, &ev);
	}
	return ret;
}

static void batch_open(struct imp_batch *b, uint32_t dev, uint64_t key)
{
	b->open = 1;
	b->device = dev;
	b->key = key;
	b->faults = 0;
	b->n = 0;
	b->ts = 0;
	memset(b->slot, 0, sizeof(b->slot));
}

/* The index of @page in the batch, adding it; -1 if the batch is full. */
static int64_t batch_page(struct imp_batch *b, uint64_t page, uint32_t cap)
{
	uint32_t mask = 2 * IMP_BATCH_PAGES - 1, h;

	for (h = (uint32_t)((page >> 12) * 0x9e3779b1u) & mask; b->slot[h];
	     h = (h + 1) & mask)
		if (b->page[b->slot[h] - 1] == page)
			return b->slot[h] - 1;
	if (b->n == cap)
		return -1;
	b->page[b->n] = page;
	b->write[b->n] = 0;
	b->slot[h] = ++b->n;
	return b->n - 1;
}

/*
 * One device fault (@count faults of one page). @key: the format's batch
 * id, or IMP_BATCH_GROUP: consecutive faults with no other record between
 * them, at most IMP_GROUP_PAGES distinct pages, make a batch.
 */
int imp_fault(struct imp *im, uint64_t t, uint32_t dev, uint64_t key,
	      uint64_t addr, int write, uint32_t count)
{
	struct imp_batch *b = im->batch;
	uint32_t cap = key == IMP_BATCH_GROUP ? IMP_GROUP_PAGES : IMP_BATCH_PAGES;
	uint64_t ns = imp_ns(im, t);
	int64_t i;
	int ret;

	if (b->open && (b->device != dev || b->key != key)) {
		ret = imp_batch_end(im);
		if (ret)
			return ret;
	}
	if (!b->open)
		batch_open(b, dev, key);
	i = batch_page(b, addr & ~(IMP_PAGE - 1), cap);
	if (i < 0) {
		ret = imp_batch_end(im);
		if (ret)
			return ret;
		batch_open(b, dev, key);
		i = batch_page(b, addr & ~(IMP_PAGE - 1), cap);
	}
	b->write[i] |= !!write;
	b->faults += count ? count : 1;
	b->ts = ns;
	return 0;
}

/*
 * A record that is not a device fault: the batch open before it ends
 * first, then @ev is set up as a record of @type at trace time @t.
 */
static int record_begin(struct imp *im, struct uvm_event *ev, uint16_t type,
			uint64_t t, uint32_t pid)
{
	int ret = imp_batch_end(im);

	if (!ret)
		emit_init(im, ev, type, imp_ns(im, t), pid);
	return ret;
}

int imp_cpu_fault(struct imp *im, uint64_t t, uint32_t pid, uint32_t tid,
		  uint64_t addr, int write, int node)
{
	struct uvm_event ev;
	int ret = record_begin(im, &ev, UVM_EVENT_CPU_FAULT, t, pid);

	if (ret)
		return ret;
	if (tid)
		ev.hdr.tid = tid;
	ev.u.cpu_fault.addr = addr;
	ev.u.cpu_fault.write = !!write;
	ev.u.cpu_fault.node = node;
	ev.u.cpu_fault.pages = 1;
	return emit(im, &ev);
}

int imp_migrate(struct imp *im, uint64_t t, uint32_t pid,
		const struct uvm_event_migrate *m)
{
	struct uvm_event ev;
	int ret = record_begin(im, &ev, UVM_EVENT_MIGRATE, t, pid);

	if (ret)
		return ret;
	ev.u.migrate = *m;
	if (!ev.u.migrate.pages)
		ev.u.migrate.pages = (uint32_t)((m->bytes + IMP_PAGE - 1) / IMP_PAGE);
	return emit(im, &ev);
}

int imp_evict(struct imp *im, uint64_t t, uint32_t pid, uint64_t addr,
	      uint64_t bytes, uint32_t dev)
{
	struct uvm_event ev;
	int ret = record_begin(im, &ev, UVM_EVENT_EVICT, t, pid);

	if (ret)
		return ret;
	ev.u.evict.addr = addr;
	ev.u.evict.bytes = bytes;
	ev.u.evict.device = dev;
	ev.u.evict.own = 1;
	return emit(im, &ev);
}

int imp_prefetch(struct imp *im, uint64_t t, uint32_t pid, uint64_t addr,
		 uint64_t bytes, uint32_t dst_type, int32_t dst_id)
{
	struct uvm_event ev;
	int ret = record_begin(im, &ev, UVM_EVENT_PREFETCH, t, pid);

	if (ret)
		return ret;
	ev.u.prefetch.addr = addr;
	ev.u.prefetch.bytes = bytes;
	ev.u.prefetch.dst_type = dst_type;
	ev.u.prefetch.dst_id = dst_id;
	return emit(im, &ev);
}

int imp_event(struct imp *im, uint64_t t, uint32_t pid, const struct uvm_event *ev)
{
	struct uvm_event e;
	int ret = record_begin(im, &e, ev->hdr.type, t, pid);

	if (ret)
		return ret;
	e.u = ev->u;
	return emit(im, &e);
}

/* ---- the command ---- */

static const struct {
	const char *name;
	int (*run)(struct imp *im);
	uint64_t types;
} formats[] = {
	{ "uvm-eval", imp_uvmeval, (1ULL << UVM_EVENT_FAULT_BATCH) |
	  (1ULL << UVM_EVENT_DEVICE_FAULT) | (1ULL << UVM_EVENT_MIGRATE) |
	  (1ULL << UVM_EVENT_EVICT) },
	{ "nsys", imp_nsys, (1ULL << UVM_EVENT_FAULT_BATCH) |
	  (1ULL << UVM_EVENT_DEVICE_FAULT) | (1ULL << UVM_EVENT_CPU_FAULT) |
	  (1ULL << UVM_EVENT_MIGRATE) | (1ULL << UVM_EVENT_EVICT) |
	  (1ULL << UVM_EVENT_PREFETCH) },
	{ "kfd-smi", imp_kfd, (1ULL << UVM_EVENT_FAULT_BATCH) |
	  (1ULL << UVM_EVENT_DEVICE_FAULT) | (1ULL << UVM_EVENT_CPU_FAULT) |
	  (1ULL << UVM_EVENT_MIGRATE) | (1ULL << UVM_EVENT_EVICT) |
	  (1ULL << UVM_EVENT_PREFETCH) },
	{ "nvuvm", imp_nvuvm, NV_IMPORT_TYPES },
	{ "nvcupti", imp_nvcupti, NVC_IMPORT_TYPES },
	{ "jsonl", imp_jsonl, (1ULL << TR_TYPES) - 1 },
};

static int import_usage(FILE *f, int st)
{
	fprintf(f,
		"usage: uvm-trace import FORMAT IN [-o OUT] [--kernels FILE]\n"
		"  FORMAT  uvm-eval  uvm-eval's fault log (log2csv output)\n"
		"          nsys      Nsight Systems SQLite export\n"
		"          kfd-smi   AMD KFD SMI event lines\n"
		"          nvuvm     NVIDIA UVM tools events (UvmEventEntry_V2 records)\n"
		"          nvcupti   record-nvidia --source cupti's line file (CUPTI)\n"
		"          jsonl     uvm-trace export --jsonl output, record for record\n"
		"  -o OUT  the trace (default uvm.trace); written as OUT.tmp, then renamed\n"
		"  --kernels FILE  nvuvm: kernel launches to merge in as kernel records:\n"
		"          a trace's (record-nvidia's, from the same capture), or a\n"
		"          FILE.kernels an earlier record-nvidia wrote beside its trace\n"
		"The formats and their mapping: docs/trace-import.md.\n");
	return st;
}

/* The kernel records of trace @path (malloc'd, *@n of them), or NULL, said. */
static struct uvm_event *trace_kernels(const char *path, size_t *n)
{
	static struct tr_reader r;
	const struct uvm_event *ev;
	struct uvm_event *v = NULL, *nv;
	size_t cap = 0;
	int ret;

	*n = 0;
	if (tr_open(&r, path)) {
		fprintf(stderr, "uvm-trace import: %s: %s\n", path, r.err);
		tr_close(&r);
		return NULL;
	}
	while ((ret = tr_next(&r, &ev)) > 0) {
		if (ev->hdr.type != UVM_EVENT_KERNEL)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				ret = -1;
				snprintf(r.err, sizeof(r.err), "out of memory");
				break;
			}
			v = nv;
		}
		v[(*n)++] = *ev;
	}
	if (ret < 0) {
		fprintf(stderr, "uvm-trace import: %s: %s\n", path, r.err);
		free(v);
		v = NULL;
	} else if (!v) {
		v = malloc(sizeof(*v));
	}
	tr_close(&r);
	return v;
}

/* --kernels FILE: a trace's kernel records, or a FILE.kernels' launches. */
static struct uvm_event *load_kernels(const char *path, size_t *n)
{
	struct uvm_event *kev;
	struct nvk_set ks;
	char magic[sizeof(TR_MAGIC) - 1] = { 0 };
	FILE *f = fopen(path, "re");

	if (f) {
		if (fread(magic, 1, sizeof(magic), f) != sizeof(magic))
			magic[0] = 0;
		fclose(f);
	}
	if (!memcmp(magic, TR_MAGIC, sizeof(magic)))
		return trace_kernels(path, n);
	if (nvk_load(&ks, path))
		return NULL;
	kev = nvk_events(&ks);
	*n = ks.n;
	nvk_free(&ks);
	if (!kev)
		fprintf(stderr, "uvm-trace import: out of memory\n");
	return kev;
}

/* The import, with --kernels' launches merged in when given. */
static int import_run(struct imp *im, int (*run)(struct imp *im), const char *kfile)
{
	struct uvm_event *kev = NULL;
	size_t n = 0;
	int ret;

	if (kfile) {
		kev = load_kernels(kfile, &n);
		if (!kev)
			return -EINVAL;
		imp_kernels(im, kev, n);
	}
	ret = run(im);
	if (ret)
		imp_abort(im);
	free(kev);
	return ret;
}

int tr_import_main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "kernels", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "uvm.trace", *kfile = NULL;
	struct imp im;
	unsigned int f;
	int c, ret;

	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'k')
			kfile = optarg;
		else if (c == 'h')
			return import_usage(stdout, 0);
		else
			return import_usage(stderr, TR_EXIT_USAGE);
	}
	if (argc - optind != 2) {
		fprintf(stderr, "uvm-trace import: need FORMAT and IN\n");
		return import_usage(stderr, TR_EXIT_USAGE);
	}
	for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
		if (!strcmp(argv[optind], formats[f].name))
			break;
	if (f == sizeof(formats) / sizeof(formats[0])) {
		fprintf(stderr, "uvm-trace import: unknown format '%s'\n", argv[optind]);
		return import_usage(stderr, TR_EXIT_USAGE);
	}
	if (kfile && strcmp(formats[f].name, "nvuvm")) {
		fprintf(stderr, "uvm-trace import: --kernels: nvuvm only (record-nvidia's "
			"kernel launches, on its clock)\n");
		return import_usage(stderr, TR_EXIT_USAGE);
	}
	ret = imp_init(&im, formats[f].name, argv[optind + 1], out, formats[f].types);
	if (ret) {
		fprintf(stderr, "uvm-trace import: %s\n", strerror(-ret));
		imp_release(&im);
		return 1;
	}
	ret = import_run(&im, formats[f].run, kfile);
	if (!ret)
		fprintf(stderr, "uvm-trace import: %s: %llu records to %s\n", im.in,
			(unsigned long long)im.w.index, im.out);
	imp_release(&im);
	return ret ? 1 : 0;
}
