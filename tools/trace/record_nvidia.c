// SPDX-License-Identifier: MIT
/*
 * record_nvidia.c - uvm-trace record-nvidia [-o FILE] [--raw CAP] -- CMD:
 * record a program's managed-memory events on a host with an NVIDIA GPU
 * and NVIDIA's own driver (uvm.ko not needed), through the driver's UVM
 * tools interface (nvuvm.h), into a trace (docs/fidelity.md).
 *
 * How the recorder gets the program's /dev/nvidia-uvm file. A tracker must
 * be bound to that file after the driver made it a VA space (UVM_INITIALIZE)
 * and before the program maps or touches managed memory, or the first
 * events are lost. Looking for the file from outside (pidfd_getfd(2) once
 * /proc/PID/fd shows it) always races with the program, and needs ptrace
 * rights. So the program runs with libuvm-nvrec.so preloaded (nvrec_shim.c):
 * its ioctl() wrapper sees UVM_INITIALIZE succeed, sends the file over a
 * socket and waits until the recorder has bound its tracker. Nothing the
 * driver reports for that VA space is missed, any program is recorded
 * unmodified (the CUDA runtime linked statically or not), and the same
 * library sees the program's mmap() of the file: its managed ranges. A
 * CUDA injection library (CUDA_INJECTION64_PATH) would run inside cuInit
 * too, but at a point the driver does not promise to be before the
 * VA space exists, and it needs CUDA's headers to build; the preload needs
 * neither. A program that never reaches ioctl() through the C library
 * (static, raw syscalls) is not seen: the recorder says so.
 *
 * Then: the trackers' queues are drained into a capture file (nvuvm.h),
 * with the managed ranges; when CMD exits the driver's deferred events are
 * flushed, the queues drained a last time, the drop counts of every
 * tracker's control page written into the capture, and the capture is
 * converted by `import nvuvm`'s code into the trace, whose header carries
 * the drops and says whether the recording is complete.
 *
 * --source cupti, the fallback where the tools interface cannot be used:
 * no preload library, no tracker; the injection library (libuvm-nvcupti.so,
 * CUDA_INJECTION64_PATH, UVM_NVREC_UM) writes CUPTI's unified-memory
 * counters, the managed allocations, prefetches and advice per process;
 * when CMD exits they are merged into a line file (nvcupti.h) and
 * converted by `import nvcupti`'s code, which checks the completeness
 * (CUPTI's drops; per allocation, the moves the faults and prefetches
 * imply). --source auto takes the tools interface where it opens.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "import.h"
#include "nvcupti.h"
#include "nvuvm.h"
#include "record_kernels.h"

#define NVR_TRACKERS	16		/* processes followed */
#define NVR_QUEUE	(1U << 19)	/* entries of a queue (36 MiB) */
#define NVR_POLL_MS	5
#define NVR_SHIM	"libuvm-nvrec.so"
#define NVR_CUPTI	"libuvm-nvcupti.so"	/* built where CUPTI is */

struct nvr_tracker {
	int tools_fd, uvm_fd, priv;	/* priv: the library's socket, -1 at EOF */
	uint32_t pid;
	uint32_t count;			/* queue entries */
	unsigned char *queue;
	struct nv_control *ctrl;
	size_t qbytes;
};

enum { NVR_AUTO, NVR_TOOLS, NVR_CUPTI_SRC };

struct nvr {
	const char *out, *raw;
	char **cmd;
	uint32_t queue;
	int no_kernels;
	int source;			/* NVR_AUTO until chosen */
	char umlib[PATH_MAX];		/* --source cupti: the injection library */
	char umprefix[PATH_MAX];	/* its files: umprefix.<pid> */
	char cupti[PATH_MAX];		/* the injection library, or "" */
	char kprefix[PATH_MAX];		/* its files: kprefix.<pid> */
	char cap_path[PATH_MAX];
	FILE *cap;
	struct nv_capture hdr;
	int sock;			/* our end of the library's socket */
	pid_t child;
	struct nvr_tracker t[NVR_TRACKERS];
	unsigned int nt;
	uint64_t entries, own;
	int failed;			/* a tracker could not be bound */
};

static volatile sig_atomic_t nvr_signal;

static void nvr_on_signal(int sig)
{
	nvr_signal = sig;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int nvr_usage(FILE *f, int st)
{
	fprintf(f,
		"usage: uvm-trace record-nvidia [-o FILE] [--source tools|cupti|auto] [--raw CAP]\n"
		"                               [--queue N] [--no-kernels] -- CMD [ARGS...]\n"
		"  records CMD's managed-memory events from NVIDIA's driver into FILE (default\n"
		"  uvm.trace), with its kernel launches (CUPTI) as the trace's kernel records\n"
		"  --source S  tools: the driver's UVM tools interface (/dev/nvidia-uvm-tools);\n"
		"              cupti: CUPTI's unified-memory counters (libuvm-nvcupti.so), the\n"
		"              fallback: coarser (GPU faults in groups), completeness checked\n"
		"              from the pages moved; auto (default): tools where\n"
		"              /dev/nvidia-uvm-tools opens, else cupti\n"
		"  --raw CAP   also keep what was captured: tools, the driver's records\n"
		"              (uvm-trace import nvuvm CAP --kernels FILE makes the trace\n"
		"              again); cupti, the line file (uvm-trace import nvcupti CAP)\n"
		"  --queue N   entries of each event queue, a power of two (default %u; tools)\n"
		"  --no-kernels  do not record kernel launches\n"
		"docs/fidelity.md says what is recorded and how.\n", NVR_QUEUE);
	return st;
}

static int nvr_parse(int argc, char **argv, struct nvr *r)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "raw", required_argument, NULL, 'r' },
		{ "queue", required_argument, NULL, 'q' },
		{ "no-kernels", no_argument, NULL, 'k' },
		{ "source", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long q;
	char *end;
	int c;

	r->out = "uvm.trace";
	r->queue = NVR_QUEUE;
	while ((c = getopt_long(argc, argv, "+o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->out = optarg;
			break;
		case 'r':
			r->raw = optarg;
			break;
		case 'q':
			errno = 0;
			q = strtoul(optarg, &end, 0);
			if (errno || *end || q < 1024 || q > (1UL << 24) || (q & (q - 1))) {
				fprintf(stderr, "uvm-trace record-nvidia: --queue '%s': a power "
					"of two, 1024..16777216\n", optarg);
				return TR_EXIT_USAGE;
			}
			r->queue = (uint32_t)q;
			break;
		case 'k':
			r->no_kernels = 1;
			break;
		case 's':
			if (!strcmp(optarg, "tools")) {
				r->source = NVR_TOOLS;
			} else if (!strcmp(optarg, "cupti")) {
				r->source = NVR_CUPTI_SRC;
			} else if (!strcmp(optarg, "auto")) {
				r->source = NVR_AUTO;
			} else {
				fprintf(stderr, "uvm-trace record-nvidia: --source '%s': tools, "
					"cupti or auto\n", optarg);
				return TR_EXIT_USAGE;
			}
			break;
		case 'h':
			return nvr_usage(stdout, -1);
		default:
			return nvr_usage(stderr, TR_EXIT_USAGE);
		}
	}
	if (optind >= argc || strcmp(argv[optind - 1], "--")) {
		fprintf(stderr, "uvm-trace record-nvidia: need -- CMD [ARGS...]\n");
		return nvr_usage(stderr, TR_EXIT_USAGE);
	}
	r->cmd = argv + optind;
	return 0;
}

/* ---- what the header says about the machine ---- */

/* "580.159.04" from the driver's version file, or "". */
static void nvr_driver_version(char *buf, size_t len)
{
	static const char *const files[] = {
		"/sys/module/nvidia_uvm/version", "/sys/module/nvidia/version",
	};
	unsigned int i;
	FILE *f;

	buf[0] = '\0';
	for (i = 0; i < sizeof(files) / sizeof(files[0]) && !buf[0]; i++) {
		f = fopen(files[i], "re");
		if (!f)
			continue;
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

/* The GPUs' model names, from /proc/driver/nvidia/gpus/ (bus order). */
static void nvr_gpu_names(struct nv_capture *h)
{
	char line[256];
	FILE *p = popen("cat /proc/driver/nvidia/gpus/*/information 2>/dev/null", "re");

	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *v = line + strlen("Model:");

		if (strncmp(line, "Model:", 6) || h->num_gpus == NV_CAP_GPUS)
			continue;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(h->gpu_name[h->num_gpus++], sizeof(h->gpu_name[0]), "%s", v);
	}
	pclose(p);
}

static void nvr_fill_capture(struct nvr *r)
{
	struct nv_capture *h = &r->hdr;
	size_t n = 0;
	int i;

	memcpy(h->magic, NV_CAP_MAGIC, sizeof(h->magic));
	h->version = NV_CAP_VERSION;
	h->entry_size = NV_ENTRY_SIZE;
	nvr_driver_version(h->driver_version, sizeof(h->driver_version));
	gethostname(h->hostname, sizeof(h->hostname) - 1);
	for (i = 0; r->cmd[i] && n + 1 < sizeof(h->command); i++)
		n += (size_t)snprintf(h->command + n, sizeof(h->command) - n, "%s%s",
				      i ? " " : "", r->cmd[i]);
	nvr_gpu_names(h);
}

/*
 * The driver this was written for: the V2 tracker of 565 and later
 * (checked on 580). Another major version is recorded, every record
 * checked (a layout that differs stops the conversion), with a warning.
 */
static void nvr_check_driver(const char *version)
{
	long major = strtol(version, NULL, 10);

	if (!version[0])
		fprintf(stderr, "uvm-trace record-nvidia: warning: NVIDIA's driver version "
			"is unknown (no /sys/module/nvidia_uvm/version)\n");
	else if (major < 565 || major > 599)
		fprintf(stderr, "uvm-trace record-nvidia: warning: NVIDIA driver %s: the "
			"tools interface was read from 580's source (565..599 share it); "
			"every record is checked and a difference stops the conversion\n",
			version);
}

/* ---- the capture file ---- */

static int nvr_cap_header(struct nvr *r)
{
	if (fseek(r->cap, 0, SEEK_SET) ||
	    fwrite(&r->hdr, sizeof(r->hdr), 1, r->cap) != 1 || fflush(r->cap) ||
	    fseek(r->cap, 0, SEEK_END))
		return -errno ?: -EIO;
	return 0;
}

static int nvr_cap_open(struct nvr *r)
{
	const char *path = r->raw;

	if (!path) {
		if (snprintf(r->cap_path, sizeof(r->cap_path), "%s.nvcap.tmp", r->out) >=
		    (int)sizeof(r->cap_path))
			return -ENAMETOOLONG;
		path = r->cap_path;
	} else {
		snprintf(r->cap_path, sizeof(r->cap_path), "%s", path);
	}
	r->cap = fopen(path, "w+e");
	if (!r->cap)
		return -errno;
	setvbuf(r->cap, NULL, _IOFBF, 1 << 20);
	return nvr_cap_header(r);
}

static int nvr_cap_write(struct nvr *r, const void *p, size_t n)
{
	if (n && fwrite(p, NV_ENTRY_SIZE, n, r->cap) != n)
		return -EIO;
	return 0;
}

/* One of our own records (an allocation seen by the library). */
static int nvr_cap_own(struct nvr *r, const struct nvrec_msg *m)
{
	unsigned char e[NV_ENTRY_SIZE] = { 0 };

	e[0] = m->kind == NVREC_ALLOC ? NV_OWN_ALLOC : NV_OWN_FREE;
	memcpy(e + 4, &m->pid, 4);
	memcpy(e + 8, &m->addr, 8);
	memcpy(e + 16, &m->bytes, 8);
	memcpy(e + 24, &m->time_ns, 8);
	r->own++;
	return nvr_cap_write(r, e, 1);
}

/* ---- trackers ---- */

/* Everything the queue holds now, into the capture. */
static int nvr_drain(struct nvr *r, struct nvr_tracker *t)
{
	uint32_t mask = t->count - 1, get, put, n;
	int ret = 0;

	get = __atomic_load_n(&t->ctrl->get_ahead, __ATOMIC_RELAXED) & mask;
	put = __atomic_load_n(&t->ctrl->put_behind, __ATOMIC_ACQUIRE) & mask;
	if (get == put)
		return 0;
	if (put < get) {
		n = t->count - get;
		ret = nvr_cap_write(r, t->queue + (size_t)get * NV_ENTRY_SIZE, n);
		r->entries += n;
		get = 0;
	}
	n = put - get;
	if (!ret)
		ret = nvr_cap_write(r, t->queue + (size_t)get * NV_ENTRY_SIZE, n);
	r->entries += n;
	__atomic_store_n(&t->ctrl->get_ahead, put, __ATOMIC_RELEASE);
	__atomic_store_n(&t->ctrl->get_behind, put, __ATOMIC_RELEASE);
	return ret;
}

static const char *nvr_status_name(uint32_t st)
{
	switch (st) {
	case 0x1b: return "NV_ERR_INSUFFICIENT_PERMISSIONS";
	case 0x1f: return "NV_ERR_INVALID_ARGUMENT";
	case 0x51: return "NV_ERR_NO_MEMORY";
	}
	return "NV_STATUS";
}

/* An ioctl of the tools interface: 0, or a message and -1. */
static int nvr_ioctl(int fd, unsigned long cmd, void *p, uint32_t *st, const char *what)
{
	if (ioctl(fd, cmd, p)) {
		if (errno == EINVAL || errno == ENOTTY)
			fprintf(stderr, "uvm-trace record-nvidia: %s: this driver's tools "
				"interface has no such ioctl (%lu): it is not the one "
				"uvm-trace was written for (NVIDIA 565..599)\n", what, cmd);
		else
			fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", what,
				strerror(errno));
		return -1;
	}
	if (*st) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: the driver says %s 0x%x\n",
			what, nvr_status_name(*st), *st);
		return -1;
	}
	return 0;
}

static int nvr_map(struct nvr_tracker *t, uint32_t count)
{
	t->count = count;
	t->qbytes = ((size_t)count * NV_ENTRY_SIZE + 4095) & ~(size_t)4095;
	t->queue = mmap(NULL, t->qbytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	t->ctrl = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (t->queue == MAP_FAILED || t->ctrl == MAP_FAILED) {
		fprintf(stderr, "uvm-trace record-nvidia: a queue of %zu bytes: %s\n",
			t->qbytes, strerror(errno));
		return -1;
	}
	return 0;
}

/* Bind a tracker to the /dev/nvidia-uvm file @t->uvm_fd and enable events. */
static int nvr_bind(struct nvr_tracker *t, uint32_t count)
{
	struct nv_tracker_params tp = { 0 };
	struct nv_threshold_params th = { 0 };
	struct nv_events_params ev = { .flags = NV_EVENTS_RECORDED };

	t->tools_fd = open(NV_UVM_TOOLS_DEV, O_RDWR | O_CLOEXEC);
	if (t->tools_fd < 0) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", NV_UVM_TOOLS_DEV,
			strerror(errno));
		return -1;
	}
	if (nvr_map(t, count))
		return -1;
	tp.queue_buffer = (uintptr_t)t->queue;
	tp.queue_buffer_size = count;
	tp.control_buffer = (uintptr_t)t->ctrl;
	tp.uvm_fd = (uint32_t)t->uvm_fd;
	if (nvr_ioctl(t->tools_fd, NV_UVM_TOOLS_INIT_EVENT_TRACKER_V2, &tp, &tp.rm_status,
		      "binding an event tracker (UVM_TOOLS_INIT_EVENT_TRACKER_V2)"))
		return -1;
	th.threshold = count / 8;
	if (nvr_ioctl(t->tools_fd, NV_UVM_TOOLS_SET_NOTIFICATION_THRESHOLD, &th,
		      &th.rm_status, "UVM_TOOLS_SET_NOTIFICATION_THRESHOLD"))
		return -1;
	return nvr_ioctl(t->tools_fd, NV_UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS, &ev,
			 &ev.rm_status, "enabling events (UVM_TOOLS_EVENT_QUEUE_ENABLE_EVENTS)");
}

static void nvr_release(struct nvr_tracker *t)
{
	if (t->tools_fd >= 0)
		close(t->tools_fd);
	if (t->uvm_fd >= 0)
		close(t->uvm_fd);
	if (t->priv >= 0)
		close(t->priv);
	if (t->queue && t->queue != MAP_FAILED)
		munmap(t->queue, t->qbytes);
	if (t->ctrl && t->ctrl != MAP_FAILED)
		munmap(t->ctrl, 4096);
	t->tools_fd = t->uvm_fd = t->priv = -1;
	t->queue = NULL;
	t->ctrl = NULL;
}

/* Receive one message and up to two descriptors: its length, 0 at EOF, -1. */
static ssize_t nvr_recv(int sock, struct nvrec_msg *m, int *fds, int *nfds)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	ssize_t n;

	*nfds = 0;
	n = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -2 : -1;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		*nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		if (*nfds > 2)
			*nfds = 2;
		memcpy(fds, CMSG_DATA(c), (size_t)*nfds * sizeof(int));
	}
	return n;
}

/* NVREC_HELLO: a process's /dev/nvidia-uvm file; bind, then let it go on. */
static void nvr_hello(struct nvr *r, const struct nvrec_msg *m, const int *fds, int nfds)
{
	struct nvrec_msg ack = { .kind = NVREC_ACK };
	struct nvr_tracker *t;

	if (nfds != 2) {
		while (nfds--)
			close(fds[nfds]);
		return;
	}
	if (r->nt == NVR_TRACKERS) {
		fprintf(stderr, "uvm-trace record-nvidia: more than %d processes use the "
			"GPU: process %u is not recorded\n", NVR_TRACKERS, m->pid);
		r->failed = 1;
		send(fds[1], &ack, sizeof(ack), MSG_NOSIGNAL);
		close(fds[0]);
		close(fds[1]);
		return;
	}
	t = &r->t[r->nt++];
	t->uvm_fd = fds[0];
	t->priv = fds[1];
	t->pid = m->pid;
	if (!nvr_bind(t, r->queue)) {
		if (!r->hdr.pid || m->pid == (uint32_t)r->child)
			r->hdr.pid = m->pid;
		send(t->priv, &ack, sizeof(ack), MSG_NOSIGNAL);
		return;
	}
	fprintf(stderr, "uvm-trace record-nvidia: process %u is not recorded\n", m->pid);
	r->failed = 1;
	send(t->priv, &ack, sizeof(ack), MSG_NOSIGNAL);
	nvr_release(t);		/* the program goes on, unrecorded */
}

/* Every message waiting on @sock (a tracker's, or the main one if !@t). */
static int nvr_messages(struct nvr *r, int sock, struct nvr_tracker *t)
{
	struct nvrec_msg m;
	int fds[2], nfds, ret = 0;
	ssize_t n;

	while (!ret && (n = nvr_recv(sock, &m, fds, &nfds)) != -2) {
		if (n <= 0) {	/* every process holding it is gone */
			close(sock);
			if (t)
				t->priv = -1;
			else
				r->sock = -1;
			return 0;
		}
		if (n != sizeof(m)) {
			while (nfds--)
				close(fds[nfds]);
			continue;
		}
		if (!t && m.kind == NVREC_HELLO)
			nvr_hello(r, &m, fds, nfds);
		else if (t && (m.kind == NVREC_ALLOC || m.kind == NVREC_FREE))
			ret = nvr_cap_own(r, &m);
		else
			while (nfds--)
				close(fds[nfds]);
	}
	return ret;
}

/* One round: messages, then every queue. */
static int nvr_round(struct nvr *r)
{
	unsigned int i;
	int ret = r->sock >= 0 ? nvr_messages(r, r->sock, NULL) : 0;

	for (i = 0; i < r->nt && !ret; i++) {
		if (r->t[i].priv >= 0)
			ret = nvr_messages(r, r->t[i].priv, &r->t[i]);
		if (!ret && r->t[i].ctrl)
			ret = nvr_drain(r, &r->t[i]);
	}
	return ret;
}

static void nvr_wait(struct nvr *r)
{
	struct pollfd p[1 + 2 * NVR_TRACKERS];
	unsigned int i, n = 0;

	if (r->sock >= 0)
		p[n++] = (struct pollfd){ .fd = r->sock, .events = POLLIN };
	for (i = 0; i < r->nt; i++) {
		if (r->t[i].priv >= 0)
			p[n++] = (struct pollfd){ .fd = r->t[i].priv, .events = POLLIN };
		if (r->t[i].tools_fd >= 0 && r->t[i].ctrl)
			p[n++] = (struct pollfd){ .fd = r->t[i].tools_fd, .events = POLLIN };
	}
	poll(p, n, NVR_POLL_MS);
}

/* CMD is gone: the driver's deferred events, the last records, the drops. */
static int nvr_finish_trackers(struct nvr *r)
{
	struct nv_flush_params fp = { 0 };
	unsigned int i, k;
	int ret = 0;

	for (i = 0; i < r->nt; i++)
		if (r->t[i].ctrl && ioctl(r->t[i].uvm_fd, NV_UVM_TOOLS_FLUSH_EVENTS, &fp))
			fprintf(stderr, "uvm-trace record-nvidia: warning: flushing the "
				"driver's events: %s\n", strerror(errno));
	usleep(20000);
	for (k = 0; k < 3 && !ret; k++)
		ret = nvr_round(r);
	for (i = 0; i < r->nt; i++) {
		if (r->t[i].ctrl)
			for (k = 0; k < NV_TYPES_ALL; k++)
				r->hdr.dropped[k] += r->t[i].ctrl->dropped[k];
		nvr_release(&r->t[i]);
	}
	r->hdr.trackers = r->nt;
	return ret;
}

/* ---- the command ---- */

/* Library @name: $@var, or beside uvm-trace, or ../lib/uvm/. */
static int nvr_find_lib(char *buf, size_t len, const char *var, const char *name)
{
	const char *env = getenv(var);
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env) {	/* absolute: the program may change directory */
		if (len < PATH_MAX || !realpath(env, buf))
			return -1;
		return access(buf, R_OK) ? -1 : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if (snprintf(buf, len, "%s/%s", exe, name) < (int)len && !access(buf, R_OK))
		return 0;
	if (snprintf(buf, len, "%s/../lib/uvm/%s", exe, name) >= (int)len)
		return -1;
	return access(buf, R_OK) ? -1 : 0;
}

static void nvr_exec(struct nvr *r, const char *shim, int sock)
{
	const char *pre = getenv("LD_PRELOAD");
	char num[16], *val;

	snprintf(num, sizeof(num), "%d", sock);
	if (asprintf(&val, "%s%s%s", shim, pre && *pre ? ":" : "", pre ?: "") < 0)
		_exit(127);
	if (r->source == NVR_CUPTI_SRC) {	/* no preload: the injection library */
		close(sock);
		setenv("CUDA_INJECTION64_PATH", r->umlib, 1);
		setenv(NVC_ENV, r->umprefix, 1);
	} else {
		setenv("LD_PRELOAD", val, 1);
		setenv(NVREC_SOCK_ENV, num, 1);
	}
	if (r->cupti[0]) {
		setenv("CUDA_INJECTION64_PATH", r->cupti, 1);
		setenv(NVK_ENV, r->kprefix, 1);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(r->cmd[0], r->cmd);
	fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", r->cmd[0], strerror(errno));
	_exit(127);
}

static int nvr_spawn(struct nvr *r, const char *shim)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return -errno;
	fcntl(sv[0], F_SETFD, FD_CLOEXEC);
	r->child = fork();
	if (r->child < 0) {
		close(sv[0]);
		close(sv[1]);
		return -errno;
	}
	if (!r->child)		/* the capture and sv[0] close on exec */
		nvr_exec(r, shim, sv[1]);
	close(sv[1]);
	r->sock = sv[0];
	return 0;
}

/* Follow CMD until it exits: its exit status, as record's. */
static int nvr_follow(struct nvr *r)
{
	int st = 0, werr = 0;
	pid_t w;

	for (;;) {
		if (nvr_signal && nvr_signal != SIGINT) {
			kill(r->child, nvr_signal);
			nvr_signal = 0;
		}
		nvr_wait(r);
		if (!werr && nvr_round(r)) {
			fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", r->cap_path,
				strerror(EIO));
			werr = 1;
		}
		w = waitpid(r->child, &st, WNOHANG);
		if (w == r->child)
			break;
		if (w < 0 && errno != EINTR) {
			fprintf(stderr, "uvm-trace record-nvidia: waiting for %s: %s\n",
				r->cmd[0], strerror(errno));
			st = 1 << 8;	/* as an exit status of 1 */
			break;
		}
	}
	if (nvr_finish_trackers(r) || werr)
		r->failed = 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void nvr_say_drops(const struct nv_capture *h)
{
	static const char *const names[NV_TYPE_MAX + 1] = {
		"?", "cpu_fault", "migration", "gpu_fault", "gpu_fault_replay",
		"fault_buffer_overflow", "fatal_fault", "read_duplicate",
		"read_duplicate_invalidate", "page_size_change", "thrashing",
		"throttling_start", "throttling_end", "map_remote", "eviction",
	};
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < NV_TYPES_ALL; i++)
		total += h->dropped[i];
	if (!total)
		return;
	fprintf(stderr, "uvm-trace record-nvidia: INCOMPLETE: the driver's queue was full "
		"and it dropped %" PRIu64 " events:", total);
	for (i = 0; i < NV_TYPES_ALL; i++) {
		if (!h->dropped[i])
			continue;
		if (i <= NV_TYPE_MAX)
			fprintf(stderr, " %s %" PRIu64, names[i], h->dropped[i]);
		else
			fprintf(stderr, " type %u: %" PRIu64, i, h->dropped[i]);
	}
	fprintf(stderr, " (a larger --queue helps); uvm-replay refuses the trace "
		"without --allow-incomplete\n");
}

/*
 * The processes' kernel launches as records, or NULL when none were
 * recorded (said why); a failure costs only the kernels.
 */
static struct uvm_event *nvr_kernels(struct nvr *r, struct nvk_set *ks)
{
	struct uvm_event *kev = NULL;
	int ret;

	if (!r->cupti[0])
		return NULL;
	ret = nvk_collect(ks, r->kprefix);
	if (!ret) {
		kev = nvk_events(ks);
		if (!kev)
			nvk_free(ks);
	}
	if (ret == -ENOENT)
		fprintf(stderr, "uvm-trace record-nvidia: kernel launches not recorded: "
			"CUDA did not load %s\n", r->cupti);
	else if (!kev)
		fprintf(stderr, "uvm-trace record-nvidia: kernel launches not recorded: %s\n",
			strerror(ret ? -ret : ENOMEM));
	else if (ks->dropped)
		fprintf(stderr, "uvm-trace record-nvidia: INCOMPLETE kernel launches: CUPTI "
			"dropped %" PRIu64 "\n", ks->dropped);
	return kev;
}

/* The capture into the trace, through import nvuvm's code, with the kernels. */
static int nvr_convert(struct nvr *r)
{
	struct nvk_set ks = { 0 };
	struct uvm_event *kev;
	struct imp im;
	int ret;

	ret = imp_init(&im, "nvuvm", r->cap_path, r->out, NV_IMPORT_TYPES);
	kev = nvr_kernels(r, &ks);
	if (kev)
		imp_kernels(&im, kev, ks.n);
	if (!ret)
		ret = imp_nvuvm(&im);
	else
		fprintf(stderr, "uvm-trace record-nvidia: %s\n", strerror(-ret));
	if (ret)
		imp_abort(&im);
	else
		fprintf(stderr, "uvm-trace record-nvidia: %" PRIu64 " driver events, %" PRIu64
			" managed ranges%s%zu kernel launches; %llu records to %s\n", r->entries,
			r->own, kev ? ", " : "", kev ? ks.n : 0, (unsigned long long)im.w.index,
			r->out);
	imp_release(&im);
	free(kev);
	nvk_free(&ks);
	return ret ? -1 : 0;
}

/* Kernel launches through CUPTI, if it can be: why not, said once. */
static void nvr_kernels_setup(struct nvr *r)
{
	const char *why = NULL;

	if (r->no_kernels)
		return;
	if (getenv("CUDA_INJECTION64_PATH"))
		why = "CUDA_INJECTION64_PATH is set already (the program's own injection)";
	else if (nvr_find_lib(r->cupti, sizeof(r->cupti), "UVM_NVCUPTI_LIB", NVR_CUPTI))
		why = NVR_CUPTI " was not built (no CUPTI where uvm-trace was built)";
	else if (snprintf(r->kprefix, sizeof(r->kprefix), "%s.kernels.tmp", r->out) >=
		 (int)sizeof(r->kprefix))
		why = "the output's name is too long";
	if (why) {
		r->cupti[0] = '\0';
		fprintf(stderr, "uvm-trace record-nvidia: kernel launches not recorded: %s\n",
			why);
	}
}

/* No trace: the processes' kernel files go too. */
static void nvr_kernels_discard(struct nvr *r)
{
	if (r->cupti[0])
		nvk_discard(r->kprefix);
}

/* Nothing to record with: say why, before CMD runs. */
static int nvr_preflight(char *shim, size_t len)
{
	int fd = open(NV_UVM_TOOLS_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s (%s)\n", NV_UVM_TOOLS_DEV,
			strerror(errno), errno == ENOENT ?
			"NVIDIA's nvidia-uvm module is not loaded: this records on a host "
			"with NVIDIA's driver" : "the tools interface is needed");
		return -1;
	}
	close(fd);
	if (nvr_find_lib(shim, len, "UVM_NVREC_LIB", NVR_SHIM)) {
		fprintf(stderr, "uvm-trace record-nvidia: %s not found beside uvm-trace "
			"(or in $UVM_NVREC_LIB): make tools builds it\n", NVR_SHIM);
		return -1;
	}
	return 0;
}

static int nvr_record(struct nvr *r, const char *shim)
{
	int ret, st;

	nvr_fill_capture(r);
	nvr_check_driver(r->hdr.driver_version);
	nvr_kernels_setup(r);
	ret = nvr_cap_open(r);
	if (ret) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", r->cap_path,
			strerror(-ret));
		return 1;
	}
	r->hdr.start_raw_ns = now_ns(CLOCK_MONOTONIC_RAW);
	r->hdr.start_realtime_ns = now_ns(CLOCK_REALTIME);
	ret = nvr_spawn(r, shim);
	if (ret) {
		fprintf(stderr, "uvm-trace record-nvidia: fork: %s\n", strerror(-ret));
		st = 1;
		goto remove;
	}
	r->hdr.pid = (uint32_t)r->child;
	st = nvr_follow(r);
	if (r->sock >= 0)
		close(r->sock);
	r->hdr.end_raw_ns = now_ns(CLOCK_MONOTONIC_RAW);
	r->hdr.finished = 1;
	if (!r->nt) {
		fprintf(stderr, "uvm-trace record-nvidia: %s never initialised NVIDIA's UVM "
			"(/dev/nvidia-uvm) through the C library's ioctl(): nothing recorded\n",
			r->cmd[0]);
		r->failed = 1;
	}
	if (nvr_cap_header(r) || fclose(r->cap)) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", r->cap_path,
			strerror(errno));
		r->failed = 1;
	}
	r->cap = NULL;
	if (!r->failed) {
		nvr_say_drops(&r->hdr);
		if (nvr_convert(r))
			r->failed = 1;
	}
	if (r->failed) {
		nvr_kernels_discard(r);
		fprintf(stderr, "uvm-trace record-nvidia: no trace written\n");
	}
remove:
	if (r->cap)
		fclose(r->cap);
	if (!r->raw || r->failed)
		unlink(r->cap_path);
	return r->failed ? (st ? st : 1) : st;
}

/* ---- --source cupti ---- */

/* The processes' files into the line file, then the trace, with the kernels. */
static int nvr_convert_cupti(struct nvr *r, const char *lines_path)
{
	struct nvk_set ks = { 0 };
	struct uvm_event *kev;
	uint64_t lines = 0;
	struct imp im;
	int ret = nvc_merge(r->umprefix, lines_path, &r->hdr, &lines);

	if (ret) {
		fprintf(stderr, "uvm-trace record-nvidia: %s\n", ret == -ENOENT ?
			"CUDA did not load " NVR_CUPTI " (the program never initialised "
			"CUDA?): nothing recorded" : strerror(-ret));
		return -1;
	}
	ret = imp_init(&im, "nvcupti", lines_path, r->out, NVC_IMPORT_TYPES);
	kev = nvr_kernels(r, &ks);
	if (kev)
		imp_kernels(&im, kev, ks.n);
	if (!ret)
		ret = imp_nvcupti_as(&im, "uvm-trace record-nvidia");
	else
		fprintf(stderr, "uvm-trace record-nvidia: %s\n", strerror(-ret));
	if (ret)
		imp_abort(&im);
	else
		fprintf(stderr, "uvm-trace record-nvidia: %" PRIu64 " CUPTI records%s%zu "
			"kernel launches; %llu records to %s\n", lines, kev ? ", " : "",
			kev ? ks.n : 0, (unsigned long long)im.w.index, r->out);
	imp_release(&im);
	free(kev);
	nvk_free(&ks);
	return ret ? -1 : 0;
}

static int nvr_record_cupti(struct nvr *r)
{
	char tmp[PATH_MAX + 16];
	const char *lines = r->raw;
	int ret, st;

	nvr_fill_capture(r);
	nvr_kernels_setup(r);
	snprintf(tmp, sizeof(tmp), "%s.nvcupti.tmp", r->out);
	if (!lines)
		lines = tmp;
	r->hdr.start_raw_ns = now_ns(CLOCK_MONOTONIC_RAW);
	r->hdr.start_realtime_ns = now_ns(CLOCK_REALTIME);
	ret = nvr_spawn(r, "");
	if (ret) {
		fprintf(stderr, "uvm-trace record-nvidia: fork: %s\n", strerror(-ret));
		return 1;
	}
	r->hdr.pid = (uint32_t)r->child;
	st = nvr_follow(r);
	if (r->sock >= 0)
		close(r->sock);
	r->hdr.end_raw_ns = now_ns(CLOCK_MONOTONIC_RAW);
	if (nvr_convert_cupti(r, lines))
		r->failed = 1;
	if (r->failed) {
		nvr_kernels_discard(r);
		nvk_discard(r->umprefix);	/* the same PREFIX.<pid> files */
		fprintf(stderr, "uvm-trace record-nvidia: no trace written\n");
	}
	if (!r->raw)
		unlink(tmp);
	return r->failed ? (st ? st : 1) : st;
}

/* --source cupti can be used: the driver is there, the library was built. */
static int nvr_cupti_ok(struct nvr *r, int say)
{
	const char *why = NULL;

	if (access("/dev/nvidia-uvm", F_OK))
		why = "/dev/nvidia-uvm: NVIDIA's nvidia-uvm module is not loaded: this "
		      "records on a host with NVIDIA's driver";
	else if (getenv("CUDA_INJECTION64_PATH"))
		why = "CUDA_INJECTION64_PATH is set already (the program's own injection)";
	else if (nvr_find_lib(r->umlib, sizeof(r->umlib), "UVM_NVCUPTI_LIB", NVR_CUPTI))
		why = NVR_CUPTI " was not built (no CUPTI where uvm-trace was built)";
	else if (snprintf(r->umprefix, sizeof(r->umprefix), "%s.nvcupti.tmp", r->out) >=
		 (int)sizeof(r->umprefix))
		why = "the output's name is too long";
	if (why && say)
		fprintf(stderr, "uvm-trace record-nvidia: --source cupti: %s\n", why);
	return !why;
}

/* auto: the tools interface where it opens, else CUPTI; 0 or -1 (said why). */
static int nvr_choose(struct nvr *r, char *shim, size_t len)
{
	int fd, err;

	if (r->source == NVR_TOOLS)
		return nvr_preflight(shim, len);
	if (r->source == NVR_CUPTI_SRC)
		return nvr_cupti_ok(r, 1) ? 0 : -1;
	fd = open(NV_UVM_TOOLS_DEV, O_RDWR | O_CLOEXEC);
	err = errno;
	if (fd >= 0) {
		close(fd);
		r->source = NVR_TOOLS;
		return nvr_preflight(shim, len);
	}
	if (nvr_cupti_ok(r, 0)) {	/* NVIDIA's driver is there, the library too */
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s: recording through CUPTI "
			"instead (--source cupti)\n", NV_UVM_TOOLS_DEV, strerror(err));
		r->source = NVR_CUPTI_SRC;
		return 0;
	}
	return nvr_preflight(shim, len);	/* says why the tools interface cannot */
}

int tr_record_nvidia_main(int argc, char **argv)
{
	struct nvr *r = calloc(1, sizeof(*r));
	struct sigaction sa = { .sa_handler = nvr_on_signal };
	char shim[PATH_MAX];
	unsigned int i;
	int ret;

	if (!r)
		return 1;
	for (i = 0; i < NVR_TRACKERS; i++)
		r->t[i].tools_fd = r->t[i].uvm_fd = r->t[i].priv = -1;
	ret = nvr_parse(argc, argv, r);
	if (ret) {
		free(r);
		return ret < 0 ? 0 : ret;
	}
	if (nvr_choose(r, shim, sizeof(shim))) {
		free(r);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGCHLD, SIG_DFL);	/* an inherited SIG_IGN would reap CMD unseen */
	ret = r->source == NVR_CUPTI_SRC ? nvr_record_cupti(r) : nvr_record(r, shim);
	free(r);
	return ret;
}
