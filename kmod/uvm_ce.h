/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_ce.h - the CPU copy engine: one large copy split over several CPUs.
 */
#ifndef __UVM_CE_H__
#define __UVM_CE_H__

#include <linux/atomic.h>
#include <linux/completion.h>

#include "uvm_svc_clock.h"

/* Pages (or one-page segments) in a piece of a copy job: 128 KiB. */
#define UVM_CE_PIECE_PAGES	32

/**
 * typedef uvm_ce_piece_fn - do piece @piece of a job.
 * @arg: the job's argument.
 * @piece: 0 .. nr_pieces - 1; each is done exactly once, on any CPU.
 *
 * Return: 0 or a negative errno (no later piece is started).
 */
typedef int (*uvm_ce_piece_fn)(void *arg, unsigned int piece);

#define UVM_CE_MAX_HELPERS	7

/**
 * struct uvm_ce_job - one copy job, from uvm_ce_start() to uvm_ce_finish().
 * @fn: does one piece.
 * @arg: @fn's argument.
 * @nr_pieces: number of pieces.
 * @next: next piece to take.
 * @err: first error of a piece.
 * @refs: the caller's and one per helper handed the job.
 * @done: completed when the last helper drops its reference.
 * @cpus: the CPUs whose helpers the job was posted to.
 * @posted: how many.
 * @clk: the fault batch clock uvm_ce_finish() charges (copying, then
 *	 waiting), or NULL; set by the caller after uvm_ce_start().
 */
struct uvm_ce_job {
	uvm_ce_piece_fn fn;
	void *arg;
	unsigned int nr_pieces;
	atomic_t next;
	atomic_t err;
	atomic_t refs;
	struct completion done;
	int cpus[UVM_CE_MAX_HELPERS];
	unsigned int posted;
	struct uvm_svc_clock *clk;
};

void uvm_ce_start(struct uvm_ce_job *job, uvm_ce_piece_fn fn, void *arg,
		  unsigned int nr_pieces);
int uvm_ce_finish(struct uvm_ce_job *job);
int uvm_ce_run(uvm_ce_piece_fn fn, void *arg, unsigned int nr_pieces,
	       void (*meanwhile)(void *arg));
int uvm_ce_init(void);
void uvm_ce_exit(void);

#endif /* __UVM_CE_H__ */
