// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: Policies
 *
 * The memory-management policies (the eviction order, the device-fault
 * prefetch, the fault batch size) have module-wide defaults, module parameters that root may
 * change while programs run (a bad value is refused with -EINVAL and
 * changes nothing), and per-VA-space overrides (UVM_IOCTL_PERF_SET). The
 * mechanism asks uvm_perf_*() for the policy in force at each decision, so
 * a change applies from the next decision on: the next victim, the next
 * fault batch. The policies themselves live in files of their own behind
 * small interfaces (uvm_evict_policy.h, uvm_prefetch_policy.h).
 */
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <uapi/uvm.h>

#include "uvm_device.h"
#include "uvm_device_fault.h"
#include "uvm_drv.h"
#include "uvm_evict_policy.h"
#include "uvm_event_records.h"
#include "uvm_managed.h"
#include "uvm_perf.h"

const struct uvm_evict_policy *const uvm_evict_policies[UVM_EVICT_COUNT] = {
	[UVM_EVICT_LRU] = &uvm_evict_lru,
	[UVM_EVICT_FIFO] = &uvm_evict_fifo,
	[UVM_EVICT_LFU] = &uvm_evict_lfu,
	[UVM_EVICT_RANDOM] = &uvm_evict_random,
};

static unsigned int uvm_evict_default = UVM_EVICT_LRU;
static unsigned long long uvm_evict_seed;

/*
 * A module parameter that names one of @count policies: a name that is not
 * one is refused (-EINVAL) and changes nothing.
 */
struct perf_choice {
	unsigned int *val;
	unsigned int count;
	const char *(*name)(unsigned int i);
	const char *param;
	const char *choices;
};

static int choice_set(const char *val, const struct kernel_param *kp)
{
	const struct perf_choice *c = kp->arg;
	unsigned int i;

	for (i = 0; i < c->count; i++) {
		if (sysfs_streq(val, c->name(i))) {
			WRITE_ONCE(*c->val, i);
			return 0;
		}
	}
	pr_err("uvm: %s must be one of %s\n", c->param, c->choices);
	return -EINVAL;
}

static int choice_get(char *buf, const struct kernel_param *kp)
{
	const struct perf_choice *c = kp->arg;

	return sysfs_emit(buf, "%s\n", c->name(READ_ONCE(*c->val)));
}

static const struct kernel_param_ops perf_choice_ops = {
	.set = choice_set,
	.get = choice_get,
};

static const char *evict_name(unsigned int i)
{
	return uvm_evict_policies[i]->name;
}

static struct perf_choice evict_choice = {
	.val = &uvm_evict_default, .count = UVM_EVICT_COUNT,
	.name = evict_name, .param = "evict_policy",
	.choices = "lru, fifo, lfu, random",
};
module_param_cb(evict_policy, &perf_choice_ops, &evict_choice, 0644);
MODULE_PARM_DESC(evict_policy,
		 "order of eviction victims: lru (default), fifo, lfu, random");
module_param_named(evict_seed, uvm_evict_seed, ullong, 0644);
MODULE_PARM_DESC(evict_seed, "seed of the random eviction policy (default 0)");

static const char *const uvm_prefetch_names[UVM_PREFETCH_COUNT] = {
	[UVM_PREFETCH_NONE] = "none",
	[UVM_PREFETCH_DENSITY] = "density",
	[UVM_PREFETCH_SEQUENTIAL] = "sequential",
	[UVM_PREFETCH_DENSITY_64K] = "density64k",
};

static unsigned int uvm_prefetch_default = UVM_PREFETCH_NONE;
static unsigned int uvm_prefetch_threshold = 51;
static unsigned int uvm_prefetch_pages = 512;

static const char *prefetch_name(unsigned int i)
{
	return uvm_prefetch_names[i];
}

static struct perf_choice prefetch_choice = {
	.val = &uvm_prefetch_default, .count = UVM_PREFETCH_COUNT,
	.name = prefetch_name, .param = "prefetch_policy",
	.choices = "none, density, sequential, density64k",
};
module_param_cb(prefetch_policy, &perf_choice_ops, &prefetch_choice, 0644);
MODULE_PARM_DESC(prefetch_policy,
		 "what a fault brings in besides its pages: none (default), density, sequential, density64k");

static struct uvm_param_range prefetch_threshold_range = {
	.val = &uvm_prefetch_threshold, .min = 1, .max = 100,
};
module_param_cb(prefetch_threshold, &uvm_param_range_ops,
		&prefetch_threshold_range, 0644);
MODULE_PARM_DESC(prefetch_threshold,
		 "density prefetch: percent of a region resident or faulting above which it comes whole, 1..100 (default 51)");

static struct uvm_param_range prefetch_pages_range = {
	.val = &uvm_prefetch_pages, .min = 1, .max = UVM_PREFETCH_BATCH_MAX,
};
module_param_cb(prefetch_pages, &uvm_param_range_ops, &prefetch_pages_range,
		0644);
MODULE_PARM_DESC(prefetch_pages,
		 "sequential prefetch: pages brought in after a run of faults, 1..16384 (default 512)");

static const struct uvm_thrash_policy *const uvm_thrash_policies[UVM_THRASH_COUNT] = {
	[UVM_THRASH_NONE] = &uvm_thrash_none,
	[UVM_THRASH_THROTTLE] = &uvm_thrash_throttle,
	[UVM_THRASH_PIN] = &uvm_thrash_pin,
};

#define UVM_THRASH_THRESHOLD_MAX	1000
#define UVM_THRASH_WINDOW_US_MAX	10000000
#define UVM_THRASH_NAP_US_MAX		100000
#define UVM_THRASH_PIN_MS_MAX		60000

static unsigned int uvm_thrash_default = UVM_THRASH_NONE;
static unsigned int uvm_thrash_threshold = 3;
static unsigned int uvm_thrash_window_us = 500;
static unsigned int uvm_thrash_nap_us = 250;
static unsigned int uvm_thrash_pin_ms = 300;

static const char *thrash_name(unsigned int i)
{
	return uvm_thrash_policies[i]->name;
}

static struct perf_choice thrash_choice = {
	.val = &uvm_thrash_default, .count = UVM_THRASH_COUNT,
	.name = thrash_name, .param = "thrash_policy",
	.choices = "none, throttle, pin",
};
module_param_cb(thrash_policy, &perf_choice_ops, &thrash_choice, 0644);
MODULE_PARM_DESC(thrash_policy,
		 "what happens to a block found thrashing: none (default: counted only), throttle, pin");

static struct uvm_param_range thrash_threshold_range = {
	.val = &uvm_thrash_threshold, .min = 1, .max = UVM_THRASH_THRESHOLD_MAX,
};
module_param_cb(thrash_threshold, &uvm_param_range_ops,
		&thrash_threshold_range, 0644);
MODULE_PARM_DESC(thrash_threshold,
		 "moves of a block within thrash_window_us that are thrashing, 1..1000 (default 3)");

static struct uvm_param_range thrash_window_range = {
	.val = &uvm_thrash_window_us, .min = 1, .max = UVM_THRASH_WINDOW_US_MAX,
};
module_param_cb(thrash_window_us, &uvm_param_range_ops, &thrash_window_range,
		0644);
MODULE_PARM_DESC(thrash_window_us,
		 "thrashing detection window in microseconds, 1..10000000 (default 500)");

static struct uvm_param_range thrash_nap_range = {
	.val = &uvm_thrash_nap_us, .min = 1, .max = UVM_THRASH_NAP_US_MAX,
};
module_param_cb(thrash_nap_us, &uvm_param_range_ops, &thrash_nap_range, 0644);
MODULE_PARM_DESC(thrash_nap_us,
		 "throttle: how long the next processor waits, microseconds, 1..100000 (default 250)");

static struct uvm_param_range thrash_pin_range = {
	.val = &uvm_thrash_pin_ms, .min = 1, .max = UVM_THRASH_PIN_MS_MAX,
};
module_param_cb(thrash_pin_ms, &uvm_param_range_ops, &thrash_pin_range, 0644);
MODULE_PARM_DESC(thrash_pin_ms,
		 "pin: how long a thrashing block stays where it is, milliseconds, 1..60000 (default 300)");

void uvm_perf_va_init(struct uvm_perf_va *perf)
{
	unsigned int d;

	for (d = 0; d < UVM_MAX_DEVICES; d++) {
		uvm_seq_state_init(&perf->seq[d]);
		perf->cap[d] = 0;
		atomic64_set(&perf->dev_bytes[d], 0);
	}
	spin_lock_init(&perf->lock);
	perf->overrides = 0;
	atomic64_set(&perf->evict_nth, 0);
	atomic64_set(&perf->chunk_seq, 0);
}

/* UVM_EVICT_* in force for @perf's VA space, and its seed in *@seed. */
static unsigned int perf_evict_id(struct uvm_perf_va *perf, u64 *seed)
{
	unsigned int id;

	spin_lock(&perf->lock);
	if (perf->overrides & UVM_PERF_EVICT) {
		id = perf->evict_policy;
		*seed = perf->evict_seed;
	} else {
		id = READ_ONCE(uvm_evict_default);
		*seed = READ_ONCE(uvm_evict_seed);
	}
	spin_unlock(&perf->lock);
	return id;
}

/**
 * uvm_perf_evict_policy() - the eviction policy in force for @perf's VA
 * space, and its seed in *@seed.
 * @perf: the VA space's policies.
 * @seed: set to the random policy's seed.
 */
const struct uvm_evict_policy *uvm_perf_evict_policy(struct uvm_perf_va *perf,
						     u64 *seed)
{
	return uvm_evict_policies[perf_evict_id(perf, seed)];
}

/* Device faults per batch for @perf's VA space. */
unsigned int uvm_perf_fault_batch(struct uvm_perf_va *perf)
{
	if (READ_ONCE(perf->overrides) & UVM_PERF_FAULT_BATCH)
		return READ_ONCE(perf->fault_batch);
	return READ_ONCE(uvm_fault_batch);
}

/**
 * uvm_perf_prefetch() - the prefetch policy in force for @perf's VA space.
 * @perf: the VA space's policies.
 * @conf: set to the policy and its parameters.
 */
void uvm_perf_prefetch(struct uvm_perf_va *perf, struct uvm_prefetch_conf *conf)
{
	spin_lock(&perf->lock);
	if (perf->overrides & UVM_PERF_PREFETCH) {
		conf->policy = perf->prefetch;
		conf->threshold = perf->prefetch_threshold;
		conf->pages = perf->prefetch_pages;
	} else {
		conf->policy = READ_ONCE(uvm_prefetch_default);
		conf->threshold = READ_ONCE(uvm_prefetch_threshold);
		conf->pages = READ_ONCE(uvm_prefetch_pages);
	}
	spin_unlock(&perf->lock);
}

/**
 * uvm_perf_thrash() - the thrashing policy in force for @perf's VA space.
 * @perf: the VA space's policies.
 * @conf: set to the policy and its parameters.
 *
 * Return: the policy.
 */
const struct uvm_thrash_policy *uvm_perf_thrash(struct uvm_perf_va *perf,
						struct uvm_thrash_conf *conf)
{
	spin_lock(&perf->lock);
	if (perf->overrides & UVM_PERF_THRASH) {
		*conf = perf->thrash;
	} else {
		*conf = (struct uvm_thrash_conf){
			.policy = READ_ONCE(uvm_thrash_default),
			.threshold = READ_ONCE(uvm_thrash_threshold),
			.window_ns = (u64)READ_ONCE(uvm_thrash_window_us) * NSEC_PER_USEC,
			.nap_ns = (u64)READ_ONCE(uvm_thrash_nap_us) * NSEC_PER_USEC,
			.pin_ns = (u64)READ_ONCE(uvm_thrash_pin_ms) * NSEC_PER_MSEC,
		};
	}
	spin_unlock(&perf->lock);
	return uvm_thrash_policies[conf->policy];
}

static int perf_check_thrash(const struct uvm_perf *args)
{
	if (args->thrash_policy >= UVM_THRASH_COUNT ||
	    !args->thrash_threshold ||
	    args->thrash_threshold > UVM_THRASH_THRESHOLD_MAX ||
	    !args->thrash_window_us ||
	    args->thrash_window_us > UVM_THRASH_WINDOW_US_MAX ||
	    !args->thrash_nap_us || args->thrash_nap_us > UVM_THRASH_NAP_US_MAX ||
	    !args->thrash_pin_ms || args->thrash_pin_ms > UVM_THRASH_PIN_MS_MAX)
		return -EINVAL;
	return 0;
}

static int perf_check_prefetch(const struct uvm_perf *args)
{
	if (args->prefetch_policy >= UVM_PREFETCH_COUNT)
		return -EINVAL;
	if (!args->prefetch_threshold || args->prefetch_threshold > 100)
		return -EINVAL;
	if (!args->prefetch_pages ||
	    args->prefetch_pages > UVM_PREFETCH_BATCH_MAX)
		return -EINVAL;
	return 0;
}

/* A cap of @args->cap_bytes on an existing device, or none (0). */
static int perf_check_cap(const struct uvm_perf *args)
{
	struct uvm_device *udev;
	u64 size;

	if (args->cap_device >= UVM_MAX_DEVICES)
		return -EINVAL;
	udev = uvm_device_get(args->cap_device);
	if (!udev)
		return -ENODEV;
	size = udev->mem_size;
	uvm_device_put(udev);
	if (!args->cap_bytes || (args->flags & UVM_PERF_RESET))
		return 0;
	if (args->cap_bytes < UVM_BLOCK_SIZE || args->cap_bytes > size)
		return -EINVAL;
	return 0;
}

static int perf_check(const struct uvm_perf *args, bool set)
{
	if (args->version != UVM_PERF_VERSION || args->overrides || args->pad)
		return -EINVAL;
	if (!set)
		return args->set || args->flags || args->cap_bytes ||
		       args->cap_device >= UVM_MAX_DEVICES ? -EINVAL : 0;
	if ((args->set & ~UVM_PERF_ALL) || (args->flags & ~UVM_PERF_RESET))
		return -EINVAL;
	if (args->set & UVM_PERF_CAP) {
		int ret = perf_check_cap(args);

		if (ret)
			return ret;
	}
	if (args->flags & UVM_PERF_RESET)
		return 0;
	if ((args->set & UVM_PERF_EVICT) && args->evict_policy >= UVM_EVICT_COUNT)
		return -EINVAL;
	if ((args->set & UVM_PERF_FAULT_BATCH) &&
	    (!args->fault_batch || args->fault_batch > UVM_ACCESS_MAX))
		return -EINVAL;
	if ((args->set & UVM_PERF_THRASH) && perf_check_thrash(args))
		return -EINVAL;
	if (args->set & UVM_PERF_PREFETCH)
		return perf_check_prefetch(args);
	return 0;
}

/**
 * uvm_perf_set() - UVM_IOCTL_PERF_SET: override (or, with UVM_PERF_RESET,
 * stop overriding) the policies of @args->set for @perf's VA space.
 * @perf: the VA space's policies.
 * @args: the request, checked whole before anything changes.
 *
 * Return: 0 or -EINVAL (nothing changed).
 */
int uvm_perf_set(struct uvm_perf_va *perf, struct uvm_perf *args)
{
	struct uvm_managed *mgd = container_of(perf, struct uvm_managed, perf);
	struct uvm_perf now = { .version = UVM_PERF_VERSION };
	int ret = perf_check(args, true);

	if (ret)
		return ret;
	spin_lock(&perf->lock);
	if (args->set & UVM_PERF_CAP)	/* a cap is per device, not a default */
		WRITE_ONCE(perf->cap[args->cap_device],
			   args->flags & UVM_PERF_RESET ? 0 : args->cap_bytes);
	if (args->flags & UVM_PERF_RESET) {
		WRITE_ONCE(perf->overrides, perf->overrides & ~args->set);
	} else {
		if (args->set & UVM_PERF_EVICT) {
			perf->evict_policy = args->evict_policy;
			perf->evict_seed = args->evict_seed;
			atomic64_set(&perf->evict_nth, 0);
		}
		if (args->set & UVM_PERF_FAULT_BATCH)
			WRITE_ONCE(perf->fault_batch, args->fault_batch);
		if (args->set & UVM_PERF_THRASH)
			perf->thrash = (struct uvm_thrash_conf){
				.policy = args->thrash_policy,
				.threshold = args->thrash_threshold,
				.window_ns = (u64)args->thrash_window_us * NSEC_PER_USEC,
				.nap_ns = (u64)args->thrash_nap_us * NSEC_PER_USEC,
				.pin_ns = (u64)args->thrash_pin_ms * NSEC_PER_MSEC,
			};
		if (args->set & UVM_PERF_PREFETCH) {
			perf->prefetch = args->prefetch_policy;
			perf->prefetch_threshold = args->prefetch_threshold;
			perf->prefetch_pages = args->prefetch_pages;
		}
		WRITE_ONCE(perf->overrides,
			   perf->overrides | (args->set & ~UVM_PERF_CAP));
	}
	spin_unlock(&perf->lock);
	if (uvm_event_wanted(&mgd->events, UVM_EVENT_POLICY) &&
	    !uvm_perf_get(perf, &now))
		uvm_event_policy(mgd, args->set, args->flags, &now);
	return 0;
}

/**
 * uvm_perf_get() - UVM_IOCTL_PERF_GET: the policies in force for @perf's
 * VA space and which of them it overrides.
 * @perf: the VA space's policies.
 * @args: in: version, zero elsewhere; out: the policies.
 *
 * Return: 0 or -EINVAL.
 */
int uvm_perf_get(struct uvm_perf_va *perf, struct uvm_perf *args)
{
	struct uvm_thrash_conf th;
	struct uvm_prefetch_conf pf;
	u64 seed;
	int ret = perf_check(args, false);

	if (ret)
		return ret;
	uvm_perf_prefetch(perf, &pf);
	args->prefetch_policy = pf.policy;
	args->prefetch_threshold = pf.threshold;
	args->prefetch_pages = pf.pages;
	uvm_perf_thrash(perf, &th);
	args->thrash_policy = th.policy;
	args->thrash_threshold = th.threshold;
	args->thrash_window_us = div_u64(th.window_ns, NSEC_PER_USEC);
	args->thrash_nap_us = div_u64(th.nap_ns, NSEC_PER_USEC);
	args->thrash_pin_ms = div_u64(th.pin_ns, NSEC_PER_MSEC);
	args->evict_policy = perf_evict_id(perf, &seed);
	args->evict_seed = seed;
	args->fault_batch = uvm_perf_fault_batch(perf);
	args->overrides = READ_ONCE(perf->overrides) & ~UVM_PERF_CAP;
	args->cap_bytes = uvm_perf_cap(perf, args->cap_device);
	if (args->cap_bytes)
		args->overrides |= UVM_PERF_CAP;
	return 0;
}
