/* SPDX-License-Identifier: MIT */
/*
 * cuda_stream.h - streams and events inside libuvm (cuda_stream.c).
 */
#ifndef UVM_CUDA_STREAM_H
#define UVM_CUDA_STREAM_H

#include "uvm_internal.h"

/*
 * One unit of stream work. run() executes in the stream's worker thread
 * and returns 0 or -errno; release() frees the item (also when it never
 * ran because submission failed).
 */
struct uvm_work {
	struct uvm_work *next;
	int (*run)(struct uvm_work *w);
	void (*release)(struct uvm_work *w);
};

/*
 * Resolve a stream handle to a referenced stream: 0 is the legacy stream,
 * or the per-thread stream when @ptsz (the call came in through a _ptsz
 * symbol); cudaStreamLegacy/cudaStreamPerThread explicitly; anything else
 * must be a live cudaStreamCreate handle (else InvalidResourceHandle).
 * Runtime must be initialised.
 */
cudaError_t uvm_stream_get(cudaStream_t h, bool ptsz, struct CUstream_st **out);
void uvm_stream_put(struct CUstream_st *s);
bool uvm_stream_is_legacy(const struct CUstream_st *s);

/*
 * Queue @w on @s in stream order (after the implicit legacy-stream
 * dependencies). Takes ownership of @w in every case. 0 or -ENOMEM.
 */
int uvm_stream_submit(struct CUstream_st *s, struct uvm_work *w);

/*
 * Queue @w on @s in stream order and wait until it has run; returns its
 * result (0 or -errno), which does not become the stream's async error.
 * Takes ownership of @w.
 */
int uvm_stream_submit_wait(struct CUstream_st *s, struct uvm_work *w);

/* Wait for everything queued so far on the streams of @device (-1: all
 * devices), e.g. before memory that queued work may use is freed. Errors
 * stay with their streams. 0 or -ENOMEM. */
int uvm_streams_drain(int device);

/* Device of a stream (the device current when it was created). */
int uvm_stream_device(const struct CUstream_st *s);

/* The stream's unreported async error (0 if none), left in place. */
int uvm_stream_peek_error(struct CUstream_st *s);

/*
 * cudaDeviceReset: wait for the work queued on @device's streams, then
 * destroy its user streams and events (their handles become invalid).
 */
void uvm_streams_reset(int device);

/* cuda_mempool.c: after a synchronisation, pools give memory above their
 * release threshold back to the module. */
void uvm_mempool_sync_trim(void);

#endif /* UVM_CUDA_STREAM_H */
