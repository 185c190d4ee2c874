// SPDX-License-Identifier: GPL-2.0
/*
 * fidelity_kernels.c - the recorded kernels of a fidelity case: what the
 * recording did inside each (its records by their time), and each
 * kernel's time on the GPU without the recorder, as it ran and with its
 * data resident (docs/fidelity.md, "Kernel time").
 *
 * A record belongs to the kernel whose [start, end] holds its time. A
 * migration's time is when it began (its timestamp less its duration):
 * NVIDIA's driver stamps a copy's end when it notices the completion,
 * often after the kernel that faulted for it has ended.
 *
 * Kernel times come from nvwl's lines (CASE.untraced.json, and
 * CASE.resident.json: the same run with every allocation on the GPU first,
 * the kernel's own work), one line a run: each kernel's median over the
 * runs. A timed section is paired with the CUPTI kernel whose mangled name
 * holds "k_<name>" (nvwl's kernels; sections that launch none, such as a
 * prefetch, are left out); where no name pairs, in order.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fidelity.h"

#define MAX_RUNS	64

/* The record's contribution to the counts (RPK_*, then the copies). */
static bool rec_delta(const struct uvm_event *e, uint64_t *d)
{
	const struct uvm_event_migrate *m = &e->u.migrate;

	memset(d, 0, sizeof(uint64_t) * FIDK_N);
	switch (e->hdr.type) {
	case UVM_EVENT_FAULT_BATCH:
		d[RPK_BATCHES] = 1;
		d[RPK_PAGES] = e->u.batch.pages;
		return true;
	case UVM_EVENT_MIGRATE:
		if (m->src_type == UVM_EVENT_LOC_HOST && m->dst_type == UVM_EVENT_LOC_DEVICE)
			d[RPK_H2D] = m->bytes;
		else if (m->src_type == UVM_EVENT_LOC_DEVICE && m->dst_type == UVM_EVENT_LOC_HOST)
			d[RPK_D2H] = m->bytes;
		else if (m->src_type == UVM_EVENT_LOC_DEVICE)
			d[RPK_D2D] = m->bytes;
		d[FIDK_COPIES] = 1;
		return true;
	case UVM_EVENT_CPU_FAULT:
		d[RPK_CPU] = 1;
		return true;
	case UVM_EVENT_EVICT:
		d[RPK_EVICT] = 1;
		return true;
	}
	return false;
}

static uint64_t rec_time(const struct uvm_event *e)
{
	uint64_t ts = e->hdr.timestamp_ns, dur;

	if (e->hdr.type != UVM_EVENT_MIGRATE)
		return ts;
	dur = e->u.migrate.duration_ns;
	return dur < ts ? ts - dur : ts;
}

void fidk_take(struct fid_case *c, const struct rp_kernels *k, const struct uvm_event *e)
{
	uint64_t d[FIDK_N], t;
	size_t lo = 0, hi = k->n, i;

	if (!c->nk || !rec_delta(e, d))
		return;
	t = rec_time(e);
	while (lo < hi) {	/* the first kernel that starts after t */
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || t > k->v[lo - 1].end)
		return;
	for (i = 0; i < FIDK_N; i++)
		c->k[lo - 1].rec[i] += d[i];
}

/* One run: its timed sections' names and times, from nvwl's line. */
struct fidk_run {
	size_t n;
	char name[MAX_FID_TIMED][32];
	double ms[MAX_FID_TIMED];
};

static void parse_run(const char *line, struct fidk_run *r)
{
	const char *p = strstr(line, "\"kernels\":[");
	char *end;

	r->n = 0;
	while (p && r->n < MAX_FID_TIMED && (p = strstr(p, "\"name\":\""))) {
		size_t len;

		p += 8;
		len = strcspn(p, "\"");
		snprintf(r->name[r->n], sizeof(r->name[0]), "%.*s", (int)len, p);
		p = strstr(p, "\"ms\":");
		if (!p)
			break;
		r->ms[r->n] = strtod(p + 5, &end);
		p = end;
		r->n++;
	}
}

/* Does the mangled @kernel name nvwl's kernel k_@name ("<len>k_<name>")? */
static bool names_kernel(const char *kernel, const char *name)
{
	char want[48];

	snprintf(want, sizeof(want), "%zuk_%s", strlen(name) + 2, name);
	return strstr(kernel, want) != NULL;
}

/* Pair the case's kernels with @r's sections: @at[i] = section or -1. */
static void pair(const struct fid_case *c, const struct fidk_run *r, int *at)
{
	size_t i, j = 0, paired = 0;

	for (i = 0; i < c->nk; i++) {
		size_t s = j;

		while (s < r->n && !names_kernel(c->k[i].name, r->name[s]))
			s++;
		at[i] = s < r->n ? (int)s : -1;
		if (s < r->n) {
			j = s + 1;
			paired++;
		}
	}
	if (paired)
		return;
	for (i = 0; i < c->nk; i++)	/* not nvwl's names: in order */
		at[i] = i < r->n ? (int)i : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Each kernel's median over the runs in @path, in seconds (< 0: none). */
static void medians(struct fid_case *c, const char *path, size_t field)
{
	double (*v)[MAX_RUNS] = calloc(c->nk, sizeof(*v));
	size_t *nv = calloc(c->nk, sizeof(*nv)), i;
	int *at = calloc(c->nk, sizeof(*at));
	struct fidk_run *r = malloc(sizeof(*r));
	char *line = NULL;
	size_t cap = 0;
	FILE *f = path[0] ? fopen(path, "re") : NULL;

	for (i = 0; i < c->nk; i++)
		*(double *)((char *)&c->k[i] + field) = -1;
	if (!f || !v || !nv || !at || !r)
		goto out;
	while (getline(&line, &cap, f) > 0) {
		parse_run(line, r);
		if (!r->n)
			continue;
		pair(c, r, at);
		for (i = 0; i < c->nk; i++)
			if (at[i] >= 0 && nv[i] < MAX_RUNS)
				v[i][nv[i]++] = r->ms[at[i]] * 1e-3;
	}
	for (i = 0; i < c->nk; i++) {
		if (!nv[i])
			continue;
		qsort(v[i], nv[i], sizeof(double), cmp_double);
		*(double *)((char *)&c->k[i] + field) = nv[i] % 2 ? v[i][nv[i] / 2] :
			(v[i][nv[i] / 2 - 1] + v[i][nv[i] / 2]) / 2;
	}
out:
	if (f)
		fclose(f);
	free(line);
	free(r);
	free(at);
	free(nv);
	free(v);
}

void fidk_times(struct fid_case *c)
{
	medians(c, c->untraced, offsetof(struct fid_kernel, measured_s));
	medians(c, c->resident, offsetof(struct fid_kernel, own_s));
}

double fidk_own(const struct fid_kernel *k)
{
	return k->own_s > 0 ? k->own_s : 0;
}

void fidk_counts(const struct fid_kernel *k, struct exp_cost_counts *n)
{
	*n = (struct exp_cost_counts){
		.fault_batches = k->rec[RPK_BATCHES], .fault_batch_pages = k->rec[RPK_PAGES],
		.h2d_bytes = k->rec[RPK_H2D], .d2h_bytes = k->rec[RPK_D2H],
		.d2d_bytes = k->rec[RPK_D2D], .cpu_faults = k->rec[RPK_CPU],
		.evictions = k->rec[RPK_EVICT],
	};
}
