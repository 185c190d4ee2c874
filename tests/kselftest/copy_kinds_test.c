// SPDX-License-Identifier: GPL-2.0
/*
 * copy_kinds_test - UVM_IOCTL_MEMCPY and UVM_IOCTL_MEMSET between every
 * pair of memory kinds (device, pinned, registered, pageable, managed), 1D,
 * 2D and 3D, byte-exact, including what lies outside the target region.
 * Peer copies when two devices exist. Needs one device.
 */
#include "kselftest_harness.h"
#include "alloc_util.h"

FIXTURE(cp)
{
	int fd;
};

FIXTURE_SETUP(cp)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	if (ndevices(self->fd) < 1)
		SKIP(return, "no device");
}

FIXTURE_TEARDOWN(cp)
{
	close(self->fd);
}

#define BUF	(3 * MIB + 2 * 4096)

/*
 * Copy a region (w x h x z, pitches, rows) from a @sk buffer to a @dk
 * buffer and check the whole destination byte by byte.
 */
static int check_copy(struct __test_metadata *_metadata, int fd,
		      enum mkind sk, enum mkind dk, size_t soff, size_t doff,
		      size_t w, size_t h, size_t z, size_t sp, size_t dp,
		      size_t sr, size_t dr)
{
	unsigned char *ref = malloc(BUF), *src = malloc(BUF), *out = malloc(BUF);
	char *s = kalloc(fd, sk, BUF), *d = kalloc(fd, dk, BUF);
	size_t x, y, k, bad = 0;

	if (!s || !d) {
		TH_LOG("alloc %s/%s failed", kind_name[sk], kind_name[dk]);
		return -1;
	}
	fill_random(src, BUF, sk * 7 + dk);
	memset(ref, 0xee, BUF);
	if (kwrite(fd, sk, s, src, BUF) || kwrite(fd, dk, d, ref, BUF))
		return -2;
	if (mcpy3(fd, d + doff, dp, dr, s + soff, sp, sr, w, h, z)) {
		TH_LOG("%s -> %s: %s", kind_name[sk], kind_name[dk],
		       strerror(errno));
		return -3;
	}
	if (h == 1 && z == 1)
		sp = dp = w;
	if (z == 1)
		sr = dr = h;
	for (k = 0; k < z; k++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				ref[doff + (k * dr + y) * dp + x] =
					src[soff + (k * sr + y) * sp + x];
	if (kread(fd, dk, out, d, BUF))
		return -4;
	for (x = 0; x < BUF; x++)
		bad += out[x] != ref[x];
	if (bad)
		TH_LOG("%s -> %s: %zu bytes differ", kind_name[sk],
		       kind_name[dk], bad);
	kfree_buf(fd, sk, s, BUF);
	kfree_buf(fd, dk, d, BUF);
	free(ref);
	free(src);
	free(out);
	return bad ? -5 : 0;
}

TEST_F(cp, all_pairs_1d)
{
	int s, d;

	for (s = 0; s < K_NR; s++)
		for (d = 0; d < K_NR; d++) {
			EXPECT_EQ(0, check_copy(_metadata, self->fd, s, d, 13,
						4096 + 7, 3 * MIB - 100, 1, 1,
						0, 0, 0, 0));
		}
}

TEST_F(cp, all_pairs_2d)
{
	int s, d;

	for (s = 0; s < K_NR; s++)
		for (d = 0; d < K_NR; d++) {
			EXPECT_EQ(0, check_copy(_metadata, self->fd, s, d, 5,
						100, 3000, 300, 1, 5000, 7001,
						0, 0));
		}
}

TEST_F(cp, all_pairs_3d)
{
	int s, d;

	for (s = 0; s < K_NR; s++)
		for (d = 0; d < K_NR; d++) {
			EXPECT_EQ(0, check_copy(_metadata, self->fd, s, d, 1,
						3, 999, 20, 9, 1024, 1500,
						25, 31));
		}
}

TEST_F(cp, peer_copy)
{
	size_t n = 5 * MIB + 3;
	unsigned char *a = malloc(n), *b = malloc(n);
	char *d0, *d1;

	if (ndevices(self->fd) < 2)
		SKIP(return, "needs 2 devices");
	d0 = dalloc(self->fd, 0, n);
	d1 = dalloc(self->fd, 1, n);
	ASSERT_NE(NULL, d0);
	ASSERT_NE(NULL, d1);
	fill_random(a, n, 99);
	ASSERT_EQ(0, mcpy(self->fd, d0, a, n));
	ASSERT_EQ(0, mcpy(self->fd, d1, d0, n));
	ASSERT_EQ(0, mcpy(self->fd, b, d1, n));
	EXPECT_EQ(0, memcmp(a, b, n));
	ufree_unmap(self->fd, d0, n);
	ufree_unmap(self->fd, d1, n);
}

TEST_F(cp, same_device_d2d)
{
	size_t n = 3 * MIB;
	unsigned char *a = malloc(n), *b = malloc(n);
	char *d = dalloc(self->fd, 0, 2 * n);

	ASSERT_NE(NULL, d);
	fill_random(a, n, 5);
	ASSERT_EQ(0, mcpy(self->fd, d, a, n));
	ASSERT_EQ(0, mcpy(self->fd, d + n, d, n));
	ASSERT_EQ(0, mcpy(self->fd, b, d + n, n));
	EXPECT_EQ(0, memcmp(a, b, n));
	ufree_unmap(self->fd, d, 2 * n);
}

/* memset of @elem-byte @v on a region of a @k buffer, whole buffer checked */
static int check_set(struct __test_metadata *_metadata, int fd, enum mkind k,
		     uint32_t elem, uint32_t v, size_t off, size_t w, size_t h,
		     size_t z, size_t p, size_t r)
{
	unsigned char *ref = malloc(BUF), *out = malloc(BUF);
	char *d = kalloc(fd, k, BUF);
	size_t x, y, j, bad = 0;

	if (!d)
		return -1;
	memset(ref, 0x11, BUF);
	if (kwrite(fd, k, d, ref, BUF))
		return -2;
	if (mset3(fd, d + off, p, r, v, elem, w, h, z)) {
		TH_LOG("%s: %s", kind_name[k], strerror(errno));
		return -3;
	}
	if (h == 1 && z == 1)
		p = w;
	if (z == 1)
		r = h;
	for (j = 0; j < z; j++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				ref[off + (j * r + y) * p + x] =
					v >> (8 * (x % elem));
	if (kread(fd, k, out, d, BUF))
		return -4;
	for (x = 0; x < BUF; x++)
		bad += out[x] != ref[x];
	if (bad)
		TH_LOG("%s elem %u: %zu bytes differ", kind_name[k], elem, bad);
	kfree_buf(fd, k, d, BUF);
	free(ref);
	free(out);
	return bad ? -5 : 0;
}

TEST_F(cp, memset_1d_all_kinds)
{
	int k;

	for (k = 0; k < K_NR; k++) {
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 1, 0xa5, 3,
				       3 * MIB - 11, 1, 1, 0, 0));
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 2, 0xbeef, 6,
				       3 * MIB - 10, 1, 1, 0, 0));
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 4, 0x12345678,
				       4, 3 * MIB - 4096, 1, 1, 0, 0));
	}
}

TEST_F(cp, memset_2d_3d_all_kinds)
{
	int k;

	for (k = 0; k < K_NR; k++) {
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 1, 0x3c, 1,
				       700, 100, 1, 6000, 0));
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 2, 0x1234, 2,
				       702, 30, 7, 6000, 40));
		EXPECT_EQ(0, check_set(_metadata, self->fd, k, 4, 0xdeadbeef,
				       8, 700, 30, 7, 6000, 33));
	}
}

TEST_F(cp, zero_width_is_noop)
{
	char *p = anon(PAGE);

	EXPECT_EQ(0, mcpy(self->fd, p, p + 1, 0));
	EXPECT_EQ(0, mset(self->fd, p, 1, 0));
	munmap(p, PAGE);
}

TEST_F(cp, managed_to_managed)
{
	size_t n = 4 * MIB;
	char *a = uvm_map(self->fd, n), *b = uvm_map(self->fd, n);

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	fill_random((unsigned char *)a, n, 3);
	ASSERT_EQ(0, mcpy(self->fd, b, a, n));
	EXPECT_EQ(0, memcmp(a, b, n));
	munmap(a, n);
	munmap(b, n);
}

TEST_HARNESS_MAIN
