// SPDX-License-Identifier: GPL-2.0
/*
 * The device-access path's pipeline: while the accesses of one fault batch
 * are performed, the migration of the next batch's last block is still
 * copying (kmod/uvm_device_access.c). Whatever the windows, the list must
 * behave as if performed one access after the other: each test runs
 * random access lists against a sequential model, with small and default
 * fault batches, over data spread across the host and two devices, with
 * user buffers in managed memory (copies that would fault inside the
 * pipeline) and a CPU thread working on the same blocks.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <stdio.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

#define BATCH_PARAM	"/sys/module/uvm/parameters/fault_batch"
#define NACC		4096
#define BLOCK		(2 * MIB)

FIXTURE(pipe)
{
	int fd;
	int a, b;	/* the accessing device (PCI if any), another */
	long saved_batch;
};

FIXTURE_VARIANT(pipe)
{
	long batch;	/* fault_batch for the test */
};

FIXTURE_VARIANT_ADD(pipe, batch_16)
{
	.batch = 16,
};

FIXTURE_VARIANT_ADD(pipe, batch_default)
{
	.batch = 256,
};

FIXTURE_SETUP(pipe)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];

	self->saved_batch = -1;
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	if (uvm_devices(self->fd, info, UVM_MAX_DEVICES) < 2)
		SKIP(return, "needs 2 devices");
	uvm_two_devices(self->fd, &self->a, &self->b);
	self->saved_batch = uvm_read_long(BATCH_PARAM);
	ASSERT_LT(0, self->saved_batch);
	ASSERT_EQ(0, uvm_write_long(BATCH_PARAM, variant->batch));
}

FIXTURE_TEARDOWN(pipe)
{
	if (self->saved_batch > 0)
		uvm_write_long(BATCH_PARAM, self->saved_batch);
	close(self->fd);
}

/*
 * One random access list over [0, len) of a managed range: accesses, their
 * user buffers (in @arena), and what each read must return.
 */
struct list {
	struct uvm_access acc[NACC];
	unsigned char *arena;	/* user buffers, one after the other */
	size_t arena_len;
	unsigned char *expect;	/* the reads' expected data, same layout */
	unsigned char *model;	/* the range after the list, as performed in order */
	size_t len;
	size_t seg;		/* no buffer crosses a multiple of it (0: any) */
	size_t max_len;		/* longest access */
	size_t arena_max;
	size_t bufoff[NACC];	/* each access's buffer in @arena */
	unsigned int n;
};

/*
 * Where an access of @len bytes may go: @stride > 0 keeps it in the first
 * @stride bytes of every block (the rest holds user buffers).
 */
static size_t pick_addr(uint64_t *seed, size_t range, size_t stride,
			size_t len)
{
	size_t blocks = range / BLOCK, off;

	if (!stride)
		return uvm_rand64(seed) % (range - len + 1);
	off = uvm_rand64(seed) % (stride - len + 1);
	return (uvm_rand64(seed) % blocks) * BLOCK + off;
}

/* Add access @k (type, offset, length) to @l and to the model. */
static void list_add(struct list *l, unsigned int k, uint32_t type,
		     size_t off, size_t len, size_t *pos, uint64_t *seed)
{
	struct uvm_access *a = &l->acc[k];
	unsigned char *buf = l->arena + *pos;
	uint64_t v;
	size_t i;

	if (l->seg && *pos % l->seg + len > l->seg)
		*pos += l->seg - *pos % l->seg;
	buf = l->arena + *pos;
	l->bufoff[k] = *pos;
	a->addr = off;	/* relative; made absolute by list_place() */
	a->length = len;
	a->type = type;
	a->pad = 0;
	a->buf = *pos;
	switch (type) {
	case UVM_ACCESS_READ:
		memcpy(l->expect + *pos, l->model + off, len);
		memset(buf, 0xee, len);
		break;
	case UVM_ACCESS_WRITE:
		for (i = 0; i < len; i++)
			buf[i] = (unsigned char)uvm_rand64(seed);
		memcpy(l->model + off, buf, len);
		break;
	default:	/* atomic add: the buffer gets the old value */
		v = uvm_rand64(seed) % 1000 + 1;
		memcpy(buf, &v, 8);
		memcpy(l->expect + *pos, l->model + off, 8);
		memcpy(&v, l->model + off, 8);
		v += *(uint64_t *)buf;
		memcpy(l->model + off, &v, 8);
		break;
	}
	*pos += (len + 7) & ~(size_t)7;
}

/*
 * Build a random list: runs of one small access per page (a sweep, which
 * fills fault batches), random small reads/writes, atomics, and a few
 * large accesses crossing pages and blocks.
 */
static void list_build(struct list *l, uint64_t *seed, size_t stride)
{
	size_t pos = 0, off, len, page_limit = stride ? stride : l->len;
	unsigned int k = 0, run, r;
	uint32_t type;

	while (k < NACC && pos + l->max_len + l->seg + 64 * 1024 <= l->arena_max) {
		r = uvm_rand64(seed) % 100;
		if (r < 30) {	/* a sweep run */
			run = 64 + uvm_rand64(seed) % 400;
			off = pick_addr(seed, l->len, stride, PAGE);
			off &= ~(PAGE - 1);
			type = uvm_rand64(seed) % 3 ? UVM_ACCESS_READ :
						      UVM_ACCESS_WRITE;
			for (; run && k < NACC &&
			       off % BLOCK + 512 + 64 <= page_limit &&
			       off + 64 <= l->len; run--, off += PAGE)
				list_add(l, k++, type, off + 512, 64, &pos, seed);
			continue;
		}
		if (r < 36) {
			off = pick_addr(seed, l->len, stride, 8) & ~(size_t)7;
			list_add(l, k++, UVM_ACCESS_ATOMIC_ADD, off, 8, &pos, seed);
			continue;
		}
		len = r < 40 ? 4096 + uvm_rand64(seed) % (20 * 1024) :
			       1 + uvm_rand64(seed) % 300;
		if (len > l->max_len)
			len = l->max_len;
		off = pick_addr(seed, l->len, stride, len);
		type = uvm_rand64(seed) % 2 ? UVM_ACCESS_READ : UVM_ACCESS_WRITE;
		list_add(l, k++, type, off, len, &pos, seed);
	}
	l->n = k;
	l->arena_len = pos;
}

/* Make the list's addresses and buffers absolute. */
static void list_place(struct list *l, char *range)
{
	unsigned int k;

	for (k = 0; k < l->n; k++) {
		l->acc[k].addr += (uintptr_t)range;
		l->acc[k].buf += (uintptr_t)l->arena;
	}
}

/* The accesses of the list to the page of byte @off (for a failure's log). */
static void log_page_accesses(struct __test_metadata *_metadata,
			      const struct list *l, const char *range,
			      size_t off)
{
	uintptr_t pg = ((uintptr_t)range + off) & ~(uintptr_t)(PAGE - 1);
	unsigned int k, shown = 0;

	for (k = 0; k < l->n && shown < 16; k++) {
		const struct uvm_access *a = &l->acc[k];

		if (a->addr >= pg + PAGE || a->addr + a->length <= pg)
			continue;
		TH_LOG("  access %u of %u: type %u, +%#llx, %llu bytes", k,
		       l->n, a->type,
		       (unsigned long long)(a->addr - (uintptr_t)range),
		       (unsigned long long)a->length);
		shown++;
	}
}

/* The first read (or atomic) of @l that got wrong data, or -1. */
static int list_bad_read(const struct list *l)
{
	const struct uvm_access *a;
	unsigned int k;
	size_t off;

	for (k = 0; k < l->n; k++) {
		a = &l->acc[k];
		off = l->bufoff[k];
		if (a->type != UVM_ACCESS_WRITE &&
		    memcmp(l->arena + off, l->expect + off, a->length))
			return (int)k;
	}
	return -1;
}

/* Check every read's data and every atomic's old value. */
static int list_check_reads(struct __test_metadata *_metadata,
			    struct list *l, const char *range)
{
	int k = list_bad_read(l);
	const struct uvm_access *a = &l->acc[k < 0 ? 0 : k];

	if (k < 0)
		return 0;
	TH_LOG("access %d (type %u, +%#llx, %llu bytes) read wrong data", k,
	       a->type, (unsigned long long)(a->addr - (uintptr_t)range),
	       (unsigned long long)a->length);
	return -1;
}

/* Check the reads, then the range (through the CPU). */
static int list_check(struct __test_metadata *_metadata, struct list *l,
		      const char *range)
{
	size_t off;

	if (list_check_reads(_metadata, l, range))
		return -1;
	for (off = 0; off < l->len; off++)
		if (range[off] != (char)l->model[off]) {
			TH_LOG("range byte %#zx: %#x, model %#x", off,
			       (unsigned char)range[off], l->model[off]);
			log_page_accesses(_metadata, l, range, off);
			return -1;
		}
	return 0;
}

static struct list *list_new(size_t len, size_t arena_max)
{
	struct list *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->len = len;
	l->max_len = 24 * 1024;
	l->arena_max = arena_max;
	l->model = calloc(1, len);
	l->expect = calloc(1, arena_max);
	l->arena = malloc(arena_max);
	return l;
}

static int run_list(int fd, int dev, struct list *l)
{
	struct uvm_device_access da = {
		.device = dev, .count = l->n,
		.accesses = (uintptr_t)l->acc,
	};

	return uvm_ioctl(fd, UVM_IOCTL_DEVICE_ACCESS, &da);
}

/*
 * Scatter the range: every quarter block to the host, to device @b, or
 * discarded (it reads zero from then on, in @model too).
 */
static void scatter(int fd, char *p, size_t len, int b, uint64_t *seed,
		    unsigned char *model)
{
	size_t off, q = BLOCK / 4;

	for (off = 0; off < len; off += q) {
		switch (uvm_rand64(seed) % 3) {
		case 0:
			uvm_prefetch(fd, p + off, q, UVM_LOC_HOST_NUMA, 0);
			break;
		case 1:
			uvm_prefetch(fd, p + off, q, UVM_LOC_DEVICE, b);
			break;
		default:
			if (!uvm_discard(fd, p + off, q, 0, UVM_LOC_NONE, 0))
				memset(model + off, 0, q);
			break;
		}
	}
}

/*
 * Six rounds: scatter the range (scatter()), run a random list from device
 * @a, check it and the range. Return: -1, or the round that failed.
 */
static int scattered_rounds(struct __test_metadata *_metadata, int fd, int a,
			    int b, char *p, struct list *l, uint64_t seed)
{
	int round;

	for (round = 0; round < 6; round++) {
		scatter(fd, p, l->len, b, &seed, l->model);
		list_build(l, &seed, 0);
		list_place(l, p);
		if (run_list(fd, a, l) || list_check(_metadata, l, p))
			return round;
	}
	return -1;
}

/*
 * Random lists over 3 blocks whose data is scattered over the host, the
 * other device and nowhere, in rounds, with the CPU reading everything in
 * between: every read sees the last write before it in the list.
 */
TEST_F(pipe, random_lists_match_sequential_model)
{
	size_t len = 3 * BLOCK;
	char *p = uvm_map(self->fd, len);
	struct list *l = list_new(len, 8 * MIB);
	uint64_t seed = 0x5eed0001 + variant->batch;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, l->model);
	ASSERT_EQ(-1, scattered_rounds(_metadata, self->fd, self->a, self->b,
				       p, l, seed));
	munmap(p, len);
}

/*
 * The same with policies on parts of the range: read-mostly (duplicates),
 * accessed-by the accessing device (remote mappings), preferred location
 * the other device (remote) and the host.
 */
TEST_F(pipe, random_lists_with_policies_match_sequential_model)
{
	size_t len = 3 * BLOCK, q = BLOCK / 2;
	char *p = uvm_map(self->fd, len);
	struct list *l = list_new(len, 8 * MIB);
	uint64_t seed = 0x5eed0002 + variant->batch;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, l);
	ASSERT_EQ(0, uvm_advise(self->fd, p, q, UVM_ADVISE_SET_READ_MOSTLY,
				UVM_LOC_NONE, 0));
	ASSERT_EQ(0, uvm_advise(self->fd, p + q, q, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, self->a));
	ASSERT_EQ(0, uvm_advise(self->fd, p + 2 * q, q,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_DEVICE, self->b));
	ASSERT_EQ(0, uvm_advise(self->fd, p + 3 * q, q,
				UVM_ADVISE_SET_PREFERRED_LOCATION,
				UVM_LOC_HOST_NUMA, 0));
	ASSERT_EQ(-1, scattered_rounds(_metadata, self->fd, self->a, self->b,
				       p, l, seed));
	munmap(p, len);
}

/* The CPU writes @n random spans of the range (and the model). */
static void cpu_writes(char *p, unsigned char *model, size_t len, int n,
		       uint64_t *seed)
{
	size_t off, k, span;

	while (n--) {
		span = 1 + uvm_rand64(seed) % 6000;
		off = uvm_rand64(seed) % (len - span);
		for (k = 0; k < span; k++)
			model[off + k] = (unsigned char)uvm_rand64(seed);
		memcpy(p + off, model + off, span);
	}
}

/* Apply one policy (or none) to each half block, at random. */
static void random_policies(int fd, char *p, size_t len, int a, int b,
			    uint64_t *seed)
{
	size_t off, h = BLOCK / 2;

	for (off = 0; off < len; off += h) {
		uvm_advise(fd, p + off, h, UVM_ADVISE_UNSET_READ_MOSTLY, 0, 0);
		uvm_advise(fd, p + off, h, UVM_ADVISE_UNSET_PREFERRED_LOCATION,
			   0, 0);
		uvm_advise(fd, p + off, h, UVM_ADVISE_UNSET_ACCESSED_BY,
			   UVM_LOC_DEVICE, a);
		uvm_advise(fd, p + off, h, UVM_ADVISE_UNSET_ACCESSED_BY,
			   UVM_LOC_DEVICE, b);
		uvm_advise(fd, p + off, h, UVM_ADVISE_UNSET_ACCESSED_BY,
			   UVM_LOC_HOST, 0);
		switch (uvm_rand64(seed) % 7) {
		case 0:
			uvm_advise(fd, p + off, h, UVM_ADVISE_SET_READ_MOSTLY, 0, 0);
			break;
		case 1:
			uvm_advise(fd, p + off, h, UVM_ADVISE_SET_ACCESSED_BY,
				   UVM_LOC_DEVICE, uvm_rand64(seed) % 2 ? a : b);
			break;
		case 2:
			uvm_advise(fd, p + off, h, UVM_ADVISE_SET_ACCESSED_BY,
				   UVM_LOC_HOST, 0);
			break;
		case 3:
			uvm_advise(fd, p + off, h,
				   UVM_ADVISE_SET_PREFERRED_LOCATION,
				   UVM_LOC_DEVICE, uvm_rand64(seed) % 2 ? a : b);
			break;
		case 4:
			uvm_advise(fd, p + off, h,
				   UVM_ADVISE_SET_PREFERRED_LOCATION,
				   UVM_LOC_HOST_NUMA, 0);
			break;
		default:
			break;
		}
	}
}

/*
 * Both devices and the CPU take turns on the same range, whose policies
 * change at random every round (read-mostly, accessed-by either device or
 * the CPU, preferred location either device or the host): lists from
 * device a, CPU writes, lists from device b, prefetches and discards. The
 * range and every read follow the sequential model throughout.
 */
TEST_F(pipe, two_devices_and_the_cpu_take_turns)
{
	size_t len = 3 * BLOCK;
	char *p = uvm_map(self->fd, len);
	struct list *l = list_new(len, 8 * MIB);
	uint64_t seed = 0x5eed0004 + variant->batch;
	int round, dev;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, l);
	for (round = 0; round < 8; round++) {
		random_policies(self->fd, p, len, self->a, self->b, &seed);
		scatter(self->fd, p, len, uvm_rand64(&seed) % 2 ? self->a : self->b,
			&seed, l->model);
		for (dev = 0; dev < 2; dev++) {
			list_build(l, &seed, 0);
			list_place(l, p);
			ASSERT_EQ(0, run_list(self->fd, dev ? self->b : self->a, l))
				TH_LOG("round %d device %d", round, dev);
			ASSERT_EQ(0, list_check_reads(_metadata, l, p))
				TH_LOG("round %d device %d", round, dev);
			cpu_writes(p, l->model, len, 20, &seed);
		}
		ASSERT_EQ(0, list_check(_metadata, l, p)) TH_LOG("round %d", round);
	}
	munmap(p, len);
}

/* The device with the least memory, and the one with the next least. */
static void smallest_two(int fd, int *small, int *other)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, n = uvm_devices(fd, info, UVM_MAX_DEVICES);

	*small = *other = -1;
	for (i = 0; i < n; i++) {
		if (*small < 0 || info[i].mem_total <
				  uvm_dev_total(fd, *small)) {
			*other = *small;
			*small = (int)info[i].id;
		} else if (*other < 0 || info[i].mem_total <
					 uvm_dev_total(fd, *other)) {
			*other = (int)info[i].id;
		}
	}
}

/* One read or write per page over [from, to) of the range, in lists. */
static int sweep_list(int fd, int dev, struct list *l, char *p, size_t from,
		      size_t to, uint32_t type, uint64_t *seed)
{
	size_t off, pos;
	int ret;

	while (from < to) {
		pos = 0;
		for (l->n = 0; l->n < NACC && from < to; from += PAGE)
			list_add(l, l->n++, type, from + 8 * (from / PAGE % 500),
				 16, &pos, seed);
		for (off = 0; off < l->n; off++) {
			l->acc[off].addr += (uintptr_t)p;
			l->acc[off].buf += (uintptr_t)l->arena;
		}
		ret = run_list(fd, dev, l);
		if (ret)
			return ret;
		for (off = 0; off < l->n; off++)
			if (type == UVM_ACCESS_READ &&
			    memcmp(l->arena + l->bufoff[off],
				   l->expect + l->bufoff[off], 16))
				return -EIO;
	}
	return 0;
}

/*
 * Oversubscription under the model: a range a quarter larger than the
 * smallest device, swept by it (writes, then reads: every sweep evicts),
 * with random lists from the other device, CPU writes and random policies
 * in between. Eviction must never lose or mix up data.
 */
TEST_F(pipe, oversubscribed_sweeps_match_model)
{
	struct list *l = list_new(0, 8 * MIB);
	uint64_t seed = 0x5eed0005 + variant->batch, evictions;
	int small, other, round;
	size_t len;
	char *p;

	ASSERT_NE(NULL, l);
	smallest_two(self->fd, &small, &other);
	len = uvm_dev_total(self->fd, small);
	len = (len + len / 4 + BLOCK - 1) / BLOCK * BLOCK;
	if (len > 512 * MIB)
		SKIP(return, "smallest device too large (%zu MiB)", len / MIB);
	l->len = len;
	free(l->model);
	l->model = calloc(1, len);
	p = uvm_map(self->fd, len);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, l->model);
	evictions = uvm_stat(self->fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE);
	for (round = 0; round < 3; round++) {
		random_policies(self->fd, p, 6 * BLOCK, small, other, &seed);
		ASSERT_EQ(0, sweep_list(self->fd, small, l, p, 0, len,
					UVM_ACCESS_WRITE, &seed))
			TH_LOG("round %d: write sweep", round);
		ASSERT_EQ(0, sweep_list(self->fd, small, l, p, 0, len,
					UVM_ACCESS_READ, &seed))
			TH_LOG("round %d: read sweep", round);
		list_build(l, &seed, 0);
		list_place(l, p);
		ASSERT_EQ(0, run_list(self->fd, other, l)) TH_LOG("round %d", round);
		ASSERT_EQ(0, list_check_reads(_metadata, l, p)) TH_LOG("round %d", round);
		cpu_writes(p, l->model, len, 50, &seed);
	}
	ASSERT_EQ(0, list_check(_metadata, l, p));
	EXPECT_LT(evictions, uvm_stat(self->fd, UVM_STAT_EVICTIONS,
				      UVM_STATS_VA_SPACE));
	munmap(p, len);
}

/* Managed address of arena offset @off: the second half of a block. */
static char *buf_at(char *p, size_t off)
{
	size_t half = BLOCK / 2;

	return p + off / half * BLOCK + half + off % half;
}

/*
 * User buffers in managed memory, in the second half of the very blocks
 * the list works on (it keeps to the first halves), device-resident on the
 * other device: copying them inside the pipeline would fault (a CPU
 * fault-back, which needs the locks the pipeline holds); the copy must
 * leave the pipeline and succeed.
 */
TEST_F(pipe, user_buffers_in_the_migrating_blocks)
{
	size_t len = 3 * BLOCK, half = BLOCK / 2, off;
	char *p = uvm_map(self->fd, len);
	struct list *l = list_new(len, 3 * BLOCK / 2);
	uint64_t seed = 0x5eed0003 + variant->batch;
	const struct uvm_access *a;
	unsigned int k;
	int round;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, l);
	l->seg = half;
	l->max_len = 4096;
	for (round = 0; round < 4; round++) {
		memset(p, 0, len);
		memset(l->model, 0, len);
		list_build(l, &seed, half);
		ASSERT_GE(3 * half, l->arena_len);
		for (k = 0; k < l->n; k++) {
			off = l->acc[k].buf;
			memcpy(buf_at(p, off), l->arena + off, l->acc[k].length);
			l->acc[k].buf = (uintptr_t)buf_at(p, off);
			l->acc[k].addr += (uintptr_t)p;
		}
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  self->b));
		ASSERT_EQ(0, run_list(self->fd, self->a, l)) TH_LOG("round %d", round);
		for (k = 0; k < l->n; k++) {
			a = &l->acc[k];
			if (a->type != UVM_ACCESS_WRITE)
				ASSERT_EQ(0, memcmp((void *)(uintptr_t)a->buf,
						    l->expect + l->bufoff[k],
						    a->length))
					TH_LOG("round %d access %u", round, k);
		}
		for (k = 0; k < 3; k++) {
			ASSERT_EQ(0, memcmp(p + k * BLOCK, l->model + k * BLOCK,
					    half)) TH_LOG("round %d block %u",
							  round, k);
		}
	}
	munmap(p, len);
}

/*
 * Threads that share every page but own different bytes: 64-byte slots,
 * slot s belongs to owner s % OWNERS. Each owner keeps a sequential model
 * of its own bytes, which no one else writes, so it can check every read
 * while the others migrate, duplicate and collapse the same pages.
 */
#define OWNERS		3	/* device a, device b, the CPU */
#define SLOT		64

struct owner {
	int fd, dev;		/* dev < 0: the CPU */
	int id, rounds, failed;
	int bad_ret, bad_k;	/* what failed: an ioctl's errno, an access */
	size_t bad_off;
	char *p;
	size_t len;
	struct list *l;
	uint64_t seed;
};

/* A random access to one of @o's slots: offset and length. */
static void owner_pick(struct owner *o, size_t *off, size_t *len, bool atomic)
{
	size_t slots = o->len / SLOT / OWNERS;
	size_t slot = (uvm_rand64(&o->seed) % slots) * OWNERS + o->id;
	size_t in = atomic ? (uvm_rand64(&o->seed) % (SLOT / 8)) * 8 :
			     uvm_rand64(&o->seed) % SLOT;

	*off = slot * SLOT + in;
	*len = atomic ? 8 : 1 + uvm_rand64(&o->seed) % (SLOT - in);
}

static void owner_device_round(struct owner *o)
{
	struct list *l = o->l;
	size_t pos = 0, off, len;
	unsigned int k, n = 256 + uvm_rand64(&o->seed) % 1024;
	uint32_t type;

	for (k = 0; k < n; k++) {
		type = UVM_ACCESS_READ + uvm_rand64(&o->seed) % 3;
		owner_pick(o, &off, &len, type == UVM_ACCESS_ATOMIC_ADD);
		list_add(l, k, type, off, len, &pos, &o->seed);
	}
	l->n = n;
	list_place(l, o->p);
	o->bad_ret = run_list(o->fd, o->dev, l);
	o->bad_k = o->bad_ret ? -1 : list_bad_read(l);
	if (o->bad_ret || o->bad_k >= 0) {
		o->failed = 1;
		if (o->bad_k >= 0)
			o->bad_off = l->acc[o->bad_k].addr - (uintptr_t)o->p;
	}
}

/* A CPU sweep over all of @o's slots in order (fault-ahead kicks in). */
static void owner_cpu_sweep(struct owner *o)
{
	size_t off;

	for (off = (size_t)o->id * SLOT; off < o->len && !o->failed;
	     off += OWNERS * SLOT)
		if (memcmp(o->p + off, o->l->model + off, SLOT)) {
			o->failed = 1;
			o->bad_off = off;
		}
}

static void owner_cpu_round(struct owner *o)
{
	size_t off, len, k;
	int i;

	if (uvm_rand64(&o->seed) % 16 == 0) {
		owner_cpu_sweep(o);
		return;
	}
	for (i = 0; i < 512 && !o->failed; i++) {
		owner_pick(o, &off, &len, false);
		if (uvm_rand64(&o->seed) % 2) {
			for (k = 0; k < len; k++)
				o->l->model[off + k] = (unsigned char)uvm_rand64(&o->seed);
			memcpy(o->p + off, o->l->model + off, len);
		} else if (memcmp(o->p + off, o->l->model + off, len)) {
			o->failed = 1;
			o->bad_off = off;
		}
	}
}

static void *owner_run(void *arg)
{
	struct owner *o = arg;
	int r;

	for (r = 0; r < o->rounds && !o->failed; r++) {
		if (o->dev >= 0)
			owner_device_round(o);
		else
			owner_cpu_round(o);
	}
	return NULL;
}

/* Meanwhile: random prefetches and policy changes over the range. */
struct mover {
	int fd, a, b;
	char *p;
	size_t len;
	volatile int stop;
	uint64_t seed;
};

static void *mover_run(void *arg)
{
	struct mover *m = arg;
	size_t off, n;

	while (!m->stop) {
		off = (uvm_rand64(&m->seed) % (m->len / PAGE)) * PAGE;
		n = PAGE * (1 + uvm_rand64(&m->seed) % 700);
		if (off + n > m->len)
			n = m->len - off;
		switch (uvm_rand64(&m->seed) % 4) {
		case 0:
			uvm_prefetch(m->fd, m->p + off, n, UVM_LOC_HOST_NUMA,
				     (int)(uvm_rand64(&m->seed) % 2));
			break;
		case 1:
			uvm_prefetch(m->fd, m->p + off, n, UVM_LOC_DEVICE,
				     uvm_rand64(&m->seed) % 2 ? m->a : m->b);
			break;
		case 2:
			random_policies(m->fd, m->p, m->len, m->a, m->b,
					&m->seed);
			break;
		default:
			usleep(200);
			break;
		}
	}
	return NULL;
}

/* Run the owners and the mover over a new range of @len bytes; 0: all good. */
static int run_owners(struct __test_metadata *_metadata, int fd, int a, int b,
		      size_t len, uint64_t seed)
{
	char *p = uvm_map(fd, len);
	unsigned char *model = calloc(1, len);
	struct owner o[OWNERS];
	struct mover m = {
		.fd = fd, .a = a, .b = b, .p = p, .len = len, .seed = seed,
	};
	pthread_t t[OWNERS], mt;
	int i, bad = 0;
	size_t off;

	if (!p || !model)
		return -1;
	memset(p, 0, len);
	for (i = 0; i < OWNERS; i++) {	/* one model: each owns its bytes */
		o[i] = (struct owner){
			.fd = fd, .id = i, .p = p, .len = len,
			.dev = i == 0 ? a : i == 1 ? b : -1,
			.rounds = i < 2 ? 12 : 200, .seed = seed + 0x100 + i,
		};
		o[i].l = list_new(0, 8 * MIB);
		if (!o[i].l)
			return -1;
		o[i].l->len = len;
		free(o[i].l->model);
		o[i].l->model = model;
	}
	if (pthread_create(&mt, NULL, mover_run, &m))
		return -1;
	for (i = 0; i < OWNERS; i++)
		if (pthread_create(&t[i], NULL, owner_run, &o[i]))
			return -1;
	for (i = 0; i < OWNERS; i++)
		pthread_join(t[i], NULL);
	m.stop = 1;
	pthread_join(mt, NULL);
	for (i = 0; i < OWNERS; i++) {
		if (!o[i].failed)
			continue;
		TH_LOG("owner %d: ioctl %d, access %d at +%#zx", i,
		       o[i].bad_ret, o[i].bad_k, o[i].bad_off);
		bad = 1;
	}
	for (off = 0; off < len; off++)
		if (model[off] != (unsigned char)p[off])
			break;
	if (off < len) {
		TH_LOG("byte %#zx: %#x, owner %zu's model %#x", off,
		       (unsigned char)p[off], off / SLOT % OWNERS, model[off]);
		bad = 1;
	}
	munmap(p, len);
	return bad;
}

/*
 * Device a, device b and the CPU work on the same pages at once, each on
 * its own bytes, checking each read against its own model, while another
 * thread prefetches pieces of the range to the host nodes and the devices
 * and changes the policies. Then the whole range is checked.
 */
TEST_F_TIMEOUT(pipe, concurrent_owners_of_interleaved_bytes, 300)
{
	ASSERT_EQ(0, run_owners(_metadata, self->fd, self->a, self->b,
				3 * BLOCK, 0x5eed0006 + variant->batch));
}

/*
 * The same over a range a quarter larger than the smaller device: the
 * owners' faults and the prefetches evict each other's blocks all along.
 * (Both take minutes on the debug kernel under TCG: hence the timeouts.)
 */
TEST_F_TIMEOUT(pipe, concurrent_owners_oversubscribed, 300)
{
	int small, other;
	uint64_t ev;
	size_t len;

	smallest_two(self->fd, &small, &other);
	len = uvm_dev_total(self->fd, small);
	len = (len + len / 4 + BLOCK - 1) / BLOCK * BLOCK;
	if (len > 192 * MIB)
		SKIP(return, "smallest device too large (%zu MiB)", len / MIB);
	ev = uvm_stat(self->fd, UVM_STAT_EVICTIONS, UVM_STATS_VA_SPACE);
	ASSERT_EQ(0, run_owners(_metadata, self->fd, small, other, len,
				0x5eed0007 + variant->batch));
	EXPECT_LT(ev, uvm_stat(self->fd, UVM_STAT_EVICTIONS,
			       UVM_STATS_VA_SPACE));
}

/* Is [p, p + len) the uvm_fill(.., seed) pattern, through device @dev? */
static int device_sees_pattern(int fd, int dev, char *p, size_t len,
			       uint64_t seed)
{
	unsigned char buf[256];
	size_t off, i;

	for (off = 0; off < len; off += 13 * PAGE + 64) {
		if (uvm_dev_read(fd, dev, p + off, sizeof(buf), buf))
			return -1;
		for (i = 0; i < sizeof(buf); i++)
			if (buf[i] != uvm_pattern(seed, off + i))
				return -1;
	}
	return 0;
}

/*
 * Eviction takes any process's managed data: another process fills three
 * quarters of the smaller device and waits; this one then needs three
 * quarters too. The other's blocks go home (evicted, counted), and both
 * processes still read their own data, from the CPU and the device.
 */
TEST_F(pipe, another_process_data_is_evicted_not_lost)
{
	int small, other, go[2], ready[2], status;
	uint64_t ev0 = uvm_stat(self->fd, UVM_STAT_EVICTIONS, UVM_STATS_GLOBAL);
	size_t len;
	char *p, c;
	pid_t pid;

	smallest_two(self->fd, &small, &other);
	len = uvm_dev_total(self->fd, small) / 4 * 3 / BLOCK * BLOCK;
	if (len > 192 * MIB)
		SKIP(return, "smallest device too large (%zu MiB)", len / MIB);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = uvm_open();
		char *q = uvm_map(fd, len);

		if (!q)
			_exit(1);
		uvm_fill(q, len, 31);
		if (uvm_prefetch(fd, q, len, UVM_LOC_DEVICE, small))
			_exit(2);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		if (device_sees_pattern(fd, small, q, len, 31))
			_exit(4);
		_exit(uvm_check(q, len, 31) ? 5 : 0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	p = uvm_map(self->fd, len);
	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 32);
	ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE, small));
	EXPECT_LT(ev0, uvm_stat(self->fd, UVM_STAT_EVICTIONS, UVM_STATS_GLOBAL));
	EXPECT_EQ(0, device_sees_pattern(self->fd, small, p, len, 32));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, uvm_check(p, len, 32));
	munmap(p, len);
}

/* Does @buf hold the uvm_fill(.., 7) pattern of bytes [off, off + n)? */
static int pattern_diff(const unsigned char *buf, size_t off, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (buf[j] != uvm_pattern(7, off + j))
			return 1;
	return 0;
}

/*
 * A CPU thread keeps writing counters in the blocks the device sweeps (its
 * faults wait for, or make the pipeline give up, the block locks): no
 * counter increment is lost and every device read sees the data.
 */
TEST_F(pipe, cpu_thread_on_the_same_blocks)
{
	size_t len = 4 * BLOCK, np = len / PAGE, i, k;
	char *p = uvm_map(self->fd, len);
	static struct uvm_access acc[NACC];
	static unsigned char out[NACC][64];
	struct uvm_writer w = { p, len / PAGE / 8, 0, 0 };
	struct uvm_device_access da = {
		.device = self->a, .accesses = (uintptr_t)acc,
	};
	pthread_t t;
	int round;

	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 7);
	for (i = 0; i < w.n; i++)
		*(uint64_t *)(p + i * 8 * PAGE) = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, uvm_write_counters, &w));
	for (round = 0; round < 12; round++) {
		for (i = 0; i < np; i += NACC) {
			da.count = np - i < NACC ? np - i : NACC;
			for (k = 0; k < da.count; k++) {
				acc[k].addr = (uintptr_t)(p + (i + k) * PAGE + 2048);
				acc[k].length = 64;
				acc[k].type = UVM_ACCESS_READ;
				acc[k].pad = 0;
				acc[k].buf = (uintptr_t)out[k];
			}
			ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_DEVICE_ACCESS,
					       &da));
			for (k = 0; k < da.count; k++) {
				ASSERT_EQ(0, pattern_diff(out[k],
							  (i + k) * PAGE + 2048, 64))
					TH_LOG("round %d page %zu", round, i + k);
			}
		}
		if (round % 2)
			ASSERT_EQ(0, uvm_prefetch(self->fd, p, len,
						  UVM_LOC_HOST_NUMA, 0));
	}
	EXPECT_EQ(w.n, uvm_writer_stop(&w, t)) TH_LOG("a CPU write was lost");
	munmap(p, len);
}

TEST_HARNESS_MAIN
