/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_ce.h - the CPU copy engine: one large copy split over several CPUs.
 */
#ifndef __UVM_CE_H__
#define __UVM_CE_H__

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

int uvm_ce_run(uvm_ce_piece_fn fn, void *arg, unsigned int nr_pieces,
	       void (*meanwhile)(void *arg));
void uvm_ce_init(void);
void uvm_ce_exit(void);

#endif /* __UVM_CE_H__ */
