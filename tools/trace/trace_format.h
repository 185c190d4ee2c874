/* SPDX-License-Identifier: MIT */
/*
 * trace_format.h - the uvm-trace file format (docs/trace-format.md is the
 * definition): a header, then blocks of records, then an end block. All
 * integers little-endian, every struct naturally aligned with no holes.
 */
#ifndef TRACE_FORMAT_H
#define TRACE_FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include "uapi/uvm.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "uvm-trace writes its little-endian format with native stores"
#endif

#define TR_MAGIC		"UVMTRACE"	/* 8 bytes, no NUL */
#define TR_VERSION		2	/* written; 1 is still read */
#define TR_HEADER_V1_SIZE	512	/* a version 1 header: no completeness */
#define TR_BLOCK_MAGIC		0x424d5655u	/* "UVMB" on disk */
#define TR_BLOCK_RECORDS	1024		/* most records in one block */
#define TR_RECORD_SIZE		128		/* sizeof(struct uvm_event) */

/* struct tr_header.compression: what the writer could use. */
#define TR_COMP_NONE		0
#define TR_COMP_ZLIB		1

/* struct tr_block.flags */
#define TR_BLOCK_ZLIB		(1U << 0)	/* payload is a zlib stream */
#define TR_BLOCK_END		(1U << 1)	/* the last block: no payload */

/* struct tr_header.mode */
#define TR_MODE_COMMAND		0	/* uvm-trace record -- CMD */
#define TR_MODE_ATTACH		1	/* uvm-trace record -p PID */
#define TR_MODE_IMPORT		2	/* uvm-trace import (docs/trace-import.md) */
#define TR_MODE_NVIDIA		3	/* uvm-trace record-nvidia -- CMD */

/* struct tr_header.completeness */
#define TR_COMPLETE_UNKNOWN	0	/* not checked (an import, a version 1 file) */
#define TR_COMPLETE_YES		1	/* checked: nothing was lost */
#define TR_COMPLETE_NO		2	/* checked: records were lost (lost, nv_dropped) */

#define TR_NV_TYPES		16	/* nv_dropped[]: NVIDIA's UvmEventType 0..15 */

/* Record types a trace may hold: the stream's, then the trace-only ones. */
#define TR_TYPES		UVM_EVENT_TRACE_COUNT

/**
 * struct tr_header - the start of a trace file (768 bytes; a version 1
 * file's is the first 512, read with the rest zero).
 */
struct tr_header {
	char magic[8];
	uint16_t version;
	uint16_t header_size;
	uint32_t header_total;
	uint16_t record_size;
	uint16_t event_version;
	uint16_t compression;
	uint16_t block_records;
	uint64_t types;
	uint32_t clock_id;
	uint32_t pid;
	uint64_t start_ns;
	uint64_t start_realtime_ns;
	uint32_t abi_version;
	uint32_t page_size;
	uint32_t block_size;
	uint32_t num_devices;
	uint32_t num_nodes;
	uint32_t mode;
	uint64_t module_caps;
	uint32_t evict_policy;
	uint32_t fault_batch;
	uint64_t evict_seed;
	uint32_t prefetch_policy;
	uint32_t prefetch_threshold;
	uint32_t prefetch_pages;
	uint32_t thrash_policy;
	uint32_t thrash_threshold;
	uint32_t thrash_window_us;
	uint32_t thrash_nap_us;
	uint32_t thrash_pin_ms;
	char module_version[32];
	char tool_version[16];
	char hostname[64];
	char policy_env[128];
	char command[136];
	/* version 2: completeness (docs/trace-format.md) */
	uint64_t lost;		/* records the recording lost, every source */
	uint32_t completeness;	/* TR_COMPLETE_* */
	uint32_t pad;
	uint64_t nv_dropped[TR_NV_TYPES];	/* NVIDIA's drops per UvmEventType */
	char driver_version[32];	/* NVIDIA's driver (TR_MODE_NVIDIA), or empty */
	uint8_t reserved[80];	/* zero */
};

/** struct tr_device - one device, after the header (96 bytes). */
struct tr_device {
	uint32_t id;
	uint32_t backend;
	int32_t numa_node;
	uint32_t pad;
	uint64_t caps;
	uint64_t mem_total;
	char name[64];
};

/** struct tr_node - one host NUMA node, after the devices (16 bytes). */
struct tr_node {
	int32_t node;
	uint32_t pad;
	uint64_t mem_total;
};

/** struct tr_block - the header of a block of records (32 bytes). */
struct tr_block {
	uint32_t magic;
	uint16_t flags;
	uint16_t pad;
	uint32_t records;
	uint32_t raw_bytes;
	uint32_t stored_bytes;
	uint32_t crc;
	uint64_t first;
};

_Static_assert(sizeof(struct tr_header) == 768, "tr_header");
_Static_assert(__builtin_offsetof(struct tr_header, lost) == TR_HEADER_V1_SIZE,
	       "tr_header v1 part");
_Static_assert(sizeof(struct tr_device) == 96, "tr_device");
_Static_assert(sizeof(struct tr_node) == 16, "tr_node");
_Static_assert(sizeof(struct tr_block) == 32, "tr_block");
_Static_assert(sizeof(struct uvm_event) == TR_RECORD_SIZE, "record");
_Static_assert(sizeof(struct uvm_event_kernel) == 96, "kernel record");
_Static_assert(__builtin_offsetof(struct uvm_event, u.kernel.name) == 72, "kernel name");

/*
 * A kernel record's name_hash: FNV-1a 64 of the whole name
 * (docs/trace-format.md).
 */
static inline uint64_t tr_kernel_hash(const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/** struct tr_info - a header and its tables. */
struct tr_info {
	struct tr_header h;
	struct tr_device *devs;
	struct tr_node *nodes;
};

/* Writing (trace_write.c). */
struct tr_writer {
	FILE *f;
	const char *path;
	struct uvm_event buf[TR_BLOCK_RECORDS];
	unsigned int n;
	uint64_t index;		/* records written so far */
	uint64_t stored;	/* bytes written so far */
	unsigned char *zbuf;
	unsigned long zcap;
};

int tr_create(struct tr_writer *w, const char *path, struct tr_info *info);
int tr_append(struct tr_writer *w, const struct uvm_event *ev);
int tr_finish(struct tr_writer *w);
int tr_rewrite_header(struct tr_writer *w, struct tr_info *info);

/* Reading (trace_read.c). */
struct tr_reader {
	FILE *f;
	struct tr_info info;
	struct uvm_event buf[TR_BLOCK_RECORDS];
	unsigned int n, pos;
	uint64_t index;		/* the next record's index */
	uint64_t block_off;	/* offset of the block buf came from */
	unsigned char *zbuf;
	unsigned long zcap;
	int done;
	char err[256];
};

int tr_open(struct tr_reader *r, const char *path);
int tr_next(struct tr_reader *r, const struct uvm_event **ev);
void tr_close(struct tr_reader *r);
int tr_kernel_check(const struct uvm_event *ev, char *why, size_t len);

/* Record types and fields (trace_fields.c). */
struct tr_field {
	const char *name;
	uint16_t off;		/* in struct uvm_event */
	uint8_t size;		/* 2, 4 or 8; a string's: its bytes */
	uint8_t is_signed;
	uint8_t is_string;	/* char[size], NUL-padded (a kernel's name) */
};

struct tr_type {
	const char *name;
	const struct tr_field *fields;
	unsigned int nfields;
};

extern const struct tr_field tr_hdr_fields[];
extern const unsigned int tr_hdr_nfields;
extern const struct tr_type tr_types[TR_TYPES];

const char *tr_type_name(unsigned int type);
int tr_parse_types(const char *list, uint64_t *mask);
uint64_t tr_field_u(const struct uvm_event *ev, const struct tr_field *f);
int tr_field_print(FILE *out, const struct uvm_event *ev, const struct tr_field *f);
size_t tr_field_str(const struct uvm_event *ev, const struct tr_field *f, char *buf);
const char *tr_policy_name(unsigned int kind, unsigned int val);

/* The subcommands. */
int tr_record_main(int argc, char **argv);
int tr_record_nvidia_main(int argc, char **argv);
int tr_show_main(int argc, char **argv);
int tr_export_main(int argc, char **argv);

/* Collecting the header (trace_sysinfo.c). */
int tr_sysinfo(struct tr_info *info, int uvm_fd);

#define TR_EXIT_USAGE		2

#endif /* TRACE_FORMAT_H */
