/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the device/pinned/registered memory and copy tests
 * (alloc_*_test, copy_*_test, hostreg_*_test).
 */
#ifndef ALLOC_UTIL_H
#define ALLOC_UTIL_H

#include <stdio.h>
#include <sys/wait.h>
#include <time.h>

#include "uvm_test_util.h"

enum mkind { K_DEVICE, K_HOST, K_REG, K_PAGEABLE, K_MANAGED, K_NR };
static const char *const kind_name[K_NR] = {
	"device", "pinned", "registered", "pageable", "managed",
};

static inline int ndevices(int fd)
{
	struct uvm_get_info a = { 0 };

	return uvm_ioctl(fd, UVM_IOCTL_GET_INFO, &a) ? -1 : (int)a.num_devices;
}

/* Device allocation mapped at its cookie; NULL and errno on failure. */
static inline void *dalloc(int fd, uint32_t dev, size_t size)
{
	struct uvm_alloc_device a = { .size = size, .device = dev };
	void *p;

	if (ioctl(fd, UVM_IOCTL_ALLOC_DEVICE, &a))
		return NULL;
	p = mmap(NULL, a.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_offset);
	return p == MAP_FAILED ? NULL : p;
}

static inline void *halloc(int fd, size_t size, uint32_t flags, int node)
{
	struct uvm_alloc_host a = { .size = size, .flags = flags,
				    .numa_node = node };
	void *p;

	if (ioctl(fd, UVM_IOCTL_ALLOC_HOST, &a))
		return NULL;
	p = mmap(NULL, a.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_offset);
	return p == MAP_FAILED ? NULL : p;
}

static inline int ufree(int fd, void *p)
{
	struct uvm_free a = { .addr = (uintptr_t)p };

	return uvm_ioctl(fd, UVM_IOCTL_FREE, &a);
}

/* FREE then munmap, as the library does. */
static inline int ufree_unmap(int fd, void *p, size_t size)
{
	int ret = ufree(fd, p);

	munmap(p, (size + PAGE - 1) & ~(PAGE - 1));
	return ret;
}

static inline int hreg(int fd, void *p, size_t size, uint32_t flags)
{
	struct uvm_host_register a = { .addr = (uintptr_t)p, .size = size,
				       .flags = flags };

	return uvm_ioctl(fd, UVM_IOCTL_HOST_REGISTER, &a);
}

static inline int hunreg(int fd, void *p)
{
	struct uvm_host_unregister a = { .addr = (uintptr_t)p };

	return uvm_ioctl(fd, UVM_IOCTL_HOST_UNREGISTER, &a);
}

static inline int mcpy3(int fd, void *d, size_t dp, size_t dr, const void *s,
			size_t sp, size_t sr, size_t w, size_t h, size_t z)
{
	struct uvm_memcpy a = {
		.dst = (uintptr_t)d, .src = (uintptr_t)s, .dst_pitch = dp,
		.src_pitch = sp, .width = w, .height = h, .depth = z,
		.dst_rows = dr, .src_rows = sr,
	};

	return uvm_ioctl(fd, UVM_IOCTL_MEMCPY, &a);
}

static inline int mcpy(int fd, void *d, const void *s, size_t n)
{
	return mcpy3(fd, d, 0, 0, s, 0, 0, n, 1, 1);
}

static inline int mset3(int fd, void *d, size_t pitch, size_t rows,
			uint32_t v, uint32_t elem, size_t w, size_t h, size_t z)
{
	struct uvm_memset a = {
		.dst = (uintptr_t)d, .pitch = pitch, .rows = rows, .width = w,
		.height = h, .depth = z, .value = v, .elem_size = elem,
	};

	return uvm_ioctl(fd, UVM_IOCTL_MEMSET, &a);
}

static inline int mset(int fd, void *d, uint8_t v, size_t n)
{
	return mset3(fd, d, 0, 0, v, 1, n, 1, 1);
}

static inline int ptrinfo(int fd, const void *p, struct uvm_ptr_info *i)
{
	memset(i, 0, sizeof(*i));
	i->addr = (uintptr_t)p;
	return uvm_ioctl(fd, UVM_IOCTL_PTR_INFO, i);
}

static inline struct uvm_mem_counters counters(int fd)
{
	struct uvm_mem_counters c = { 0 };

	uvm_ioctl(fd, UVM_IOCTL_MEM_COUNTERS, &c);
	return c;
}

/* Anonymous pageable memory. */
static inline void *anon(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A buffer of @kind (device: on device 0). */
static inline char *kalloc(int fd, enum mkind k, size_t size)
{
	char *p = NULL;

	switch (k) {
	case K_DEVICE:
		return dalloc(fd, 0, size);
	case K_HOST:
		return halloc(fd, size, 0, -1);
	case K_REG:
		p = anon(size);
		if (p && hreg(fd, p, size, 0)) {
			munmap(p, size);
			p = NULL;
		}
		return p;
	case K_PAGEABLE:
		return anon(size);
	case K_MANAGED:
		return uvm_map(fd, size);
	default:
		return NULL;
	}
}

static inline void kfree_buf(int fd, enum mkind k, char *p, size_t size)
{
	if (k == K_DEVICE || k == K_HOST)
		ufree(fd, p);
	if (k == K_REG)
		hunreg(fd, p);
	munmap(p, size);
}

/* Write/read @n bytes of a buffer of any kind (device: through copies). */
static inline int kwrite(int fd, enum mkind k, char *p, const void *src,
			 size_t n)
{
	if (k == K_DEVICE)
		return mcpy(fd, p, src, n);
	memcpy(p, src, n);
	return 0;
}

static inline int kread(int fd, enum mkind k, void *dst, const char *p,
			size_t n)
{
	if (k == K_DEVICE)
		return mcpy(fd, dst, p, n);
	memcpy(dst, p, n);
	return 0;
}

static inline void fill_random(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245 + 12345;
		p[i] = seed >> 16;
	}
}

/* Run @fn in a child; its termination signal (0 if it exited). */
static inline int child_signal(void (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/*
 * Run @fn(@arg) in a child and wait for it at most @secs seconds; then
 * print its kernel stack, SIGKILL it and give it 10 s more to go.
 * Return: the child's exit status (0..255), 128 + signal, -1 if it had to
 * be killed, -2 if even SIGKILL did not end it, -3 if fork failed.
 */
static inline int run_bounded(int (*fn)(void *), void *arg, int secs)
{
	struct timespec t0, now;
	int status, i;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -3;
	if (!pid) {
		int r = fn(arg);

		fflush(stdout);
		_exit(r);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec >= secs)
			break;
		usleep(10000);
	}
	printf("# child %d ran past %d s: stack:\n", pid, secs);
	{
		char path[64], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stack", pid);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			printf("#   %s", line);
		if (f)
			fclose(f);
	}
	kill(pid, SIGKILL);
	for (i = 0; i < 1000; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -1;
		usleep(10000);
	}
	return -2;
}

#endif /* ALLOC_UTIL_H */
