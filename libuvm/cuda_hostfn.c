// SPDX-License-Identifier: MIT
/*
 * cuda_hostfn.c - host functions in stream order: cudaLaunchHostFunc,
 * cudaStreamAddCallback and their driver twins, plus the driver's stream
 * queries (cuStreamGetFlags/Priority, cuCtxGetStreamPriorityRange).
 *
 * DOC: Host functions
 *
 * A host function is one stream item (struct uvm_work): the stream's worker
 * thread calls it when the stream reaches it, and the stream's later items
 * wait until it has returned. A callback (cudaStreamAddCallback) is also
 * given the stream handle the caller passed and the stream's status: the
 * error of earlier asynchronous work not yet reported, else cudaSuccess
 * (the error stays with the stream for the next synchronisation). As CUDA
 * requires, the functions must not call the CUDA API: one that waits on
 * its own stream would wait for itself.
 */
#include <errno.h>
#include <stdlib.h>

#include "cuda_memory.h"
#include "cuda_ptsz.h"

#undef cuLaunchHostFunc
#undef cuStreamAddCallback
#undef cuStreamGetFlags
#undef cuStreamGetPriority

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback, void *userData,
				  unsigned int flags);
CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags);
CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority);

enum uvm_hostfn_kind { UVM_HOSTFN, UVM_HOSTFN_CALLBACK, UVM_HOSTFN_CU_CALLBACK };

struct uvm_hostfn_work {
	struct uvm_work base;
	enum uvm_hostfn_kind kind;
	struct CUstream_st *stream;	/* ref */
	void *handle;			/* as the caller passed it */
	void (*fn)(void);		/* cast back according to @kind */
	void *arg;
};

static int hostfn_run(struct uvm_work *w)
{
	struct uvm_hostfn_work *hw = (struct uvm_hostfn_work *)w;
	cudaError_t st;

	if (hw->kind == UVM_HOSTFN) {
		((cudaHostFn_t)hw->fn)(hw->arg);
		return 0;
	}
	st = uvm_errno_to_cuda(uvm_stream_peek_error(hw->stream));
	if (hw->kind == UVM_HOSTFN_CALLBACK)
		((cudaStreamCallback_t)hw->fn)(hw->handle, st, hw->arg);
	else
		((CUstreamCallback)hw->fn)(hw->handle, uvm_cuda_to_cu(st), hw->arg);
	return 0;
}

static void hostfn_release(struct uvm_work *w)
{
	struct uvm_hostfn_work *hw = (struct uvm_hostfn_work *)w;

	uvm_stream_put(hw->stream);
	free(hw);
}

/* Queue @fn on the stream @h names (records nothing). */
static cudaError_t hostfn_queue(void *h, bool ptsz, enum uvm_hostfn_kind kind, void (*fn)(void),
				void *arg, unsigned int flags)
{
	struct uvm_hostfn_work *hw;
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!fn || flags)
		return cudaErrorInvalidValue;
	e = uvm_stream_get(h, ptsz, &s);
	if (e)
		return e;
	hw = calloc(1, sizeof(*hw));
	if (!hw) {
		uvm_stream_put(s);
		return cudaErrorMemoryAllocation;
	}
	hw->base.run = hostfn_run;
	hw->base.release = hostfn_release;
	hw->kind = kind;
	hw->stream = s;		/* the item keeps the reference */
	hw->handle = h;
	hw->fn = fn;
	hw->arg = arg;
	return uvm_errno_to_cuda(uvm_stream_submit(s, &hw->base));
}

uvm_public cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
	return uvm_cuda_set_error(hostfn_queue(stream, false, UVM_HOSTFN, (void (*)(void))fn,
					       userData, 0));
}

uvm_public cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
					       void *userData)
{
	return uvm_cuda_set_error(hostfn_queue(stream, true, UVM_HOSTFN, (void (*)(void))fn,
					       userData, 0));
}

uvm_public cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
					     void *userData, unsigned int flags)
{
	return uvm_cuda_set_error(hostfn_queue(stream, false, UVM_HOSTFN_CALLBACK,
					       (void (*)(void))callback, userData, flags));
}

uvm_public cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
						  cudaStreamCallback_t callback, void *userData,
						  unsigned int flags)
{
	return uvm_cuda_set_error(hostfn_queue(stream, true, UVM_HOSTFN_CALLBACK,
					       (void (*)(void))callback, userData, flags));
}

/* ---- driver twins ---------------------------------------------------------- */

static CUresult cu_ready(void)
{
	return uvm_cu_initialised() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

static CUresult cu_hostfn(CUstream h, bool ptsz, enum uvm_hostfn_kind kind, void (*fn)(void),
			  void *arg, unsigned int flags)
{
	CUresult r = cu_ready();

	return r ? r : uvm_cuda_to_cu(hostfn_queue(h, ptsz, kind, fn, arg, flags));
}

uvm_public CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
	return cu_hostfn(hStream, false, UVM_HOSTFN, (void (*)(void))fn, userData, 0);
}

uvm_public CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
	return cu_hostfn(hStream, true, UVM_HOSTFN, (void (*)(void))fn, userData, 0);
}

uvm_public CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
					void *userData, unsigned int flags)
{
	return cu_hostfn(hStream, false, UVM_HOSTFN_CU_CALLBACK, (void (*)(void))callback,
			 userData, flags);
}

uvm_public CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
					     void *userData, unsigned int flags)
{
	return cu_hostfn(hStream, true, UVM_HOSTFN_CU_CALLBACK, (void (*)(void))callback,
			 userData, flags);
}

uvm_public CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamGetFlags(hStream, flags));
}

uvm_public CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamGetFlags_ptsz(hStream, flags));
}

uvm_public CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamGetPriority(hStream, priority));
}

uvm_public CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
	CUresult r = cu_ready();

	return r ? r : UVM_CU_FORWARD(cudaStreamGetPriority_ptsz(hStream, priority));
}

/* Needs a current context, as CUDA's. */
uvm_public CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	CUresult r = uvm_cu_ctx_enter();

	return r ? r : UVM_CU_FORWARD(cudaDeviceGetStreamPriorityRange(leastPriority,
									greatestPriority));
}
