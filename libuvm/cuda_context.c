// SPDX-License-Identifier: MIT
/*
 * cuda_context.c - driver-API contexts, the per-thread context stack and
 * peer access (driver and runtime).
 *
 * DOC: Contexts
 *
 * Every context of a process shares the process's one VA space (the
 * module's /dev/uvm file): a context is a device plus flags and the set of
 * peer contexts whose memory it may reach. Each device has one primary
 * context, retained and released by count; the runtime uses the primary
 * context of its current device and binds it to a thread that has no
 * current context, so cudaGetDevice() and cuCtxGetCurrent() agree.
 *
 * Created contexts live on a list. A destroyed context stays allocated as
 * a tombstone, so that a stale handle (current to another thread, or kept
 * by the caller) keeps answering CUDA_ERROR_CONTEXT_IS_DESTROYED instead
 * of naming a new context at a recycled address.
 *
 * Peer access: the module copies and migrates between any two of its
 * devices, so every pair of distinct devices can access each other; the
 * enabled pairs are bookkeeping (memory is reachable either way).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "cuda_memory.h"

#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPopCurrent
#undef cuCtxPushCurrent
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
			CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);

#define UVM_CTX_STACK_MAX	64	/* contexts one thread may have pushed */
#define UVM_CTX_MAX_PEERS	64	/* peers one context may enable */

struct CUctx_st {
	struct CUctx_st *next;		/* created contexts; under ctx_lock */
	int device;
	bool primary;
	bool destroyed;			/* tombstone; read atomically */
	unsigned int flags;
	unsigned int npeers;
	struct CUctx_st *peers[UVM_CTX_MAX_PEERS];
};

struct uvm_primary {
	struct CUctx_st ctx;
	unsigned int refs;		/* cuDevicePrimaryCtxRetain count */
};

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uvm_primary *ctx_primary;	/* [ctx_ndev], set once at init */
static unsigned int ctx_ndev;
static struct CUctx_st *ctx_created;	/* list, tombstones included */

static __thread struct CUctx_st *ctx_stack[UVM_CTX_STACK_MAX];
static __thread unsigned int ctx_depth;

int uvm_ctx_init(unsigned int ndev)
{
	unsigned int i;

	ctx_primary = calloc(ndev, sizeof(*ctx_primary));
	if (!ctx_primary)
		return -ENOMEM;
	for (i = 0; i < ndev; i++) {
		ctx_primary[i].ctx.device = (int)i;
		ctx_primary[i].ctx.primary = true;
	}
	ctx_ndev = ndev;
	return 0;
}

static bool ctx_dead(const struct CUctx_st *c)
{
	return __atomic_load_n(&c->destroyed, __ATOMIC_ACQUIRE);
}

static struct CUctx_st *ctx_top(void)
{
	return ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
}

int uvm_ctx_current_device(void)
{
	struct CUctx_st *c = ctx_top();

	return c && !ctx_dead(c) ? c->device : -1;
}

void uvm_ctx_bind_primary(int device)
{
	if (!ctx_primary || device < 0 || (unsigned int)device >= ctx_ndev)
		return;
	if (!ctx_depth)
		ctx_depth = 1;
	ctx_stack[ctx_depth - 1] = &ctx_primary[device].ctx;
}

void uvm_ctx_bind_default(int device)
{
	if (!ctx_depth)
		uvm_ctx_bind_primary(device);
}

/* Is @c a context handle this library gave out (tombstones included)? */
static bool ctx_known_locked(const struct CUctx_st *c)
{
	const struct CUctx_st *k;
	unsigned int i;

	for (i = 0; i < ctx_ndev; i++) {
		if (c == &ctx_primary[i].ctx)
			return true;
	}
	for (k = ctx_created; k; k = k->next) {
		if (k == c)
			return true;
	}
	return false;
}

static CUresult ctx_check_locked(const struct CUctx_st *c)
{
	if (!c || !ctx_known_locked(c))
		return CUDA_ERROR_INVALID_CONTEXT;
	return c->destroyed ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_SUCCESS;
}

static CUresult ctx_check(const struct CUctx_st *c)
{
	CUresult r;

	pthread_mutex_lock(&ctx_lock);
	r = ctx_check_locked(c);
	pthread_mutex_unlock(&ctx_lock);
	return r;
}

/* Driver entry: initialised, else CUDA_ERROR_NOT_INITIALIZED. */
static CUresult cu_ready(void)
{
	return uvm_cu_initialised() ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

/* The calling thread's current context, checked. */
static CUresult ctx_current(struct CUctx_st **out)
{
	struct CUctx_st *c = ctx_top();

	if (!c)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (ctx_dead(c))
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	*out = c;
	return CUDA_SUCCESS;
}

static bool device_ok(CUdevice dev)
{
	return dev >= 0 && (unsigned int)dev < ctx_ndev;
}

/* Context flags: known bits, at most one scheduling mode. */
static bool ctx_flags_ok(unsigned int flags)
{
	unsigned int sched = flags & CU_CTX_SCHED_MASK;

	return !(flags & ~(unsigned int)CU_CTX_FLAGS_MASK) &&
	       (sched == CU_CTX_SCHED_AUTO || sched == CU_CTX_SCHED_SPIN ||
		sched == CU_CTX_SCHED_YIELD || sched == CU_CTX_SCHED_BLOCKING_SYNC);
}

/* ---- peers ------------------------------------------------------------------ */

static int peer_index_locked(const struct CUctx_st *c, const struct CUctx_st *peer)
{
	unsigned int i;

	for (i = 0; i < c->npeers; i++) {
		if (c->peers[i] == peer)
			return (int)i;
	}
	return -1;
}

static void peer_remove_locked(struct CUctx_st *c, int i)
{
	c->peers[i] = c->peers[--c->npeers];
}

/* Forget @gone as a peer of every context, and its own peers. */
static void peers_forget_locked(struct CUctx_st *gone)
{
	struct CUctx_st *k;
	unsigned int d;
	int i;

	gone->npeers = 0;
	for (d = 0; d < ctx_ndev; d++) {
		i = peer_index_locked(&ctx_primary[d].ctx, gone);
		if (i >= 0)
			peer_remove_locked(&ctx_primary[d].ctx, i);
	}
	for (k = ctx_created; k; k = k->next) {
		i = peer_index_locked(k, gone);
		if (i >= 0)
			peer_remove_locked(k, i);
	}
}

static CUresult peer_enable(struct CUctx_st *cur, struct CUctx_st *peer)
{
	CUresult r;

	pthread_mutex_lock(&ctx_lock);
	r = ctx_check_locked(peer);
	if (!r && peer == cur)
		r = CUDA_ERROR_INVALID_CONTEXT;
	else if (!r && peer->device == cur->device)
		r = CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;	/* cuDeviceCanAccessPeer: 0 */
	else if (!r && peer_index_locked(cur, peer) >= 0)
		r = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
	else if (!r && cur->npeers == UVM_CTX_MAX_PEERS)
		r = CUDA_ERROR_TOO_MANY_PEERS;
	else if (!r)
		cur->peers[cur->npeers++] = peer;
	pthread_mutex_unlock(&ctx_lock);
	return r;
}

static CUresult peer_disable(struct CUctx_st *cur, struct CUctx_st *peer)
{
	CUresult r;
	int i;

	pthread_mutex_lock(&ctx_lock);
	r = ctx_check_locked(peer);
	if (!r) {
		i = peer_index_locked(cur, peer);
		if (i < 0)
			r = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
		else
			peer_remove_locked(cur, i);
	}
	pthread_mutex_unlock(&ctx_lock);
	return r;
}

uvm_public CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!canAccessPeer)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_ok(dev) || !device_ok(peerDev))
		return CUDA_ERROR_INVALID_DEVICE;
	*canAccessPeer = dev != peerDev;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
	struct CUctx_st *cur;
	CUresult r = cu_ready();

	if (r)
		return r;
	if (Flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = ctx_current(&cur);
	return r ? r : peer_enable(cur, peerContext);
}

uvm_public CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
	struct CUctx_st *cur;
	CUresult r = cu_ready();

	if (r)
		return r;
	r = ctx_current(&cur);
	return r ? r : peer_disable(cur, peerContext);
}

/* The runtime's twins act on the current context and the peer's primary one. */
static cudaError_t peer_status(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS:
		return cudaSuccess;
	case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
		return cudaErrorPeerAccessAlreadyEnabled;
	case CUDA_ERROR_PEER_ACCESS_NOT_ENABLED:
		return cudaErrorPeerAccessNotEnabled;
	case CUDA_ERROR_TOO_MANY_PEERS:
		return cudaErrorTooManyPeers;
	case CUDA_ERROR_CONTEXT_IS_DESTROYED:
		return cudaErrorContextIsDestroyed;
	default:
		return cudaErrorInvalidDevice;
	}
}

static cudaError_t rt_peer(int peerDevice, bool enable)
{
	struct CUctx_st *cur;
	cudaError_t e = uvm_cuda_init();
	int dev;

	if (e)
		return e;
	if (uvm_cuda_check_device(peerDevice))
		return cudaErrorInvalidDevice;
	dev = uvm_cuda_current_device();	/* binds the primary context if none */
	if (dev == peerDevice)
		return cudaErrorInvalidDevice;
	if (ctx_current(&cur))
		return cudaErrorContextIsDestroyed;
	if (enable)
		return peer_status(peer_enable(cur, &ctx_primary[peerDevice].ctx));
	return peer_status(peer_disable(cur, &ctx_primary[peerDevice].ctx));
}

uvm_public cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return uvm_cuda_set_error(e);
	if (!canAccessPeer)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (uvm_cuda_check_device(device) || uvm_cuda_check_device(peerDevice))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	*canAccessPeer = device != peerDevice;
	return cudaSuccess;
}

uvm_public cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return uvm_cuda_set_error(e);
	if (uvm_cuda_check_device(peerDevice))
		return uvm_cuda_set_error(cudaErrorInvalidDevice);
	if (flags)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	return uvm_cuda_set_error(rt_peer(peerDevice, true));
}

uvm_public cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	return uvm_cuda_set_error(rt_peer(peerDevice, false));
}

/*
 * The link between two distinct devices, as peer access describes it: the
 * module copies and migrates between any two of its devices (access and
 * arrays supported, one kind of link: rank 0), with no native atomics
 * across devices.
 */
static cudaError_t p2p_attr(int *value, enum cudaDeviceP2PAttr attr, int src, int dst)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return e;
	if (!value)	/* before the devices, as CUDA 13 (answers-h100.txt) */
		return cudaErrorInvalidValue;
	if (uvm_cuda_check_device(src) || uvm_cuda_check_device(dst) || src == dst)
		return cudaErrorInvalidDevice;
	switch (attr) {
	case cudaDevP2PAttrPerformanceRank:
	case cudaDevP2PAttrNativeAtomicSupported:
	case cudaDevP2PAttrOnlyPartialNativeAtomicSupported:
		*value = 0;
		return cudaSuccess;
	case cudaDevP2PAttrAccessSupported:
	case cudaDevP2PAttrCudaArrayAccessSupported:
		*value = 1;
		return cudaSuccess;
	default:
		return cudaErrorInvalidValue;
	}
}

uvm_public cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
						 int srcDevice, int dstDevice)
{
	return uvm_cuda_set_error(p2p_attr(value, attr, srcDevice, dstDevice));
}

/* ---- primary contexts -------------------------------------------------------- */

uvm_public CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&ctx_lock);
	ctx_primary[dev].refs++;
	pthread_mutex_unlock(&ctx_lock);
	*pctx = &ctx_primary[dev].ctx;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&ctx_lock);
	if (ctx_primary[dev].refs)
		ctx_primary[dev].refs--;
	else
		r = CUDA_ERROR_INVALID_CONTEXT;	/* not retained */
	pthread_mutex_unlock(&ctx_lock);
	return r;
}

uvm_public CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&ctx_lock);
	*flags = ctx_primary[dev].ctx.flags;
	*active = ctx_primary[dev].refs > 0;
	pthread_mutex_unlock(&ctx_lock);
	return CUDA_SUCCESS;
}

uvm_public CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (!ctx_flags_ok(flags))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&ctx_lock);
	ctx_primary[dev].ctx.flags = flags;
	pthread_mutex_unlock(&ctx_lock);
	return CUDA_SUCCESS;
}

/*
 * Waits for the device's queued work, then resets the primary context's
 * state: retain count, flags and peers. Allocations are the process's (one
 * VA space shared by every context) and are not freed.
 */
uvm_public CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	if (uvm_streams_drain(dev))
		return CUDA_ERROR_OUT_OF_MEMORY;
	uvm_ctx_primary_reset(dev);
	return CUDA_SUCCESS;
}

void uvm_ctx_primary_reset(int device)
{
	pthread_mutex_lock(&ctx_lock);
	ctx_primary[device].refs = 0;
	ctx_primary[device].ctx.flags = 0;
	peers_forget_locked(&ctx_primary[device].ctx);
	pthread_mutex_unlock(&ctx_lock);
}

/*
 * cudaSetDeviceFlags: the flags of @device's primary context (the same bits
 * as CU_CTX_*), at most one scheduling mode, else cudaErrorInvalidValue.
 * libuvm waits on condition variables in every mode; the flags are kept.
 */
cudaError_t uvm_ctx_set_device_flags(int device, unsigned int flags)
{
	if (!ctx_flags_ok(flags))
		return cudaErrorInvalidValue;
	pthread_mutex_lock(&ctx_lock);
	ctx_primary[device].ctx.flags = flags;
	pthread_mutex_unlock(&ctx_lock);
	return cudaSuccess;
}

/*
 * cudaGetDeviceFlags: a created context current to the thread answers its
 * own flags; otherwise the primary context of @device, with
 * cudaDeviceMapHost, which is implicit for the runtime.
 */
unsigned int uvm_ctx_device_flags(int device)
{
	struct CUctx_st *c;
	unsigned int flags;

	pthread_mutex_lock(&ctx_lock);
	if (!ctx_current(&c) && !c->primary)
		flags = c->flags;
	else
		flags = ctx_primary[device].ctx.flags | CU_CTX_MAP_HOST;
	pthread_mutex_unlock(&ctx_lock);
	return flags;
}

/* ---- created contexts and the stack ------------------------------------------- */

static CUresult create_params_check(const CUctxCreateParams *p)
{
	if (!p)
		return CUDA_SUCCESS;
	if (p->numExecAffinityParams < 0 || (p->numExecAffinityParams && !p->execAffinityParams))
		return CUDA_ERROR_INVALID_VALUE;
	if (p->numExecAffinityParams)
		return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;	/* no SM partitions */
	if (p->cigParams)
		return CUDA_ERROR_NOT_SUPPORTED;		/* no graphics interop */
	return CUDA_SUCCESS;
}

static CUresult stack_push(struct CUctx_st *c)
{
	if (ctx_depth == UVM_CTX_STACK_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx_stack[ctx_depth++] = c;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
				   unsigned int flags, CUdevice dev)
{
	struct CUctx_st *c;
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!pctx || !ctx_flags_ok(flags))
		return CUDA_ERROR_INVALID_VALUE;
	if (!device_ok(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	r = create_params_check(ctxCreateParams);
	if (r)
		return r;
	if (ctx_depth == UVM_CTX_STACK_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->device = dev;
	c->flags = flags;
	pthread_mutex_lock(&ctx_lock);
	c->next = ctx_created;
	ctx_created = c;
	pthread_mutex_unlock(&ctx_lock);
	stack_push(c);
	*pctx = c;
	return CUDA_SUCCESS;
}

/*
 * Waits for the context device's queued work, then marks it destroyed and
 * pops it if it is current to the calling thread. The primary context is
 * not destroyed this way (cuDevicePrimaryCtxRelease/Reset).
 */
uvm_public CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	r = ctx_check(ctx);
	if (r)
		return r;
	if (ctx->primary)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (uvm_streams_drain(ctx->device))
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&ctx_lock);
	peers_forget_locked(ctx);
	__atomic_store_n(&ctx->destroyed, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ctx_lock);
	if (ctx_top() == ctx)
		ctx_depth--;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	r = ctx_check(ctx);
	return r ? r : stack_push(ctx);
}

uvm_public CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!ctx_depth)
		return CUDA_ERROR_INVALID_CONTEXT;
	ctx_depth--;
	if (pctx)
		*pctx = ctx_stack[ctx_depth];
	return CUDA_SUCCESS;
}

/* NULL pops the top (no-op on an empty stack); else replaces the top. */
uvm_public CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!ctx) {
		if (ctx_depth)
			ctx_depth--;
		return CUDA_SUCCESS;
	}
	r = ctx_check(ctx);
	if (r)
		return r;
	if (!ctx_depth)
		ctx_depth = 1;
	ctx_stack[ctx_depth - 1] = ctx;
	return CUDA_SUCCESS;
}

uvm_public CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = ctx_top();
	return CUDA_SUCCESS;
}

uvm_public CUresult cuCtxGetDevice(CUdevice *device)
{
	struct CUctx_st *c;
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	r = ctx_current(&c);
	if (!r)
		*device = c->device;
	return r;
}

uvm_public CUresult cuCtxGetFlags(unsigned int *flags)
{
	struct CUctx_st *c;
	CUresult r = cu_ready();

	if (r)
		return r;
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = ctx_current(&c);
	if (!r)
		*flags = c->flags;
	return r;
}

/* The current context's device: its streams' work done, their errors reported. */
uvm_public CUresult cuCtxSynchronize(void)
{
	struct CUctx_st *c;
	CUresult r = cu_ready();

	if (r)
		return r;
	r = ctx_current(&c);
	return r ? r : UVM_CU_FORWARD(cudaDeviceSynchronize());
}

/*
 * The driver entry points that need a current context call this first:
 * not initialised, no current context, or a destroyed one.
 */
CUresult uvm_cu_ctx_enter(void)
{
	struct CUctx_st *c;
	CUresult r = cu_ready();

	return r ? r : ctx_current(&c);
}
