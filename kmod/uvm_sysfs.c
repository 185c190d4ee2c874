// SPDX-License-Identifier: GPL-2.0
/*
 * uvm_sysfs.c - per-device attributes, in a "uvm" directory of the bus
 * device (/sys/bus/{pci,platform}/devices/DEV/uvm/): id, backend,
 * mem_total, mem_free, numa_node.
 */

#include <linux/device.h>
#include <linux/sysfs.h>

#include "uvm_device.h"
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

static ssize_t numa_node_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", uvm_sysfs_udev(dev)->numa_node);
}
static DEVICE_ATTR_RO(numa_node);

static struct attribute *uvm_sysfs_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_backend.attr,
	&dev_attr_mem_total.attr,
	&dev_attr_mem_free.attr,
	&dev_attr_numa_node.attr,
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
