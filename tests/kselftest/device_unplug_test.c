// SPDX-License-Identifier: GPL-2.0
/*
 * Unbinding a PCI device that holds managed data migrates the data home
 * first: nothing is lost, and the device's id disappears from the device
 * list. The device is bound again at the end. Group "device".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "uvm_test_util.h"

static int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -errno;
}

/* A PCI device's id and "dddd:bb:dd.f", or -1. */
static int pci_device(int fd, char *bdf, size_t len, int *n)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int i, dev = -1;

	*n = uvm_devices(fd, info, UVM_MAX_DEVICES);
	for (i = 0; i < *n; i++)
		if (info[i].backend == UVM_BACKEND_PCI_BAR)
			dev = i;
	if (dev < 0)
		return -1;
	snprintf(bdf, len, "%04x:%02x:%02x.%u", info[dev].pci_domain,
		 info[dev].pci_bus, info[dev].pci_dev, info[dev].pci_func);
	return info[dev].id;
}

TEST(unbind_migrates_managed_data_home)
{
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int fd = uvm_open(), n, dev;
	size_t len = 6 * MIB;
	char bdf[32];
	unsigned char *p;

	ASSERT_LE(0, fd);
	dev = pci_device(fd, bdf, sizeof(bdf), &n);
	if (dev < 0)
		SKIP(return, "no PCI device");

	p = uvm_map(fd, len);
	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 77);
	ASSERT_EQ(0, uvm_prefetch(fd, p, len, UVM_LOC_DEVICE, dev));
	ASSERT_NE(0, uvm_res1(fd, p + MIB).devices_resident);

	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/uvm/unbind", bdf));
	EXPECT_EQ(0, uvm_res1(fd, p + MIB).devices_resident);
	EXPECT_LE(0, uvm_res1(fd, p + MIB).cpu_node);
	EXPECT_EQ(0, uvm_check(p, len, 77));
	EXPECT_EQ(-ENODEV, uvm_prefetch(fd, p, len, UVM_LOC_DEVICE, dev));

	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers_probe", bdf));
	EXPECT_EQ(n, uvm_devices(fd, info, UVM_MAX_DEVICES));
	munmap(p, len);
	close(fd);
}

/*
 * Unbinding a PCI device that maps host pages remotely (DMA-mapped for
 * it): the data stays, the mappings go with the range, no DMA mapping is
 * left behind.
 */
TEST(unbind_with_remote_mappings_of_host_pages)
{
	const char *gauge = "/sys/module/uvm/stats/dma_mapped_pages";
	int fd = uvm_open(), n, dev;
	size_t len = 4 * MIB;
	unsigned char *p, *buf = malloc(len);
	long g0 = uvm_read_long(gauge);
	char bdf[32];

	ASSERT_LE(0, fd);
	ASSERT_LE(0, g0);
	dev = pci_device(fd, bdf, sizeof(bdf), &n);
	if (dev < 0)
		SKIP(return, "no PCI device");
	p = uvm_map(fd, len);
	ASSERT_NE(NULL, p);
	uvm_fill(p, len, 78);
	ASSERT_EQ(0, uvm_advise(fd, p, len, UVM_ADVISE_SET_ACCESSED_BY,
				UVM_LOC_DEVICE, dev));
	ASSERT_EQ(0, uvm_dev_read(fd, dev, p, len, buf));
	EXPECT_EQ(0, uvm_check(buf, len, 78));
	EXPECT_EQ(g0 + (long)(len / PAGE), uvm_read_long(gauge));

	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/uvm/unbind", bdf));
	/* The unbind itself dropped the device's mappings and DMA maps. */
	EXPECT_EQ(g0, uvm_read_long(gauge));
	EXPECT_EQ(-ENODEV, uvm_dev_read(fd, dev, p, PAGE, buf));
	EXPECT_EQ(0, uvm_check(p, len, 78));
	munmap(p, len);
	EXPECT_EQ(g0, uvm_read_long(gauge));

	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers_probe", bdf));
	close(fd);
	free(buf);
}

/* The render node of the PCI device @bdf, opened, or -1. */
static int open_render_node(const char *bdf)
{
	char path[320];
	struct dirent *de;
	DIR *d;
	int fd = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/drm", bdf);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "renderD", 7)) {
			snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
			fd = open(path, O_RDWR);
			break;
		}
	closedir(d);
	return fd;
}

/*
 * Unbinding a device that registrations and pinned allocations are
 * DMA-mapped for unmaps them (the debug kernel's DMA-API checks report
 * mappings left behind); the memory stays usable by the CPU. While
 * anything still holds the old device (here an open render node), its id
 * stays reserved: the device bound again gets another one, so per-block
 * state indexed by id never mixes the two.
 */
TEST(unbind_with_registered_and_pinned_memory)
{
	struct uvm_host_register r = { 0 };
	struct uvm_host_unregister u = { 0 };
	struct uvm_free f = { 0 };
	struct uvm_alloc_host h = { .size = 16 * 4096, .numa_node = -1 };
	struct uvm_device_info info[UVM_MAX_DEVICES];
	int fd = uvm_open(), n, dev, node, i, id2 = -1;
	size_t len = 16 * PAGE;
	char bdf[32], *reg, *pinned;

	ASSERT_LE(0, fd);
	dev = pci_device(fd, bdf, sizeof(bdf), &n);
	if (dev < 0)
		SKIP(return, "no PCI device");
	reg = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, reg);
	memset(reg, 5, len);
	r.addr = (uintptr_t)reg;
	r.size = len;
	ASSERT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_ALLOC_HOST, &h));
	pinned = mmap(NULL, h.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      h.mmap_offset);
	ASSERT_NE(MAP_FAILED, pinned);
	memset(pinned, 6, len);
	node = open_render_node(bdf);
	ASSERT_LE(0, node);

	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/uvm/unbind", bdf));
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers_probe", bdf));
	n = uvm_devices(fd, info, UVM_MAX_DEVICES);
	for (i = 0; i < n; i++)
		if (info[i].backend == UVM_BACKEND_PCI_BAR &&
		    info[i].pci_bus == strtoul(bdf + 5, NULL, 16) &&
		    info[i].pci_dev == strtoul(bdf + 8, NULL, 16))
			id2 = info[i].id;
	EXPECT_LE(0, id2);
	EXPECT_NE(dev, id2);		/* the old id is still held */
	EXPECT_EQ(5, reg[len - 1]);
	EXPECT_EQ(6, pinned[len - 1]);
	close(node);
	/* Nothing holds the old device now: bound again, it gets its id back. */
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers/uvm/unbind", bdf));
	ASSERT_EQ(0, sysfs_write("/sys/bus/pci/drivers_probe", bdf));
	EXPECT_EQ(dev, pci_device(fd, bdf, sizeof(bdf), &n));
	u.addr = (uintptr_t)reg;
	EXPECT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_HOST_UNREGISTER, &u));
	f.handle = h.handle;
	EXPECT_EQ(0, uvm_ioctl(fd, UVM_IOCTL_FREE, &f));
	munmap(pinned, h.map_size);
	munmap(reg, len);
	close(fd);
}

TEST_HARNESS_MAIN
