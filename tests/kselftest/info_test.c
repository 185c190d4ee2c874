// SPDX-License-Identifier: GPL-2.0
/*
 * info_test - /dev/uvm ioctl dispatch and UVM_IOCTL_GET_INFO.
 *
 * Any VM: expected devices come from UVM_VM_DEVICES (ivshmem count, default
 * 2) and UVM_VM_EMULATED (default 0); PCI BAR sizes from
 * UVM_VM_DEVICE_SIZES ("256M,512M" by default, the default VM), emulated
 * sizes from the emulated_mem_mb module parameter. Fails when the module is
 * not loaded.
 */
#include <limits.h>

#include "kselftest_harness.h"
#include "uvm_dev_util.h"

FIXTURE(va)
{
	int fd;
};

FIXTURE_SETUP(va)
{
	self->fd = uvm_open_va();
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/uvm: %s (module not loaded?)",
				      strerror(errno));
}

FIXTURE_TEARDOWN(va)
{
	close(self->fd);
}

TEST_F(va, unknown_ioctl_nr)
{
	struct uvm_get_info info = { 0 };

	EXPECT_EQ(-ENOTTY, xioctl(self->fd, _IOWR(UVM_IOCTL_BASE, 0x7f,
						  struct uvm_get_info), &info));
}

TEST_F(va, unknown_ioctl_type)
{
	struct uvm_get_info info = { 0 };

	EXPECT_EQ(-ENOTTY, xioctl(self->fd, _IOWR('v', 0x80,
						  struct uvm_get_info), &info));
}

TEST_F(va, wrong_direction)
{
	struct uvm_get_info info = { 0 };

	EXPECT_EQ(-ENOTTY, xioctl(self->fd, _IOW(UVM_IOCTL_BASE, 0x80,
						 struct uvm_get_info), &info));
}

TEST_F(va, bad_arg_pointer)
{
	EXPECT_EQ(-EFAULT, xioctl(self->fd, UVM_IOCTL_GET_INFO, NULL));
	EXPECT_EQ(-EFAULT, xioctl(self->fd, UVM_IOCTL_GET_INFO, (void *)8));
}

TEST_F(va, get_info_flags)
{
	struct uvm_get_info info = { .flags = 1 };

	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
	info.flags = 1U << 31;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
}

TEST_F(va, get_info_bad_devices_pointer)
{
	struct uvm_get_info info = { 0 };

	ASSERT_EQ(0, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
	if (!info.num_devices)
		SKIP(return, "no devices");
	info.devices = 8;
	info.devices_count = 1;
	EXPECT_EQ(-EFAULT, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
}

TEST_F(va, get_info_module)
{
	int want = env_int("UVM_VM_DEVICES", 2) + env_int("UVM_VM_EMULATED", 0);
	struct uvm_get_info info = { 0 };

	ASSERT_EQ(0, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
	EXPECT_EQ(UVM_ABI_VERSION, info.abi_version);
	EXPECT_EQ((uint32_t)sysconf(_SC_PAGESIZE), info.page_size);
	EXPECT_EQ(2 * MIB, info.block_size);
	EXPECT_EQ(want, info.num_devices);
	EXPECT_EQ(test_ioctls_enabled() ? UVM_CAP_TEST_IOCTLS : 0,
		  info.caps & UVM_CAP_TEST_IOCTLS);
	/* every supported Debian kernel has HMM_MIRROR (docs/pageable-memory.md) */
	EXPECT_EQ(UVM_CAP_PAGEABLE_MIRROR, info.caps & UVM_CAP_PAGEABLE_MIRROR);
	EXPECT_EQ(0, info.caps & ~(uint64_t)(UVM_CAP_TEST_IOCTLS | UVM_CAP_PAGEABLE_MIRROR |
					     UVM_CAP_PAGEABLE_MIGRATE));
}

/* devices_count bounds what is written; num_devices is always the total. */
TEST_F(va, get_info_short_array)
{
	struct uvm_device_info devs[2];
	struct uvm_get_info info = { 0 };

	ASSERT_EQ(0, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
	if (info.num_devices < 1)
		SKIP(return, "no devices");
	memset(devs, 0xa5, sizeof(devs));
	info.devices = (uintptr_t)devs;
	info.devices_count = 1;
	ASSERT_EQ(0, xioctl(self->fd, UVM_IOCTL_GET_INFO, &info));
	EXPECT_GE(info.num_devices, 1);
	EXPECT_NE(0xa5a5a5a5, devs[0].id);
	EXPECT_EQ(0xa5a5a5a5, devs[1].id);
}

static uint64_t parse_size(const char **s)
{
	char *end;
	uint64_t v = strtoull(*s, &end, 0);

	if (*end == 'G')
		v <<= 30, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	if (*end == ',')
		end++;
	*s = end;
	return v;
}

/* The PCI devices: ivshmem, BAR2, sizes as configured, NUMA node as sysfs. */
TEST_F(va, get_info_pci_devices)
{
	const char *sizes = getenv("UVM_VM_DEVICE_SIZES");
	int want = env_int("UVM_VM_DEVICES", 2), n, i, found = 0;
	uint64_t want_sizes[8] = { 0 }, used[8] = { 0 };
	struct uvm_device_info *devs;
	char path[PATH_MAX], buf[64];
	int nsizes = 0, j;

	if (!sizes && want == 2)
		sizes = "256M,512M";
	while (sizes && *sizes && nsizes < 8)
		want_sizes[nsizes++] = parse_size(&sizes);

	n = uvm_get_devices(self->fd, &devs);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		struct uvm_device_info *d = &devs[i];

		if (d->backend != UVM_BACKEND_PCI_BAR)
			continue;
		found++;
		EXPECT_EQ(0x1af4, d->pci_vendor);
		EXPECT_EQ(0x1110, d->pci_device);
		EXPECT_EQ(2, d->bar);
		EXPECT_EQ(d->bar_size, d->mem_total);
		EXPECT_EQ(d->mem_total, d->mem_free);
		EXPECT_NE(0, d->bar_addr);
		EXPECT_TRUE(d->caps & UVM_DEVICE_CAP_CPU_MAPPABLE);
		EXPECT_EQ(0, d->pad);
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%04x:%02x:%02x.%x/numa_node",
			 d->pci_domain, d->pci_bus, d->pci_dev, d->pci_func);
		ASSERT_EQ(0, read_file(path, buf, sizeof(buf))) TH_LOG("%s", path);
		EXPECT_EQ(atoi(buf), d->numa_node);
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%04x:%02x:%02x.%x/uvm/mem_total",
			 d->pci_domain, d->pci_bus, d->pci_dev, d->pci_func);
		EXPECT_EQ(d->mem_total, read_ull(path)) TH_LOG("%s", path);
		for (j = 0; j < nsizes; j++) {
			if (!used[j] && want_sizes[j] == d->bar_size) {
				used[j] = 1;
				break;
			}
		}
		EXPECT_LT(j, nsizes) TH_LOG("unexpected BAR size %llu",
					    (unsigned long long)d->bar_size);
	}
	EXPECT_EQ(want, found);
	free(devs);
}

TEST_F(va, get_info_emulated_devices)
{
	int want = env_int("UVM_VM_EMULATED", 0), n, i, found = 0;
	uint64_t size = strtoull(uvm_param("emulated_mem_mb"), NULL, 0) * MIB;
	int nodes = env_int("UVM_VM_NODES", 2);
	struct uvm_device_info *devs;

	n = uvm_get_devices(self->fd, &devs);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		struct uvm_device_info *d = &devs[i];

		if (d->backend != UVM_BACKEND_EMULATED)
			continue;
		EXPECT_EQ(size, d->mem_total);
		EXPECT_EQ(d->mem_total, d->mem_free);
		EXPECT_EQ(0, d->pci_vendor);
		EXPECT_EQ(0, d->bar_size);
		EXPECT_EQ(0, d->bar_addr);
		EXPECT_EQ(UVM_DEVICE_CAP_CPU_MAPPABLE | UVM_DEVICE_CAP_PEER_COPY,
			  d->caps);
		/* emulated device i lives on node i % nodes */
		EXPECT_EQ(found % nodes, d->numa_node);
		EXPECT_NE(NULL, strstr(d->name, "uvm-emu."));
		found++;
	}
	EXPECT_EQ(want, found);
	free(devs);
}

TEST_F(va, get_info_ids_and_names)
{
	struct uvm_device_info *devs;
	uint64_t seen = 0;
	char want[64];
	int n, i;

	n = uvm_get_devices(self->fd, &devs);
	ASSERT_LE(0, n);
	for (i = 0; i < n; i++) {
		EXPECT_LT(devs[i].id, UVM_MAX_DEVICES);
		EXPECT_EQ(0, seen & (1ULL << devs[i].id));
		seen |= 1ULL << devs[i].id;
		snprintf(want, sizeof(want), "uvm%u (", devs[i].id);
		EXPECT_EQ(0, strncmp(devs[i].name, want, strlen(want)))
			TH_LOG("name '%s'", devs[i].name);
		EXPECT_GE(devs[i].render_minor, 128);
	}
	/* ids are the lowest free ones: 0..n-1 on a fresh load */
	EXPECT_EQ(n == 64 ? ~0ULL : (1ULL << n) - 1, seen);
	free(devs);
}

TEST_HARNESS_MAIN
