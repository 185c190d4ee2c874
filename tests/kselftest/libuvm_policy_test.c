// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -luvm
/*
 * libuvm's policy API and the UVM_POLICY environment variable: a context
 * created under UVM_POLICY runs under it; a malformed value fails the
 * context's creation (and so the CUDA runtime's initialisation) with a
 * clear message instead of being ignored; uvm_policy_set/get/reset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../include/uvm/uvm.h"
#include "kselftest_harness.h"

/* uvm_open() under UVM_POLICY=@spec: its result, and the policies in *@p. */
static int open_under(const char *spec, struct uvm_policy_info *p)
{
	struct uvm_context *ctx;
	int ret;

	setenv("UVM_POLICY", spec, 1);
	ret = uvm_open(&ctx);
	unsetenv("UVM_POLICY");
	if (ret)
		return ret;
	ret = uvm_policy_get(ctx, p);
	uvm_close(ctx);
	return ret;
}

TEST(env_sets_the_policies)
{
	struct uvm_policy_info p;

	ASSERT_EQ(0, open_under("evict=fifo,batch=64", &p));
	EXPECT_EQ(UVM_POLICY_EVICT_FIFO, p.evict_policy);
	EXPECT_EQ(64u, p.fault_batch);
	EXPECT_EQ(UVM_POLICY_EVICT | UVM_POLICY_FAULT_BATCH, p.overrides);
	ASSERT_EQ(0, open_under("evict=random:77", &p));
	EXPECT_EQ(UVM_POLICY_EVICT_RANDOM, p.evict_policy);
	EXPECT_EQ(77u, p.evict_seed);
	EXPECT_EQ(UVM_POLICY_EVICT, p.overrides);
	ASSERT_EQ(0, open_under("prefetch=none,thrash=none", &p));
	EXPECT_EQ(UVM_POLICY_PREFETCH | UVM_POLICY_THRASH, p.overrides);
	EXPECT_EQ(UVM_POLICY_PREFETCH_NONE, p.prefetch_policy);
	ASSERT_EQ(0, open_under("prefetch=density:70,evict=fifo", &p));
	EXPECT_EQ(UVM_POLICY_PREFETCH_DENSITY, p.prefetch_policy);
	EXPECT_EQ(70u, p.prefetch_threshold);
	EXPECT_EQ(512u, p.prefetch_pages);	/* left out: the module's */
	EXPECT_EQ(UVM_POLICY_PREFETCH | UVM_POLICY_EVICT, p.overrides);
	ASSERT_EQ(0, open_under("prefetch=sequential:4096", &p));
	EXPECT_EQ(UVM_POLICY_PREFETCH_SEQUENTIAL, p.prefetch_policy);
	EXPECT_EQ(4096u, p.prefetch_pages);
	EXPECT_EQ(51u, p.prefetch_threshold);
	ASSERT_EQ(0, open_under("prefetch=sequential", &p));
	EXPECT_EQ(512u, p.prefetch_pages);
	ASSERT_EQ(0, open_under("thrash=pin:40", &p));
	EXPECT_EQ(UVM_POLICY_THRASH_PIN, p.thrash_policy);
	EXPECT_EQ(40u, p.thrash_pin_ms);
	EXPECT_EQ(250u, p.thrash_nap_us);	/* left out: the module's */
	EXPECT_EQ(3u, p.thrash_threshold);
	EXPECT_EQ(UVM_POLICY_THRASH, p.overrides);
	ASSERT_EQ(0, open_under("thrash=throttle:1000", &p));
	EXPECT_EQ(UVM_POLICY_THRASH_THROTTLE, p.thrash_policy);
	EXPECT_EQ(1000u, p.thrash_nap_us);
	ASSERT_EQ(0, open_under("prefetch=density64k", &p));
	EXPECT_EQ(UVM_POLICY_PREFETCH_DENSITY64K, p.prefetch_policy);
	EXPECT_EQ(51u, p.prefetch_threshold);
	/* NVIDIA's driver's defaults (docs/policies.md "The nvidia preset") */
	ASSERT_EQ(0, open_under("preset=nvidia", &p));
	EXPECT_EQ(UVM_POLICY_EVICT | UVM_POLICY_FAULT_BATCH | UVM_POLICY_PREFETCH |
		  UVM_POLICY_THRASH, p.overrides);
	EXPECT_EQ(UVM_POLICY_EVICT_FIFO, p.evict_policy);
	EXPECT_EQ(256u, p.fault_batch);
	EXPECT_EQ(UVM_POLICY_PREFETCH_DENSITY64K, p.prefetch_policy);
	EXPECT_EQ(51u, p.prefetch_threshold);
	EXPECT_EQ(UVM_POLICY_THRASH_THROTTLE, p.thrash_policy);
	EXPECT_EQ(3u, p.thrash_threshold);
	EXPECT_EQ(500u, p.thrash_window_us);
	EXPECT_EQ(500u, p.thrash_nap_us);
	/* items after it change its parts */
	ASSERT_EQ(0, open_under("preset=nvidia,thrash=pin:40,batch=64", &p));
	EXPECT_EQ(UVM_POLICY_THRASH_PIN, p.thrash_policy);
	EXPECT_EQ(40u, p.thrash_pin_ms);
	EXPECT_EQ(500u, p.thrash_window_us);
	EXPECT_EQ(64u, p.fault_batch);
	EXPECT_EQ(UVM_POLICY_PREFETCH_DENSITY64K, p.prefetch_policy);
	ASSERT_EQ(0, open_under("", &p));
	EXPECT_EQ(0u, p.overrides);
}

TEST(malformed_env_fails_the_context)
{
	static const char *const bad[] = {
		"evict=mru", "evict=", "evict", "batch=0", "batch=4097",
		"batch=12x", "foo=1", "evict=fifo,", ",evict=fifo",
		"evict=random:", "evict=random:-1", "evict=lru batch=4",
		"evict=fifo,bogus=1", "prefetch=stride", "prefetch=density:0",
		"prefetch=density:101", "prefetch=sequential:0",
		"prefetch=sequential:16385", "prefetch=none:3",
		"prefetch=density:", "prefetch=", "prefetch=sequential:4k",
		"prefetch=density64k:0", "prefetch=density64k:101", "preset=amd",
		"preset=", "preset", "preset=nvidia:1", "preset=nvidia,evict=mru",
	};
	struct uvm_policy_info p;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(-EINVAL, open_under(bad[i], &p)) {
			TH_LOG("bad value number %u", i);
		}
	/* Policies this module does not have yet: a clear "not supported". */
	EXPECT_EQ(-EINVAL, open_under("thrash=stop", &p));
	EXPECT_EQ(-EINVAL, open_under("thrash=none:5", &p));
	EXPECT_EQ(-EINVAL, open_under("thrash=pin:0", &p));
	EXPECT_EQ(-EINVAL, open_under("thrash=throttle:100001", &p));
	EXPECT_EQ(-EINVAL, open_under("cap0=", &p));
	EXPECT_EQ(-EINVAL, open_under("cap0=12X", &p));
	EXPECT_EQ(-EINVAL, open_under("capx=16M", &p));
	EXPECT_EQ(-EINVAL, open_under("cap=16M", &p));
	EXPECT_EQ(-EINVAL, open_under("cap0=16M,cap0=32M", &p));
	EXPECT_EQ(-EINVAL, open_under("cap0=1M", &p));		/* < one chunk */
	EXPECT_EQ(-EINVAL, open_under("cap0=100000G", &p));	/* > the device */
	EXPECT_EQ(-ENODEV, open_under("cap31=16M", &p));
}

TEST(apply_is_all_or_nothing_and_says_where)
{
	struct uvm_context *ctx;
	struct uvm_policy_info p;
	const char *spec = "evict=lfu,batch=99999", *err = NULL;

	ASSERT_EQ(0, uvm_open(&ctx));
	EXPECT_EQ(-EINVAL, uvm_policy_apply(ctx, spec, &err));
	EXPECT_EQ(spec + 10, err);
	ASSERT_EQ(0, uvm_policy_get(ctx, &p));
	EXPECT_EQ(0u, p.overrides);
	EXPECT_EQ(0, uvm_policy_apply(ctx, "evict=lfu,batch=32", &err));
	ASSERT_EQ(0, uvm_policy_get(ctx, &p));
	EXPECT_EQ(UVM_POLICY_EVICT_LFU, p.evict_policy);
	EXPECT_EQ(32u, p.fault_batch);
	EXPECT_EQ(0, uvm_policy_reset(ctx, UVM_POLICY_EVICT));
	ASSERT_EQ(0, uvm_policy_get(ctx, &p));
	EXPECT_EQ(UVM_POLICY_FAULT_BATCH, p.overrides);
	EXPECT_EQ(32u, p.fault_batch);
	p.evict_policy = 9;
	EXPECT_EQ(-EINVAL, uvm_policy_set(ctx, UVM_POLICY_EVICT, &p));
	EXPECT_EQ(-EINVAL, uvm_policy_set(ctx, 0, &p));
	EXPECT_EQ(-EINVAL, uvm_policy_set(ctx, 1U << 9, &p));
	EXPECT_EQ(-EINVAL, uvm_policy_get(NULL, &p));
	EXPECT_EQ(-EINVAL, uvm_policy_apply(ctx, NULL, NULL));
	uvm_close(ctx);
}

/* UVM_POLICY=cap0=16M: the context sees a 16 MiB device; then no cap. */
TEST(cap_from_env_and_api)
{
	struct uvm_device_info info;
	struct uvm_context *ctx;
	uint64_t cap = 1;

	setenv("UVM_POLICY", "cap0=16M,evict=fifo", 1);
	ASSERT_EQ(0, uvm_open(&ctx));
	unsetenv("UVM_POLICY");
	ASSERT_EQ(0, uvm_policy_cap_get(ctx, 0, &cap));
	EXPECT_EQ(16ull << 20, cap);
	ASSERT_EQ(0, uvm_device_get_info(ctx, 0, &info));
	EXPECT_EQ(16ull << 20, info.mem_total);
	EXPECT_GE(16ull << 20, info.mem_free);
	EXPECT_EQ(-EINVAL, uvm_policy_cap_set(ctx, 0, 1 << 20));
	EXPECT_EQ(-ENODEV, uvm_policy_cap_set(ctx, 99, 16 << 20));
	ASSERT_EQ(0, uvm_policy_cap_set(ctx, 0, 0));
	ASSERT_EQ(0, uvm_policy_cap_get(ctx, 0, &cap));
	EXPECT_EQ(0u, cap);
	ASSERT_EQ(0, uvm_device_get_info(ctx, 0, &info));
	EXPECT_LT(16ull << 20, info.mem_total);
	uvm_close(ctx);
}

/* libuvm's CUDA runtime entry point (cudaError_t is an int-sized enum). */
int cudaMemGetInfo(size_t *free_bytes, size_t *total);

/* An unmodified CUDA program under UVM_POLICY=cap0=16M sees 16 MiB. */
TEST(cuda_mem_get_info_reports_the_cap)
{
	pid_t pid = fork();
	int st;

	ASSERT_LE(0, pid);
	if (!pid) {
		size_t free_bytes = 0, total = 0;

		setenv("UVM_POLICY", "cap0=16M", 1);
		if (cudaMemGetInfo(&free_bytes, &total))
			_exit(1);
		_exit(total == 16u << 20 && free_bytes <= total ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
}

TEST_HARNESS_MAIN
