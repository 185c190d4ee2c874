// SPDX-License-Identifier: MIT
/*
 * trace_write.c - writing a trace file: the header and its tables, blocks
 * of up to TR_BLOCK_RECORDS records (zlib-compressed when that is
 * smaller), the end block (docs/trace-format.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace_format.h"

/* Write @len bytes, updating the running CRC @crc if not NULL. */
static int put(struct tr_writer *w, const void *p, size_t len, uLong *crc)
{
	if (len && fwrite(p, 1, len, w->f) != len)
		return -EIO;
	if (crc && len)	/* crc32(c, NULL, 0) is not c: it starts over */
		*crc = crc32(*crc, p, len);
	w->stored += len;
	return 0;
}

static int write_header(struct tr_writer *w, struct tr_info *info)
{
	struct tr_header *h = &info->h;
	uLong crc = crc32(0, NULL, 0);
	uint32_t c;
	int ret;

	memcpy(h->magic, TR_MAGIC, sizeof(h->magic));
	h->version = TR_VERSION;
	h->header_size = sizeof(*h);
	h->header_total = sizeof(*h) + h->num_devices * sizeof(struct tr_device) +
			  h->num_nodes * sizeof(struct tr_node) + sizeof(c);
	h->record_size = TR_RECORD_SIZE;
	h->event_version = UVM_EVENTS_VERSION;
	h->compression = TR_COMP_ZLIB;
	h->block_records = TR_BLOCK_RECORDS;
	ret = put(w, h, sizeof(*h), &crc);
	if (!ret)
		ret = put(w, info->devs, h->num_devices * sizeof(*info->devs), &crc);
	if (!ret)
		ret = put(w, info->nodes, h->num_nodes * sizeof(*info->nodes), &crc);
	c = (uint32_t)crc;
	return ret ?: put(w, &c, sizeof(c), NULL);
}

/**
 * tr_create() - open @path for writing and write the header.
 * @w: the writer.
 * @path: the file (truncated if it exists).
 * @info: the header (its fixed fields are filled in here) and tables.
 *
 * Return: 0 or -errno.
 */
int tr_create(struct tr_writer *w, const char *path, struct tr_info *info)
{
	int ret;

	w->n = 0;
	w->index = 0;
	w->stored = 0;
	w->path = path;
	w->zcap = compressBound(sizeof(w->buf));
	w->zbuf = malloc(w->zcap);
	if (!w->zbuf)
		return -ENOMEM;
	w->f = fopen(path, "we");
	if (!w->f) {
		ret = -errno;
		goto free_zbuf;
	}
	ret = write_header(w, info);
	if (ret)
		goto close_file;
	return 0;

close_file:
	fclose(w->f);
free_zbuf:
	free(w->zbuf);
	return ret;
}

/* The records buffered so far as one block; stored raw if zlib saves nothing. */
static int flush_block(struct tr_writer *w)
{
	struct tr_block b = {
		.magic = TR_BLOCK_MAGIC, .records = w->n,
		.raw_bytes = w->n * TR_RECORD_SIZE, .first = w->index,
	};
	uLongf zlen = w->zcap;
	const void *payload = w->buf;
	int ret;

	if (!w->n)
		return 0;
	b.stored_bytes = b.raw_bytes;
	if (compress2(w->zbuf, &zlen, (const Bytef *)w->buf, b.raw_bytes, 1) == Z_OK &&
	    zlen < b.raw_bytes) {
		b.flags |= TR_BLOCK_ZLIB;
		b.stored_bytes = zlen;
		payload = w->zbuf;
	}
	b.crc = crc32(0, payload, b.stored_bytes);
	ret = put(w, &b, sizeof(b), NULL);
	if (!ret)
		ret = put(w, payload, b.stored_bytes, NULL);
	w->index += w->n;
	w->n = 0;
	return ret;
}

/* Add one record; a full block is written out. 0 or -errno. */
int tr_append(struct tr_writer *w, const struct uvm_event *ev)
{
	w->buf[w->n++] = *ev;
	return w->n == TR_BLOCK_RECORDS ? flush_block(w) : 0;
}

/**
 * tr_rewrite_header() - write the header again, with what is known only at
 * the end (the completeness fields): the same size, so the blocks stay.
 * @w: the writer.
 * @info: the header and tables given to tr_create(), updated.
 *
 * A file that cannot seek (a pipe) keeps the first header: its
 * completeness stays "unknown".
 *
 * Return: 0 or -errno.
 */
int tr_rewrite_header(struct tr_writer *w, struct tr_info *info)
{
	uint64_t stored = w->stored;
	int ret;

	if (fflush(w->f))
		return -errno;
	if (fseek(w->f, 0, SEEK_SET))
		return errno == ESPIPE ? 0 : -errno;
	ret = write_header(w, info);
	w->stored = stored;
	if (fflush(w->f) || fseek(w->f, 0, SEEK_END))
		return ret ?: -errno;
	return ret;
}

/* The last block, the end block, and close. 0 or -errno. */
int tr_finish(struct tr_writer *w)
{
	struct tr_block end = { .magic = TR_BLOCK_MAGIC, .flags = TR_BLOCK_END };
	int ret = flush_block(w);

	end.first = w->index;
	end.crc = crc32(0, NULL, 0);
	if (!ret)
		ret = put(w, &end, sizeof(end), NULL);
	if (fclose(w->f) && !ret)
		ret = -errno;
	free(w->zbuf);
	return ret;
}
