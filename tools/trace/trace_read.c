// SPDX-License-Identifier: MIT
/*
 * trace_read.c - reading a trace file, checking everything: the magic, the
 * version, the header's checksum, every block's header, checksum, payload
 * and records, the end block. An error names the record (its index) and
 * the offset in the file where the problem is.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace_format.h"

__attribute__((format(printf, 2, 3)))
static int fail(struct tr_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* A version 1 header is the first 512 bytes of ours; the rest reads 0. */
static int check_header(struct tr_reader *r, size_t got)
{
	struct tr_header *h = &r->info.h;
	size_t size = h->version == 1 ? TR_HEADER_V1_SIZE : sizeof(*h);

	if (got < sizeof(h->magic) || memcmp(h->magic, TR_MAGIC, sizeof(h->magic)))
		return fail(r, "offset 0: not a uvm trace (no \"%s\" magic)", TR_MAGIC);
	if (got >= 10 && h->version != TR_VERSION && h->version != 1)
		return fail(r, "offset 8: format version %u, this uvm-trace reads 1 and %u",
			    h->version, TR_VERSION);
	if (got < size)
		return fail(r, "offset %zu: truncated header (%zu of %zu bytes)", got,
			    got, size);
	if (h->version == 1)
		memset((char *)h + TR_HEADER_V1_SIZE, 0, sizeof(*h) - TR_HEADER_V1_SIZE);
	if (h->header_size != size || h->record_size != TR_RECORD_SIZE ||
	    h->num_devices > UVM_MAX_DEVICES || h->num_nodes > 1024 ||
	    h->header_total != size + h->num_devices * sizeof(struct tr_device) +
			       h->num_nodes * sizeof(struct tr_node) + 4)
		return fail(r, "offset 10: corrupted header (bad sizes)");
	if (h->event_version != UVM_EVENTS_VERSION)
		return fail(r, "offset 18: event records of version %u, this uvm-trace "
			    "reads %u", h->event_version, UVM_EVENTS_VERSION);
	if (h->completeness > TR_COMPLETE_NO)
		return fail(r, "offset 520: corrupted header (completeness %u)",
			    h->completeness);
	return 0;
}

/* The device and node tables and the header's checksum. */
static int read_tables(struct tr_reader *r)
{
	struct tr_header *h = &r->info.h;
	size_t nd = h->num_devices * sizeof(struct tr_device);
	size_t nn = h->num_nodes * sizeof(struct tr_node);
	uLong crc = crc32(0, (const Bytef *)h, h->header_size);
	uint32_t c;

	r->info.devs = calloc(1, nd + 1);
	r->info.nodes = calloc(1, nn + 1);
	if (!r->info.devs || !r->info.nodes)
		return fail(r, "out of memory");
	if (fread(r->info.devs, 1, nd, r->f) != nd ||
	    fread(r->info.nodes, 1, nn, r->f) != nn || fread(&c, 1, 4, r->f) != 4)
		return fail(r, "offset %u: truncated header (device and node tables)",
			    h->header_size);
	crc = crc32(crc, (const Bytef *)r->info.devs, nd);
	crc = crc32(crc, (const Bytef *)r->info.nodes, nn);
	if (c != (uint32_t)crc)
		return fail(r, "offset 0: corrupted header (checksum)");
	return 0;
}

/**
 * tr_open() - open a trace and check its header.
 * @r: the reader.
 * @path: the file.
 *
 * Return: 0, or -1 with @r->err saying why (the caller calls tr_close()).
 */
int tr_open(struct tr_reader *r, const char *path)
{
	size_t got;

	memset(&r->info, 0, sizeof(r->info));
	r->n = r->pos = 0;
	r->index = 0;
	r->done = 0;
	r->zbuf = NULL;
	r->zcap = 0;
	r->f = fopen(path, "re");
	if (!r->f)
		return fail(r, "%s", strerror(errno));
	got = fread(&r->info.h, 1, TR_HEADER_V1_SIZE, r->f);
	if (got == TR_HEADER_V1_SIZE && r->info.h.version != 1)
		got += fread((char *)&r->info.h + got, 1,
			     sizeof(r->info.h) - TR_HEADER_V1_SIZE, r->f);
	if (check_header(r, got))
		return -1;
	return read_tables(r);
}

void tr_close(struct tr_reader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->info.devs);
	free(r->info.nodes);
	free(r->zbuf);
	r->f = NULL;
	r->info.devs = NULL;
	r->info.nodes = NULL;
	r->zbuf = NULL;
}

/* The block header at @off: sane, and where the previous block ended. */
static int check_block(struct tr_reader *r, const struct tr_block *b, uint64_t off)
{
	if (b->magic != TR_BLOCK_MAGIC || b->flags & ~(TR_BLOCK_ZLIB | TR_BLOCK_END))
		return fail(r, "record %llu (block at offset %llu): corrupted block header",
			    (unsigned long long)r->index, (unsigned long long)off);
	if (b->first != r->index)
		return fail(r, "record %llu (block at offset %llu): the block says it starts "
			    "at record %llu", (unsigned long long)r->index,
			    (unsigned long long)off, (unsigned long long)b->first);
	if (b->flags & TR_BLOCK_END)
		return b->records || b->stored_bytes ?
		       fail(r, "record %llu (block at offset %llu): corrupted end block",
			    (unsigned long long)r->index, (unsigned long long)off) : 0;
	if (!b->records || b->records > TR_BLOCK_RECORDS ||
	    b->raw_bytes != b->records * TR_RECORD_SIZE ||
	    b->stored_bytes > compressBound(b->raw_bytes) ||
	    (!(b->flags & TR_BLOCK_ZLIB) && b->stored_bytes != b->raw_bytes))
		return fail(r, "record %llu (block at offset %llu): corrupted block header "
			    "(sizes)", (unsigned long long)r->index, (unsigned long long)off);
	return 0;
}

/* Read the stored payload of @b and unpack it into r->buf. */
static int load_payload(struct tr_reader *r, const struct tr_block *b, uint64_t off)
{
	unsigned long long last = r->index + b->records - 1;
	uLongf len = b->raw_bytes;
	size_t got;

	if (r->zcap < b->stored_bytes) {
		free(r->zbuf);
		r->zcap = compressBound(sizeof(r->buf));
		r->zbuf = malloc(r->zcap);
		if (!r->zbuf)
			return fail(r, "out of memory");
	}
	got = fread(r->zbuf, 1, b->stored_bytes, r->f);
	if (got != b->stored_bytes)
		return fail(r, "records %llu..%llu (block at offset %llu): truncated: %zu of "
			    "%u bytes", (unsigned long long)r->index, last,
			    (unsigned long long)off, got, b->stored_bytes);
	if (crc32(0, r->zbuf, b->stored_bytes) != b->crc)
		return fail(r, "records %llu..%llu (block at offset %llu): corrupted "
			    "(checksum mismatch)", (unsigned long long)r->index, last,
			    (unsigned long long)off);
	if (!(b->flags & TR_BLOCK_ZLIB)) {
		memcpy(r->buf, r->zbuf, b->raw_bytes);
		return 0;
	}
	if (uncompress((Bytef *)r->buf, &len, r->zbuf, b->stored_bytes) != Z_OK ||
	    len != b->raw_bytes)
		return fail(r, "records %llu..%llu (block at offset %llu): corrupted "
			    "(does not decompress)", (unsigned long long)r->index, last,
			    (unsigned long long)off);
	return 0;
}

/**
 * tr_kernel_check() - is @ev a kernel record as docs/trace-format.md has
 * it: its timestamp its start, its end not before, a name of name_len
 * bytes (none NUL) NUL-padded, the hash of a whole name its own.
 * @ev: a UVM_EVENT_KERNEL record.
 * @why: what is wrong, when it is.
 * @len: @why's size.
 *
 * Return: 0, or -1 with @why.
 */
int tr_kernel_check(const struct uvm_event *ev, char *why, size_t len)
{
	const struct uvm_event_kernel *k = &ev->u.kernel;
	size_t kept = k->name_len < UVM_EVENT_KERNEL_NAME ? k->name_len :
		      UVM_EVENT_KERNEL_NAME, i;

	if (k->start_ns != ev->hdr.timestamp_ns) {
		snprintf(why, len, "its timestamp %llu is not its start %llu",
			 (unsigned long long)ev->hdr.timestamp_ns,
			 (unsigned long long)k->start_ns);
		return -1;
	}
	if (k->end_ns < k->start_ns) {
		snprintf(why, len, "it ends (%llu) before it starts (%llu)",
			 (unsigned long long)k->end_ns, (unsigned long long)k->start_ns);
		return -1;
	}
	if (!k->name_len || strnlen(k->name, kept) != kept) {
		snprintf(why, len, "its name is not %u bytes without a NUL", k->name_len);
		return -1;
	}
	for (i = kept; i < UVM_EVENT_KERNEL_NAME; i++) {
		if (k->name[i]) {
			snprintf(why, len, "the padding after its name is not zero (byte %zu)",
				 i);
			return -1;
		}
	}
	if (k->name_len <= UVM_EVENT_KERNEL_NAME &&
	    k->name_hash != tr_kernel_hash(k->name, k->name_len)) {
		snprintf(why, len, "its name_hash is not its name's");
		return -1;
	}
	return 0;
}

/* Each record of the block: a known type, the size and version of ours. */
static int check_records(struct tr_reader *r, unsigned int n, uint64_t off)
{
	unsigned int i;
	char why[128];

	for (i = 0; i < n; i++) {
		const struct uvm_event_header *e = &r->buf[i].hdr;

		if (e->type >= TR_TYPES || e->size != TR_RECORD_SIZE ||
		    e->version != UVM_EVENTS_VERSION)
			return fail(r, "record %llu (block at offset %llu): bad record header "
				    "(type %u, size %u, version %u)",
				    (unsigned long long)(r->index + i), (unsigned long long)off,
				    e->type, e->size, e->version);
		if (e->type == UVM_EVENT_KERNEL &&
		    tr_kernel_check(&r->buf[i], why, sizeof(why)))
			return fail(r, "record %llu (block at offset %llu): a bad kernel "
				    "record: %s", (unsigned long long)(r->index + i),
				    (unsigned long long)off, why);
	}
	return 0;
}

/* After the end block: nothing. */
static int check_eof(struct tr_reader *r, uint64_t off)
{
	if (fgetc(r->f) != EOF)
		return fail(r, "record %llu (offset %llu): data after the end block",
			    (unsigned long long)r->index, (unsigned long long)off);
	r->done = 1;
	return 0;
}

static int next_block(struct tr_reader *r)
{
	uint64_t off = (uint64_t)ftello(r->f);
	struct tr_block b;
	size_t got = fread(&b, 1, sizeof(b), r->f);

	if (!got)
		return fail(r, "record %llu (offset %llu): truncated: the file ends "
			    "without its end block", (unsigned long long)r->index,
			    (unsigned long long)off);
	if (got != sizeof(b))
		return fail(r, "record %llu (block at offset %llu): truncated block header",
			    (unsigned long long)r->index, (unsigned long long)off);
	if (check_block(r, &b, off))
		return -1;
	if (b.flags & TR_BLOCK_END)
		return check_eof(r, off + sizeof(b));
	if (load_payload(r, &b, off) || check_records(r, b.records, off))
		return -1;
	r->block_off = off;
	r->n = b.records;
	r->pos = 0;
	return 0;
}

/**
 * tr_next() - the next record.
 * @r: the reader.
 * @ev: set to the record (valid until the next call).
 *
 * Return: 1, 0 at the end of the trace, -1 with @r->err on an error.
 */
int tr_next(struct tr_reader *r, const struct uvm_event **ev)
{
	while (r->pos == r->n) {
		if (r->done)
			return 0;
		r->index += r->n;
		r->n = r->pos = 0;
		if (next_block(r))
			return -1;
	}
	*ev = &r->buf[r->pos++];
	return 1;
}
