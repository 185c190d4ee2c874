/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - uvm_fuzz: shared types of the supervisor and the workers.
 *
 * Address space of a worker process:
 *
 *   FZ_ARENA_BASE  FZ_SLOTS slots of FZ_SLOT_SIZE: every region the fuzzer
 *                  maps (managed, device, pinned, registered, anonymous,
 *                  file) lives in a slot, mapped MAP_FIXED over a PROT_NONE
 *                  placeholder; an unmapped slot gets its placeholder back.
 *                  The first slots are the threads' scratch buffers.
 *   + FZ_GUARD     PROT_NONE: a kernel write that runs past the arena faults.
 *   FZ_PRIV_BASE   per-thread private buffers (data-integrity checks) that
 *                  no random operation ever targets.
 *
 * Random pointers (CPU accesses, ioctl output buffers, read(2) targets) are
 * arena addresses or addresses no write can reach (NULL, kernel, text), so
 * a stale pointer never corrupts the fuzzer's own heap or stacks.
 */
#ifndef UVM_FUZZ_H
#define UVM_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../include/uapi/uvm.h"

#define FZ_PAGE			4096UL
#define FZ_MIB			(1UL << 20)
#define FZ_ARENA_BASE		0x100000000000UL
#define FZ_SLOT_SIZE		(16 * FZ_MIB)
#define FZ_SLOTS		48
#define FZ_ARENA_SIZE		(FZ_SLOT_SIZE * FZ_SLOTS)
#define FZ_GUARD		(1UL << 30)
#define FZ_PRIV_BASE		(FZ_ARENA_BASE + FZ_ARENA_SIZE + FZ_GUARD)
#define FZ_PRIV_SIZE		(4 * FZ_MIB)
#define FZ_SCRATCH_SIZE		(4 * FZ_MIB)
#define FZ_REGION_MAX		(8 * FZ_MIB)
#define FZ_TASK_SIZE		0x7ffffffff000UL

#define FZ_MAX_WORKERS		16
#define FZ_MAX_THREADS		8
#define FZ_MAX_DEVICES		8
#define FZ_HIST			16
#define FZ_MAX_OPS		64
#define FZ_FDS			3	/* own VA spaces; one more: foreign */
#define FZ_FILE_SIZE		(64 * FZ_MIB)	/* the tmpfs and O_DIRECT files */
#define FZ_INTEG_OFF		(48 * FZ_MIB)	/* their integrity-check part */

/* Region kinds. */
enum fz_kind {
	FZ_MANAGED, FZ_DEVICE, FZ_PINNED, FZ_REGISTERED, FZ_ANON, FZ_FILE,
	FZ_KINDS
};

#define FZ_ANY_SCRATCH		(-2)	/* fz_pick_snapshot(): scratch too */

enum fz_slot_state { FZ_SLOT_FREE, FZ_SLOT_BUSY, FZ_SLOT_LIVE, FZ_SLOT_SCRATCH };

struct fz_region {
	int state;			/* enum fz_slot_state */
	int kind;			/* enum fz_kind */
	uintptr_t addr;
	size_t len;
	int fd;				/* the /dev/uvm file it came from */
	int dev;			/* device of a device allocation */
	uint64_t handle;
};

/* Per-thread progress, in memory shared with the supervisor. */
struct fz_tstat {
	volatile uint64_t ops;
	volatile uint32_t cur_op;	/* op index + 1, 0 when idle */
	volatile uint32_t hist_pos;
	volatile uint32_t hist[FZ_HIST];
};

struct fz_wstat {
	volatile pid_t pid;
	volatile uint32_t gen;
	volatile uint64_t seed;
	volatile int uvm_fd;		/* its first /dev/uvm fd (pidfd_getfd) */
	struct fz_tstat th[FZ_MAX_THREADS];
};

struct fz_shared {
	volatile int stop;
	volatile uint64_t data_errors;
	volatile uint64_t hangs;
	char data_msg[256];
	char dio_dir[64];		/* where O_DIRECT works, "" if nowhere */
	volatile uint64_t op_ok[FZ_MAX_OPS];	/* returned >= 0 */
	volatile uint64_t op_err[FZ_MAX_OPS];	/* returned -errno */
	struct fz_wstat w[FZ_MAX_WORKERS];
};

struct fz_opts {
	uint64_t seed;
	unsigned int seconds;
	unsigned int workers;
	unsigned int threads;
	unsigned int reap_timeout;
	int verbose;
	char skip[512];			/* ",name,name," */
	char only[512];
};

struct fz_worker;

struct fz_thread {
	struct fz_worker *w;
	int idx;
	uint64_t rng;
	struct fz_tstat *st;
	char *scratch;			/* in the arena, never unmapped */
	char *priv;			/* private, never a random target */
	int pipe[2];
	sigjmp_buf env;
	volatile int guarded;
	uint64_t faults;		/* SIGSEGV/SIGBUS caught */
	char note[96];			/* details of a data error */
};

struct fz_worker {
	int idx;
	uint64_t seed;
	struct fz_shared *sh;
	int fds[FZ_FDS + 1];		/* [FZ_FDS]: another process's VA space */
	int ndev;
	int ndrm;
	int drm[FZ_MAX_DEVICES];
	int memfd;			/* tmpfs file for FZ_FILE and I/O */
	int dio_fd;			/* O_DIRECT file, -1 if none */
	int proc_mem;			/* /proc/self/mem */
	int nthreads;
	struct fz_region slots[FZ_SLOTS];
	struct fz_thread th[FZ_MAX_THREADS];
	volatile int live_bytes_mb;
};

struct fz_op {
	const char *name;
	int (*fn)(struct fz_thread *t);
	unsigned int weight;
};

extern struct fz_opts fz_opts;

/* fuzz_rand.c: PRNG and interesting values. */
uint64_t fz_mix(uint64_t a, uint64_t b);
uint64_t fz_rand(struct fz_thread *t);
uint64_t fz_below(struct fz_thread *t, uint64_t n);
int fz_chance(struct fz_thread *t, unsigned int percent);
uint64_t fz_len(struct fz_thread *t, size_t base);
uint32_t fz_u32(struct fz_thread *t);
int32_t fz_dev_id(struct fz_thread *t);
int32_t fz_node_id(struct fz_thread *t);
uint64_t fz_wild_addr(struct fz_thread *t);
uint64_t fz_in_addr(struct fz_thread *t);
uint64_t fz_out_addr(struct fz_thread *t, size_t *len);
int fz_is_arena(uintptr_t a);

/* fuzz_mm.c: regions. */
struct fz_region *fz_pick(struct fz_thread *t, int kind);
int fz_pick_snapshot(struct fz_thread *t, int kind, struct fz_region *r);
uint64_t fz_region_addr(struct fz_thread *t, const struct fz_region *r);
int fz_arena_init(struct fz_worker *w);
int fz_uvm_fd(struct fz_thread *t);
extern const struct fz_op fz_mm_ops[];
extern const unsigned int fz_mm_nops;

/* fuzz_ioctl.c */
int fz_ioctl_one(struct fz_thread *t, int fd, unsigned int which);
int fz_set_state(struct fz_thread *t, int fd, uintptr_t a, size_t len,
		 unsigned int state);
extern const struct fz_op fz_ioctl_ops[];
extern const unsigned int fz_ioctl_nops;

/* fuzz_access.c */
void fz_guard_install(void);
extern const struct fz_op fz_access_ops[];
extern const unsigned int fz_access_nops;
void fz_cpu_touch(struct fz_thread *t, uintptr_t a, size_t len, int write);
int fz_memset(struct fz_thread *t, void *p, int c, size_t n);

/* fuzz_owner.c */
extern const struct fz_op fz_owner_ops[];
extern const unsigned int fz_owner_nops;

/* fuzz_worker.c */
int fz_skipped(const char *name);
const struct fz_op *fz_op_get(unsigned int i, unsigned int *nops);
void fz_thread_bind(struct fz_thread *t);
void fz_worker_main(struct fz_shared *sh, int idx, uint64_t seed,
		    int nthreads, int only_ioctls) __attribute__((noreturn));
void fz_data_error(struct fz_thread *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define FZ_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif /* UVM_FUZZ_H */
