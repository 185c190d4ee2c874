// SPDX-License-Identifier: GPL-2.0
/*
 * copy_badinput_test - every error path of UVM_IOCTL_MEMCPY and
 * UVM_IOCTL_MEMSET, one test each, everything else valid; each checks that
 * the destination did not change.
 */
#include "kselftest_harness.h"
#include "alloc_util.h"

FIXTURE(bad)
{
	int fd;
	char *src;
	char *dst;
	struct uvm_memcpy c;
	struct uvm_memset s;
};

#define SZ	(16 * 4096)

FIXTURE_SETUP(bad)
{
	self->fd = uvm_open();
	ASSERT_LE(0, self->fd);
	self->src = anon(SZ);
	self->dst = anon(SZ);
	memset(self->src, 0x77, SZ);
	memset(self->dst, 0x55, SZ);
	self->c = (struct uvm_memcpy){
		.dst = (uintptr_t)self->dst, .src = (uintptr_t)self->src,
		.dst_pitch = 4096, .src_pitch = 4096, .width = 100,
		.height = 2, .depth = 1,
	};
	self->s = (struct uvm_memset){
		.dst = (uintptr_t)self->dst, .pitch = 4096, .width = 100,
		.height = 2, .depth = 1, .value = 1, .elem_size = 1,
	};
	ASSERT_EQ(0, uvm_ioctl(self->fd, UVM_IOCTL_MEMCPY, &self->c));
	memset(self->dst, 0x55, SZ);
}

FIXTURE_TEARDOWN(bad)
{
	size_t i;

	for (i = 0; i < SZ; i++)
		if (self->dst[i] != 0x55)
			break;
	EXPECT_EQ(SZ, i);
	close(self->fd);
}

#define CPY_ERR(e)	EXPECT_EQ(e, uvm_ioctl(self->fd, UVM_IOCTL_MEMCPY, &self->c))
#define SET_ERR(e)	EXPECT_EQ(e, uvm_ioctl(self->fd, UVM_IOCTL_MEMSET, &self->s))

TEST_F(bad, cpy_flags) { self->c.flags = 1; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_pad) { self->c.pad = 1; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_null_dst) { self->c.dst = 0; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_null_src) { self->c.src = 0; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_height_zero) { self->c.height = 0; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_depth_zero) { self->c.depth = 0; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_dst_pitch_lt_width) { self->c.dst_pitch = 99; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_src_pitch_lt_width) { self->c.src_pitch = 99; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_rows_lt_height)
{
	self->c.depth = 2;
	self->c.dst_rows = 1;
	self->c.src_rows = 2;
	CPY_ERR(-EINVAL);
}
TEST_F(bad, cpy_width_overflow) { self->c.width = UINT64_MAX; self->c.height = 1; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_pitch_wraps) { self->c.src_pitch = UINT64_MAX / 2; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_3d_wraps)
{
	self->c.depth = 1ULL << 40;
	self->c.dst_rows = self->c.src_rows = 1ULL << 30;
	CPY_ERR(-EINVAL);
}
TEST_F(bad, cpy_beyond_user_space) { self->c.src = (1ULL << 47) - 100; CPY_ERR(-EINVAL); }
TEST_F(bad, cpy_overlap)
{
	self->c.src = self->c.dst + 50;
	CPY_ERR(-EINVAL);
}
TEST_F(bad, cpy_unmapped_src)
{
	char *p = anon(PAGE);

	munmap(p, PAGE);
	self->c.src = (uintptr_t)p;
	self->c.height = 1;
	CPY_ERR(-EFAULT);
}
TEST_F(bad, cpy_readonly_src_to_dst_ok_but_dst_readonly_fails)
{
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	self->c.dst = (uintptr_t)ro;
	self->c.height = 1;
	CPY_ERR(-EFAULT);
	munmap(ro, PAGE);
}
TEST_F(bad, cpy_span_two_device_allocs)
{
	char *a, *b;

	if (ndevices(self->fd) < 1)
		SKIP(return, "no device");
	a = dalloc(self->fd, 0, PAGE);
	ASSERT_NE(NULL, a);
	self->c.src = (uintptr_t)a + PAGE - 10;
	self->c.height = 1;
	CPY_ERR(-EINVAL);
	b = dalloc(self->fd, 0, PAGE);
	ASSERT_NE(NULL, b);
	self->c.src = (uintptr_t)a;
	self->c.width = 2 * PAGE;
	CPY_ERR(-EINVAL);
	ufree_unmap(self->fd, a, PAGE);
	ufree_unmap(self->fd, b, PAGE);
}
TEST_F(bad, cpy_span_pageable_into_registered)
{
	char *p = anon(4 * PAGE);

	ASSERT_EQ(0, hreg(self->fd, p + 2 * PAGE, PAGE, 0));
	self->c.src = (uintptr_t)p + PAGE;
	self->c.height = 1;
	self->c.width = 2 * PAGE;
	CPY_ERR(-EINVAL);
	hunreg(self->fd, p + 2 * PAGE);
	munmap(p, 4 * PAGE);
}
TEST_F(bad, cpy_freed_device_ptr)
{
	char *a;

	if (ndevices(self->fd) < 1)
		SKIP(return, "no device");
	a = dalloc(self->fd, 0, PAGE);
	ASSERT_NE(NULL, a);
	ASSERT_EQ(0, ufree(self->fd, a));
	self->c.src = (uintptr_t)a;
	self->c.height = 1;
	CPY_ERR(-EFAULT);
	munmap(a, PAGE);
}
TEST_F(bad, cpy_into_readonly_registered)
{
	char *p = anon(PAGE);

	ASSERT_EQ(0, hreg(self->fd, p, PAGE, UVM_HOST_REGISTER_READONLY));
	memset(p, 0x42, PAGE);
	self->c.dst = (uintptr_t)p;
	self->c.height = 1;
	CPY_ERR(-EACCES);
	EXPECT_EQ(0x42, p[0]);
	hunreg(self->fd, p);
	munmap(p, PAGE);
}
TEST_F(bad, set_flags) { self->s.flags = 1; SET_ERR(-EINVAL); }
TEST_F(bad, set_pad) { self->s.pad = 1; SET_ERR(-EINVAL); }
TEST_F(bad, set_null) { self->s.dst = 0; SET_ERR(-EINVAL); }
TEST_F(bad, set_elem_size) { self->s.elem_size = 3; SET_ERR(-EINVAL); }
TEST_F(bad, set_elem_zero) { self->s.elem_size = 0; SET_ERR(-EINVAL); }
TEST_F(bad, set_value_too_wide) { self->s.value = 0x100; SET_ERR(-EINVAL); }
TEST_F(bad, set_misaligned_dst) { self->s.elem_size = 4; self->s.dst += 2; SET_ERR(-EINVAL); }
TEST_F(bad, set_misaligned_width) { self->s.elem_size = 2; self->s.width = 101; SET_ERR(-EINVAL); }
TEST_F(bad, set_misaligned_pitch) { self->s.elem_size = 4; self->s.pitch = 4098; SET_ERR(-EINVAL); }
TEST_F(bad, set_pitch_lt_width) { self->s.pitch = 50; SET_ERR(-EINVAL); }
TEST_F(bad, set_3d_wraps)
{
	self->s.depth = 1ULL << 40;
	self->s.rows = 1ULL << 30;
	SET_ERR(-EINVAL);
}
TEST_F(bad, set_into_readonly_registered)
{
	char *p = anon(PAGE);

	ASSERT_EQ(0, hreg(self->fd, p, PAGE, UVM_HOST_REGISTER_READONLY));
	self->s.dst = (uintptr_t)p;
	self->s.height = 1;
	SET_ERR(-EACCES);
	EXPECT_EQ(0, p[0]);
	hunreg(self->fd, p);
	munmap(p, PAGE);
}
TEST_F(bad, cpy_from_other_process_fd)
{
	pid_t pid = fork();
	int st;

	if (!pid)
		_exit(uvm_ioctl(self->fd, UVM_IOCTL_MEMCPY, &self->c) == -EPERM ? 0 : 1);
	waitpid(pid, &st, 0);
	EXPECT_EQ(0, WEXITSTATUS(st));
}

TEST_HARNESS_MAIN
