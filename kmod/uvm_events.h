/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uvm_events.h - the event stream (UVM_IOCTL_EVENTS_OPEN): per-VA-space
 * and module-wide rings of fixed-size records read through a file
 * descriptor.
 */
#ifndef __UVM_EVENTS_H__
#define __UVM_EVENTS_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <uapi/uvm.h>

struct uvm_managed;

/**
 * struct uvm_event_list - the streams reading one VA space's events.
 * @lock: protects @streams (attach, detach, and every record pushed: a
 *	  stream is freed only after it left the list).
 * @streams: the streams (struct uvm_event_stream.link).
 * @types: the union of their record types (read without @lock).
 * @id: the VA space's id in records (its owner's pid).
 * @batch: the VA space's device fault batches so far (their numbers).
 */
struct uvm_event_list {
	spinlock_t lock;	/* Protects streams; taken around every push */
	struct list_head streams;
	u64 types;
	u64 id;
	atomic64_t batch;
};

extern u64 uvm_events_global_types;

void uvm_events_init(struct uvm_event_list *list);
void uvm_events_fini(struct uvm_event_list *list);
int uvm_events_open_ioctl(struct uvm_managed *mgd, struct uvm_events_open *args);
void uvm_event_emit(struct uvm_managed *mgd, struct uvm_event *ev);

/* Does anyone read events of @type from @mgd? (cheap, racy: a hint) */
static inline bool uvm_event_wanted(const struct uvm_event_list *list,
				    unsigned int type)
{
	return (READ_ONCE(list->types) | READ_ONCE(uvm_events_global_types)) &
	       BIT_ULL(type);
}

#endif /* __UVM_EVENTS_H__ */
