// SPDX-License-Identifier: MIT
/*
 * import_nsys.c - uvm-trace import nsys: an Nsight Systems SQLite export
 * (nsys export --type sqlite; schema: the Nsight Systems documentation,
 * "SQLite Schema Reference"), three tables of it:
 *
 *   CUDA_UM_GPU_PAGE_FAULT_EVENTS  start, globalPid, deviceId, address,
 *                                  numberOfPageFaults, faultAccessType
 *   CUDA_UM_CPU_PAGE_FAULT_EVENTS  start, globalPid, address
 *   CUPTI_ACTIVITY_KIND_MEMCPY     start, end, globalPid, deviceId, bytes,
 *                                  copyKind (11 unified memory host to device,
 *                                  12 device to host), migrationCause,
 *                                  virtualAddress
 *
 * Enumerations are CUPTI's: CUpti_ActivityUnifiedMemoryAccessType (1 read,
 * 2 write, 3 atomic, 4 prefetch), CUpti_ActivityUnifiedMemoryMigrationCause
 * (1 user, 2 coherence, 3 prefetch, 4 eviction, 5 access counters). A
 * globalPid holds the pid in bits 24..47. The tables are not one stream in
 * time order, so their rows are read into memory and sorted by start: this
 * importer's memory grows with the export (56 bytes a row), unlike
 * the three stream importers'. libsqlite3 reads the file; the rest is ours.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define NS_GPU_TABLE	"CUDA_UM_GPU_PAGE_FAULT_EVENTS"
#define NS_CPU_TABLE	"CUDA_UM_CPU_PAGE_FAULT_EVENTS"
#define NS_COPY_TABLE	"CUPTI_ACTIVITY_KIND_MEMCPY"
#define NS_COPY_HTOD	11
#define NS_COPY_DTOH	12
#define NS_ACCESS_WRITE	2
#define NS_ACCESS_ATOMIC 3
#define NS_ACCESS_MAX	4
#define NS_CAUSE_MAX	5

enum ns_kind { NS_GPU_FAULT, NS_CPU_FAULT, NS_COPY };

struct ns_ev {
	uint64_t t, addr, bytes, dur, seq;
	uint32_t pid, count;
	int32_t dev;
	uint8_t kind, write, cause, copy_kind;
};

struct ns_state {
	sqlite3 *db;
	struct ns_ev *ev;
	uint64_t n, cap;
	char unit[64];
};

static const char *ns_query[] = {
	[NS_GPU_FAULT] = "SELECT start, globalPid, deviceId, address, numberOfPageFaults, "
			 "faultAccessType FROM " NS_GPU_TABLE,
	[NS_CPU_FAULT] = "SELECT start, globalPid, address FROM " NS_CPU_TABLE,
	[NS_COPY] = "SELECT start, end, globalPid, deviceId, bytes, copyKind, "
		    "migrationCause, virtualAddress FROM " NS_COPY_TABLE
		    " WHERE copyKind IN (11, 12)",
};

static const char *ns_table[] = { NS_GPU_TABLE, NS_CPU_TABLE, NS_COPY_TABLE };

/* 1 if the table is there, 0 if not; an error for a file SQLite cannot read. */
static int ns_has_table(struct imp *im, struct ns_state *s, const char *name)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' "
				"AND name = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return imp_error(im, "not an SQLite database (%s)", sqlite3_errmsg(s->db));
}

static struct ns_ev *ns_new(struct imp *im, struct ns_state *s)
{
	if (s->n == s->cap) {
		uint64_t cap = s->cap ? 2 * s->cap : 1024;
		struct ns_ev *e = realloc(s->ev, cap * sizeof(*e));

		if (!e) {
			imp_error(im, "out of memory");
			return NULL;
		}
		s->ev = e;
		s->cap = cap;
	}
	memset(&s->ev[s->n], 0, sizeof(s->ev[0]));
	s->ev[s->n].seq = s->n;
	return &s->ev[s->n++];
}

/* Column @c of the row: an integer, or an error naming the row. */
static int ns_col(struct imp *im, sqlite3_stmt *st, int c, uint64_t *v)
{
	if (sqlite3_column_type(st, c) != SQLITE_INTEGER)
		return imp_error(im, "column %s is not an integer",
				 sqlite3_column_name(st, c));
	*v = (uint64_t)sqlite3_column_int64(st, c);
	return 0;
}

static int ns_cols(struct imp *im, sqlite3_stmt *st, uint64_t *v)
{
	int c, n = sqlite3_column_count(st);

	for (c = 0; c < n; c++)
		if (ns_col(im, st, c, &v[c]))
			return -EINVAL;
	return 0;
}

static int ns_device(struct imp *im, uint64_t id)
{
	char name[64];

	snprintf(name, sizeof(name), "nsys deviceId %llu", (unsigned long long)id);
	return imp_device(im, id, name);
}

/* One row of @kind into an event; its pages touched, its device known. */
static int ns_row(struct imp *im, struct ns_state *s, enum ns_kind kind, const uint64_t *v)
{
	struct ns_ev *e = ns_new(im, s);
	int dev = 0;

	if (!e)
		return -ENOMEM;
	e->kind = kind;
	e->t = v[0];
	e->pid = (uint32_t)((v[kind == NS_COPY ? 2 : 1] >> 24) & 0xffffff);
	if (kind == NS_GPU_FAULT) {
		if (v[5] > NS_ACCESS_MAX)
			return imp_error(im, "unknown faultAccessType %llu", (unsigned long long)v[5]);
		dev = ns_device(im, v[2]);
		e->addr = v[3];
		e->count = v[4] ? (uint32_t)v[4] : 1;
		e->write = v[5] == NS_ACCESS_WRITE || v[5] == NS_ACCESS_ATOMIC;
	} else if (kind == NS_CPU_FAULT) {
		e->addr = v[2];
	} else {
		if (v[6] > NS_CAUSE_MAX)
			return imp_error(im, "unknown migrationCause %llu", (unsigned long long)v[6]);
		dev = ns_device(im, v[3]);
		e->dur = v[1] > v[0] ? v[1] - v[0] : 0;
		e->bytes = v[4];
		e->copy_kind = (uint8_t)v[5];
		e->cause = (uint8_t)v[6];
		e->addr = v[7];
	}
	if (dev < 0)
		return dev;
	e->dev = dev;
	imp_time_seen(im, e->t);
	imp_pid(im, e->pid);
	return imp_touch(im, e->addr, e->bytes ?: 1);
}

static int ns_load(struct imp *im, struct ns_state *s, enum ns_kind kind)
{
	uint64_t v[8];
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(s->db, ns_query[kind], -1, &st, NULL) != SQLITE_OK)
		return imp_error(im, "%s: %s", ns_table[kind], sqlite3_errmsg(s->db));
	snprintf(s->unit, sizeof(s->unit), "%s row", ns_table[kind]);
	im->unit = s->unit;
	for (im->pos = 1; !ret && (rc = sqlite3_step(st)) == SQLITE_ROW; im->pos++) {
		ret = ns_cols(im, st, v);
		if (!ret)
			ret = ns_row(im, s, kind, v);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = imp_error(im, "%s", sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	im->pos = 0;
	return ret;
}

static int ns_cmp(const void *a, const void *b)
{
	const struct ns_ev *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint32_t ns_cause(unsigned int cause, int to_device)
{
	switch (cause) {
	case 1:
		return UVM_EVENT_CAUSE_USER;
	case 3:
		return UVM_EVENT_CAUSE_PREFETCH;
	case 4:
		return UVM_EVENT_CAUSE_EVICTION;
	}
	/* coherence, access counters, unknown: the faulting side's */
	return to_device ? UVM_EVENT_CAUSE_DEVICE_FAULT : UVM_EVENT_CAUSE_CPU_FAULT;
}

/* A unified-memory copy: a migration, then a prefetch or an eviction. */
static int ns_copy(struct imp *im, const struct ns_ev *e)
{
	int h2d = e->copy_kind == NS_COPY_HTOD;
	struct uvm_event_migrate m = {
		.addr = e->addr, .bytes = e->bytes, .cause = ns_cause(e->cause, h2d),
		.src_type = h2d ? UVM_EVENT_LOC_HOST : UVM_EVENT_LOC_DEVICE,
		.src_id = h2d ? -1 : e->dev,
		.dst_type = h2d ? UVM_EVENT_LOC_DEVICE : UVM_EVENT_LOC_HOST,
		.dst_id = h2d ? e->dev : -1, .duration_ns = e->dur,
	};
	int ret = imp_migrate(im, e->t, e->pid, &m);

	if (!ret && m.cause == UVM_EVENT_CAUSE_USER)
		ret = imp_prefetch(im, e->t, e->pid, e->addr, e->bytes,
				   h2d ? UVM_LOC_DEVICE : UVM_LOC_HOST, m.dst_id);
	if (!ret && m.cause == UVM_EVENT_CAUSE_EVICTION && !h2d)
		ret = imp_evict(im, e->t, e->pid, e->addr, e->bytes, e->dev);
	return ret;
}

static int ns_write(struct imp *im, struct ns_state *s)
{
	uint64_t i;
	int ret = 0;

	qsort(s->ev, s->n, sizeof(*s->ev), ns_cmp);
	for (i = 0; i < s->n && !ret; i++) {
		const struct ns_ev *e = &s->ev[i];

		if (e->kind == NS_GPU_FAULT)
			ret = imp_fault(im, e->t, e->dev, IMP_BATCH_GROUP, e->addr,
					e->write, e->count);
		else if (e->kind == NS_CPU_FAULT)
			ret = imp_cpu_fault(im, e->t, e->pid, 0, e->addr, 0, -1);
		else
			ret = ns_copy(im, e);
	}
	return ret;
}

static int ns_read(struct imp *im, struct ns_state *s)
{
	int k, ret;

	for (k = NS_GPU_FAULT; k <= NS_COPY; k++) {
		ret = ns_has_table(im, s, ns_table[k]);
		if (ret > 0)
			ret = ns_load(im, s, k);
		if (ret)
			return ret;
	}
	if (!s->n)
		return imp_error(im, "no unified-memory rows (" NS_GPU_TABLE ", " NS_CPU_TABLE
				 ", " NS_COPY_TABLE "): not an Nsight Systems export with "
				 "unified-memory data");
	return 0;
}

int imp_nsys(struct imp *im)
{
	struct ns_state s = { 0 };
	int ret;

	if (sqlite3_open_v2(im->in, &s.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		ret = imp_error(im, "%s", s.db ? sqlite3_errmsg(s.db) : "cannot open");
		sqlite3_close(s.db);
		return ret;
	}
	ret = ns_read(im, &s);
	if (!ret)
		ret = imp_begin(im);
	if (!ret)
		ret = ns_write(im, &s);
	if (!ret)
		ret = imp_end(im);
	free(s.ev);
	sqlite3_close(s.db);
	return ret;
}
