// SPDX-License-Identifier: GPL-2.0
/*
 * replay_kernels.c - a recording's kernel launches and the replay's
 * counts inside each (replay_kernels.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay_kernels.h"
#include "trace/trace_format.h"

/* The number after "@key": in @line: 0, or -1. */
static int num(const char *line, const char *key, uint64_t *v)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return -1;
	p += strlen(key);
	*v = strtoull(p, &end, 10);
	return end == p ? -1 : 0;
}

/*
 * The string after "name":", up to its quote (a compiler's names have no
 * escapes); kept printable and free of '\\' so it can be written as JSON.
 */
static int name(const char *line, char *out, size_t len)
{
	const char *p = strstr(line, "\"name\":\""), *q;
	size_t i = 0;

	if (!p)
		return -1;
	p += 8;
	q = strchr(p, '"');
	if (!q)
		return -1;
	for (; p < q && i + 1 < len; p++)
		out[i++] = *p == '\\' || (unsigned char)*p < 0x20 ? '?' : *p;
	out[i] = 0;
	return 0;
}

static int add(struct rp_kernels *k, size_t *cap, const struct rp_kernel *x)
{
	struct rp_kernel *v;

	if (k->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		v = realloc(k->v, *cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		k->v = v;
	}
	k->v[k->n++] = *x;
	return 0;
}

/*
 * A kernel record as a kernel: its name kept printable and free of '"'
 * and '\\' (it is written as JSON); a name the record cut is its first
 * bytes, "...", and the whole name's hash.
 */
static void from_record(const struct uvm_event_kernel *r, struct rp_kernel *x)
{
	size_t n = r->name_len < UVM_EVENT_KERNEL_NAME ? r->name_len : UVM_EVENT_KERNEL_NAME, i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < n; i++)
		x->name[i] = r->name[i] == '\\' || r->name[i] == '"' ||
			     (unsigned char)r->name[i] < 0x20 ? '?' : r->name[i];
	if (r->name_len > UVM_EVENT_KERNEL_NAME)
		snprintf(x->name + n, sizeof(x->name) - n, "...%016" PRIx64,
			 (uint64_t)r->name_hash);
	x->start = r->start_ns;
	x->end = r->end_ns;
}

/* The next kernel of @r into @x: 1, 0 at the end, -1 with the reader's error. */
static int next_kernel(struct tr_reader *r, struct rp_kernel *x)
{
	const struct uvm_event *e;
	int ret;

	while ((ret = tr_next(r, &e)) > 0) {
		if (e->hdr.type == UVM_EVENT_KERNEL) {
			from_record(&e->u.kernel, x);
			return 1;
		}
	}
	return ret;
}

int rpk_load_trace(struct rp_kernels *k, const char *trace, char *err, size_t len)
{
	static struct tr_reader r;
	struct rp_kernel x;
	size_t cap = 0;
	int ret;

	memset(k, 0, sizeof(*k));
	ret = tr_open(&r, trace) ? -1 : 0;
	while (!ret && (ret = next_kernel(&r, &x)) > 0) {
		ret = 0;
		if (k->n && x.start < k->v[k->n - 1].start) {
			snprintf(r.err, sizeof(r.err), "record %llu: a kernel that starts "
				 "before the one before it",
				 (unsigned long long)(r.index + r.pos - 1));
			ret = -1;
		} else if (add(k, &cap, &x)) {
			snprintf(r.err, sizeof(r.err), "out of memory");
			ret = -1;
		}
	}
	if (ret < 0) {
		snprintf(err, len, "%s: %s", trace, r.err);
		rpk_free(k);
	}
	tr_close(&r);
	return ret < 0 ? -1 : 0;
}

/* Does @path begin as a trace does? */
static bool is_trace(const char *path)
{
	char magic[sizeof(TR_MAGIC) - 1];
	FILE *f = fopen(path, "re");
	bool yes;

	if (!f)
		return false;
	yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      !memcmp(magic, TR_MAGIC, sizeof(magic));
	fclose(f);
	return yes;
}

int rpk_load(struct rp_kernels *k, const char *path, char *err, size_t len)
{
	struct rp_kernel x;
	char line[2048];
	size_t cap = 0;
	unsigned int no = 0;
	FILE *f;

	if (is_trace(path))
		return rpk_load_trace(k, path, err, len);
	memset(k, 0, sizeof(*k));
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		no++;
		memset(&x, 0, sizeof(x));
		if (num(line, "\"start_ns\":", &x.start) || num(line, "\"end_ns\":", &x.end) ||
		    name(line, x.name, sizeof(x.name)) || x.end < x.start ||
		    (k->n && x.start < k->v[k->n - 1].start)) {
			snprintf(err, len, "%s: line %u: not a kernel launch of "
				 "record-nvidia's (name, start_ns <= end_ns, in order)", path, no);
			goto fail;
		}
		if (add(k, &cap, &x)) {
			snprintf(err, len, "out of memory");
			goto fail;
		}
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	rpk_free(k);
	return -1;
}

bool rpk_due(const struct rp_kernels *k, uint64_t ts)
{
	if (k->next >= k->n)
		return false;
	return k->open ? ts > k->v[k->next].end : ts >= k->v[k->next].start;
}

void rpk_mark(struct rp_kernels *k, const uint64_t *now)
{
	unsigned int i;

	if (k->next >= k->n)
		return;
	if (!k->open) {
		memcpy(k->begin, now, sizeof(k->begin));
		k->open = true;
		return;
	}
	for (i = 0; i < RPK_N; i++)
		k->v[k->next].delta[i] = now[i] - k->begin[i];
	k->open = false;
	k->next++;
}

void rpk_finish(struct rp_kernels *k, const uint64_t *now)
{
	while (k->next < k->n)
		rpk_mark(k, now);
}

double rpk_priced(const struct rp_kernel *x, const struct exp_cost *c)
{
	struct exp_cost_counts n = {
		.fault_batches = x->delta[RPK_BATCHES], .fault_batch_pages = x->delta[RPK_PAGES],
		.h2d_bytes = x->delta[RPK_H2D], .d2h_bytes = x->delta[RPK_D2H],
		.d2d_bytes = x->delta[RPK_D2D], .cpu_faults = x->delta[RPK_CPU],
		.evictions = x->delta[RPK_EVICT],
	};

	return exp_cost_time(c, &n);
}

char *rpk_json(const struct rp_kernels *k, const struct exp_cost *c)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputc('[', f);
	for (i = 0; i < k->n; i++) {
		const struct rp_kernel *x = &k->v[i];

		fprintf(f, "%s{\"name\":\"%s\",\"recorded_s\":%.9f,\"fault_batches\":%" PRIu64
			",\"fault_batch_pages\":%" PRIu64 ",\"h2d_bytes\":%" PRIu64
			",\"d2h_bytes\":%" PRIu64 ",\"d2d_bytes\":%" PRIu64
			",\"cpu_faults\":%" PRIu64 ",\"evictions\":%" PRIu64
			",\"modelled_s\":%.9f}", i ? "," : "", x->name,
			(double)(x->end - x->start) * 1e-9, x->delta[RPK_BATCHES],
			x->delta[RPK_PAGES], x->delta[RPK_H2D], x->delta[RPK_D2H],
			x->delta[RPK_D2D], x->delta[RPK_CPU], x->delta[RPK_EVICT],
			rpk_priced(x, c));
	}
	fputc(']', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

void rpk_free(struct rp_kernels *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}
