// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_sysfs.c - sysfs attributes of the module and its devices.
 *
 * Per device, in a "uvm" directory of the bus device
 * (/sys/bus/{pci,platform}/devices/DEV/uvm/, also reachable as
 * /sys/class/drm/renderD<N>/device/uvm/): id, backend, mem_total, mem_free,
 * mem_used, numa_node, and stats: the device's counters (struct
 * uvm_device.counters), one "name value" line each, for the counters kept
 * per device (the uvm_stat_attrs[] entries marked so). One file rather than
 * a stats/ directory: attribute groups are one level deep.
 *
 * Global counters (uvm_global_counters, UVM_STAT_*), in
 * /sys/module/uvm/stats/: one read-only file per counter holding its value,
 * and "all" with one "name value" line per counter (one read, one
 * consistent-enough snapshot for scripts). Names are the ones uvm-smi
 * prints; definitions are in docs/observability.md.
 */

#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/sysfs.h>

#include "uvm_device.h"
#include "uvm_drv.h"
#include "uvm_managed.h"
#include "uvm_pool.h"
#include "uvm_sysfs.h"

static struct uvm_device *uvm_sysfs_udev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%u\n", uvm_sysfs_udev(dev)->id);
}
static DEVICE_ATTR_RO(id);

static ssize_t backend_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", uvm_sysfs_udev(dev)->ops->name);
}
static DEVICE_ATTR_RO(backend);

static ssize_t mem_total_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", uvm_sysfs_udev(dev)->mem_size);
}
static DEVICE_ATTR_RO(mem_total);

static ssize_t mem_free_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  uvm_mem_free_bytes(uvm_sysfs_udev(dev)));
}
static DEVICE_ATTR_RO(mem_free);

static ssize_t mem_used_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct uvm_device *udev = uvm_sysfs_udev(dev);

	return sysfs_emit(buf, "%llu\n",
			  udev->mem_size - uvm_mem_free_bytes(udev));
}
static DEVICE_ATTR_RO(mem_used);

static ssize_t numa_node_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", uvm_sysfs_udev(dev)->numa_node);
}
static DEVICE_ATTR_RO(numa_node);

/*
 * Counter names, the one table for the global files and the devices'
 * "stats". A counter appended to UVM_STAT_* without a line here is still
 * listed in "all" (as counter_<index>) but gets no file of its own and is
 * not shown per device. @dev: also counted per device (uvm_count_dev()).
 */
struct uvm_stat_attr {
	struct kobj_attribute attr;
	unsigned int idx;
	bool dev;
};

static ssize_t uvm_stat_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	struct uvm_stat_attr *sa = container_of(attr, struct uvm_stat_attr, attr);

	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&uvm_global_counters.v[sa->idx]));
}

#define UVM_STAT_ATTR(_name, _idx) \
	{ .attr = __ATTR(_name, 0444, uvm_stat_show, NULL), .idx = (_idx) }
#define UVM_STAT_DEV_ATTR(_name, _idx) \
	{ .attr = __ATTR(_name, 0444, uvm_stat_show, NULL), .idx = (_idx), \
	  .dev = true }

static struct uvm_stat_attr uvm_stat_attrs[] = {
	UVM_STAT_ATTR(cpu_faults, UVM_STAT_CPU_FAULTS),
	UVM_STAT_ATTR(cpu_mkwrite, UVM_STAT_CPU_MKWRITE),
	UVM_STAT_ATTR(pages_populated, UVM_STAT_PAGES_POPULATED),
	UVM_STAT_ATTR(prefetches, UVM_STAT_PREFETCHES),
	UVM_STAT_ATTR(migrate_h2h_pages, UVM_STAT_MIGRATE_H2H_PAGES),
	UVM_STAT_ATTR(migrate_h2h_bytes, UVM_STAT_MIGRATE_H2H_BYTES),
	UVM_STAT_ATTR(advises, UVM_STAT_ADVISES),
	UVM_STAT_ATTR(pages_freed, UVM_STAT_PAGES_FREED),
	UVM_STAT_DEV_ATTR(device_faults, UVM_STAT_DEVICE_FAULTS),
	UVM_STAT_DEV_ATTR(fault_batches, UVM_STAT_FAULT_BATCHES),
	UVM_STAT_DEV_ATTR(fault_batch_pages, UVM_STAT_FAULT_BATCH_PAGES),
	UVM_STAT_DEV_ATTR(migrate_h2d_pages, UVM_STAT_MIGRATE_H2D_PAGES),
	UVM_STAT_DEV_ATTR(migrate_h2d_bytes, UVM_STAT_MIGRATE_H2D_BYTES),
	UVM_STAT_DEV_ATTR(migrate_d2h_pages, UVM_STAT_MIGRATE_D2H_PAGES),
	UVM_STAT_DEV_ATTR(migrate_d2h_bytes, UVM_STAT_MIGRATE_D2H_BYTES),
	UVM_STAT_DEV_ATTR(migrate_d2d_pages, UVM_STAT_MIGRATE_D2D_PAGES),
	UVM_STAT_DEV_ATTR(migrate_d2d_bytes, UVM_STAT_MIGRATE_D2D_BYTES),
	UVM_STAT_DEV_ATTR(evictions, UVM_STAT_EVICTIONS),
	UVM_STAT_DEV_ATTR(evicted_bytes, UVM_STAT_EVICTED_BYTES),
	UVM_STAT_DEV_ATTR(read_dup_copies, UVM_STAT_READ_DUP_COPIES),
	UVM_STAT_ATTR(read_dup_collapses, UVM_STAT_READ_DUP_COLLAPSES),
	UVM_STAT_DEV_ATTR(remote_maps, UVM_STAT_REMOTE_MAPS),
	UVM_STAT_ATTR(discarded_pages, UVM_STAT_DISCARDED_PAGES),
	UVM_STAT_ATTR(cpu_device_maps, UVM_STAT_CPU_DEVICE_MAPS),
	UVM_STAT_ATTR(pool_reused, UVM_STAT_POOL_REUSED),
	UVM_STAT_ATTR(fault_ahead_pages, UVM_STAT_FAULT_AHEAD_PAGES),
	UVM_STAT_ATTR(pinned_skips, UVM_STAT_PINNED_SKIPS),
	UVM_STAT_ATTR(evict_picks, UVM_STAT_EVICT_PICKS),
	UVM_STAT_ATTR(evict_busy, UVM_STAT_EVICT_BUSY),
	UVM_STAT_ATTR(fault_prefetch_pages, UVM_STAT_FAULT_PREFETCH_PAGES),
	UVM_STAT_ATTR(thrash_detected, UVM_STAT_THRASH_DETECTED),
	UVM_STAT_ATTR(thrash_throttled, UVM_STAT_THRASH_THROTTLED),
	UVM_STAT_ATTR(thrash_pinned, UVM_STAT_THRASH_PINNED),
	UVM_STAT_ATTR(prefetch_used_pages, UVM_STAT_PREFETCH_USED_PAGES),
	UVM_STAT_ATTR(pageable_to_dev, UVM_STAT_PAGEABLE_TO_DEV),
	UVM_STAT_ATTR(pageable_to_host, UVM_STAT_PAGEABLE_TO_HOST),
};

static const char *uvm_stat_name(unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uvm_stat_attrs); i++)
		if (uvm_stat_attrs[i].idx == idx)
			return uvm_stat_attrs[i].attr.attr.name;
	return NULL;
}

static ssize_t all_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	const char *name;
	unsigned int i;
	int len = 0;

	for (i = 0; i < UVM_STAT_COUNT; i++) {
		long long v = atomic64_read(&uvm_global_counters.v[i]);

		name = uvm_stat_name(i);
		if (name)
			len += sysfs_emit_at(buf, len, "%s %lld\n", name, v);
		else
			len += sysfs_emit_at(buf, len, "counter_%u %lld\n", i, v);
	}
	return len;
}

static struct kobj_attribute uvm_stat_all_attr = __ATTR_RO(all);

/* A gauge, not a counter: host pages held in VA spaces' pools now. */
static ssize_t pool_pages_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", uvm_pool_pages());
}

static struct kobj_attribute uvm_pool_pages_attr = __ATTR_RO(pool_pages);

/* A gauge: managed host pages DMA-mapped for devices' remote mappings. */
static ssize_t dma_mapped_pages_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&uvm_acct.dma_pages));
}

static struct kobj_attribute uvm_dma_mapped_pages_attr =
	__ATTR_RO(dma_mapped_pages);

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct uvm_counters *c = &uvm_sysfs_udev(dev)->counters;
	const struct uvm_stat_attr *sa;
	int len = 0;

	for (sa = uvm_stat_attrs; sa < uvm_stat_attrs + ARRAY_SIZE(uvm_stat_attrs);
	     sa++)
		if (sa->dev)
			len += sysfs_emit_at(buf, len, "%s %lld\n",
					     sa->attr.attr.name,
					     atomic64_read(&c->v[sa->idx]));
	return len;
}
static DEVICE_ATTR_RO(stats);

static struct attribute *uvm_sysfs_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_backend.attr,
	&dev_attr_mem_total.attr,
	&dev_attr_mem_free.attr,
	&dev_attr_mem_used.attr,
	&dev_attr_numa_node.attr,
	&dev_attr_stats.attr,
	NULL
};

static const struct attribute_group uvm_sysfs_group = {
	.name = "uvm",
	.attrs = uvm_sysfs_attrs,
};

const struct attribute_group *uvm_sysfs_groups[] = {
	&uvm_sysfs_group,
	NULL
};

static struct attribute *uvm_stats_attrs[ARRAY_SIZE(uvm_stat_attrs) + 4];

static const struct attribute_group uvm_stats_group = {
	.attrs = uvm_stats_attrs,
};

static struct kobject *uvm_stats_kobj;

/**
 * uvm_sysfs_init() - create /sys/module/uvm/stats/.
 *
 * Call from module init (after nothing; it depends on no other part).
 * Return: 0 or -ENOMEM.
 */
int uvm_sysfs_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(uvm_stat_attrs); i++)
		uvm_stats_attrs[i] = &uvm_stat_attrs[i].attr.attr;
	uvm_stats_attrs[i++] = &uvm_stat_all_attr.attr;
	uvm_stats_attrs[i++] = &uvm_pool_pages_attr.attr;
	uvm_stats_attrs[i] = &uvm_dma_mapped_pages_attr.attr;
	uvm_stats_kobj = kobject_create_and_add("stats",
						&THIS_MODULE->mkobj.kobj);
	if (!uvm_stats_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(uvm_stats_kobj, &uvm_stats_group);
	if (ret) {
		kobject_put(uvm_stats_kobj);
		uvm_stats_kobj = NULL;
	}
	return ret;
}

/**
 * uvm_sysfs_exit() - remove /sys/module/uvm/stats/ (no-op if absent).
 */
void uvm_sysfs_exit(void)
{
	kobject_put(uvm_stats_kobj);
	uvm_stats_kobj = NULL;
}
