// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Sequential prefetch
 *
 * A device sweeping memory faults on ascending pages: the sorted batch
 * holds runs of consecutive pages, and the next batch starts where the
 * last one's pages (and their prefetch) ended. Each device of a VA space
 * follows up to UVM_SEQ_STREAMS such runs at once (a kernel computing
 * a = b + c sweeps three arrays). A run continues a stream of an earlier
 * batch when it starts between the stream's last faulted page and a little
 * past its prefetched pages (two runs of one batch have a gap between
 * them: they are not one stream). A run of one page counts only in a batch
 * of at most UVM_SEQ_STREAMS runs (a sweep under a small fault_batch):
 * among many runs it is a random fault. Once a stream is UVM_SEQ_MIN_RUN
 * pages long, the prefetch_pages pages after the run are brought in with
 * the batch, across block boundaries. Uniformly random faults make no
 * streams: nothing is prefetched.
 */
#include <linux/minmax.h>
#include <linux/mm.h>

#include "uvm_prefetch_policy.h"

/* A run may start this far past where its stream's prefetch ended. */
#define UVM_SEQ_SLACK		16UL

void uvm_seq_state_init(struct uvm_seq_state *seq)
{
	spin_lock_init(&seq->lock);
	memset(seq->streams, 0, sizeof(seq->streams));
	seq->stamp = 0;
}

/* The stream a run starting at page @start continues; or the one to reuse. */
static struct uvm_seq_stream *seq_find(struct uvm_seq_state *seq,
				       unsigned long start, bool *cont)
{
	struct uvm_seq_stream *s, *old = &seq->streams[0];
	unsigned int k;

	for (k = 0; k < UVM_SEQ_STREAMS; k++) {
		s = &seq->streams[k];
		/* A batch's runs have gaps between them: not one stream. */
		if (s->len && s->stamp != seq->stamp && start >= s->from &&
		    start <= s->next + (UVM_SEQ_SLACK << PAGE_SHIFT)) {
			*cont = true;
			return s;
		}
		if (s->stamp < old->stamp)
			old = s;
	}
	*cont = false;
	return old;
}

/*
 * The run [@first, @last] of the batch: extend or start its stream; return
 * the pages to prefetch after it (0: none).
 */
static unsigned long seq_run(struct uvm_seq_state *seq, unsigned long first,
			     unsigned long last, unsigned long pages)
{
	unsigned long n = ((last - first) >> PAGE_SHIFT) + 1;
	struct uvm_seq_stream *s;
	bool cont;

	s = seq_find(seq, first, &cont);
	s->len = cont ? s->len + n : n;
	s->stamp = seq->stamp;
	if (s->len < UVM_SEQ_MIN_RUN)
		pages = 0;
	s->from = last + PAGE_SIZE;
	s->next = s->from + (pages << PAGE_SHIFT);
	return pages;
}

/* Has the batch at most UVM_SEQ_STREAMS runs (then each may be a step)? */
static bool seq_few_runs(const unsigned long *va, unsigned int n)
{
	unsigned int k, runs = !!n;

	for (k = 1; k < n && runs <= UVM_SEQ_STREAMS; k++)
		if ((va[k] & PAGE_MASK) != (va[k - 1] & PAGE_MASK) + PAGE_SIZE)
			runs++;
	return runs <= UVM_SEQ_STREAMS;
}

/**
 * uvm_prefetch_seq_batch() - the pages a batch brings in after its runs.
 * @seq: the faulting device's detector in this VA space.
 * @va: the batch's faulted page addresses, sorted and merged (low bits:
 *	flags, ignored).
 * @n: entries of @va.
 * @pages: prefetch_pages in force.
 * @out: at most UVM_SEQ_STREAMS ranges, sorted, not overlapping.
 *
 * Return: the number of ranges in @out.
 */
unsigned int uvm_prefetch_seq_batch(struct uvm_seq_state *seq,
				    const unsigned long *va, unsigned int n,
				    unsigned int pages,
				    struct uvm_prefetch_range *out)
{
	unsigned long first, last, got, budget = UVM_PREFETCH_BATCH_MAX;
	unsigned int k, nr = 0;
	bool few = seq_few_runs(va, n);

	spin_lock(&seq->lock);
	seq->stamp++;
	for (k = 0; k < n; k++) {
		first = va[k] & PAGE_MASK;
		for (last = first; k + 1 < n &&
		     (va[k + 1] & PAGE_MASK) == last + PAGE_SIZE; k++)
			last += PAGE_SIZE;
		if (first == last && !few)
			continue;	/* a lone page among many: not a stream */
		got = seq_run(seq, first, last, min_t(unsigned long, pages, budget));
		if (!got || nr == UVM_SEQ_STREAMS)
			continue;
		/* Runs ascend: a range may only overlap the one before. */
		first = last + PAGE_SIZE;
		if (nr && first < out[nr - 1].end)
			first = out[nr - 1].end;
		last += PAGE_SIZE + (got << PAGE_SHIFT);
		if (first >= last)
			continue;
		out[nr++] = (struct uvm_prefetch_range){ first, last };
		budget -= (last - first) >> PAGE_SHIFT;
	}
	spin_unlock(&seq->lock);
	return nr;
}
