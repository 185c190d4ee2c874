// SPDX-License-Identifier: MIT
/*
 * import_nvcupti.c - uvm-trace import nvcupti FILE: the line file of
 * `record-nvidia --source cupti` (CUPTI's unified-memory counters, the
 * managed allocations, the program's prefetches and advice, as the
 * injection library cupti/nvrec_cupti.c wrote them per process) into a
 * trace, with its completeness checked. docs/trace-import.md has the
 * format and the mapping; the file:
 *
 *   nvcupti 1                          the first line
 *   start <raw_ns> <realtime_ns>       the recording's start (CLOCK_MONOTONIC_RAW, _REALTIME)
 *   end <raw_ns>
 *   pid <pid>                          the command's process
 *   driver|host|gpu|command <text>     NVIDIA's driver, the host, a GPU's name, the command
 *   U|A|P|V|D ...                      the processes' records (nvrec_cupti.c)
 *
 * CUPTI's records arrive out of time order across kinds: they are held
 * (64 bytes each) and sorted by time. Completeness: CUPTI's own drop count,
 * every process's last line, and per allocation the pages whose moves the
 * faults and prefetches imply (nvc_check()).
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import.h"
#include "nvcupti.h"

enum {	/* CUpti_ActivityUnifiedMemoryCounterKind */
	NVC_HTOD = 1, NVC_DTOH, NVC_CPU_FAULT, NVC_GPU_FAULT, NVC_THRASH,
	NVC_THROTTLE, NVC_REMOTE_MAP, NVC_DTOD,
};

enum {	/* CUpti_ActivityUnifiedMemoryMigrationCause */
	NVC_CAUSE_USER = 1, NVC_CAUSE_COHERENCE, NVC_CAUSE_PREFETCH, NVC_CAUSE_EVICTION,
};

#define NVC_CPU		0xffffffffu	/* a src/dst id: the CPU */
#define NVC_IN_CPU	1u		/* CUPTI_ACTIVITY_FLAG_THRASHING_IN_CPU, _THROTTLING_ */
#define NVC_PIDS	64

/* Page states of the completeness check. */
#define PG_CPU		1	/* last moved to the host */
#define PG_GPU		2	/* last moved to a device */
#define PG_TOUCHED	3	/* on the host by a CPU fault's first touch, it seems */
#define PG_LOC		3
#define PG_OWE_H	4	/* a fault or prefetch needs a move to the device */
#define PG_OWE_D	8	/* ... to the host */
#define PG_EXEMPT	16	/* thrashing, remote-mapped, advised: not checked */

struct nvc_rec {
	uint64_t t, end, addr, value;
	uint32_t line, pid, src, dst, flags;
	int32_t loc_id;
	char type;		/* U A P V D */
	uint8_t kind;		/* U: counter kind; A: operation; P: location type; V: advice */
	uint8_t loc_type;	/* V */
	uint8_t rank;		/* ties: moves before the prefetch they belong to */
};

struct nvc_alloc {
	uint64_t addr, bytes, owe_h, owe_d;
	uint8_t *page;
};

struct nvc {
	const char *who;
	struct nv_capture cap;	/* the header lines */
	int have_start;
	struct nvc_rec *v;
	size_t n, vcap;
	struct nvc_alloc *a;
	size_t na, acap;
	uint32_t pid[NVC_PIDS];
	uint8_t ended[NVC_PIDS];
	unsigned int npid;
	uint64_t dropped, missing, batches;
	int completeness;
};

/* ---- reading ---- */

static int nvc_num(struct imp *im, const char *s, const char *what, uint64_t *v)
{
	if (imp_u64(s, 10, v))
		return imp_error(im, "bad number '%s' (%s)", s, what);
	return 0;
}

static int nvc_u32(struct imp *im, const char *s, const char *what, uint32_t *v)
{
	uint64_t x;
	int ret = nvc_num(im, s, what, &x);

	if (!ret && x > UINT32_MAX)
		return imp_error(im, "bad number '%s' (%s)", s, what);
	*v = (uint32_t)x;
	return ret;
}

static int nvc_s32(struct imp *im, const char *s, const char *what, int32_t *v)
{
	uint64_t x;
	int neg = *s == '-';

	if (imp_u64(s + neg, 10, &x) || x > (neg ? 0x80000000ULL : 0x7fffffffULL))
		return imp_error(im, "bad number '%s' (%s)", s, what);
	*v = neg ? (int32_t)-(int64_t)x : (int32_t)x;
	return 0;
}

static int nvc_pid(struct imp *im, struct nvc *c, uint32_t pid)
{
	unsigned int i;

	for (i = 0; i < c->npid; i++)
		if (c->pid[i] == pid)
			return (int)i;
	if (c->npid == NVC_PIDS)
		return imp_error(im, "more than %d processes", NVC_PIDS);
	c->pid[c->npid] = pid;
	c->ended[c->npid] = 0;
	return (int)c->npid++;
}

static int nvc_add(struct imp *im, struct nvc *c, const struct nvc_rec *r)
{
	if (c->n == c->vcap) {
		size_t cap = c->vcap ? 2 * c->vcap : 4096;
		struct nvc_rec *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return imp_error(im, "out of memory");
		c->v = v;
		c->vcap = cap;
	}
	c->v[c->n++] = *r;
	return 0;
}

/* A header line (@key, the rest @val): 1 if it was one, or an error. */
static int nvc_header(struct imp *im, struct nvc *c, const char *line)
{
	static const char *const keys[] = { "start ", "end ", "pid ", "driver ", "host ",
					    "gpu ", "command " };
	struct nv_capture *h = &c->cap;
	char *f[4];
	char buf[64];
	unsigned int k;
	const char *val;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!strncmp(line, keys[k], strlen(keys[k])))
			break;
	if (k == sizeof(keys) / sizeof(keys[0]))
		return 0;
	val = line + strlen(keys[k]);
	switch (k) {
	case 0:
		snprintf(buf, sizeof(buf), "%s", val);
		if (imp_split(buf, ' ', f, 2) != 2)
			return imp_error(im, "a start line needs two times");
		c->have_start = 1;
		return nvc_num(im, f[0], "start", &h->start_raw_ns) ?:
		       nvc_num(im, f[1], "start", &h->start_realtime_ns) ?: 1;
	case 1:
		return nvc_num(im, val, "end", &h->end_raw_ns) ?: 1;
	case 2:
		return nvc_u32(im, val, "pid", &h->pid) ?: 1;
	case 3:
		snprintf(h->driver_version, sizeof(h->driver_version), "%s", val);
		return 1;
	case 4:
		snprintf(h->hostname, sizeof(h->hostname), "%s", val);
		return 1;
	case 5:
		if (h->num_gpus < NV_CAP_GPUS)
			snprintf(h->gpu_name[h->num_gpus++], sizeof(h->gpu_name[0]), "%s", val);
		return 1;
	}
	snprintf(h->command, sizeof(h->command), "%s", val);
	return 1;
}

/* U <pid> <kind> <start> <end> <address> <value> <src> <dst> <flags> */
static int nvc_counter(struct imp *im, char **f, struct nvc_rec *r)
{
	uint32_t kind;
	int ret = nvc_u32(im, f[2], "counter kind", &kind) ?:
		  nvc_num(im, f[3], "start", &r->t) ?: nvc_num(im, f[4], "end", &r->end) ?:
		  nvc_num(im, f[5], "address", &r->addr) ?:
		  nvc_num(im, f[6], "value", &r->value) ?: nvc_u32(im, f[7], "src", &r->src) ?:
		  nvc_u32(im, f[8], "dst", &r->dst) ?: nvc_u32(im, f[9], "flags", &r->flags);

	if (ret)
		return ret;
	if (kind < NVC_HTOD || kind > NVC_DTOD)
		return imp_error(im, "unknown counter kind %u", kind);
	r->kind = (uint8_t)kind;
	if ((kind == NVC_HTOD || kind == NVC_DTOH || kind == NVC_DTOD) && !r->value)
		return imp_error(im, "a migration of 0 bytes");
	return 0;
}

/* A <pid> <time> <address> <bytes> <device> <operation> */
static int nvc_alloc_line(struct imp *im, char **f, struct nvc_rec *r)
{
	uint32_t op;
	int ret = nvc_num(im, f[2], "time", &r->t) ?: nvc_num(im, f[3], "address", &r->addr) ?:
		  nvc_num(im, f[4], "bytes", &r->value) ?: nvc_u32(im, f[5], "device", &r->src) ?:
		  nvc_u32(im, f[6], "operation", &op);

	if (ret)
		return ret;
	if (op < 1 || op > 2)
		return imp_error(im, "unknown memory operation %u", op);
	r->kind = (uint8_t)op;
	return r->value ? 0 : imp_error(im, "an allocation of 0 bytes");
}

/* P <pid> <time> <address> <bytes> <type> <id>; V ... <advice> <type> <id> */
static int nvc_call_line(struct imp *im, char **f, struct nvc_rec *r)
{
	uint32_t a = 0, type;
	int v = r->type == 'V';
	int ret = nvc_num(im, f[2], "time", &r->t) ?: nvc_num(im, f[3], "address", &r->addr) ?:
		  nvc_num(im, f[4], "bytes", &r->value) ?:
		  (v ? nvc_u32(im, f[5], "advice", &a) : 0) ?:
		  nvc_u32(im, f[5 + v], "location type", &type) ?:
		  nvc_s32(im, f[6 + v], "location id", &r->loc_id);

	if (ret)
		return ret;
	if (type > 4 || (!v && !type))
		return imp_error(im, "unknown location type %u", type);
	if (v && (a < 1 || a > 6))
		return imp_error(im, "unknown advice %u", a);
	r->kind = v ? (uint8_t)a : (uint8_t)type;
	r->loc_type = (uint8_t)type;
	r->rank = 1;
	return 0;
}

/* One record line. */
static int nvc_record(struct imp *im, struct nvc *c, char *line)
{
	static const char kinds[] = "UAPVD";
	static const int nfields[] = { 10, 7, 7, 8, 3 };
	struct nvc_rec r = { .line = (uint32_t)im->pos, .type = line[0] };
	const char *k = line[0] ? strchr(kinds, line[0]) : NULL;
	char *f[12];
	int n, i, ret;

	if (!k || line[1] != ' ')
		return imp_error(im, "unknown record kind '%.20s'", line);
	n = imp_split(line, ' ', f, 11);
	if (n != nfields[k - kinds])
		return imp_error(im, "%d fields, a %c line has %d", n, r.type, nfields[k - kinds]);
	ret = nvc_u32(im, f[1], "pid", &r.pid);
	if (ret)
		return ret;
	i = nvc_pid(im, c, r.pid);
	if (i < 0)
		return i;
	if (c->ended[i])
		return imp_error(im, "a record of process %u after its last line", r.pid);
	switch (r.type) {
	case 'U':
		return nvc_counter(im, f, &r) ?: nvc_add(im, c, &r);
	case 'A':
		return nvc_alloc_line(im, f, &r) ?: nvc_add(im, c, &r);
	case 'P':
	case 'V':
		return nvc_call_line(im, f, &r) ?: nvc_add(im, c, &r);
	}
	c->ended[i] = 1;
	ret = nvc_num(im, f[2], "dropped", &r.value);
	c->dropped += r.value;
	return ret;
}

static int nvc_read(struct imp *im, struct nvc *c)
{
	FILE *f = fopen(im->in, "re");
	char *buf = NULL;
	size_t cap = 0;
	int ret;

	if (!f)
		return imp_error(im, "%s", strerror(errno));
	ret = imp_line(im, f, &buf, &cap);
	if (ret == 1 && !strncmp(buf, "nvcupti ", 8) && strcmp(buf, NVC_MAGIC))
		ret = imp_error(im, "format '%.20s', this uvm-trace reads '%s'", buf, NVC_MAGIC);
	else if (ret == 1 && strcmp(buf, NVC_MAGIC))
		ret = imp_error(im, "not a line file of record-nvidia --source cupti (no '%s' "
				"line)", NVC_MAGIC);
	else if (!ret)
		ret = imp_error(im, "empty: not a line file of record-nvidia --source cupti");
	while (ret == 1 && (ret = imp_line(im, f, &buf, &cap)) == 1) {
		ret = nvc_header(im, c, buf);
		if (!ret)
			ret = nvc_record(im, c, buf) ?: 1;
	}
	if (!ret && !c->have_start) {
		im->pos = 0;
		ret = imp_error(im, "no start line: the recorder did not write the file");
	}
	free(buf);
	fclose(f);
	return ret < 0 ? ret : 0;
}

/* ---- time order ---- */

static int nvc_cmp(const void *x, const void *y)
{
	const struct nvc_rec *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int nvc_overlap(const struct nvc_rec *a, const struct nvc_rec *b)
{
	return a->addr < b->addr + b->value && b->addr < a->addr + a->value;
}

/*
 * A prefetch record follows the moves it made (docs/trace-format.md): a P
 * line, stamped at the call, takes the time of the last user-caused move
 * of its range before the next prefetch of that range.
 */
static void nvc_order(struct nvc *c)
{
	size_t i, j;

	qsort(c->v, c->n, sizeof(*c->v), nvc_cmp);
	for (i = 0; i < c->n; i++) {
		struct nvc_rec *p = &c->v[i];
		uint64_t t = p->t;

		if (p->type != 'P')
			continue;
		for (j = i + 1; j < c->n; j++) {
			const struct nvc_rec *m = &c->v[j];

			if (m->type == 'P' && nvc_overlap(m, p))
				break;
			if (m->type == 'U' && m->flags == NVC_CAUSE_USER && (m->kind == NVC_HTOD ||
			    m->kind == NVC_DTOH || m->kind == NVC_DTOD) && nvc_overlap(m, p))
				t = m->t;
		}
		p->t = t;
	}
	qsort(c->v, c->n, sizeof(*c->v), nvc_cmp);
}

/* ---- devices, addresses ---- */

static int nvc_dev(struct imp *im, uint32_t id)
{
	const struct nvc *c = im->priv;
	char name[64];

	if (c->cap.num_gpus == 1)
		snprintf(name, sizeof(name), "%.55s", c->cap.gpu_name[0]);
	else
		snprintf(name, sizeof(name), "cuda device %u", id);
	return imp_device(im, id, name);
}

/* The lowest device of a thrashing record's mask, or -1 for none. */
static int nvc_mask_dev(uint32_t mask)
{
	return mask ? __builtin_ctz(mask) : -1;
}

/* Pass 1: devices, allocations, the touched blocks. */
static int nvc_scan_one(struct imp *im, const struct nvc_rec *r)
{
	int ret = 0;

	imp_pid(im, r->pid);
	if (r->type == 'A')
		return r->kind == 1 ? imp_extent(im, r->addr, r->value) : 0;
	if (r->type == 'P' || r->type == 'V')
		return (r->loc_type == 1 && r->loc_id >= 0 ?
			nvc_dev(im, (uint32_t)r->loc_id) < 0 : 0) ? -EINVAL :
			imp_touch(im, r->addr, r->value);
	switch (r->kind) {
	case NVC_HTOD:
		ret = nvc_dev(im, r->dst);
		break;
	case NVC_DTOH:
	case NVC_GPU_FAULT:
		ret = nvc_dev(im, r->src);
		break;
	case NVC_DTOD:
		ret = nvc_dev(im, r->src) < 0 ? -EINVAL : nvc_dev(im, r->dst);
		break;
	case NVC_THROTTLE:
		ret = r->flags & NVC_IN_CPU ? 0 : nvc_dev(im, r->src);
		break;
	case NVC_THRASH:
		ret = nvc_mask_dev(r->src) < 0 ? 0 : nvc_dev(im, (uint32_t)nvc_mask_dev(r->src));
		break;
	case NVC_REMOTE_MAP:
		ret = r->src == NVC_CPU ? 0 : nvc_dev(im, r->src);
		if (ret >= 0 && r->dst != NVC_CPU)
			ret = nvc_dev(im, r->dst);
		break;
	}
	if (ret < 0)
		return ret;
	switch (r->kind) {
	case NVC_HTOD:
	case NVC_DTOH:
	case NVC_DTOD:
	case NVC_THRASH:
	case NVC_REMOTE_MAP:
		return imp_touch(im, r->addr, r->value);
	}
	return imp_touch(im, r->addr, 1);
}

/* ---- completeness ---- */

static int nvc_alloc_cmp(const void *x, const void *y)
{
	const struct nvc_alloc *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The allocations, each with a state byte a page; overlapping ones dropped. */
static int nvc_allocs(struct nvc *c)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++) {
		const struct nvc_rec *r = &c->v[i];
		struct nvc_alloc *a;

		if (r->type != 'A' || r->kind != 1 || r->value > IMP_MAX_RANGE)
			continue;
		if (c->na == c->acap) {
			size_t cap = c->acap ? 2 * c->acap : 16;

			a = realloc(c->a, cap * sizeof(*a));
			if (!a)
				return -ENOMEM;
			c->a = a;
			c->acap = cap;
		}
		c->a[c->na++] = (struct nvc_alloc){ .addr = r->addr, .bytes = r->value };
	}
	qsort(c->a, c->na, sizeof(*c->a), nvc_alloc_cmp);
	for (i = 0; i < c->na; i++) {
		if (k && c->a[i].addr < c->a[k - 1].addr + c->a[k - 1].bytes)
			continue;
		c->a[k] = c->a[i];
		c->a[k].page = calloc((c->a[k].bytes + IMP_PAGE - 1) / IMP_PAGE, 1);
		if (!c->a[k].page)
			return -ENOMEM;
		k++;
	}
	c->na = k;
	return 0;
}

/* The first allocation that ends after @addr (c->na if none). */
static size_t nvc_find(const struct nvc *c, uint64_t addr)
{
	size_t lo = 0, hi = c->na;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->a[mid].addr + c->a[mid].bytes <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

enum nvc_op { OP_TO_GPU, OP_TO_CPU, OP_GPU_FAULT, OP_CPU_FAULT, OP_EXEMPT, OP_ADVISED };

/* One page's state after @op; a move the state says is missing is counted. */
static void nvc_page(struct nvc_alloc *a, uint8_t *s, enum nvc_op op)
{
	int ex = *s & PG_EXEMPT;

	switch (op) {
	case OP_TO_GPU:	/* already on the device: its move home is missing */
		if (!ex && ((*s & PG_LOC) == PG_GPU || (*s & PG_OWE_D)))
			a->owe_d++;
		*s = (uint8_t)((*s & PG_EXEMPT) | PG_GPU);
		return;
	case OP_TO_CPU:	/* known on the host: its move to the device is missing */
		if (!ex && ((*s & PG_LOC) == PG_CPU || (*s & PG_OWE_H)))
			a->owe_h++;
		*s = (uint8_t)((*s & PG_EXEMPT) | PG_CPU);
		return;
	case OP_GPU_FAULT:
		if (!ex && ((*s & PG_LOC) == PG_CPU || (*s & PG_LOC) == PG_TOUCHED))
			*s |= PG_OWE_H;
		return;
	case OP_CPU_FAULT:	/* a page never moved: populated on the host, or not */
		if (!ex && (*s & PG_LOC) == PG_GPU)
			*s |= PG_OWE_D;
		else if (!(*s & PG_LOC))
			*s |= PG_TOUCHED;
		return;
	case OP_EXEMPT:	/* mapped in place: what was owed is settled */
		*s = (uint8_t)((*s & PG_LOC) | PG_EXEMPT);
		return;
	case OP_ADVISED:	/* from now on; debts stay */
		*s |= PG_EXEMPT;
		return;
	}
}

/* @op on every page of [addr, addr + bytes) that is in an allocation. */
static void nvc_range(struct nvc *c, uint64_t addr, uint64_t bytes, enum nvc_op op)
{
	uint64_t end = addr + (bytes ? bytes : 1);
	size_t i;

	addr &= ~(IMP_PAGE - 1);
	for (i = nvc_find(c, addr); i < c->na && c->a[i].addr < end; i++) {
		struct nvc_alloc *a = &c->a[i];
		uint64_t p = addr > a->addr ? addr : a->addr;
		uint64_t last = end < a->addr + a->bytes ? end : a->addr + a->bytes;

		for (p = (p - a->addr) / IMP_PAGE; p * IMP_PAGE < last - a->addr; p++)
			nvc_page(a, &a->page[p], op);
	}
}

static void nvc_check_one(struct nvc *c, const struct nvc_rec *r)
{
	uint64_t block = r->addr & ~(IMP_BLOCK - 1);

	if (r->type == 'P')
		nvc_range(c, r->addr, r->value, r->loc_type == 1 ? OP_GPU_FAULT : OP_CPU_FAULT);
	else if (r->type == 'V' && (r->kind == 1 || r->kind == 3 || r->kind == 5))
		nvc_range(c, r->addr, r->value, OP_ADVISED);	/* read-mostly, preferred, accessed-by */
	if (r->type != 'U')
		return;
	switch (r->kind) {
	case NVC_HTOD:
	case NVC_DTOD:
		return nvc_range(c, r->addr, r->value, OP_TO_GPU);
	case NVC_DTOH:
		return nvc_range(c, r->addr, r->value, OP_TO_CPU);
	case NVC_GPU_FAULT:
		return nvc_range(c, r->addr, 1, OP_GPU_FAULT);
	case NVC_CPU_FAULT:
		return nvc_range(c, r->addr, 1, OP_CPU_FAULT);
	case NVC_THRASH:
	case NVC_THROTTLE:
		return nvc_range(c, block, IMP_BLOCK, OP_EXEMPT);
	case NVC_REMOTE_MAP:
		return nvc_range(c, r->addr, r->value, OP_EXEMPT);
	}
}

/*
 * The completeness check. Where a page is is known from the moves seen,
 * and guessed from a CPU fault on a page never moved (first touch
 * populates without a move: on the host for the CPU's; a GPU's is not
 * guessed, it may have found the page on the host). A GPU fault or a
 * prefetch to a device that finds a page on the host owes a move to the
 * device, a CPU fault or a prefetch to the host that finds it on a device
 * one home; a move that finds the page known to be where it goes means
 * the move before it is missing; a debt still open at the end is missing
 * too. Pages that thrash, are mapped remotely
 * or advised (read-mostly, preferred location, accessed-by) are not checked.
 */
static int nvc_check(struct imp *im, struct nvc *c)
{
	size_t i;
	unsigned int p;
	int unfinished = 0;

	if (nvc_allocs(c))
		return imp_error(im, "out of memory");
	for (i = 0; i < c->n; i++)
		nvc_check_one(c, &c->v[i]);
	for (i = 0; i < c->na; i++) {
		struct nvc_alloc *a = &c->a[i];
		uint64_t k, pages = (a->bytes + IMP_PAGE - 1) / IMP_PAGE;

		for (k = 0; k < pages; k++) {
			a->owe_h += !!(a->page[k] & PG_OWE_H);
			a->owe_d += !!(a->page[k] & PG_OWE_D);
		}
		c->missing += a->owe_h + a->owe_d;
		if (a->owe_h || a->owe_d)
			fprintf(stderr, "%s: %s: INCOMPLETE: allocation 0x%" PRIx64 " (%" PRIu64
				" bytes): at least %" PRIu64 " pages without their move to the "
				"device and %" PRIu64 " without their move to the host (the "
				"faults and prefetches imply them; CUPTI did not deliver them)\n", c->who,
				im->in, a->addr, a->bytes, a->owe_h, a->owe_d);
	}
	for (p = 0; p < c->npid; p++) {
		if (c->ended[p])
			continue;
		unfinished = 1;
		fprintf(stderr, "%s: %s: INCOMPLETE: process %u's records end without "
			"their last line (it did not exit normally)\n", c->who, im->in, c->pid[p]);
	}
	if (c->dropped)
		fprintf(stderr, "%s: %s: INCOMPLETE: CUPTI dropped %" PRIu64 " records\n",
			c->who, im->in, c->dropped);
	if (c->dropped || c->missing || unfinished) {
		c->completeness = TR_COMPLETE_NO;
		fprintf(stderr, "%s: %s: the trace is marked incomplete (%" PRIu64 " records "
			"dropped, %" PRIu64 " pages missing); uvm-replay refuses it without "
			"--allow-incomplete\n", c->who, im->in, c->dropped, c->missing);
	}
	else if (c->na)
		c->completeness = TR_COMPLETE_YES;
	else
		c->completeness = TR_COMPLETE_UNKNOWN;	/* nothing to check against */
	return 0;
}

/* ---- writing ---- */

static void nvc_fill(struct imp *im, struct tr_info *info)
{
	const struct nvc *c = im->priv;
	struct tr_header *h = &info->h;

	h->mode = TR_MODE_NVIDIA;
	h->pid = c->cap.pid;
	h->start_realtime_ns = c->cap.start_realtime_ns;
	h->page_size = IMP_PAGE;
	h->fault_batch = 256;	/* NVIDIA's default (uvm_perf_fault_batch_count) */
	snprintf(h->hostname, sizeof(h->hostname), "%.63s", c->cap.hostname);
	snprintf(h->command, sizeof(h->command), "%.135s", c->cap.command);
	snprintf(h->driver_version, sizeof(h->driver_version), "%.31s",
		 c->cap.driver_version);
	/* the source: CUPTI, not the tools interface (docs/fidelity.md) */
	snprintf(h->module_version, sizeof(h->module_version), "cupti, nvidia %.17s",
		 c->cap.driver_version);
	h->completeness = (uint32_t)c->completeness;
	h->lost = c->dropped + c->missing;
}

static uint32_t nvc_cause(uint32_t flags, int to_device)
{
	switch (flags) {
	case NVC_CAUSE_USER:
		return UVM_EVENT_CAUSE_USER;
	case NVC_CAUSE_PREFETCH:
		return UVM_EVENT_CAUSE_PREFETCH;
	case NVC_CAUSE_EVICTION:
		return UVM_EVENT_CAUSE_EVICTION;
	}
	/* coherence, access counters, unknown: the faulting side's */
	return to_device ? UVM_EVENT_CAUSE_DEVICE_FAULT : UVM_EVENT_CAUSE_CPU_FAULT;
}

static int nvc_migrate(struct imp *im, const struct nvc_rec *r)
{
	int from_dev = r->kind != NVC_HTOD, to_dev = r->kind != NVC_DTOH;
	struct uvm_event_migrate m = {
		.addr = r->addr, .bytes = r->value, .cause = nvc_cause(r->flags, to_dev),
		.src_type = from_dev ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.src_id = from_dev ? nvc_dev(im, r->src) : -1,
		.dst_type = to_dev ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.dst_id = to_dev ? nvc_dev(im, r->dst) : -1,
		.duration_ns = r->end > r->t ? r->end - r->t : 0,
	};

	return imp_migrate(im, r->t, r->pid, &m);
}

static int nvc_thrash(struct imp *im, const struct nvc_rec *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_THRASH };
	int dev;

	if (r->kind == NVC_THRASH) {
		dev = nvc_mask_dev(r->src);
		ev.u.thrash.kind = UVM_EVENT_THRASH_DETECTED;
		ev.u.thrash.pages = (uint32_t)((r->value + IMP_PAGE - 1) / IMP_PAGE);
	} else {
		dev = r->flags & NVC_IN_CPU ? -1 : (int)r->src;
		ev.u.thrash.kind = UVM_EVENT_THRASH_THROTTLED;
	}
	ev.u.thrash.addr = r->addr;
	ev.u.thrash.proc = dev < 0 ? 255 : (uint32_t)nvc_dev(im, (uint32_t)dev);
	ev.u.thrash.policy = 1;	/* NVIDIA's driver throttles (and pins) */
	return imp_event(im, r->t, r->pid, &ev);
}

static int nvc_remote_map(struct imp *im, const struct nvc_rec *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_REMOTE_MAP };

	ev.u.remote_map.addr = r->addr;
	ev.u.remote_map.pages = (uint32_t)((r->value + IMP_PAGE - 1) / IMP_PAGE);
	ev.u.remote_map.device = r->src == NVC_CPU ? UINT32_MAX : (uint32_t)nvc_dev(im, r->src);
	ev.u.remote_map.target = r->dst == NVC_CPU ? -1 : nvc_dev(im, r->dst);
	return imp_event(im, r->t, r->pid, &ev);
}

/* A location of a call: a device's id as ours, a host's as given (-1: any). */
static int32_t nvc_loc_id(struct imp *im, const struct nvc_rec *r)
{
	if (r->loc_type == 1)
		return r->loc_id >= 0 ? nvc_dev(im, (uint32_t)r->loc_id) : -1;
	return r->loc_type == 3 ? r->loc_id : -1;
}

static int nvc_advise(struct imp *im, const struct nvc_rec *r)
{
	struct uvm_event ev = { .hdr.type = UVM_EVENT_ADVISE };

	ev.u.advise.addr = r->addr;
	ev.u.advise.bytes = r->value;
	ev.u.advise.advice = r->kind;
	ev.u.advise.loc_type = r->loc_type;
	ev.u.advise.loc_id = nvc_loc_id(im, r);
	return imp_event(im, r->t, r->pid, &ev);
}

static int nvc_write_one(struct imp *im, struct nvc *c, const struct nvc_rec *r)
{
	if (r->type == 'P')
		return imp_prefetch(im, r->t, r->pid, r->addr, r->value, r->loc_type,
				    nvc_loc_id(im, r));
	if (r->type == 'V')
		return nvc_advise(im, r);
	if (r->type != 'U')
		return 0;	/* allocations were written first; releases are not kept */
	switch (r->kind) {
	case NVC_HTOD:
	case NVC_DTOH:
	case NVC_DTOD:
		return nvc_migrate(im, r);
	case NVC_CPU_FAULT:	/* value: the instruction's address; read or write unknown */
		return imp_cpu_fault(im, r->t, r->pid, 0, r->addr, 0, -1);
	case NVC_GPU_FAULT:	/* a group: one page, value faults; a batch of its own */
		return imp_fault(im, r->t, (uint32_t)nvc_dev(im, r->src), ++c->batches,
				 r->addr, r->flags == 2 || r->flags == 3, (uint32_t)r->value);
	case NVC_THRASH:
	case NVC_THROTTLE:
		return nvc_thrash(im, r);
	}
	return nvc_remote_map(im, r);
}

/* The records' time is CLOCK_MONOTONIC_RAW: t0 is the recording's start. */
static void nvc_clock(struct imp *im, const struct nvc *c)
{
	im->clock_id = 4;
	im->base = c->cap.start_raw_ns;
	im->t0 = c->cap.start_raw_ns;
	im->have_t0 = 1;
}

static void nvc_release(struct nvc *c)
{
	size_t i;

	for (i = 0; i < c->na; i++)
		free(c->a[i].page);
	free(c->a);
	free(c->v);
}

/**
 * imp_nvcupti_as() - import a line file of record-nvidia --source cupti.
 * @im: the import (imp_init()).
 * @who: the program named in the completeness messages.
 *
 * Return: 0, or an error imp_error() reported (nothing left behind).
 */
int imp_nvcupti_as(struct imp *im, const char *who)
{
	struct nvc *c = calloc(1, sizeof(*c));
	size_t i;
	int ret;

	if (!c)
		return imp_error(im, "out of memory");
	c->who = who;
	im->priv = c;
	im->fill = nvc_fill;
	ret = nvc_read(im, c);
	if (!ret)
		nvc_order(c);
	for (i = 0; !ret && i < c->n; i++) {
		im->pos = c->v[i].line;
		ret = nvc_scan_one(im, &c->v[i]);
	}
	im->pos = 0;
	if (!ret)
		ret = nvc_check(im, c);
	if (!ret) {
		nvc_clock(im, c);
		ret = imp_begin(im);
	}
	for (i = 0; !ret && i < c->n; i++)
		ret = nvc_write_one(im, c, &c->v[i]);
	if (!ret)
		ret = imp_end(im);
	im->priv = NULL;
	nvc_release(c);
	free(c);
	return ret;
}

int imp_nvcupti(struct imp *im)
{
	return imp_nvcupti_as(im, "uvm-trace import");
}

/* ---- the recorder's side: the processes' files into one ---- */

static int nvc_copy(FILE *out, const char *path, uint64_t *lines)
{
	FILE *in = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!in)
		return -errno;
	/* a last line cut short (the process was killed) is left out */
	while ((n = getline(&line, &cap, in)) > 0)
		if (line[n - 1] == '\n' && fputs(line, out) >= 0)
			(*lines)++;
	free(line);
	fclose(in);
	return ferror(out) ? -EIO : 0;
}

/**
 * nvc_merge() - the header lines from @h, then every $@prefix.<pid> file
 * (removed), into @out.
 * @prefix: what UVM_NVREC_UM said.
 * @out: the line file.
 * @h: the recording: its start, end, pid, driver, host, GPUs, command.
 * @lines: out, the records copied.
 *
 * Return: 0; -ENOENT if no process wrote a file (CUDA did not load the
 * library); another -errno.
 */
int nvc_merge(const char *prefix, const char *out, const struct nv_capture *h,
	      uint64_t *lines)
{
	char pat[4200];
	unsigned int k;
	glob_t g;
	size_t i;
	FILE *f;
	int ret = 0;

	*lines = 0;
	snprintf(pat, sizeof(pat), "%s.[0-9]*", prefix);
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	f = fopen(out, "we");
	if (!f) {
		ret = -errno;
		goto out;
	}
	fprintf(f, "%s\nstart %" PRIu64 " %" PRIu64 "\nend %" PRIu64 "\npid %u\n"
		"driver %s\nhost %s\n", NVC_MAGIC, h->start_raw_ns, h->start_realtime_ns,
		h->end_raw_ns, h->pid, h->driver_version, h->hostname);
	for (k = 0; k < h->num_gpus; k++)
		fprintf(f, "gpu %s\n", h->gpu_name[k]);
	fprintf(f, "command %s\n", h->command);
	for (i = 0; i < g.gl_pathc && !ret; i++)
		ret = nvc_copy(f, g.gl_pathv[i], lines);
	if (fclose(f) && !ret)
		ret = -errno;
out:
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
	return ret;
}
