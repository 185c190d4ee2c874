// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -lnuma -ldrm
/*
 * vm_smoke - the test VM is what the suite expects: /dev/uvm exists, the
 * NUMA nodes are online, every ivshmem device is bound to the PCI driver
 * "uvm" and every uvm device has a DRM render node whose driver is "uvm".
 *
 * Expected counts come from tests/vm/run's environment (UVM_VM_NODES,
 * UVM_VM_DEVICES, UVM_VM_EMULATED), defaulting to the default VM: 2 nodes,
 * 2 ivshmem devices, no emulated devices. Fails when the module is not loaded.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

#include "kselftest_harness.h"

static int env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : def;
}

/* Reads a sysfs attribute into buf (newline stripped); 0 or -errno. */
static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Name of the driver bound to the device at sysfs dir, "" if none. */
static void driver_of(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX + 16], link[PATH_MAX];
	ssize_t n;
	char *slash;

	buf[0] = 0;
	snprintf(path, sizeof(path), "%s/driver", dir);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return;
	link[n] = 0;
	slash = strrchr(link, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : link);
}

TEST(dev_uvm)
{
	struct stat st;
	int fd;

	ASSERT_EQ(0, stat("/dev/uvm", &st)) TH_LOG("/dev/uvm: %s (module not loaded?)",
						   strerror(errno));
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open /dev/uvm: %s", strerror(errno));
	close(fd);
}

TEST(numa_nodes)
{
	int want = env_int("UVM_VM_NODES", 2);
	int online = 0, node;
	char path[64];

	ASSERT_LE(0, numa_available());
	EXPECT_EQ(want, numa_num_configured_nodes());
	for (node = 0; node < 64; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
		if (access(path, F_OK) == 0)
			online++;
	}
	EXPECT_EQ(want, online);
}

TEST(ivshmem_bound_to_uvm)
{
	int want = env_int("UVM_VM_DEVICES", 2);
	char dir[PATH_MAX], vendor[16], device[16], drv[PATH_MAX];
	struct dirent *de;
	int found = 0, bound = 0;
	DIR *d;

	d = opendir("/sys/bus/pci/devices");
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", de->d_name);
		if (read_attr(dir, "vendor", vendor, sizeof(vendor)) ||
		    read_attr(dir, "device", device, sizeof(device)))
			continue;
		if (strcmp(vendor, "0x1af4") || strcmp(device, "0x1110"))
			continue;
		found++;
		driver_of(dir, drv, sizeof(drv));
		if (!strcmp(drv, "uvm"))
			bound++;
		else
			TH_LOG("%s: driver '%s', not uvm", de->d_name, drv);
	}
	closedir(d);
	EXPECT_EQ(want, found);
	EXPECT_EQ(found, bound);
}

TEST(render_nodes_are_uvm)
{
	int want = env_int("UVM_VM_DEVICES", 2) + env_int("UVM_VM_EMULATED", 0);
	struct dirent *de;
	int uvm = 0;
	DIR *d;

	d = opendir("/dev/dri");
	ASSERT_NE(NULL, d) TH_LOG("no /dev/dri: no DRM device");
	while ((de = readdir(d))) {
		char path[PATH_MAX + 16];
		drmVersionPtr v;
		int fd;

		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			TH_LOG("open %s: %s", path, strerror(errno));
			continue;
		}
		v = drmGetVersion(fd);
		if (v && v->name && !strcmp(v->name, "uvm"))
			uvm++;
		else
			TH_LOG("%s: driver '%s'", path, v && v->name ? v->name : "?");
		drmFreeVersion(v);
		close(fd);
	}
	closedir(d);
	EXPECT_EQ(want, uvm);
}

TEST_HARNESS_MAIN
