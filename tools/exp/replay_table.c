// SPDX-License-Identifier: GPL-2.0
/*
 * replay_table.c - the replay's allocation table (replay_table.h): a
 * sorted array, searched by bisection; a trace has few allocations live
 * at a time, so inserting by moving the tail is cheap. Its memory is
 * bounded by the trace's footprint (4 bytes a page), never by its length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "replay_table.h"

uint64_t rpt_span(uint64_t start, uint64_t end)
{
	uint64_t lo = start & ~(RP_BLOCK - 1);
	uint64_t hi = (end + RP_BLOCK - 1) & ~(RP_BLOCK - 1);

	return hi - lo;
}

size_t rpt_first_after(const struct rp_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct rp_alloc *rpt_find(const struct rp_table *t, uint64_t addr)
{
	size_t i = rpt_first_after(t, addr);

	if (i == t->n || t->v[i].start > addr)
		return NULL;
	return &t->v[i];
}

static int grow(struct rp_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 16;
	struct rp_alloc *v;

	if (t->n < t->cap)
		return 0;
	v = realloc(t->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->v = v;
	t->cap = cap;
	return 0;
}

int rpt_add(struct rp_table *t, uint64_t start, uint64_t end, bool implicit)
{
	size_t i = rpt_first_after(t, start);
	uint64_t pages = (end - start) / RP_PAGE;
	uint32_t *gen;

	if (i < t->n && t->v[i].start < end)
		return -EEXIST;
	if (grow(t))
		return -ENOMEM;
	gen = calloc(pages, sizeof(*gen));
	if (!gen)
		return -ENOMEM;
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(t->v[0]));
	t->v[i] = (struct rp_alloc){
		.start = start, .end = end, .gen = gen, .live = pages,
		.serial = ++t->serials, .implicit = implicit,
	};
	t->n++;
	t->span += rpt_span(start, end);
	return 0;
}

void rpt_remove(struct rp_table *t, size_t i)
{
	t->span -= rpt_span(t->v[i].start, t->v[i].end);
	free(t->v[i].gen);
	memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof(t->v[0]));
	t->n--;
}

/* Join entry @i + 1 to entry @i (both implicit, adjacent, no memory). */
static int join_next(struct rp_table *t, size_t i)
{
	struct rp_alloc *a = &t->v[i], *b = &t->v[i + 1];
	uint64_t pa = (a->end - a->start) / RP_PAGE;
	uint64_t pb = (b->end - b->start) / RP_PAGE;
	uint32_t *gen = realloc(a->gen, (pa + pb) * sizeof(*gen));

	if (!gen)
		return -ENOMEM;
	memcpy(gen + pa, b->gen, pb * sizeof(*gen));
	t->span -= rpt_span(a->start, a->end) + rpt_span(b->start, b->end);
	a->gen = gen;
	a->end = b->end;
	a->live += b->live;
	t->span += rpt_span(a->start, a->end);
	free(b->gen);
	memmove(b, b + 1, (t->n - i - 2) * sizeof(*b));
	t->n--;
	return 0;
}

void rpt_merge_implicit(struct rp_table *t)
{
	size_t i = 0;

	while (i + 1 < t->n) {
		if (t->v[i].implicit && t->v[i + 1].implicit &&
		    t->v[i].end == t->v[i + 1].start && !join_next(t, i))
			continue;
		i++;
	}
}

void rpt_clear(struct rp_table *t, void (*release)(struct rp_alloc *a))
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (release && t->v[i].base)
			release(&t->v[i]);
		free(t->v[i].gen);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

uint64_t rpt_tag(const struct rp_alloc *a, uint64_t page)
{
	uint32_t g = a->gen[page];
	uint64_t s;

	if (!g)
		return 0;
	s = ((uint64_t)a->serial << 44) ^ (page << 12) ^ g;
	return exp_rand(&s) | 1;
}
