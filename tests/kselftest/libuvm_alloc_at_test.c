// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm
/*
 * uvm_managed_alloc_at(): a managed allocation mapped exactly at the
 * address asked for (uvm-replay places allocations where their recording
 * had them, docs/replay.md), or not at all: -EEXIST where anything is
 * mapped in the range (nothing of it replaced), -EINVAL for a NULL or
 * unaligned address, a zero size or bad flags. A placed allocation is a
 * managed allocation like any other: the module serves its faults,
 * uvm_managed_query() knows it, uvm_managed_free() unmaps it.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../include/uvm/uvm.h"
#include "kselftest_harness.h"

#define SZ_2M	(2ul << 20)

FIXTURE(at)
{
	struct uvm_context *ctx;
	char *hole;	/* a free, 2 MiB-aligned range of 8 MiB */
};

FIXTURE_SETUP(at)
{
	char *p;

	if (uvm_open(&self->ctx))
		SKIP(return, "no /dev/uvm");
	/* Find a free range: reserve it, align it, give it back. */
	p = mmap(NULL, 10 * SZ_2M, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	self->hole = (char *)(((uintptr_t)p + SZ_2M - 1) & ~(SZ_2M - 1));
	ASSERT_EQ(0, munmap(p, 10 * SZ_2M));
}

FIXTURE_TEARDOWN(at)
{
	if (self->ctx)
		uvm_close(self->ctx);
}

TEST_F(at, places_exactly_and_is_managed)
{
	struct uvm_managed_info info;
	/* Two allocations sharing one 2 MiB block, as a recording may have. */
	char *a = self->hole + SZ_2M + 4096, *b = a + (1 << 20);
	void *pa, *pb;

	ASSERT_EQ(0, uvm_managed_alloc_at(self->ctx, a, 1 << 20, 0, &pa));
	ASSERT_EQ(0, uvm_managed_alloc_at(self->ctx, b, 3 << 20,
					  UVM_MANAGED_ATTACH_GLOBAL, &pb));
	EXPECT_EQ((void *)a, pa);
	EXPECT_EQ((void *)b, pb);
	memset(a, 0x5a, 1 << 20);
	memset(b, 0xa5, 3 << 20);
	EXPECT_EQ(0x5a, a[(1 << 20) - 1]);
	EXPECT_EQ((char)0xa5, b[0]);
	ASSERT_EQ(0, uvm_managed_query(self->ctx, b + 5, &info));
	EXPECT_EQ((uint64_t)(uintptr_t)b, info.base);
	EXPECT_EQ((uint64_t)3 << 20, info.size);
	EXPECT_EQ(0, uvm_managed_free(self->ctx, pa));
	EXPECT_EQ(0, uvm_managed_free(self->ctx, pb));
}

TEST_F(at, occupied_range_is_refused_and_kept)
{
	char *a = self->hole + SZ_2M;
	char *anon;
	void *p = NULL;

	anon = mmap(a + 8192, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)(a + 8192), anon);
	anon[0] = 7;
	EXPECT_EQ(-EEXIST, uvm_managed_alloc_at(self->ctx, a, 1 << 20, 0, &p));
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(7, anon[0]);	/* nothing of it replaced */
	EXPECT_EQ(0, munmap(anon, 4096));
	/* Free again: placed now. */
	ASSERT_EQ(0, uvm_managed_alloc_at(self->ctx, a, 1 << 20, 0, &p));
	EXPECT_EQ((void *)a, p);
	/* Over a managed allocation: refused too. */
	EXPECT_EQ(-EEXIST, uvm_managed_alloc_at(self->ctx, a + 4096, 4096, 0, &p));
	EXPECT_EQ(0, uvm_managed_free(self->ctx, a));
}

TEST_F(at, bad_arguments)
{
	char *a = self->hole + SZ_2M;
	void *p = NULL;

	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(self->ctx, NULL, 4096, 0, &p));
	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(self->ctx, a + 1, 4096, 0, &p));
	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(self->ctx, a, 0, 0, &p));
	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(self->ctx, a, 4096, 3, &p));
	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(self->ctx, a, 4096, 0, NULL));
	EXPECT_EQ(-EINVAL, uvm_managed_alloc_at(NULL, a, 4096, 0, &p));
	EXPECT_EQ(NULL, p);
	/* Nothing was mapped by any of them. */
	EXPECT_EQ(0, uvm_managed_alloc_at(self->ctx, a, 4096, 0, &p));
	EXPECT_EQ(0, uvm_managed_free(self->ctx, p));
}

TEST_HARNESS_MAIN
