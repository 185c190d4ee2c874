// SPDX-License-Identifier: GPL-2.0
/*
 * bar_read_test - the module parameter bar_read_method (auto, movntdqa,
 * u64): bad values are refused with EINVAL and change nothing, and with
 * every method data read from a PCI BAR is exact: device -> host copies
 * (UVM_IOCTL_MEMCPY) at unaligned offsets and lengths on both sides, BAR
 * to BAR peer copies, managed data migrated to the device and back, and
 * all-ones data (which makes the backend ask whether the device is gone).
 * Correctness only: the VM (TCG) cannot time streaming loads. Needs one
 * PCI device (two for the peer copies).
 */
#include "kselftest_harness.h"
#include "alloc_util.h"

#define PARAM	"/sys/module/uvm/parameters/bar_read_method"
#define DBUF	(3 * MIB)

static const char *const methods[] = { "auto", "movntdqa", "u64" };

static int read_method(char *buf, size_t len)
{
	FILE *f = fopen(PARAM, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int has_sse41(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) && strstr(line, " sse4_1");
	fclose(f);
	return found;
}

FIXTURE(bar)
{
	int fd;
	int pci[2];
	int npci;
	char saved[32];
};

FIXTURE_SETUP(bar)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->pci[0] = uvm_find_device(self->fd, UVM_BACKEND_PCI_BAR, 0);
	self->pci[1] = uvm_find_device(self->fd, UVM_BACKEND_PCI_BAR, 1);
	self->npci = (self->pci[0] >= 0) + (self->pci[1] >= 0);
	ASSERT_EQ(0, read_method(self->saved, sizeof(self->saved)));
}

FIXTURE_TEARDOWN(bar)
{
	uvm_write_str(PARAM, self->saved);
	close(self->fd);
}

TEST_F(bar, parameter_validated)
{
	char now[32];
	int i;

	EXPECT_STREQ("auto", self->saved);
	for (i = 0; i < 3; i++) {
		int ret = uvm_write_str(PARAM, methods[i]);

		if (i == 1 && !has_sse41()) {
			EXPECT_EQ(-EINVAL, ret);
			continue;
		}
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, read_method(now, sizeof(now)));
		EXPECT_STREQ(methods[i], now);
	}
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM, "bogus"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM, "\n"));
	EXPECT_EQ(-EINVAL, uvm_write_str(PARAM, "u64x"));
	ASSERT_EQ(0, read_method(now, sizeof(now)));
	EXPECT_STREQ("u64", now);	/* unchanged by the refused writes */
	EXPECT_EQ(0, uvm_write_str(PARAM, "auto\n"));
	ASSERT_EQ(0, read_method(now, sizeof(now)));
	EXPECT_STREQ("auto", now);
}

/* Offsets and lengths around 8, 16, 64 bytes, 4 KiB and 64 KiB. */
static const size_t offs[] = { 0, 1, 7, 8, 15, 16, 63, 64, 65, 4095, 4096,
			       4097, 65535, 65536 + 24 };
static const size_t lens[] = { 1, 7, 8, 9, 16, 63, 64, 65, 127, 4096, 4097,
			       8191, 65536 + 3, 2 * MIB + 4096 + 5 };

/* Device -> host at every offset/length pair against @ref; mismatches. */
static size_t check_d2h(int fd, const unsigned char *dev,
			const unsigned char *ref, unsigned char *out)
{
	size_t i, j, h, bad = 0;

	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			size_t o = offs[i], n = lens[j];

			if (o + n > DBUF)
				continue;
			h = (i * 3 + j) % 61;	/* host side unaligned too */
			memset(out, 0xa5, n + h + 1);
			if (mcpy(fd, out + h, dev + o, n))
				return (size_t)-1;
			bad += memcmp(out + h, ref + o, n) != 0;
			bad += out[h + n] != 0xa5;
		}
	}
	return bad;
}

TEST_F(bar, device_to_host_exact_every_method)
{
	unsigned char *ref = malloc(DBUF), *out = malloc(DBUF + 64), *dev;
	int m;

	if (self->npci < 1)
		SKIP(return, "no PCI device");
	ASSERT_NE(NULL, ref);
	ASSERT_NE(NULL, out);
	dev = dalloc(self->fd, self->pci[0], DBUF);
	ASSERT_NE(NULL, dev);
	fill_random(ref, DBUF, 42);
	memset(ref + MIB, 0xff, 8192);	/* all ones: legal data */
	ASSERT_EQ(0, mcpy(self->fd, dev, ref, DBUF));
	for (m = 0; m < 3; m++) {
		if (m == 1 && !has_sse41())
			continue;
		ASSERT_EQ(0, uvm_write_str(PARAM, methods[m]));
		EXPECT_EQ(0, check_d2h(self->fd, dev, ref, out)) {
			TH_LOG("method %s", methods[m]);
		}
		/* A whole buffer ending in all ones reads back as data. */
		memset(out, 0, DBUF);
		ASSERT_EQ(0, mcpy(self->fd, out, dev + MIB, 8192));
		EXPECT_EQ(0, memcmp(out, ref + MIB, 8192));
	}
	ufree_unmap(self->fd, dev, DBUF);
	free(ref);
	free(out);
}

TEST_F(bar, peer_copy_exact_every_method)
{
	unsigned char *ref = malloc(DBUF), *out = malloc(DBUF), *a, *b;
	size_t i;
	int m;

	if (self->npci < 2)
		SKIP(return, "needs two PCI devices");
	ASSERT_NE(NULL, ref);
	ASSERT_NE(NULL, out);
	a = dalloc(self->fd, self->pci[0], DBUF);
	b = dalloc(self->fd, self->pci[1], DBUF);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	fill_random(ref, DBUF, 7);
	ASSERT_EQ(0, mcpy(self->fd, a, ref, DBUF));
	for (m = 0; m < 3; m++) {
		if (m == 1 && !has_sse41())
			continue;
		ASSERT_EQ(0, uvm_write_str(PARAM, methods[m]));
		for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
			size_t so = offs[i], dof = offs[(i + 5) % 14];
			size_t n = lens[(i + m) % 14];

			if (so + n > DBUF || dof + n > DBUF)
				continue;
			ASSERT_EQ(0, mset(self->fd, b, 0x3c, DBUF));
			ASSERT_EQ(0, mcpy(self->fd, b + dof, a + so, n));
			ASSERT_EQ(0, mcpy(self->fd, out, b, DBUF));
			EXPECT_EQ(0, memcmp(out + dof, ref + so, n)) {
				TH_LOG("%s: %zu bytes %zu -> %zu", methods[m],
				       n, so, dof);
			}
			if (dof + n < DBUF) {
				EXPECT_EQ(0x3c, out[dof + n]);
			}
			if (dof) {
				EXPECT_EQ(0x3c, out[dof - 1]);
			}
		}
	}
	ufree_unmap(self->fd, a, DBUF);
	ufree_unmap(self->fd, b, DBUF);
	free(ref);
	free(out);
}

TEST_F(bar, managed_round_trip_every_method)
{
	size_t len = 4 * MIB + 3 * PAGE;
	unsigned char *p;
	int m;

	if (self->npci < 1)
		SKIP(return, "no PCI device");
	p = uvm_map(self->fd, len);
	ASSERT_NE(NULL, p);
	for (m = 0; m < 3; m++) {
		if (m == 1 && !has_sse41())
			continue;
		ASSERT_EQ(0, uvm_write_str(PARAM, methods[m]));
		uvm_fill(p, len, 100 + m);
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_DEVICE,
					  self->pci[0]));
		ASSERT_EQ(0, uvm_prefetch(self->fd, p, len, UVM_LOC_HOST_NUMA,
					  0));
		EXPECT_EQ(0, uvm_check(p, len, 100 + m)) {
			TH_LOG("method %s", methods[m]);
		}
	}
	munmap(p, len);
}

TEST_HARNESS_MAIN
