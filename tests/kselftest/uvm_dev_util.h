/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the device-side kselftests (info, devmem, drm, unload):
 * GET_INFO enumeration, TEST_DEVMEM wrappers, sysfs and module parameters.
 * All wrappers return 0 or -errno.
 */
#ifndef UVM_DEV_UTIL_H
#define UVM_DEV_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../../include/uapi/uvm_drm.h"

#define MIB		(1024ULL * 1024ULL)

/*
 * SKIP from a FIXTURE_SETUP: older kselftest_harness.h versions run the test
 * body after a setup SKIP, so leave through the harness's own setjmp (no
 * body, no teardown; the test child then exits as skipped).
 */
#define SETUP_SKIP(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

static inline int env_int(const char *name, int def)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : def;
}

static inline int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/* Reads a sysfs file (newline stripped) into buf; 0 or -errno. */
static inline int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
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

static inline int write_file(const char *path, const char *s)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n < 0 ? -errno : 0;
}

static inline unsigned long long read_ull(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)))
		return ~0ULL;
	return strtoull(buf, NULL, 0);
}

/* A uvm module parameter as a string ("" if unreadable). */
static inline const char *uvm_param(const char *name)
{
	static char buf[64];
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/uvm/parameters/%s", name);
	if (read_file(path, buf, sizeof(buf)))
		buf[0] = 0;
	return buf;
}

static inline int test_ioctls_enabled(void)
{
	return uvm_param("enable_test_ioctls")[0] == 'Y';
}

static inline int uvm_open_va(void)
{
	return open("/dev/uvm", O_RDWR | O_CLOEXEC);
}

/* All devices; *devs is malloc'ed. Returns the count or -errno. */
static inline int uvm_get_devices(int fd, struct uvm_device_info **devs)
{
	struct uvm_get_info info = { 0 };
	int ret;

	*devs = NULL;
	ret = xioctl(fd, UVM_IOCTL_GET_INFO, &info);
	if (ret)
		return ret;
	*devs = calloc(info.num_devices + 1, sizeof(**devs));
	if (!*devs)
		return -ENOMEM;
	info.devices = (uintptr_t)*devs;
	info.devices_count = info.num_devices;
	ret = xioctl(fd, UVM_IOCTL_GET_INFO, &info);
	return ret ? ret : (int)info.num_devices;
}

static inline int dm_alloc(int fd, uint32_t dev, uint64_t size,
			   uint64_t *handle, uint64_t *dev_offset)
{
	struct uvm_test_devmem a = {
		.op = UVM_TEST_DEVMEM_ALLOC, .device = dev, .size = size,
	};
	int ret = xioctl(fd, UVM_IOCTL_TEST_DEVMEM, &a);

	if (!ret) {
		*handle = a.handle;
		if (dev_offset)
			*dev_offset = a.dev_offset;
	}
	return ret;
}

static inline int dm_free(int fd, uint32_t dev, uint64_t handle)
{
	struct uvm_test_devmem a = {
		.op = UVM_TEST_DEVMEM_FREE, .device = dev, .handle = handle,
	};

	return xioctl(fd, UVM_IOCTL_TEST_DEVMEM, &a);
}

static inline int dm_rw(int fd, uint32_t op, uint32_t dev, uint64_t handle,
			uint64_t offset, void *buf, uint64_t size)
{
	struct uvm_test_devmem a = {
		.op = op, .device = dev, .handle = handle, .offset = offset,
		.buf = (uintptr_t)buf, .size = size,
	};

	return xioctl(fd, UVM_IOCTL_TEST_DEVMEM, &a);
}

#define dm_write(fd, dev, h, off, buf, size) \
	dm_rw(fd, UVM_TEST_DEVMEM_WRITE, dev, h, off, buf, size)
#define dm_read(fd, dev, h, off, buf, size) \
	dm_rw(fd, UVM_TEST_DEVMEM_READ, dev, h, off, buf, size)

/* mem_free of device @id now, or ~0 if not found. */
static inline uint64_t dev_mem_free(int fd, uint32_t id)
{
	struct uvm_device_info *devs;
	uint64_t ret = ~0ULL;
	int n, i;

	n = uvm_get_devices(fd, &devs);
	for (i = 0; i < n; i++)
		if (devs[i].id == id)
			ret = devs[i].mem_free;
	free(devs);
	return ret;
}

#endif /* UVM_DEV_UTIL_H */
