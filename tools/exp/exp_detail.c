// SPDX-License-Identifier: GPL-2.0
/*
 * exp_detail.c - a run's or a recording's event records counted
 * (exp_detail.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "exp_detail.h"

#define BLOCK_SHIFT	21

const char *const detail_cause_names[DETAIL_CAUSES] = {
	"user", "cpu_fault", "device_fault", "eviction", "prefetch", "thrashing",
	"collapse",
};

/* log2 buckets from 4 KiB: 4K, 8K, ..., 2M, more. */
static unsigned int size_bucket(uint64_t bytes)
{
	unsigned int b = 0;

	for (bytes >>= 12; bytes > 1 && b < DETAIL_SIZES - 1; bytes >>= 1)
		b++;
	return b;
}

static uint64_t hash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 33);
}

static int blocks_grow(struct detail_blocks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024, i, j;
	uint64_t *addr = calloc(cap, sizeof(*addr));
	uint32_t *faults = calloc(cap, sizeof(*faults));

	if (!addr || !faults) {
		free(addr);
		free(faults);
		return -ENOMEM;
	}
	for (i = 0; i < t->cap; i++) {
		if (!t->addr[i])
			continue;
		for (j = hash(t->addr[i]) & (cap - 1); addr[j]; j = (j + 1) & (cap - 1))
			;
		addr[j] = t->addr[i];
		faults[j] = t->faults[i];
	}
	free(t->addr);
	free(t->faults);
	t->addr = addr;
	t->faults = faults;
	t->cap = cap;
	return 0;
}

/* One CPU fault in the block of @va; 1 if the block is new, 0, -ENOMEM. */
static int blocks_add(struct detail_blocks *t, uint64_t va)
{
	uint64_t key = (va >> BLOCK_SHIFT) + 1;
	size_t i;

	if ((t->n + 1) * 2 > t->cap && blocks_grow(t))
		return -ENOMEM;
	for (i = hash(key) & (t->cap - 1); t->addr[i]; i = (i + 1) & (t->cap - 1)) {
		if (t->addr[i] == key) {
			t->faults[i]++;
			return 0;
		}
	}
	t->addr[i] = key;
	t->faults[i] = 1;
	t->n++;
	return 1;
}

static void take_migrate(struct exp_detail *d, const struct uvm_event_migrate *m)
{
	bool from_dev = m->src_type == UVM_EVENT_LOC_DEVICE;
	bool to_dev = m->dst_type == UVM_EVENT_LOC_DEVICE;

	if (from_dev && to_dev)
		d->d2d += m->bytes;
	else if (from_dev)
		d->d2h += m->bytes;
	else if (to_dev)
		d->h2d += m->bytes;
	else
		d->h2h += m->bytes;
	if (m->cause < DETAIL_CAUSES)
		d->cause[m->cause] += m->bytes;
	d->ops++;
	d->sizes[size_bucket(m->bytes)]++;
}

int exp_detail_take(struct exp_detail *d, const struct uvm_event *e)
{
	int ret;

	switch (e->hdr.type) {
	case UVM_EVENT_MIGRATE:
		take_migrate(d, &e->u.migrate);
		break;
	case UVM_EVENT_FAULT_BATCH:
		d->batches++;
		d->fault_pages += e->u.batch.pages;
		break;
	case UVM_EVENT_CPU_FAULT:
		d->cpu_faults++;
		ret = blocks_add(&d->blocks, e->u.cpu_fault.addr);
		if (ret < 0)
			return ret;
		d->cpu_blocks += (uint64_t)ret;
		break;
	case UVM_EVENT_THRASH:
		if (e->u.thrash.kind < DETAIL_THRASH)
			d->thrash[e->u.thrash.kind]++;
		break;
	case UVM_EVENT_REMOTE_MAP:
		d->remote_maps++;
		d->remote_bytes += (uint64_t)e->u.remote_map.pages << 12;
		break;
	case UVM_EVENT_EVICT:
		d->evictions++;
		break;
	}
	return 0;
}

void exp_detail_free(struct exp_detail *d)
{
	free(d->blocks.addr);
	free(d->blocks.faults);
	memset(&d->blocks, 0, sizeof(d->blocks));
}

static void json_array(FILE *f, const char *name, const uint64_t *v, unsigned int n)
{
	unsigned int i;

	fprintf(f, ",\"%s\":[", name);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64, i ? "," : "", v[i]);
	fputc(']', f);
}

void exp_detail_json(FILE *f, const struct exp_detail *d)
{
	unsigned int i;

	fprintf(f, "{\"h2d\":%" PRIu64 ",\"d2h\":%" PRIu64 ",\"d2d\":%" PRIu64
		",\"h2h\":%" PRIu64 ",\"cause\":{", d->h2d, d->d2h, d->d2d, d->h2h);
	for (i = 0; i < DETAIL_CAUSES; i++)
		fprintf(f, "%s\"%s\":%" PRIu64, i ? "," : "", detail_cause_names[i],
			d->cause[i]);
	fprintf(f, "},\"ops\":%" PRIu64, d->ops);
	json_array(f, "sizes", d->sizes, DETAIL_SIZES);
	fprintf(f, ",\"batches\":%" PRIu64 ",\"fault_pages\":%" PRIu64
		",\"cpu_faults\":%" PRIu64 ",\"cpu_blocks\":%" PRIu64, d->batches,
		d->fault_pages, d->cpu_faults, d->cpu_blocks);
	json_array(f, "thrash", d->thrash, DETAIL_THRASH);
	fprintf(f, ",\"remote_maps\":%" PRIu64 ",\"remote_bytes\":%" PRIu64
		",\"evictions\":%" PRIu64 "}", d->remote_maps, d->remote_bytes,
		d->evictions);
}

/* The number after "@key": in @s (from @from on): 0, or -1. */
static int member(const char *s, const char *key, uint64_t *v)
{
	char pat[48], *end;
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(s, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	*v = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

static int array(const char *s, const char *key, uint64_t *v, unsigned int n)
{
	char pat[48], *end;
	const char *p;
	unsigned int i;

	snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = strstr(s, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	for (i = 0; i < n; i++, p = end + 1) {
		v[i] = strtoull(p, &end, 10);
		if (end == p || *end != (i + 1 < n ? ',' : ']'))
			return -1;
	}
	return 0;
}

int exp_detail_parse(const char *s, struct exp_detail *d)
{
	const char *cause = strstr(s, "\"cause\":{");
	unsigned int i;
	int bad = 0;

	memset(d, 0, sizeof(*d));
	if (!cause)
		return -1;
	for (i = 0; i < DETAIL_CAUSES; i++)
		bad |= member(cause, detail_cause_names[i], &d->cause[i]);
	bad |= member(s, "h2d", &d->h2d) | member(s, "d2h", &d->d2h) |
	       member(s, "d2d", &d->d2d) | member(s, "h2h", &d->h2h) |
	       member(s, "ops", &d->ops) | member(s, "batches", &d->batches) |
	       member(s, "fault_pages", &d->fault_pages) |
	       member(s, "cpu_faults", &d->cpu_faults) |
	       member(s, "cpu_blocks", &d->cpu_blocks) |
	       member(s, "remote_maps", &d->remote_maps) |
	       member(s, "remote_bytes", &d->remote_bytes) |
	       member(s, "evictions", &d->evictions);
	bad |= array(s, "sizes", d->sizes, DETAIL_SIZES) |
	       array(s, "thrash", d->thrash, DETAIL_THRASH);
	return bad ? -1 : 0;
}
