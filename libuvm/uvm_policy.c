// SPDX-License-Identifier: MIT
/*
 * uvm_policy.c - native API: the memory-management policies of a context's
 * VA space (UVM_IOCTL_PERF_SET/GET), and the UVM_POLICY string that sets
 * them for unmodified programs (read when a context is created).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uvm_kabi.h"

_Static_assert(UVM_POLICY_EVICT_RANDOM == UVM_EVICT_RANDOM, "evict");
_Static_assert(UVM_POLICY_EVICT == UVM_PERF_EVICT, "perf");
_Static_assert(UVM_POLICY_FAULT_BATCH == UVM_PERF_FAULT_BATCH, "perf");
_Static_assert(UVM_POLICY_PREFETCH == UVM_PERF_PREFETCH, "perf");
_Static_assert(UVM_POLICY_PREFETCH_SEQUENTIAL == UVM_PREFETCH_SEQUENTIAL, "prefetch");
_Static_assert(UVM_POLICY_PREFETCH_DENSITY64K == UVM_PREFETCH_DENSITY_64K, "prefetch");
_Static_assert(UVM_POLICY_THRASH == UVM_PERF_THRASH, "perf");
_Static_assert(UVM_POLICY_CAP == UVM_PERF_CAP, "perf");
_Static_assert(UVM_POLICY_THRASH_PIN == UVM_THRASH_PIN, "thrash");

/* The prefetch parameters' ranges (the module's). */
#define PREFETCH_THRESHOLD_MAX	100
#define PREFETCH_PAGES_MAX	16384
#define THRASH_NAP_US_MAX	100000
#define THRASH_PIN_MS_MAX	60000

static const char *const evict_names[UVM_EVICT_COUNT] = {
	[UVM_EVICT_LRU] = "lru", [UVM_EVICT_FIFO] = "fifo",
	[UVM_EVICT_LFU] = "lfu", [UVM_EVICT_RANDOM] = "random",
};



uvm_public int uvm_policy_get(struct uvm_context *ctx, struct uvm_policy_info *info)
{
	struct uvm_perf args;
	int ret;

	if (!ctx || !info)
		return -EINVAL;
	uvm_memclear(args);
	args.version = UVM_PERF_VERSION;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_PERF_GET, &args);
	if (ret)
		return ret;
	info->overrides = args.overrides;
	info->evict_policy = args.evict_policy;
	info->evict_seed = args.evict_seed;
	info->fault_batch = args.fault_batch;
	info->prefetch_policy = args.prefetch_policy;
	info->prefetch_threshold = args.prefetch_threshold;
	info->prefetch_pages = args.prefetch_pages;
	info->thrash_policy = args.thrash_policy;
	info->thrash_threshold = args.thrash_threshold;
	info->thrash_window_us = args.thrash_window_us;
	info->thrash_nap_us = args.thrash_nap_us;
	info->thrash_pin_ms = args.thrash_pin_ms;
	return 0;
}

static int policy_perf_set(struct uvm_context *ctx, uint32_t which, uint32_t flags,
			   const struct uvm_policy_info *info)
{
	struct uvm_perf args;

	uvm_memclear(args);
	args.version = UVM_PERF_VERSION;
	args.set = which;
	args.flags = flags;
	if (info) {
		args.evict_policy = info->evict_policy;
		args.evict_seed = info->evict_seed;
		args.fault_batch = info->fault_batch;
		args.prefetch_policy = info->prefetch_policy;
		args.prefetch_threshold = info->prefetch_threshold;
		args.prefetch_pages = info->prefetch_pages;
		args.thrash_policy = info->thrash_policy;
		args.thrash_threshold = info->thrash_threshold;
		args.thrash_window_us = info->thrash_window_us;
		args.thrash_nap_us = info->thrash_nap_us;
		args.thrash_pin_ms = info->thrash_pin_ms;
	}
	return uvm_ioctl(ctx->fd, UVM_IOCTL_PERF_SET, &args);
}

uvm_public int uvm_policy_set(struct uvm_context *ctx, uint32_t which,
			      const struct uvm_policy_info *info)
{
	if (!ctx || !info || !which)
		return -EINVAL;
	return policy_perf_set(ctx, which, 0, info);
}

uvm_public int uvm_policy_reset(struct uvm_context *ctx, uint32_t which)
{
	if (!ctx || !which)
		return -EINVAL;
	return policy_perf_set(ctx, which, UVM_PERF_RESET, NULL);
}

static int cap_ioctl(struct uvm_context *ctx, uint32_t id, uint64_t bytes)
{
	struct uvm_perf args;

	uvm_memclear(args);
	args.version = UVM_PERF_VERSION;
	args.set = UVM_PERF_CAP;
	args.cap_device = id;
	args.cap_bytes = bytes;
	return uvm_ioctl(ctx->fd, UVM_IOCTL_PERF_SET, &args);
}

uvm_public int uvm_policy_cap_set(struct uvm_context *ctx, unsigned int device, uint64_t bytes)
{
	struct uvm_device *dev;
	int ret;

	if (!ctx)
		return -EINVAL;
	if (device >= ctx->num_devices)
		return -ENODEV;
	dev = &ctx->devices[device];
	ret = cap_ioctl(ctx, dev->info.id, bytes);
	if (ret)
		return ret;
	dev->cap = bytes;
	dev->info.mem_total = bytes ? bytes : dev->mem_size;
	return 0;
}

uvm_public int uvm_policy_cap_get(struct uvm_context *ctx, unsigned int device, uint64_t *bytes)
{
	struct uvm_perf args;
	int ret;

	if (!ctx || !bytes)
		return -EINVAL;
	if (device >= ctx->num_devices)
		return -ENODEV;
	uvm_memclear(args);
	args.version = UVM_PERF_VERSION;
	args.cap_device = ctx->devices[device].info.id;
	ret = uvm_ioctl(ctx->fd, UVM_IOCTL_PERF_GET, &args);
	if (!ret)
		*bytes = args.cap_bytes;
	return ret;
}

/* A whole decimal number in [@min, @max] from [@s, @end). */
static int parse_u64(const char *s, const char *end, uint64_t min, uint64_t max,
		     uint64_t *out)
{
	uint64_t v = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s) || v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Is [@s, @end) exactly @word? */
static int word_is(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - s) == n && !memcmp(s, word, n);
}

/* evict=NAME[:SEED] */
static int parse_evict(const char *v, const char *end, struct uvm_policy_info *p)
{
	const char *colon = memchr(v, ':', (size_t)(end - v));
	const char *name_end = colon ? colon : end;
	unsigned int i;

	p->evict_seed = 0;
	if (colon && parse_u64(colon + 1, end, 0, UINT64_MAX, &p->evict_seed))
		return -EINVAL;
	for (i = 0; i < UVM_EVICT_COUNT; i++) {
		if (word_is(v, name_end, evict_names[i])) {
			p->evict_policy = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* One choice of a NAME[:N] item: its name and its parameter, if any. */
struct param_choice {
	const char *name;
	uint64_t max;		/* N in 1..max; 0: takes no parameter */
	uint32_t *param;	/* where N goes; 0 there if left out */
};

/*
 * NAME[:N] from [@v, @end): the index of NAME in @c into *@choice, N into
 * its parameter. A parameter left out stays 0, filled in from the policy
 * in force by uvm_policy_apply().
 */
static int parse_choice(const char *v, const char *end, const struct param_choice *c,
			unsigned int n, uint32_t *choice)
{
	const char *colon = memchr(v, ':', (size_t)(end - v));
	unsigned int i, k;
	uint64_t x;

	for (i = 0; i < n && !word_is(v, colon ? colon : end, c[i].name); i++)
		;
	if (i == n)
		return -EINVAL;
	*choice = i;
	for (k = 0; k < n; k++)
		if (c[k].param)
			*c[k].param = 0;
	if (!colon)
		return 0;
	if (!c[i].max || parse_u64(colon + 1, end, 1, c[i].max, &x))
		return -EINVAL;
	*c[i].param = (uint32_t)x;
	return 0;
}

/* prefetch=none|density[:PERCENT]|sequential[:PAGES]|density64k[:PERCENT] */
static int parse_prefetch(const char *v, const char *end, struct uvm_policy_info *p)
{
	const struct param_choice c[UVM_PREFETCH_COUNT] = {
		[UVM_PREFETCH_NONE] = { "none", 0, NULL },
		[UVM_PREFETCH_DENSITY] = { "density", PREFETCH_THRESHOLD_MAX,
					   &p->prefetch_threshold },
		[UVM_PREFETCH_SEQUENTIAL] = { "sequential", PREFETCH_PAGES_MAX,
					      &p->prefetch_pages },
		[UVM_PREFETCH_DENSITY_64K] = { "density64k", PREFETCH_THRESHOLD_MAX,
					       &p->prefetch_threshold },
	};

	return parse_choice(v, end, c, UVM_PREFETCH_COUNT, &p->prefetch_policy);
}

/* thrash=none|throttle[:NAP_US]|pin[:PIN_MS] */
static int parse_thrash(const char *v, const char *end, struct uvm_policy_info *p)
{
	const struct param_choice c[UVM_THRASH_COUNT] = {
		[UVM_THRASH_NONE] = { "none", 0, NULL },
		[UVM_THRASH_THROTTLE] = { "throttle", THRASH_NAP_US_MAX,
					  &p->thrash_nap_us },
		[UVM_THRASH_PIN] = { "pin", THRASH_PIN_MS_MAX, &p->thrash_pin_ms },
	};

	return parse_choice(v, end, c, UVM_THRASH_COUNT, &p->thrash_policy);
}

/* The caps of a policy string: device ordinal and bytes (0: none). */
struct policy_caps {
	unsigned int n;
	unsigned int device[UVM_MAX_DEVICES];
	uint64_t bytes[UVM_MAX_DEVICES];
};

/* capN=SIZE, SIZE in bytes or with a K, M or G suffix; [@s, @eq) is "capN". */
static int parse_cap(const char *s, const char *eq, const char *end,
		     struct policy_caps *caps)
{
	uint64_t dev, v, shift = 0;
	const char *num_end = end;
	unsigned int k;

	if (parse_u64(s + 3, eq, 0, UVM_MAX_DEVICES - 1, &dev))
		return -EINVAL;
	if (end > eq + 1) {
		switch (end[-1]) {
		case 'K': shift = 10; num_end--; break;
		case 'M': shift = 20; num_end--; break;
		case 'G': shift = 30; num_end--; break;
		}
	}
	if (parse_u64(eq + 1, num_end, 0, UINT64_MAX >> shift, &v))
		return -EINVAL;
	for (k = 0; k < caps->n; k++)
		if (caps->device[k] == dev)
			return -EINVAL;		/* one cap per device */
	caps->device[caps->n] = (unsigned int)dev;
	caps->bytes[caps->n++] = v << shift;
	return 0;
}

/*
 * preset=nvidia: NVIDIA's driver as its source reads (kernel-open/
 * nvidia-uvm, docs/policies.md "The nvidia preset"): faults serviced 256
 * at a time (uvm_perf_fault_batch_count), the density prefetcher over 64
 * KiB units at 51 %, on CPU faults too (uvm_perf_prefetch.c,
 * uvm_perf_prefetch_threshold), thrashing after 3 moves within 500 us
 * (uvm_perf_thrashing_threshold, _lapse_usec), then the next processor
 * napping one lapse (uvm_perf_thrashing_nap = 1), victims in allocation
 * order. Items after it override its parts.
 */
static int parse_preset(const char *v, const char *end, struct uvm_policy_info *p,
			uint32_t *which)
{
	if (!word_is(v, end, "nvidia"))
		return -EINVAL;
	*which |= UVM_POLICY_EVICT | UVM_POLICY_FAULT_BATCH | UVM_POLICY_PREFETCH |
		  UVM_POLICY_THRASH;
	p->evict_policy = UVM_POLICY_EVICT_FIFO;
	p->evict_seed = 0;
	p->fault_batch = 256;
	p->prefetch_policy = UVM_POLICY_PREFETCH_DENSITY64K;
	p->prefetch_threshold = 51;
	p->prefetch_pages = 0;
	p->thrash_policy = UVM_POLICY_THRASH_THROTTLE;
	p->thrash_threshold = 3;
	p->thrash_window_us = 500;
	p->thrash_nap_us = 500;
	p->thrash_pin_ms = 0;
	return 0;
}

/* One KEY=VALUE item [@s, @end) into @p and @which, or @caps. */
static int parse_item(const char *s, const char *end, struct uvm_policy_info *p,
		      uint32_t *which, struct policy_caps *caps)
{
	const char *eq = memchr(s, '=', (size_t)(end - s));
	uint64_t n;

	if (!eq)
		return -EINVAL;
	if (word_is(s, eq, "preset"))
		return parse_preset(eq + 1, end, p, which);
	if (word_is(s, eq, "evict")) {
		*which |= UVM_POLICY_EVICT;
		return parse_evict(eq + 1, end, p);
	}
	if (word_is(s, eq, "batch")) {
		*which |= UVM_POLICY_FAULT_BATCH;
		if (parse_u64(eq + 1, end, 1, UVM_ACCESS_MAX, &n))
			return -EINVAL;
		p->fault_batch = (uint32_t)n;
		return 0;
	}
	if (word_is(s, eq, "prefetch")) {
		*which |= UVM_POLICY_PREFETCH;
		return parse_prefetch(eq + 1, end, p);
	}
	if (word_is(s, eq, "thrash")) {
		*which |= UVM_POLICY_THRASH;
		return parse_thrash(eq + 1, end, p);
	}
	if (eq - s > 3 && !memcmp(s, "cap", 3))
		return parse_cap(s, eq, end, caps);
	return -EINVAL;
}

/*
 * Set @caps; all or nothing: on an error the caps set so far go back to
 * what they were (@old).
 */
static int apply_caps(struct uvm_context *ctx, const struct policy_caps *caps,
		      uint64_t *old)
{
	unsigned int k, j;
	int ret = 0;

	for (k = 0; k < caps->n && !ret; k++) {
		if (caps->device[k] >= ctx->num_devices)
			ret = -ENODEV;
		else
			ret = uvm_policy_cap_get(ctx, caps->device[k], &old[k]) ?:
			      uvm_policy_cap_set(ctx, caps->device[k], caps->bytes[k]);
	}
	if (ret)
		for (j = 0; j + 1 < k; j++)
			uvm_policy_cap_set(ctx, caps->device[j], old[j]);
	return ret;
}

uvm_public int uvm_policy_apply(struct uvm_context *ctx, const char *spec, const char **err)
{
	struct uvm_policy_info p = { 0 };
	uint64_t old[UVM_MAX_DEVICES];
	struct policy_caps caps;
	const char *s, *end;
	uint32_t which = 0;
	unsigned int k;
	int ret;

	if (err)
		*err = NULL;
	if (!ctx || !spec)
		return -EINVAL;
	caps.n = 0;
	for (s = spec; *spec; s = end + 1) {
		end = strchr(s, ',');
		if (!end)
			end = s + strlen(s);
		ret = parse_item(s, end, &p, &which, &caps);	/* "" too: malformed */
		if (ret) {
			if (err)
				*err = s;
			return ret;
		}
		if (!*end)
			break;
	}
	if (which & (UVM_POLICY_PREFETCH | UVM_POLICY_THRASH)) {
		struct uvm_policy_info cur;	/* parameters left out: as now */

		ret = uvm_policy_get(ctx, &cur);
		if (ret)
			return ret;
		if (!p.prefetch_threshold)
			p.prefetch_threshold = cur.prefetch_threshold;
		if (!p.prefetch_pages)
			p.prefetch_pages = cur.prefetch_pages;
		if (!p.thrash_threshold)
			p.thrash_threshold = cur.thrash_threshold;
		if (!p.thrash_window_us)
			p.thrash_window_us = cur.thrash_window_us;
		if (!p.thrash_nap_us)
			p.thrash_nap_us = cur.thrash_nap_us;
		if (!p.thrash_pin_ms)
			p.thrash_pin_ms = cur.thrash_pin_ms;
	}
	ret = apply_caps(ctx, &caps, old);
	if (ret || !which)
		return ret;
	ret = policy_perf_set(ctx, which, 0, &p);
	if (ret)
		for (k = 0; k < caps.n; k++)
			uvm_policy_cap_set(ctx, caps.device[k], old[k]);
	return ret;
}

/**
 * uvm_policy_from_env() - apply UVM_POLICY, if set, to a new context.
 * @ctx: the context.
 *
 * A malformed value is an error, said on stderr, never ignored.
 *
 * Return: 0 or -errno.
 */
int uvm_policy_from_env(struct uvm_context *ctx)
{
	const char *spec = getenv("UVM_POLICY"), *bad;
	int ret;

	if (!spec || !*spec)
		return 0;
	ret = uvm_policy_apply(ctx, spec, &bad);
	if (ret)
		fprintf(stderr, "libuvm: UVM_POLICY=\"%s\": %s at \"%s\" (known: preset=nvidia, evict=lru|fifo|lfu|random[:SEED], batch=1..4096, prefetch=none|density[:1..100]|sequential[:1..16384]|density64k[:1..100], thrash=none|throttle[:NAP_US]|pin[:PIN_MS], capN=BYTES[K|M|G])\n",
			spec, ret == -EOPNOTSUPP ? "policy not supported by this module" :
			"malformed", bad ? bad : spec);
	return ret;
}
