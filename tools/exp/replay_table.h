/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay_table.h - the replay's allocations: the trace's address ranges,
 * the memory standing in for each, and what every page should hold.
 */
#ifndef UVM_EXP_REPLAY_TABLE_H
#define UVM_EXP_REPLAY_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RP_PAGE		((uint64_t)4096)
#define RP_BLOCK	((uint64_t)2 << 20)
#define RP_DEAD		UINT32_MAX	/* gen[] of a page the trace unmapped */

/**
 * struct rp_alloc - one allocation of the trace.
 * @start: its first address in the trace.
 * @end: its end in the trace.
 * @base: the replay's memory for it; NULL while the trace is only scanned.
 * @gen: per page, the writes it has had (0: none, it reads as zeros), or
 *	 RP_DEAD once the trace unmapped it.
 * @live: pages not RP_DEAD.
 * @serial: its number, which every page's pattern carries.
 * @implicit: reconstructed from the addresses used (no allocation record).
 */
struct rp_alloc {
	uint64_t start, end;
	char *base;
	uint32_t *gen;
	uint64_t live;
	uint32_t serial;
	bool implicit;
};

/** struct rp_table - the live allocations, sorted by @start, disjoint. */
struct rp_table {
	struct rp_alloc *v;
	size_t n, cap;
	uint32_t serials;
	uint64_t span;		/* 2 MiB blocks the live ones span, bytes */
};

/* The allocation holding @addr, or NULL. */
struct rp_alloc *rpt_find(const struct rp_table *t, uint64_t addr);
/* The first allocation ending after @addr (index), or t->n. */
size_t rpt_first_after(const struct rp_table *t, uint64_t addr);
/* Add [start, end): 0, -EEXIST (overlaps a live one), -ENOMEM. */
int rpt_add(struct rp_table *t, uint64_t start, uint64_t end, bool implicit);
/* Remove entry @i (its memory is the caller's to have freed). */
void rpt_remove(struct rp_table *t, size_t i);
/* Merge adjacent implicit entries (before any has memory). */
void rpt_merge_implicit(struct rp_table *t);
/* Free everything, memory included (@release frees an entry's). */
void rpt_clear(struct rp_table *t, void (*release)(struct rp_alloc *a));
/* The 2 MiB blocks [start, end) spans, in bytes. */
uint64_t rpt_span(uint64_t start, uint64_t end);
/* The pattern page @page of @a holds after its last write (0: none). */
uint64_t rpt_tag(const struct rp_alloc *a, uint64_t page);

#endif /* UVM_EXP_REPLAY_TABLE_H */
