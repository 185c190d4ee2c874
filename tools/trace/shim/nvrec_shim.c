// SPDX-License-Identifier: MIT
/*
 * nvrec_shim.c - libuvm-nvrec.so, preloaded (LD_PRELOAD) into the program
 * `uvm-trace record-nvidia` runs: it hands the program's /dev/nvidia-uvm
 * file to the recorder the moment the driver has made it a VA space, and
 * tells the recorder which ranges of it the program maps (its managed
 * allocations). The design and why: record_nvidia.c, docs/fidelity.md.
 *
 *   ioctl()   after a successful UVM_INITIALIZE on a /dev/nvidia-uvm file:
 *             NVREC_HELLO with the file and a private socket, then wait for
 *             NVREC_ACK (the recorder's tracker is bound: nothing the
 *             program does afterwards is missed);
 *   mmap()    of such a file: NVREC_ALLOC (address, bytes);
 *   munmap()  of a range that overlaps one: NVREC_FREE.
 *
 * Without UVM_NVREC_SOCK in the environment, or once the recorder is gone,
 * every call goes straight through. errno is the real call's. No CUDA
 * header is needed: the library speaks to the kernel's interface only.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../nvuvm.h"

#define SHIM_FDS	16	/* /dev/nvidia-uvm files of one process */
#define SHIM_RANGES	4096	/* managed ranges remembered for munmap() */

#define shim_public	__attribute__((visibility("default")))

typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_fn)(void *, size_t);

static struct {
	pthread_mutex_t lock;		/* Protects everything below */
	int sock;			/* the recorder's socket, -1: none */
	int priv;			/* ours, after HELLO; -1: none */
	int fds[SHIM_FDS];		/* initialised /dev/nvidia-uvm files */
	unsigned int nfds;
	struct { uint64_t addr, bytes; } range[SHIM_RANGES];
	unsigned int nranges;
} shim = { .lock = PTHREAD_MUTEX_INITIALIZER, .sock = -1, .priv = -1 };

static ioctl_fn real_ioctl;
static mmap_fn real_mmap;
static munmap_fn real_munmap;

static void shim_resolve(void)
{
	if (!real_ioctl)
		real_ioctl = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	if (!real_mmap)
		real_mmap = (mmap_fn)dlsym(RTLD_NEXT, "mmap");
	if (!real_munmap)
		real_munmap = (munmap_fn)dlsym(RTLD_NEXT, "munmap");
}

/* A forked child is not the process the recorder follows. */
static void shim_forked(void)
{
	if (shim.priv >= 0)
		close(shim.priv);
	shim.priv = -1;
	shim.nfds = 0;
	shim.nranges = 0;
	pthread_mutex_init(&shim.lock, NULL);
}

__attribute__((constructor))
static void shim_init(void)
{
	const char *s = getenv(NVREC_SOCK_ENV);
	char *end;
	long fd;

	shim_resolve();
	if (!s)
		return;
	errno = 0;
	fd = strtol(s, &end, 10);
	if (errno || *end || fd < 0 || fd > 65535)
		return;
	shim.sock = (int)fd;
	pthread_atfork(NULL, NULL, shim_forked);
}

static uint64_t shim_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int shim_is_uvm_fd_locked(int fd)
{
	unsigned int i;

	for (i = 0; i < shim.nfds; i++)
		if (shim.fds[i] == fd)
			return 1;
	return 0;
}

/* @fd is the character device /dev/nvidia-uvm. */
static int shim_is_uvm_dev(int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && S_ISCHR(a.st_mode) && !stat(NV_UVM_DEV, &b) &&
	       a.st_rdev == b.st_rdev;
}

/* Send @m with descriptors @fds (if @nfds): 0, or -1 (the recorder is gone). */
static int shim_send(int sock, const struct nvrec_msg *m, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (nfds) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*m) ? 0 : -1;
}

/* Hand @fd to the recorder and wait until its tracker is bound. */
static void shim_hello_locked(int fd)
{
	struct nvrec_msg m = { .kind = NVREC_HELLO, .pid = (uint32_t)getpid() };
	int sv[2], fds[2];
	ssize_t n;

	if (shim.nfds == SHIM_FDS || !shim_is_uvm_dev(fd))
		return;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return;
	m.time_ns = shim_now();
	fds[0] = fd;
	fds[1] = sv[1];
	if (shim_send(shim.sock, &m, fds, 2)) {
		close(sv[0]);
		close(sv[1]);
		shim.sock = -1;
		return;
	}
	close(sv[1]);
	do
		n = recv(sv[0], &m, sizeof(m), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(m) || m.kind != NVREC_ACK) {
		close(sv[0]);
		return;
	}
	if (shim.priv >= 0)
		close(shim.priv);
	shim.priv = sv[0];
	shim.fds[shim.nfds++] = fd;
}

shim_public int ioctl(int fd, unsigned long request, ...)
{
	struct nv_init_params *p;
	va_list ap;
	int ret, err;

	va_start(ap, request);
	p = va_arg(ap, struct nv_init_params *);
	va_end(ap);
	shim_resolve();
	ret = real_ioctl(fd, request, p);
	if (request != NV_UVM_INITIALIZE || ret || !p || p->rm_status || shim.sock < 0)
		return ret;
	err = errno;
	pthread_mutex_lock(&shim.lock);
	shim_hello_locked(fd);
	pthread_mutex_unlock(&shim.lock);
	errno = err;
	return ret;
}

static void shim_report_locked(uint32_t kind, uint64_t addr, uint64_t bytes)
{
	struct nvrec_msg m = {
		.kind = kind, .pid = (uint32_t)getpid(), .addr = addr, .bytes = bytes,
		.time_ns = shim_now(),
	};

	if (shim.priv >= 0 && shim_send(shim.priv, &m, NULL, 0)) {
		close(shim.priv);
		shim.priv = -1;
	}
}

static void *shim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;
	int err;

	shim_resolve();
	p = real_mmap(addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED || fd < 0 || shim.priv < 0)
		return p;
	err = errno;
	pthread_mutex_lock(&shim.lock);
	if (shim_is_uvm_fd_locked(fd)) {
		if (shim.nranges < SHIM_RANGES) {
			shim.range[shim.nranges].addr = (uintptr_t)p;
			shim.range[shim.nranges].bytes = len;
			shim.nranges++;
		}
		shim_report_locked(NVREC_ALLOC, (uintptr_t)p, len);
	}
	pthread_mutex_unlock(&shim.lock);
	errno = err;
	return p;
}

shim_public void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shim_mmap(addr, len, prot, flags, fd, off);
}

shim_public void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shim_mmap(addr, len, prot, flags, fd, off);
}

/* Forget the ranges inside [a, a + len); 1 if any range overlapped it. */
static int shim_unmapped_locked(uint64_t a, uint64_t len)
{
	unsigned int i = 0;
	int hit = 0;

	while (i < shim.nranges) {
		uint64_t s = shim.range[i].addr, e = s + shim.range[i].bytes;

		if (s < a + len && a < e) {
			hit = 1;
			if (s >= a && e <= a + len) {
				shim.range[i] = shim.range[--shim.nranges];
				continue;
			}
		}
		i++;
	}
	return hit;
}

shim_public int munmap(void *addr, size_t len)
{
	int ret, err;

	shim_resolve();
	ret = real_munmap(addr, len);
	if (ret || shim.priv < 0)
		return ret;
	err = errno;
	pthread_mutex_lock(&shim.lock);
	if (shim_unmapped_locked((uintptr_t)addr, len))
		shim_report_locked(NVREC_FREE, (uintptr_t)addr, len);
	pthread_mutex_unlock(&shim.lock);
	errno = err;
	return ret;
}
