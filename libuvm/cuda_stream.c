// SPDX-License-Identifier: MIT
/*
 * cuda_stream.c - streams, events and device synchronisation.
 *
 * DOC: Streams
 *
 * A stream is a FIFO of work items (struct uvm_work) executed by one worker
 * thread of its own, created when the first item is queued and ending when
 * the stream is destroyed and its queue has drained (cudaStreamDestroy
 * returns at once, as CUDA's does). Every item has a ticket (its position
 * in the stream); a stream's progress is the number of completed items, so
 * "point (stream, ticket) reached" is all events and dependencies need.
 *
 * Legacy default stream (one per device, handle 0 or cudaStreamLegacy):
 * an item queued on it first waits for everything already queued on the
 * device's blocking streams, and an item queued on a blocking stream first
 * waits for everything already queued on the legacy stream. These waits are
 * ordinary items (struct uvm_wait_work) computed under uvm_sched_lock, so
 * two submissions can never wait on each other. Streams created with
 * cudaStreamNonBlocking take no part. The per-thread default stream (one
 * per thread and device, handle cudaStreamPerThread or 0 through a _ptsz
 * symbol) is an ordinary blocking stream, retired when its thread exits.
 *
 * Errors of asynchronous work: the first failed item's error is kept by
 * its stream and reported once, by the next cudaStreamSynchronize or
 * cudaStreamQuery on that stream or by cudaDeviceSynchronize, and becomes
 * the caller's last error. No item libuvm runs can corrupt the context, so
 * none of these errors is sticky (CUDA keeps stickiness for errors such as
 * cudaErrorIllegalAddress that destroy the context).
 *
 * Locking: uvm_sched_lock protects the stream and event lists and
 * serialises submission. Order: event->lock -> uvm_sched_lock ->
 * stream->lock; a thread holds at most one stream lock. Workers hold no
 * lock while an item runs.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "cuda_ptsz.h"
#include "cuda_stream.h"

#define UVM_STREAM_MAX_DEVICES	32

enum uvm_stream_kind { UVM_STREAM_USER, UVM_STREAM_LEGACY, UVM_STREAM_PER_THREAD };

struct CUstream_st {
	pthread_mutex_t lock;		/* Protects the fields up to @error */
	pthread_cond_t work_cond;	/* worker: item queued or dying */
	pthread_cond_t done_cond;	/* waiters: @completed advanced */
	struct uvm_work *head, *tail;
	uint64_t submitted, completed;
	int error;			/* unreported -errno of a failed item */
	bool worker, dying;
	/* immutable after creation */
	enum uvm_stream_kind kind;
	unsigned int flags;
	int device;
	atomic_int refs;
	struct CUstream_st *next;	/* uvm_streams list, under uvm_sched_lock */
};

struct CUevent_st {
	pthread_mutex_t lock;		/* Protects the fields up to @stamped */
	struct CUstream_st *stream;	/* of the last record (ref), NULL never */
	uint64_t ticket;		/* that record's position in @stream */
	uint64_t gen;			/* number of records so far */
	struct timespec time;		/* when the last record ran */
	bool stamped;			/* @time belongs to record @gen */
	/* immutable after creation */
	unsigned int flags;
	int device;			/* current when it was created */
	atomic_int refs;
	struct CUevent_st *next;	/* uvm_events list, under uvm_sched_lock */
};

static pthread_mutex_t uvm_sched_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUstream_st *uvm_streams;		/* every live stream */
static struct CUevent_st *uvm_events;		/* every live event */
static struct CUstream_st *uvm_legacy[UVM_STREAM_MAX_DEVICES];
static __thread struct CUstream_st *uvm_per_thread[UVM_STREAM_MAX_DEVICES];
static pthread_key_t uvm_per_thread_key;
static pthread_once_t uvm_per_thread_once = PTHREAD_ONCE_INIT;

/* ---- stream objects ------------------------------------------------------ */

static struct CUstream_st *stream_alloc(enum uvm_stream_kind kind, unsigned int flags, int device)
{
	struct CUstream_st *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->work_cond, NULL);
	pthread_cond_init(&s->done_cond, NULL);
	s->kind = kind;
	s->flags = flags;
	s->device = device;
	atomic_init(&s->refs, 1);
	return s;
}

static void stream_free(struct CUstream_st *s)
{
	/* Single attaches revert only now: after the stream's last work. */
	if (s->kind == UVM_STREAM_USER)
		uvm_managed_detach_stream(uvm_cuda_context(), s);
	pthread_cond_destroy(&s->done_cond);
	pthread_cond_destroy(&s->work_cond);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

static void stream_ref(struct CUstream_st *s)
{
	atomic_fetch_add(&s->refs, 1);
}

void uvm_stream_put(struct CUstream_st *s)
{
	if (s && atomic_fetch_sub(&s->refs, 1) == 1)
		stream_free(s);
}

bool uvm_stream_is_legacy(const struct CUstream_st *s)
{
	return s->kind == UVM_STREAM_LEGACY;
}

static bool stream_blocking(const struct CUstream_st *s)
{
	return s->kind != UVM_STREAM_LEGACY && !(s->flags & cudaStreamNonBlocking);
}

/* Caller holds uvm_sched_lock. */
static void stream_link_locked(struct CUstream_st *s)
{
	s->next = uvm_streams;
	uvm_streams = s;
}

/* Caller holds uvm_sched_lock. false if @s was not listed. */
static bool stream_unlink_locked(struct CUstream_st *s)
{
	struct CUstream_st **pp;

	for (pp = &uvm_streams; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			return true;
		}
	}
	return false;
}

/* End of life: the worker drains the queue, then the last ref frees. */
static void stream_retire(struct CUstream_st *s)
{
	pthread_mutex_lock(&s->lock);
	s->dying = true;
	pthread_cond_broadcast(&s->work_cond);
	pthread_mutex_unlock(&s->lock);
	uvm_stream_put(s);
}

static void per_thread_exit(void *arg)
{
	unsigned int i;

	(void)arg;
	for (i = 0; i < UVM_STREAM_MAX_DEVICES; i++) {
		struct CUstream_st *s = uvm_per_thread[i];

		if (!s)
			continue;
		uvm_per_thread[i] = NULL;
		pthread_mutex_lock(&uvm_sched_lock);
		stream_unlink_locked(s);
		pthread_mutex_unlock(&uvm_sched_lock);
		stream_retire(s);
	}
}

static void per_thread_key_init(void)
{
	pthread_key_create(&uvm_per_thread_key, per_thread_exit);
}

/* The implicit stream of @kind for @device, created on first use. */
static struct CUstream_st *implicit_stream(enum uvm_stream_kind kind, int device)
{
	struct CUstream_st **slot;

	if (device < 0 || device >= UVM_STREAM_MAX_DEVICES)
		return NULL;
	if (kind == UVM_STREAM_PER_THREAD) {
		pthread_once(&uvm_per_thread_once, per_thread_key_init);
		slot = &uvm_per_thread[device];
	} else {
		slot = &uvm_legacy[device];
	}
	pthread_mutex_lock(&uvm_sched_lock);
	if (!*slot) {
		*slot = stream_alloc(kind, 0, device);
		if (*slot)
			stream_link_locked(*slot);
		if (*slot && kind == UVM_STREAM_PER_THREAD)
			pthread_setspecific(uvm_per_thread_key, *slot);
	}
	if (*slot)
		stream_ref(*slot);
	pthread_mutex_unlock(&uvm_sched_lock);
	return *slot;
}

static struct CUstream_st *user_stream_get(cudaStream_t h)
{
	struct CUstream_st *s;

	pthread_mutex_lock(&uvm_sched_lock);
	for (s = uvm_streams; s; s = s->next) {
		if (s == h && s->kind == UVM_STREAM_USER) {
			stream_ref(s);
			break;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	return s;
}

cudaError_t uvm_stream_get(cudaStream_t h, bool ptsz, struct CUstream_st **out)
{
	int dev = uvm_cuda_current_device();

	if (h == NULL)
		*out = implicit_stream(ptsz ? UVM_STREAM_PER_THREAD : UVM_STREAM_LEGACY, dev);
	else if (h == cudaStreamLegacy)
		*out = implicit_stream(UVM_STREAM_LEGACY, dev);
	else if (h == cudaStreamPerThread)
		*out = implicit_stream(UVM_STREAM_PER_THREAD, dev);
	else
		return (*out = user_stream_get(h)) ? cudaSuccess : cudaErrorInvalidResourceHandle;
	return *out ? cudaSuccess : cudaErrorMemoryAllocation;
}

/* ---- the worker ---------------------------------------------------------- */

static void *stream_worker(void *arg)
{
	struct CUstream_st *s = arg;
	struct uvm_work *w;
	int err;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->head && !s->dying)
			pthread_cond_wait(&s->work_cond, &s->lock);
		w = s->head;
		if (!w)
			break;
		s->head = w->next;
		if (!s->head)
			s->tail = NULL;
		pthread_mutex_unlock(&s->lock);

		err = w->run(w);
		w->release(w);

		pthread_mutex_lock(&s->lock);
		if (err && !s->error)
			s->error = err;
		s->completed++;
		pthread_cond_broadcast(&s->done_cond);
	}
	s->worker = false;
	pthread_mutex_unlock(&s->lock);
	uvm_stream_put(s);
	return NULL;
}

/* Caller holds s->lock. */
static int worker_start_locked(struct CUstream_st *s)
{
	pthread_attr_t attr;
	pthread_t th;
	int ret;

	if (s->worker)
		return 0;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	stream_ref(s);
	ret = pthread_create(&th, &attr, stream_worker, s);
	pthread_attr_destroy(&attr);
	if (ret) {
		atomic_fetch_sub(&s->refs, 1);	/* the caller still holds one */
		return -ENOMEM;
	}
	s->worker = true;
	return 0;
}

/* Append @w; *ticket = its position. Caller holds uvm_sched_lock. */
static int enqueue(struct CUstream_st *s, struct uvm_work *w, uint64_t *ticket)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	ret = worker_start_locked(s);
	if (!ret) {
		w->next = NULL;
		if (s->tail)
			s->tail->next = w;
		else
			s->head = w;
		s->tail = w;
		*ticket = ++s->submitted;
		pthread_cond_signal(&s->work_cond);
	}
	pthread_mutex_unlock(&s->lock);
	if (ret)
		w->release(w);
	return ret;
}

/* ---- waiting for a point ---------------------------------------------- */

static void point_wait(struct CUstream_st *s, uint64_t ticket)
{
	pthread_mutex_lock(&s->lock);
	while (s->completed < ticket)
		pthread_cond_wait(&s->done_cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static bool point_reached(struct CUstream_st *s, uint64_t ticket)
{
	bool done;

	pthread_mutex_lock(&s->lock);
	done = s->completed >= ticket;
	pthread_mutex_unlock(&s->lock);
	return done;
}

/* An item that waits for another stream's point. */
struct uvm_wait_work {
	struct uvm_work base;
	struct CUstream_st *target;	/* ref */
	uint64_t ticket;
};

static int wait_run(struct uvm_work *w)
{
	struct uvm_wait_work *ww = (struct uvm_wait_work *)w;

	point_wait(ww->target, ww->ticket);
	return 0;
}

static void wait_release(struct uvm_work *w)
{
	struct uvm_wait_work *ww = (struct uvm_wait_work *)w;

	uvm_stream_put(ww->target);
	free(ww);
}

/* Queue on @s a wait for @target's point @ticket. Caller holds uvm_sched_lock. */
static int enqueue_wait(struct CUstream_st *s, struct CUstream_st *target, uint64_t ticket)
{
	struct uvm_wait_work *ww;
	uint64_t t;

	if (target == s || point_reached(target, ticket))
		return 0;
	ww = calloc(1, sizeof(*ww));
	if (!ww)
		return -ENOMEM;
	ww->base.run = wait_run;
	ww->base.release = wait_release;
	stream_ref(target);
	ww->target = target;
	ww->ticket = ticket;
	return enqueue(s, &ww->base, &t);
}

static uint64_t stream_submitted(struct CUstream_st *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->lock);
	n = s->submitted;
	pthread_mutex_unlock(&s->lock);
	return n;
}

/* The legacy-stream rules, as wait items. Caller holds uvm_sched_lock. */
static int enqueue_legacy_deps(struct CUstream_st *s)
{
	struct CUstream_st *o;
	int ret = 0;

	if (stream_blocking(s)) {
		o = uvm_legacy[s->device];
		return o ? enqueue_wait(s, o, stream_submitted(o)) : 0;
	}
	if (!uvm_stream_is_legacy(s))
		return 0;
	for (o = uvm_streams; o && !ret; o = o->next) {
		if (o->device == s->device && stream_blocking(o))
			ret = enqueue_wait(s, o, stream_submitted(o));
	}
	return ret;
}

static int submit_ticket(struct CUstream_st *s, struct uvm_work *w, uint64_t *ticket)
{
	int ret;

	pthread_mutex_lock(&uvm_sched_lock);
	ret = enqueue_legacy_deps(s);
	if (ret)
		w->release(w);
	else
		ret = enqueue(s, w, ticket);
	pthread_mutex_unlock(&uvm_sched_lock);
	return ret;
}

int uvm_stream_submit(struct CUstream_st *s, struct uvm_work *w)
{
	uint64_t ticket;

	return submit_ticket(s, w, &ticket);
}

/* Runs an item for a caller that waits for it: its result goes to the
 * caller, never to the stream's error. */
struct uvm_sync_work {
	struct uvm_work base;
	struct uvm_work *inner;
	int *result;
};

static int sync_run(struct uvm_work *w)
{
	struct uvm_sync_work *sw = (struct uvm_sync_work *)w;

	*sw->result = sw->inner->run(sw->inner);
	return 0;
}

static void sync_release(struct uvm_work *w)
{
	struct uvm_sync_work *sw = (struct uvm_sync_work *)w;

	sw->inner->release(sw->inner);
	free(sw);
}

static void point_wait(struct CUstream_st *s, uint64_t ticket);

int uvm_stream_submit_wait(struct CUstream_st *s, struct uvm_work *w)
{
	struct uvm_sync_work *sw = calloc(1, sizeof(*sw));
	uint64_t ticket;
	int result = 0, ret;

	if (!sw) {
		w->release(w);
		return -ENOMEM;
	}
	sw->base.run = sync_run;
	sw->base.release = sync_release;
	sw->inner = w;
	sw->result = &result;
	ret = submit_ticket(s, &sw->base, &ticket);
	if (ret)
		return ret;
	point_wait(s, ticket);
	return result;
}


/* ---- synchronisation ----------------------------------------------------- */

static int noop_run(struct uvm_work *w)
{
	(void)w;
	return 0;
}

static void free_release(struct uvm_work *w)
{
	free(w);
}

/*
 * Everything queued on @s so far, and for the legacy stream everything it
 * implicitly waits for: a no-op item queued through the normal path.
 */
static int stream_barrier(struct CUstream_st *s, uint64_t *ticket)
{
	struct uvm_work *w;

	if (!uvm_stream_is_legacy(s)) {
		*ticket = stream_submitted(s);
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->run = noop_run;
	w->release = free_release;
	return submit_ticket(s, w, ticket);
}

/* Take the stream's unreported async error (0 if none). */
static int stream_take_error(struct CUstream_st *s)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = s->error;
	s->error = 0;
	pthread_mutex_unlock(&s->lock);
	return err;
}

static int stream_sync(struct CUstream_st *s)
{
	uint64_t ticket;
	int ret;

	ret = stream_barrier(s, &ticket);
	if (ret)
		return ret;
	point_wait(s, ticket);
	return stream_take_error(s);
}

static cudaError_t stream_query(struct CUstream_st *s)
{
	uint64_t ticket;
	int ret;

	ret = stream_barrier(s, &ticket);
	if (ret)
		return uvm_errno_to_cuda(ret);
	if (!point_reached(s, ticket))
		return cudaErrorNotReady;
	return uvm_errno_to_cuda(stream_take_error(s));
}

/* Referenced snapshot of the streams of @device; *n entries. */
static struct CUstream_st **streams_snapshot(int device, size_t *n)
{
	struct CUstream_st **v, *s;
	size_t cap = 0;

	pthread_mutex_lock(&uvm_sched_lock);
	for (s = uvm_streams; s; s = s->next)
		cap++;
	v = calloc(cap ? cap : 1, sizeof(*v));
	*n = 0;
	for (s = uvm_streams; v && s; s = s->next) {
		if (s->device == device) {
			stream_ref(s);
			v[(*n)++] = s;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	return v;
}

static int device_sync(int device)
{
	struct CUstream_st **v;
	size_t n, i;
	int err = 0, e;

	v = streams_snapshot(device, &n);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		point_wait(v[i], stream_submitted(v[i]));
		e = stream_take_error(v[i]);
		if (!err)
			err = e;
		uvm_stream_put(v[i]);
	}
	free(v);
	return err;
}

/* Everything queued so far on the streams of @device (-1: every device);
 * their errors stay with them. */
int uvm_streams_drain(int device)
{
	struct CUstream_st **v, *s;
	size_t n = 0, cap = 0, i;

	pthread_mutex_lock(&uvm_sched_lock);
	for (s = uvm_streams; s; s = s->next)
		cap++;
	v = calloc(cap ? cap : 1, sizeof(*v));
	for (s = uvm_streams; v && s; s = s->next) {
		if (device < 0 || s->device == device) {
			stream_ref(s);
			v[n++] = s;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		point_wait(v[i], stream_submitted(v[i]));
		uvm_stream_put(v[i]);
	}
	free(v);
	return 0;
}

/* ---- events -------------------------------------------------------------- */

static struct CUevent_st *event_get(cudaEvent_t h)
{
	struct CUevent_st *e;

	pthread_mutex_lock(&uvm_sched_lock);
	for (e = uvm_events; e && e != h; e = e->next)
		;
	if (e)
		atomic_fetch_add(&e->refs, 1);
	pthread_mutex_unlock(&uvm_sched_lock);
	return e;
}

static void event_put(struct CUevent_st *e)
{
	if (atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	uvm_stream_put(e->stream);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

struct uvm_record_work {
	struct uvm_work base;
	struct CUevent_st *event;	/* ref */
	uint64_t gen;
};

static int record_run(struct uvm_work *w)
{
	struct uvm_record_work *rw = (struct uvm_record_work *)w;
	struct CUevent_st *e = rw->event;

	pthread_mutex_lock(&e->lock);
	if (e->gen == rw->gen) {
		clock_gettime(CLOCK_MONOTONIC, &e->time);
		e->stamped = true;
	}
	pthread_mutex_unlock(&e->lock);
	return 0;
}

static void record_release(struct uvm_work *w)
{
	struct uvm_record_work *rw = (struct uvm_record_work *)w;

	event_put(rw->event);
	free(rw);
}

static int event_record(struct CUevent_st *e, struct CUstream_st *s)
{
	struct uvm_record_work *rw = calloc(1, sizeof(*rw));
	uint64_t ticket;
	int ret;

	if (!rw)
		return -ENOMEM;
	rw->base.run = record_run;
	rw->base.release = record_release;
	atomic_fetch_add(&e->refs, 1);
	rw->event = e;

	pthread_mutex_lock(&e->lock);
	rw->gen = e->gen + 1;
	ret = submit_ticket(s, &rw->base, &ticket);
	if (!ret) {
		e->gen++;
		e->stamped = false;
		stream_ref(s);
		uvm_stream_put(e->stream);
		e->stream = s;
		e->ticket = ticket;
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

/* The event's last record point, referenced; false if never recorded. */
static bool event_point(struct CUevent_st *e, struct CUstream_st **s, uint64_t *ticket)
{
	pthread_mutex_lock(&e->lock);
	*s = e->stream;
	*ticket = e->ticket;
	if (*s)
		stream_ref(*s);
	pthread_mutex_unlock(&e->lock);
	return *s != NULL;
}

static cudaError_t event_elapsed(struct CUevent_st *a, struct CUevent_st *b, float *ms)
{
	struct timespec ta, tb;
	cudaError_t ret = cudaSuccess;

	if ((a->flags | b->flags) & cudaEventDisableTiming)
		return cudaErrorInvalidResourceHandle;
	pthread_mutex_lock(&a->lock);
	if (!a->stream)
		ret = cudaErrorInvalidResourceHandle;
	else if (!a->stamped)
		ret = cudaErrorNotReady;
	ta = a->time;
	pthread_mutex_unlock(&a->lock);
	pthread_mutex_lock(&b->lock);
	if (!b->stream)
		ret = cudaErrorInvalidResourceHandle;
	else if (!b->stamped && ret == cudaSuccess)
		ret = cudaErrorNotReady;
	tb = b->time;
	pthread_mutex_unlock(&b->lock);
	if (ret == cudaSuccess)
		*ms = (float)((double)(tb.tv_sec - ta.tv_sec) * 1e3 +
			      (double)(tb.tv_nsec - ta.tv_nsec) / 1e6);
	return ret;
}

/* ---- public entry points: streams ---------------------------------------- */

/* Record @e as last error unless it is success or cudaErrorNotReady. */
static cudaError_t ret_status(cudaError_t e)
{
	return e == cudaErrorNotReady ? e : uvm_cuda_set_error(e);
}

static cudaError_t stream_create(cudaStream_t *out, unsigned int flags)
{
	struct CUstream_st *s;

	s = stream_alloc(UVM_STREAM_USER, flags, uvm_cuda_current_device());
	if (!s)
		return cudaErrorMemoryAllocation;
	pthread_mutex_lock(&uvm_sched_lock);
	stream_link_locked(s);
	pthread_mutex_unlock(&uvm_sched_lock);
	*out = s;
	return cudaSuccess;
}

uvm_public cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return uvm_cuda_set_error(e);
	if (!pStream || (flags & ~cudaStreamNonBlocking))
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	return uvm_cuda_set_error(stream_create(pStream, flags));
}

uvm_public cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

/*
 * Workers run in queue order with no priority among streams, so the range
 * of priorities is [0, 0] (cudaDevAttrStreamPrioritiesSupported is 0) and
 * any requested priority is clamped to 0, as CUDA clamps to its range.
 */
uvm_public cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
						    int priority)
{
	(void)priority;
	return cudaStreamCreateWithFlags(pStream, flags);
}

uvm_public cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	cudaError_t e = uvm_cuda_init();

	if (e)
		return uvm_cuda_set_error(e);
	if (leastPriority)
		*leastPriority = 0;
	if (greatestPriority)
		*greatestPriority = 0;
	return cudaSuccess;
}

static cudaError_t do_stream_get_flags(struct CUstream_st *s, void *arg)
{
	unsigned int *flags = arg;

	if (!flags)
		return cudaErrorInvalidValue;
	*flags = s->flags;
	return cudaSuccess;
}

static cudaError_t do_stream_get_priority(struct CUstream_st *s, void *arg)
{
	int *priority = arg;

	(void)s;
	if (!priority)
		return cudaErrorInvalidValue;
	*priority = 0;
	return cudaSuccess;
}

uvm_public cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	cudaError_t e = uvm_cuda_init();
	struct CUstream_st *s = stream;
	bool found;

	if (e)
		return uvm_cuda_set_error(e);
	pthread_mutex_lock(&uvm_sched_lock);
	found = s && s != cudaStreamLegacy && s != cudaStreamPerThread &&
		stream_unlink_locked(s);
	if (found && s->kind != UVM_STREAM_USER) {
		stream_link_locked(s);	/* implicit streams cannot be destroyed */
		found = false;
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	if (!found)
		return uvm_cuda_set_error(cudaErrorInvalidResourceHandle);
	stream_retire(s);
	return cudaSuccess;
}

typedef cudaError_t (*uvm_stream_fn)(struct CUstream_st *s, void *arg);

/* init, resolve the handle, run @fn, record the error. */
static cudaError_t with_stream(cudaStream_t h, bool ptsz, uvm_stream_fn fn, void *arg)
{
	struct CUstream_st *s;
	cudaError_t e = uvm_cuda_init();

	if (e)
		return uvm_cuda_set_error(e);
	e = uvm_stream_get(h, ptsz, &s);
	if (e)
		return uvm_cuda_set_error(e);
	e = fn(s, arg);
	uvm_stream_put(s);
	return ret_status(e);
}

static cudaError_t do_stream_sync(struct CUstream_st *s, void *arg)
{
	int ret = stream_sync(s);

	(void)arg;
	uvm_mempool_sync_trim();
	return uvm_errno_to_cuda(ret);
}

static cudaError_t do_stream_query(struct CUstream_st *s, void *arg)
{
	(void)arg;
	return stream_query(s);
}

uvm_public cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return with_stream(stream, false, do_stream_sync, NULL);
}

uvm_public cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return with_stream(stream, true, do_stream_sync, NULL);
}

uvm_public cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	return with_stream(hStream, false, do_stream_get_flags, flags);
}

uvm_public cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
	return with_stream(hStream, true, do_stream_get_flags, flags);
}

uvm_public cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
	return with_stream(hStream, false, do_stream_get_priority, priority);
}

uvm_public cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
	return with_stream(hStream, true, do_stream_get_priority, priority);
}

uvm_public cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	return with_stream(stream, false, do_stream_query, NULL);
}

uvm_public cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return with_stream(stream, true, do_stream_query, NULL);
}

struct uvm_wait_event_arg {
	cudaEvent_t event;
	unsigned int flags;
};

static cudaError_t do_stream_wait_event(struct CUstream_st *s, void *arg)
{
	struct uvm_wait_event_arg *a = arg;
	struct CUstream_st *target;
	struct CUevent_st *e;
	uint64_t ticket;
	int ret = 0;

	if (a->flags & ~cudaEventWaitExternal)
		return cudaErrorInvalidValue;
	if (a->flags)
		return cudaErrorNotSupported;	/* graph capture only */
	e = event_get(a->event);
	if (!e)
		return cudaErrorInvalidResourceHandle;
	if (event_point(e, &target, &ticket)) {
		pthread_mutex_lock(&uvm_sched_lock);
		ret = enqueue_wait(s, target, ticket);
		pthread_mutex_unlock(&uvm_sched_lock);
		uvm_stream_put(target);
	}
	event_put(e);
	return uvm_errno_to_cuda(ret);
}

uvm_public cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
	struct uvm_wait_event_arg a = { event, flags };

	return with_stream(stream, false, do_stream_wait_event, &a);
}

uvm_public cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
						unsigned int flags)
{
	struct uvm_wait_event_arg a = { event, flags };

	return with_stream(stream, true, do_stream_wait_event, &a);
}

uvm_public cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t e = uvm_cuda_init();
	int ret;

	if (e)
		return uvm_cuda_set_error(e);
	ret = device_sync(uvm_cuda_current_device());
	uvm_mempool_sync_trim();
	return uvm_cuda_set_error(uvm_errno_to_cuda(ret));
}

/* ---- public entry points: events ----------------------------------------- */

uvm_public cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	struct CUevent_st *e;
	cudaError_t err = uvm_cuda_init();

	if (err)
		return uvm_cuda_set_error(err);
	if (!event || (flags & ~(cudaEventBlockingSync | cudaEventDisableTiming |
				 cudaEventInterprocess)))
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	if (flags & cudaEventInterprocess)	/* IPC events are not implemented */
		return uvm_cuda_set_error((flags & cudaEventDisableTiming) ?
					  cudaErrorNotSupported : cudaErrorInvalidValue);
	e = calloc(1, sizeof(*e));
	if (!e)
		return uvm_cuda_set_error(cudaErrorMemoryAllocation);
	pthread_mutex_init(&e->lock, NULL);
	e->flags = flags;
	e->device = uvm_cuda_current_device();
	atomic_init(&e->refs, 1);
	pthread_mutex_lock(&uvm_sched_lock);
	e->next = uvm_events;
	uvm_events = e;
	pthread_mutex_unlock(&uvm_sched_lock);
	*event = e;
	return cudaSuccess;
}

uvm_public cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

uvm_public cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	struct CUevent_st **pp, *e = NULL;
	cudaError_t err = uvm_cuda_init();

	if (err)
		return uvm_cuda_set_error(err);
	pthread_mutex_lock(&uvm_sched_lock);
	for (pp = &uvm_events; *pp; pp = &(*pp)->next) {
		if (*pp == event) {
			e = *pp;
			*pp = e->next;
			break;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	if (!e)
		return uvm_cuda_set_error(cudaErrorInvalidResourceHandle);
	event_put(e);	/* pending records keep their own reference */
	return cudaSuccess;
}

struct uvm_record_arg {
	cudaEvent_t event;
	unsigned int flags;
};

static cudaError_t do_event_record(struct CUstream_st *s, void *arg)
{
	struct uvm_record_arg *a = arg;
	struct CUevent_st *e;
	int ret;

	if (a->flags & ~cudaEventRecordExternal)
		return cudaErrorInvalidValue;
	if (a->flags)
		return cudaErrorNotSupported;	/* graph capture only */
	e = event_get(a->event);
	if (!e)
		return cudaErrorInvalidResourceHandle;
	ret = event_record(e, s);
	event_put(e);
	return uvm_errno_to_cuda(ret);
}

uvm_public cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	struct uvm_record_arg a = { event, 0 };

	return with_stream(stream, false, do_event_record, &a);
}

uvm_public cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	struct uvm_record_arg a = { event, 0 };

	return with_stream(stream, true, do_event_record, &a);
}

uvm_public cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
						unsigned int flags)
{
	struct uvm_record_arg a = { event, flags };

	return with_stream(stream, false, do_event_record, &a);
}

uvm_public cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
						     unsigned int flags)
{
	struct uvm_record_arg a = { event, flags };

	return with_stream(stream, true, do_event_record, &a);
}

/* Wait for (@wait) or test the event's last record. */
static cudaError_t event_wait_or_query(cudaEvent_t event, bool wait)
{
	struct CUstream_st *s;
	struct CUevent_st *e;
	uint64_t ticket;
	cudaError_t ret = cudaSuccess;
	cudaError_t err = uvm_cuda_init();

	if (err)
		return uvm_cuda_set_error(err);
	e = event_get(event);
	if (!e)
		return uvm_cuda_set_error(cudaErrorInvalidResourceHandle);
	if (event_point(e, &s, &ticket)) {
		if (wait)
			point_wait(s, ticket);
		else if (!point_reached(s, ticket))
			ret = cudaErrorNotReady;
		uvm_stream_put(s);
	}
	event_put(e);
	if (wait)
		uvm_mempool_sync_trim();
	return ret;
}

uvm_public cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	return event_wait_or_query(event, true);
}

uvm_public cudaError_t cudaEventQuery(cudaEvent_t event)
{
	return event_wait_or_query(event, false);
}

uvm_public cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	struct CUevent_st *a, *b;
	cudaError_t err = uvm_cuda_init();

	if (err)
		return uvm_cuda_set_error(err);
	if (!ms)
		return uvm_cuda_set_error(cudaErrorInvalidValue);
	a = event_get(start);
	b = event_get(end);
	if (a && b)
		err = event_elapsed(a, b, ms);
	else
		err = cudaErrorInvalidResourceHandle;
	if (a)
		event_put(a);
	if (b)
		event_put(b);
	return ret_status(err);
}

int uvm_stream_device(const struct CUstream_st *s)
{
	return s->device;
}

int uvm_stream_peek_error(struct CUstream_st *s)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = s->error;
	pthread_mutex_unlock(&s->lock);
	return err;
}

/* Unlink every user stream of @device; *n of them, referenced by the list. */
static struct CUstream_st **streams_unlink_device(int device, size_t *n)
{
	struct CUstream_st **v, **pp, *s;
	size_t cap = 0;

	pthread_mutex_lock(&uvm_sched_lock);
	for (s = uvm_streams; s; s = s->next)
		cap++;
	v = calloc(cap ? cap : 1, sizeof(*v));
	*n = 0;
	for (pp = &uvm_streams; v && *pp;) {
		s = *pp;
		if (s->kind == UVM_STREAM_USER && s->device == device) {
			*pp = s->next;
			v[(*n)++] = s;
		} else {
			pp = &s->next;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	return v;
}

static void events_destroy_device(int device)
{
	struct CUevent_st **pp, *e, *dead = NULL;

	pthread_mutex_lock(&uvm_sched_lock);
	for (pp = &uvm_events; *pp;) {
		e = *pp;
		if (e->device == device) {
			*pp = e->next;
			e->next = dead;
			dead = e;
		} else {
			pp = &e->next;
		}
	}
	pthread_mutex_unlock(&uvm_sched_lock);
	while (dead) {
		e = dead;
		dead = e->next;
		event_put(e);
	}
}

void uvm_streams_reset(int device)
{
	struct CUstream_st **v;
	size_t n, i;

	device_sync(device);		/* errors die with the state being reset */
	v = streams_unlink_device(device, &n);
	for (i = 0; v && i < n; i++)
		stream_retire(v[i]);
	free(v);
	events_destroy_device(device);
}
