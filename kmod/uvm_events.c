// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Event stream
 *
 * UVM_IOCTL_EVENTS_OPEN gives the VA space's owner a file descriptor
 * reading its memory-system events as fixed-size records (struct
 * uvm_event, include/uapi/uvm.h); with UVM_EVENTS_ALL_SPACES, and
 * CAP_PERFMON or CAP_SYS_ADMIN, every VA space's. Each stream has a ring of
 * a power-of-two number of records chosen at open. The mechanism emits a
 * record where it counts and traces the same event (uvm_event_emit());
 * with no stream open that is one test of a word per event.
 *
 * A push never waits: a full ring counts the record as lost. The next
 * push that finds room for two first pushes a UVM_EVENT_OVERFLOW record
 * with the number lost, and a reader finding the ring empty but records
 * lost gets that record at once, so a loss is never silent and is
 * reported where it happened in the stream's order.
 *
 * Locks: a VA space's (or the module's) list lock is held around every
 * push, so a stream leaving the list (close) is never pushed to after;
 * each stream's ring lock nests inside it. Readers copy records out of
 * the ring under the ring lock into a bounce buffer, then to user memory
 * with no lock held; one reader at a time (the stream's read mutex).
 * A stream holds its VA space's file, so the VA space outlives it.
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "uvm_events.h"
#include "uvm_managed.h"

/* Records copied out per step of a read (the bounce buffer: 4 KiB). */
#define UVM_EVENTS_READ_STEP	(PAGE_SIZE / sizeof(struct uvm_event))

/**
 * struct uvm_event_stream - one open event stream.
 * @link: entry of @list->streams (under @list->lock).
 * @list: the list it reads from; NULL once detached (under the list's
 *	  lock, or after the VA space went away).
 * @lock: protects @head, @tail, @lost, @dead and the ring's records.
 * @read_lock: one reader at a time.
 * @ring: the records; @mask + 1 of them.
 * @mask: ring size - 1.
 * @head: records pushed (next slot: @head & @mask).
 * @tail: records read.
 * @lost: records lost since the last overflow record.
 * @types: record types it takes.
 * @va_file: the VA space's /dev/uvm file, held so the VA space (and
 *	     @list) outlives the stream; NULL for a module-wide stream.
 * @dead: detached by uvm_events_fini() (not while @va_file is held).
 * @wait: readers and pollers.
 */
struct uvm_event_stream {
	struct list_head link;
	struct uvm_event_list *list;
	spinlock_t lock;	/* Protects head, tail, lost, dead, ring */
	struct mutex read_lock;	/* One reader at a time */
	struct uvm_event *ring;
	u32 mask;
	u64 head;
	u64 tail;
	u64 lost;
	u64 types;
	struct file *va_file;
	bool dead;
	wait_queue_head_t wait;
};

/* The module-wide streams (UVM_EVENTS_ALL_SPACES). */
static struct uvm_event_list uvm_events_global = {
	.lock = __SPIN_LOCK_UNLOCKED(uvm_events_global.lock),
	.streams = LIST_HEAD_INIT(uvm_events_global.streams),
};

u64 uvm_events_global_types;

void uvm_events_init(struct uvm_event_list *list)
{
	spin_lock_init(&list->lock);
	INIT_LIST_HEAD(&list->streams);
	list->types = 0;
	list->id = current->tgid;
	atomic64_set(&list->batch, 0);
}

/* The union of @list's streams' types; caller holds @list->lock. */
static void events_update_types(struct uvm_event_list *list)
{
	struct uvm_event_stream *s;
	u64 types = 0;

	lockdep_assert_held(&list->lock);
	list_for_each_entry(s, &list->streams, link)
		types |= s->types;
	WRITE_ONCE(list->types, types);
	if (list == &uvm_events_global)
		WRITE_ONCE(uvm_events_global_types, types);
}

/**
 * uvm_events_fini() - the VA space goes away: detach its streams (their
 * readers get what is left, then end of file).
 * @list: the VA space's list.
 */
void uvm_events_fini(struct uvm_event_list *list)
{
	struct uvm_event_stream *s, *tmp;

	spin_lock(&list->lock);
	list_for_each_entry_safe(s, tmp, &list->streams, link) {
		list_del_init(&s->link);
		spin_lock(&s->lock);
		s->list = NULL;
		s->dead = true;
		spin_unlock(&s->lock);
		wake_up_interruptible(&s->wait);
	}
	WRITE_ONCE(list->types, 0);
	spin_unlock(&list->lock);
}

/* Put @ev in @s's ring, or count it lost; caller holds the list lock. */
static void stream_push(struct uvm_event_stream *s, const struct uvm_event *ev)
{
	u64 room;
	bool wake;

	spin_lock(&s->lock);
	room = s->mask + 1 - (s->head - s->tail);
	if (s->lost && room >= 1) {
		struct uvm_event *o = &s->ring[s->head++ & s->mask];

		*o = (struct uvm_event){ .hdr = ev->hdr };
		o->hdr.type = UVM_EVENT_OVERFLOW;
		o->u.overflow.lost = s->lost;
		s->lost = 0;
		room--;
	}
	if (room)
		s->ring[s->head++ & s->mask] = *ev;
	else
		s->lost++;
	wake = s->head - s->tail == 1 || !room;
	spin_unlock(&s->lock);
	if (wake)
		wake_up_interruptible(&s->wait);
}

static void list_push(struct uvm_event_list *list, const struct uvm_event *ev)
{
	struct uvm_event_stream *s;

	spin_lock(&list->lock);
	list_for_each_entry(s, &list->streams, link)
		if (s->types & BIT_ULL(ev->hdr.type))
			stream_push(s, ev);
	spin_unlock(&list->lock);
}

/**
 * uvm_event_emit() - record an event of @mgd's VA space.
 * @mgd: the VA space.
 * @ev: the record: @ev->hdr.type and the payload set, the rest zero; the
 *	header is filled in here.
 */
void uvm_event_emit(struct uvm_managed *mgd, struct uvm_event *ev)
{
	if (!uvm_event_wanted(&mgd->events, ev->hdr.type))
		return;
	ev->hdr.size = sizeof(*ev);
	ev->hdr.version = UVM_EVENTS_VERSION;
	ev->hdr.pid = current->tgid;
	ev->hdr.tid = current->pid;
	ev->hdr.timestamp_ns = ktime_get_ns();
	ev->hdr.va_space = mgd->events.id;
	if (READ_ONCE(mgd->events.types) & BIT_ULL(ev->hdr.type))
		list_push(&mgd->events, ev);
	if (READ_ONCE(uvm_events_global_types) & BIT_ULL(ev->hdr.type))
		list_push(&uvm_events_global, ev);
}

/*
 * Take up to @max records out of @s into @buf (an overflow record if the
 * ring is empty but records were lost). Return: how many, 0 if none.
 */
static unsigned int stream_take(struct uvm_event_stream *s,
				struct uvm_event *buf, unsigned int max)
{
	unsigned int n = 0;

	spin_lock(&s->lock);
	while (n < max && s->tail != s->head)
		buf[n++] = s->ring[s->tail++ & s->mask];
	if (!n && s->lost) {
		buf[0] = (struct uvm_event){ .hdr = {
			.type = UVM_EVENT_OVERFLOW, .size = sizeof(*buf),
			.version = UVM_EVENTS_VERSION,
			.timestamp_ns = ktime_get_ns(),
		} };
		buf[0].u.overflow.lost = s->lost;
		s->lost = 0;
		n = 1;
	}
	spin_unlock(&s->lock);
	return n;
}

static bool stream_readable(struct uvm_event_stream *s)
{
	bool ret;

	spin_lock(&s->lock);
	ret = s->head != s->tail || s->lost || s->dead;
	spin_unlock(&s->lock);
	return ret;
}

static ssize_t uvm_events_read(struct file *filp, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct uvm_event_stream *s = filp->private_data;
	size_t want = count / sizeof(struct uvm_event), done = 0;
	struct uvm_event *buf;
	unsigned int n;
	int ret = 0;

	if (!want)
		return -EINVAL;
	buf = kmalloc_array(UVM_EVENTS_READ_STEP, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (mutex_lock_interruptible(&s->read_lock)) {
		kfree(buf);
		return -ERESTARTSYS;
	}
	while (done < want) {
		n = stream_take(s, buf, min_t(size_t, want - done,
					      UVM_EVENTS_READ_STEP));
		if (!n) {
			if (done || READ_ONCE(s->dead))
				break;
			if (filp->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			ret = wait_event_interruptible(s->wait,
						       stream_readable(s));
			if (ret)
				break;
			continue;
		}
		if (copy_to_user(ubuf + done * sizeof(*buf), buf,
				 n * sizeof(*buf))) {
			ret = -EFAULT;	/* those records are lost */
			break;
		}
		done += n;
	}
	mutex_unlock(&s->read_lock);
	kfree(buf);
	return done ? done * sizeof(*buf) : ret;
}

static __poll_t uvm_events_poll(struct file *filp, poll_table *wait)
{
	struct uvm_event_stream *s = filp->private_data;

	poll_wait(filp, &s->wait, wait);
	return stream_readable(s) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* Detach @s from its list and free it. */
static void stream_free(struct uvm_event_stream *s)
{
	struct uvm_event_list *list = s->list;

	/* @s->list is alive: the stream holds its VA space's file. */
	if (list) {
		spin_lock(&list->lock);
		list_del_init(&s->link);
		events_update_types(list);
		spin_unlock(&list->lock);
	}
	if (s->va_file)
		fput(s->va_file);
	kvfree(s->ring);
	kfree(s);
}

static int uvm_events_release(struct inode *inode, struct file *filp)
{
	stream_free(filp->private_data);
	return 0;
}

static const struct file_operations uvm_events_fops = {
	.owner = THIS_MODULE,
	.read = uvm_events_read,
	.poll = uvm_events_poll,
	.release = uvm_events_release,
	.llseek = noop_llseek,
};

static int events_check(const struct uvm_events_open *args)
{
	if (args->version != UVM_EVENTS_VERSION ||
	    (args->flags & ~UVM_EVENTS_ALL_SPACES))
		return -EINVAL;
	if (args->types & ~((1ULL << UVM_EVENT_COUNT) - 1))
		return -EINVAL;
	if (args->ring_records < UVM_EVENTS_RING_MIN ||
	    args->ring_records > UVM_EVENTS_RING_MAX ||
	    !is_power_of_2(args->ring_records))
		return -EINVAL;
	if ((args->flags & UVM_EVENTS_ALL_SPACES) && !perfmon_capable())
		return -EPERM;
	return 0;
}

static struct uvm_event_stream *stream_new(const struct uvm_events_open *args)
{
	struct uvm_event_stream *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	s->ring = kvcalloc(args->ring_records, sizeof(*s->ring),
			   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!s->ring) {
		kfree(s);
		return NULL;
	}
	INIT_LIST_HEAD(&s->link);
	spin_lock_init(&s->lock);
	mutex_init(&s->read_lock);
	init_waitqueue_head(&s->wait);
	s->mask = args->ring_records - 1;
	s->types = (args->types ?: UVM_EVENTS_DEFAULT) |
		   BIT_ULL(UVM_EVENT_OVERFLOW);
	return s;
}

/**
 * uvm_events_open_ioctl() - UVM_IOCTL_EVENTS_OPEN.
 * @mgd: the caller's VA space (the dispatcher checked it is the owner).
 * @args: the request; @args->fd set on success.
 *
 * Return: 0, -EINVAL (bad version, flags, types, ring size), -EPERM
 * (module-wide without CAP_PERFMON), -ENOMEM, -EMFILE.
 */
int uvm_events_open_ioctl(struct uvm_managed *mgd, struct uvm_events_open *args)
{
	struct uvm_event_list *list = &mgd->events;
	struct uvm_event_stream *s;
	int fd, ret;

	ret = events_check(args);
	if (ret)
		return ret;
	s = stream_new(args);
	if (!s)
		return -ENOMEM;
	if (args->flags & UVM_EVENTS_ALL_SPACES)
		list = &uvm_events_global;
	else
		s->va_file = get_file(mgd->filp);
	/* Attached first: once the fd exists, another thread may close it. */
	s->list = list;
	spin_lock(&list->lock);
	list_add_tail(&s->link, &list->streams);
	events_update_types(list);
	spin_unlock(&list->lock);
	fd = anon_inode_getfd("[uvm-events]", &uvm_events_fops, s,
			      O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		stream_free(s);
		return fd;
	}
	args->fd = fd;
	return 0;
}
