// SPDX-License-Identifier: MIT
/*
 * trace_record.c - uvm-trace record: run a command (or follow a running
 * process) and write its VA spaces' event records to a trace file.
 *
 * The mechanism: the module-wide event stream (UVM_EVENTS_ALL_SPACES,
 * CAP_PERFMON or root), opened before the command starts, filtered here by
 * VA space: the command's process and its descendants (a VA space's id is
 * its owner's pid). Nothing runs in the traced process, any program that
 * uses /dev/uvm can be traced, unmodified, and a running one can be
 * followed (-p). docs/trace-format.md says why, and what it costs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_format.h"
#include "uvm_tool.h"

#define RING_RECORDS	65536
#define READ_RECORDS	256
#define SPACES_MAX	1024	/* VA spaces whose verdict is remembered */

struct rec_opts {
	const char *out;
	uint64_t types;
	pid_t pid;		/* -p, else 0 */
	char **cmd;		/* after --, else NULL */
};

/** struct rec_state - a recording: the stream, the trace, the filter. */
struct rec_state {
	int stream;
	pid_t root;		/* the command, or -p's process */
	struct tr_writer w;
	int write_err;
	uint64_t kept, skipped, lost;
	uint64_t batches;	/* fault_batch records kept */
	unsigned int nspaces;
	struct {
		uint64_t id;
		int traced;
	} spaces[SPACES_MAX];
};

static volatile sig_atomic_t rec_signal;
static struct rec_state rec;	/* big (a block of records): not on the stack */

static void on_signal(int sig)
{
	rec_signal = sig;
}

static void rec_usage(FILE *f)
{
	fprintf(f,
		"usage: uvm-trace record [-o FILE] [--events LIST] -- CMD [ARGS...]\n"
		"       uvm-trace record [-o FILE] [--events LIST] -p PID\n"
		"  -o FILE        the trace (default uvm.trace)\n"
		"  --events LIST  record types, comma-separated (overflow, fault_batch,\n"
		"                 device_fault, cpu_fault, migrate, evict, thrash,\n"
		"                 read_dup, remote_map, policy) or all; default: all\n"
		"                 (a trace uvm-replay can replay needs device_fault)\n"
		"  -p PID         follow a running process until it exits (or SIGINT)\n"
		"Needs CAP_PERFMON or root: it reads the module-wide event stream.\n");
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "uvm-trace record: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	rec_usage(stderr);
	return TR_EXIT_USAGE;
}

/*
 * What follows the command name in /proc/@pid/stat (" S ppid ..."), in
 * @buf; NULL if there is no such process.
 */
static const char *proc_stat(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 1 : NULL;
}

/* Is @pid there, and not a zombie? */
static int alive(pid_t pid)
{
	char buf[512];
	const char *p = proc_stat(pid, buf, sizeof(buf));

	return p && p[1] != 'Z' && p[1] != 'X';
}

static int parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > 0x3fffffff)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->out = "uvm.trace";
	/* every type: a trace that can be replayed (docs/trace-format.md) */
	o->types = (1ULL << UVM_EVENT_COUNT) - 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:o:e:p:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'e':
			if (tr_parse_types(optarg, &o->types))
				return usage_error("--events: bad list '%s'", optarg);
			o->types |= 1ULL << UVM_EVENT_OVERFLOW;
			break;
		case 'p':
			if (parse_pid(optarg, &o->pid))
				return usage_error("-p: bad pid '%s'", optarg);
			break;
		case 'h':
			rec_usage(stdout);
			exit(0);
		case ':':
			return usage_error("%s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!o->cmd && !o->pid)
		return usage_error("nothing to record: give -- CMD or -p PID");
	if (o->cmd && o->pid)
		return usage_error("-p and a command: one or the other");
	if (o->pid && !alive(o->pid))
		return usage_error("-p: no process %d", (int)o->pid);
	return 0;
}

/* The parent of @pid from /proc/<pid>/stat, or 0. */
static pid_t parent_of(pid_t pid)
{
	char buf[512];
	const char *p = proc_stat(pid, buf, sizeof(buf));
	int ppid = 0;

	if (!p || sscanf(p, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

/* Is VA space @id (its owner's pid) the root's or a descendant's? */
static int is_traced(struct rec_state *s, uint64_t id)
{
	pid_t p = (pid_t)id;
	unsigned int i, hops;
	int yes = 0;

	if (id == (uint64_t)s->root)
		return 1;
	for (i = 0; i < s->nspaces; i++)
		if (s->spaces[i].id == id)
			return s->spaces[i].traced;
	for (hops = 0; p > 1 && hops < 64 && !yes; hops++) {
		p = parent_of(p);
		yes = p == s->root;
	}
	if (s->nspaces < SPACES_MAX) {
		s->spaces[s->nspaces].id = id;
		s->spaces[s->nspaces++].traced = yes;
	}
	return yes;
}

static void take(struct rec_state *s, const struct uvm_event *ev)
{
	if (ev->hdr.type == UVM_EVENT_OVERFLOW)
		s->lost += ev->u.overflow.lost;
	else if (!is_traced(s, ev->hdr.va_space)) {
		s->skipped++;
		return;
	}
	s->kept++;
	if (ev->hdr.type == UVM_EVENT_FAULT_BATCH)
		s->batches++;
	if (!s->write_err)
		s->write_err = tr_append(&s->w, ev);
}

/* Read what the stream has (it is non-blocking). */
static void drain(struct rec_state *s)
{
	static struct uvm_event buf[READ_RECORDS];
	ssize_t n;
	int i;

	while ((n = read(s->stream, buf, sizeof(buf))) > 0)
		for (i = 0; i < (int)(n / (ssize_t)sizeof(buf[0])); i++)
			take(s, &buf[i]);
}

/* Open the module-wide stream on a VA space of our own. fd or -errno. */
static int open_stream(uint64_t types, int *uvm_fd)
{
	struct uvm_events_open a = {
		.version = UVM_EVENTS_VERSION, .flags = UVM_EVENTS_ALL_SPACES,
		.types = types, .ring_records = RING_RECORDS,
	};

	*uvm_fd = open("/dev/uvm", O_RDWR | O_CLOEXEC);
	if (*uvm_fd < 0)
		return -errno;
	if (ioctl(*uvm_fd, UVM_IOCTL_EVENTS_OPEN, &a)) {
		int err = -errno;

		close(*uvm_fd);
		*uvm_fd = -1;
		return err;
	}
	fcntl(a.fd, F_SETFL, fcntl(a.fd, F_GETFL) | O_NONBLOCK);
	return a.fd;
}

static void set_command(struct tr_header *h, const struct rec_opts *o)
{
	size_t len = 0, cap = sizeof(h->command);
	char **a;

	if (!o->cmd) {
		snprintf(h->command, cap, "-p %d", (int)o->pid);
		return;
	}
	for (a = o->cmd; *a && len + 1 < cap; a++)
		len += (size_t)snprintf(h->command + len, cap - len, "%s%s",
					a == o->cmd ? "" : " ", *a);
}

/**
 * struct child - the command, started but held before exec until the trace
 * file exists (its header names the pid).
 * @pid: the child.
 * @go: write end of the pipe it waits on (closed unread: it exits).
 * @err: read end of a close-on-exec pipe that brings back exec's errno.
 */
struct child {
	pid_t pid;
	int go;
	int err;
};

static void child_main(char **cmd, int go, int err)
{
	char c;
	int e;

	if (read(go, &c, 1) != 1)
		_exit(127);
	close(go);
	execvp(cmd[0], cmd);
	e = errno;
	if (write(err, &e, sizeof(e)) != sizeof(e))
		_exit(127);
	_exit(127);
}

/* Fork the command, held before exec. 0 or -errno. */
static int spawn(char **cmd, struct child *c)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC))
		goto close_go;
	c->pid = fork();
	if (c->pid < 0)
		goto close_err;
	if (c->pid == 0)
		child_main(cmd, go[0], err[1]);
	close(go[0]);
	close(err[1]);
	c->go = go[1];
	c->err = err[0];
	return 0;

close_err:
	close(err[0]);
	close(err[1]);
close_go:
	close(go[0]);
	close(go[1]);
	return -EAGAIN;
}

/* The trace could not be created: the held child exits unrun. */
static void abandon(struct child *c)
{
	close(c->go);
	close(c->err);
	waitpid(c->pid, NULL, 0);
}

/* Let it exec; 0, or -1 if exec failed (message printed, child reaped). */
static int release(struct child *c, char **cmd)
{
	int e;
	int ret = 0;

	if (write(c->go, "g", 1) != 1)
		ret = -1;
	close(c->go);
	if (!ret && read(c->err, &e, sizeof(e)) == sizeof(e)) {
		fprintf(stderr, "uvm-trace record: %s: %s\n", cmd[0], strerror(e));
		ret = -1;
	}
	close(c->err);
	if (ret)
		waitpid(c->pid, NULL, 0);
	return ret;
}

/* Record until the command exits; its exit status as a shell gives it. */
static int follow_child(struct rec_state *s)
{
	struct pollfd p = { .fd = s->stream, .events = POLLIN };
	int status;

	for (;;) {
		poll(&p, 1, 50);
		drain(s);
		if (rec_signal == SIGTERM || rec_signal == SIGHUP) {
			kill(s->root, rec_signal);
			rec_signal = 0;
		}
		if (waitpid(s->root, &status, WNOHANG) == s->root)
			break;
	}
	drain(s);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Record until the process is gone or we are told to stop. */
static int follow_pid(struct rec_state *s)
{
	struct pollfd p = { .fd = s->stream, .events = POLLIN };

	while (!rec_signal && alive(s->root)) {
		poll(&p, 1, 50);
		drain(s);
	}
	drain(s);
	return 0;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static int open_error(int err)
{
	if (err == -EPERM || err == -EACCES) {
		fprintf(stderr, "uvm-trace record: the module-wide event stream needs "
			"CAP_PERFMON or root (docs/trace-format.md)\n");
		return 1;
	}
	if (err == -ENOENT || err == -ENODEV || err == -ENXIO) {
		ut_open_error("uvm-trace record", err);
		return 1;
	}
	fprintf(stderr, "uvm-trace record: opening the event stream: %s\n", strerror(-err));
	return 1;
}

/*
 * Say now, not at the replay, when the trace cannot be replayed: fault
 * batches without their pages (--events left device_fault out), or
 * records lost (uvm-replay refuses an incomplete recording).
 */
static void say_replayable(const struct rec_state *s, const struct rec_opts *o)
{
	if (s->batches && !(o->types & (1ULL << UVM_EVENT_DEVICE_FAULT)))
		fprintf(stderr, "uvm-trace record: %s: %" PRIu64 " fault batches without "
			"their device_fault records (--events): uvm-replay cannot replay "
			"it\n", o->out, s->batches);
	if (s->lost)
		fprintf(stderr, "uvm-trace record: %s: incomplete (%" PRIu64 " records "
			"lost: the reader fell behind): uvm-replay refuses it unless "
			"--allow-incomplete\n", o->out, s->lost);
}

/* Record until the command exits or the process is gone; say what was kept. */
static int record(struct rec_state *s, const struct rec_opts *o)
{
	int st;

	catch_signals();
	st = o->cmd ? follow_child(s) : follow_pid(s);
	fprintf(stderr, "uvm-trace: %" PRIu64 " records to %s (%" PRIu64 " lost, %" PRIu64
		" of other VA spaces skipped)\n", s->kept, o->out, s->lost, s->skipped);
	say_replayable(s, o);
	return st;
}

/* The header's fields about this recording. */
static void set_recording(struct tr_header *h, const struct rec_opts *o)
{
	h->types = o->types;
	h->mode = o->cmd ? TR_MODE_COMMAND : TR_MODE_ATTACH;
	h->pid = (uint32_t)rec.root;
	snprintf(h->policy_env, sizeof(h->policy_env), "%s", getenv("UVM_POLICY") ?: "");
	set_command(h, o);
}

/* Write the trace of the command (held in @c) or of -p's process. */
static int record_to_file(const struct rec_opts *o, struct tr_info *info, struct child *c)
{
	int ret;

	set_recording(&info->h, o);
	ret = tr_create(&rec.w, o->out, info);
	if (ret) {
		fprintf(stderr, "uvm-trace record: %s: %s\n", o->out, strerror(-ret));
		if (o->cmd)
			abandon(c);
		return 1;
	}
	if (o->cmd && release(c, o->cmd)) {
		tr_finish(&rec.w);
		return 127;
	}
	ret = record(&rec, o);
	/* the stream's overflow records counted every record lost */
	info->h.lost = rec.lost;
	info->h.completeness = rec.lost ? TR_COMPLETE_NO : TR_COMPLETE_YES;
	if (!rec.write_err)
		rec.write_err = tr_rewrite_header(&rec.w, info);
	if (tr_finish(&rec.w) || rec.write_err) {
		fprintf(stderr, "uvm-trace record: %s: %s\n", o->out,
			strerror(rec.write_err ? -rec.write_err : errno));
		ret = 1;
	}
	return ret;
}

int tr_record_main(int argc, char **argv)
{
	struct tr_info info = { 0 };
	struct rec_opts o = { 0 };
	struct child c = { 0 };
	int uvm_fd, ret, st = 1;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;
	rec.stream = open_stream(o.types, &uvm_fd);
	if (rec.stream < 0)
		return open_error(rec.stream);
	ret = tr_sysinfo(&info, uvm_fd);
	if (ret) {
		st = open_error(ret);
		goto free_info;
	}
	rec.root = o.pid;
	if (o.cmd) {
		ret = spawn(o.cmd, &c);
		if (ret) {
			fprintf(stderr, "uvm-trace record: fork: %s\n", strerror(-ret));
			goto free_info;
		}
		rec.root = c.pid;
	}
	st = record_to_file(&o, &info, &c);
free_info:
	free(info.devs);
	free(info.nodes);
	close(rec.stream);
	close(uvm_fd);
	return st;
}
