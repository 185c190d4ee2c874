// SPDX-License-Identifier: GPL-2.0
/*
 * unload_test - module and device lifetime: rmmod is refused while a VA
 * space or a render node is open; a PCI device unbound under a live
 * allocation and an open render node fails cleanly (-ENODEV), frees, and
 * binds again. Needs root. hot_unbind needs --param enable_test_ioctls=1
 * and a PCI device (default VM devices). Fails when the module is not
 * loaded.
 */
#include <limits.h>
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "uvm_dev_util.h"

static int delete_module(const char *name, unsigned int flags)
{
	return syscall(SYS_delete_module, name, flags) ? -errno : 0;
}

static int module_refcnt(void)
{
	char buf[32];

	if (read_file("/sys/module/uvm/refcnt", buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* delete_module(2) on a module in use fails with EWOULDBLOCK (== EAGAIN). */
TEST(rmmod_refused_while_va_space_open)
{
	int fd = uvm_open_va();

	ASSERT_LE(0, fd) TH_LOG("open /dev/uvm: %s (module not loaded?)",
				strerror(errno));
	EXPECT_LT(0, module_refcnt());
	EXPECT_EQ(-EWOULDBLOCK, delete_module("uvm", O_NONBLOCK));
	EXPECT_EQ(-EWOULDBLOCK, delete_module("uvm", 0));
	close(fd);
	EXPECT_EQ(0, access("/dev/uvm", F_OK));
}

TEST(rmmod_refused_while_render_node_open)
{
	struct uvm_device_info *devs;
	char path[64];
	int fd, rfd, n;

	fd = uvm_open_va();
	ASSERT_LE(0, fd) TH_LOG("module not loaded?");
	n = uvm_get_devices(fd, &devs);
	close(fd);
	ASSERT_LE(0, n);
	if (!n)
		SKIP(return, "no devices");
	snprintf(path, sizeof(path), "/dev/dri/renderD%u", devs[0].render_minor);
	free(devs);
	rfd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, rfd);
	EXPECT_EQ(-EWOULDBLOCK, delete_module("uvm", O_NONBLOCK));
	close(rfd);
	EXPECT_EQ(0, access("/dev/uvm", F_OK));
}

static void pci_addr(const struct uvm_device_info *d, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus,
		 d->pci_dev, d->pci_func);
}

static int find_device(int fd, const char *name_part,
		       struct uvm_device_info *out)
{
	struct uvm_device_info *devs;
	int n, i, found = 0;

	n = uvm_get_devices(fd, &devs);
	for (i = 0; i < n; i++) {
		if (strstr(devs[i].name, name_part)) {
			*out = devs[i];
			found = 1;
		}
	}
	free(devs);
	return found;
}

/*
 * Unbind a PCI device while a VA space holds device memory on it and its
 * render node is open: I/O fails with -ENODEV, free still works, the device
 * leaves GET_INFO, and after rebinding it is back with all memory free.
 */
TEST(hot_unbind)
{
	struct uvm_device_info *devs, dev, again;
	struct drm_uvm_info info = { 0 };
	char addr[32], path[PATH_MAX], rpath[64], buf[64];
	int fd, rfd, n, i, have = 0;
	uint64_t h;

	fd = uvm_open_va();
	ASSERT_LE(0, fd) TH_LOG("module not loaded?");
	if (!test_ioctls_enabled())
		SKIP(close(fd); return, "needs enable_test_ioctls=1");
	n = uvm_get_devices(fd, &devs);
	ASSERT_LE(0, n);
	for (i = 0; i < n && !have; i++) {
		if (devs[i].backend == UVM_BACKEND_PCI_BAR) {
			dev = devs[i];
			have = 1;
		}
	}
	free(devs);
	if (!have)
		SKIP(close(fd); return, "no PCI device");
	pci_addr(&dev, addr, sizeof(addr));

	ASSERT_EQ(0, dm_alloc(fd, dev.id, 1 * MIB, &h, NULL));
	ASSERT_EQ(0, dm_write(fd, dev.id, h, 0, buf, sizeof(buf)));
	snprintf(rpath, sizeof(rpath), "/dev/dri/renderD%u", dev.render_minor);
	rfd = open(rpath, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, rfd);

	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers/uvm/unbind", addr));
	EXPECT_FALSE(find_device(fd, addr, &again));
	EXPECT_EQ(-ENODEV, dm_read(fd, dev.id, h, 0, buf, sizeof(buf)));
	EXPECT_EQ(-ENODEV, dm_alloc(fd, dev.id, 4096, &h, NULL));
	EXPECT_EQ(-1, ioctl(rfd, DRM_IOCTL_UVM_INFO, &info));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(0, dm_free(fd, dev.id, h));
	close(rfd);

	/* driver_override is still "uvm": probing binds it again */
	ASSERT_EQ(0, write_file("/sys/bus/pci/drivers_probe", addr));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", addr);
	EXPECT_EQ(0, access(path, F_OK)) TH_LOG("%s not rebound", addr);
	ASSERT_TRUE(find_device(fd, addr, &again));
	EXPECT_EQ(dev.id, again.id);	/* lowest free id */
	EXPECT_EQ(dev.mem_total, again.mem_total);
	EXPECT_EQ(again.mem_total, again.mem_free);
	close(fd);
}

TEST_HARNESS_MAIN
