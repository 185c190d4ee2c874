// SPDX-License-Identifier: GPL-2.0
// LDLIBS: -ldrm
/*
 * drm_test - each device's DRM render node: driver "uvm", DRM_IOCTL_UVM_INFO
 * agrees with UVM_IOCTL_GET_INFO, error paths. Any VM. Fails when the module
 * is not loaded.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <xf86drm.h>

#include "kselftest_harness.h"
#include "uvm_dev_util.h"

/* Opens the render node with @minor; -errno on failure. */
static int open_render(unsigned int minor)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%u", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

FIXTURE(node)
{
	int fd;
	int ndevs;
	struct uvm_device_info *devs;
	int rfd;	/* render node of devs[0] */
};

FIXTURE_SETUP(node)
{
	self->rfd = -1;
	self->fd = uvm_open_va();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/uvm: %s (module not loaded?)",
				      strerror(errno));
	self->ndevs = uvm_get_devices(self->fd, &self->devs);
	ASSERT_LE(0, self->ndevs);
	if (!self->ndevs)
		SETUP_SKIP("no devices");
	self->rfd = open_render(self->devs[0].render_minor);
	ASSERT_LE(0, self->rfd) TH_LOG("renderD%u: %s",
				       self->devs[0].render_minor,
				       strerror(-self->rfd));
}

FIXTURE_TEARDOWN(node)
{
	if (self->rfd >= 0)
		close(self->rfd);
	free(self->devs);
	close(self->fd);
}

TEST_F(node, version_is_uvm)
{
	int i;

	for (i = 0; i < self->ndevs; i++) {
		int rfd = open_render(self->devs[i].render_minor);
		drmVersionPtr v;

		ASSERT_LE(0, rfd);
		v = drmGetVersion(rfd);
		ASSERT_NE(NULL, v);
		EXPECT_STREQ("uvm", v->name);
		EXPECT_EQ(1, v->version_major);
		drmFreeVersion(v);
		close(rfd);
	}
}

/* Every render node named "uvm" belongs to a listed device. */
TEST_F(node, render_nodes_match_devices)
{
	struct dirent *de;
	int uvm = 0, i;
	DIR *d;

	d = opendir("/dev/dri");
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		drmVersionPtr v;
		struct stat st;
		int rfd, found = 0;

		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", de->d_name);
		rfd = open(path, O_RDWR | O_CLOEXEC);
		if (rfd < 0)
			continue;
		v = drmGetVersion(rfd);
		if (v && !strcmp(v->name, "uvm")) {
			uvm++;
			ASSERT_EQ(0, fstat(rfd, &st));
			for (i = 0; i < self->ndevs; i++)
				found |= minor(st.st_rdev) ==
					 self->devs[i].render_minor;
			EXPECT_TRUE(found) TH_LOG("%s not listed", path);
		}
		drmFreeVersion(v);
		close(rfd);
	}
	closedir(d);
	EXPECT_EQ(self->ndevs, uvm);
}

TEST_F(node, info_matches_get_info)
{
	int i;

	for (i = 0; i < self->ndevs; i++) {
		struct drm_uvm_info info = { 0 };
		int rfd = open_render(self->devs[i].render_minor);

		ASSERT_LE(0, rfd);
		ASSERT_EQ(0, drmIoctl(rfd, DRM_IOCTL_UVM_INFO, &info))
			TH_LOG("%s", strerror(errno));
		EXPECT_EQ(0, memcmp(&self->devs[i], &info.info, sizeof(info.info)))
			TH_LOG("device %u: '%s' vs '%s'", self->devs[i].id,
			       self->devs[i].name, info.info.name);
		close(rfd);
	}
}

TEST_F(node, info_flags)
{
	struct drm_uvm_info info = { .flags = 1 };

	EXPECT_EQ(-1, drmIoctl(self->rfd, DRM_IOCTL_UVM_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(node, info_pad)
{
	struct drm_uvm_info info = { .pad = 1 };

	EXPECT_EQ(-1, drmIoctl(self->rfd, DRM_IOCTL_UVM_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(node, info_bad_pointer)
{
	EXPECT_EQ(-1, drmIoctl(self->rfd, DRM_IOCTL_UVM_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(node, unknown_driver_ioctl)
{
	struct drm_uvm_info info = { 0 };

	EXPECT_EQ(-1, drmIoctl(self->rfd, DRM_IOWR(DRM_COMMAND_BASE + 0x01,
						   struct drm_uvm_info), &info));
	EXPECT_EQ(EINVAL, errno);	/* DRM's answer to unknown driver ioctls */
}

TEST_HARNESS_MAIN
