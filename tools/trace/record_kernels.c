// SPDX-License-Identifier: MIT
/*
 * record_kernels.c - record-nvidia's kernel launches: the files the CUPTI
 * injection library (cupti/nvrec_cupti.c) wrote, one per process, merged
 * into FILE.kernels beside the trace: JSON Lines, one kernel a line, by
 * start time, on the trace's clock (docs/fidelity.md "Kernel launches").
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_kernels.h"
#include "uvm_tool.h"

struct nvk {
	uint64_t start, end;
	uint32_t pid, device, stream, corr;
	char *name;
};

struct nvk_set {
	struct nvk *v;
	size_t n, cap;
	uint64_t dropped;
};

static int nvk_add(struct nvk_set *s, const struct nvk *k)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		struct nvk *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *k;
	return 0;
}

/* One line of a process's file: 0, or -EINVAL for a line that is not one. */
static int nvk_line(struct nvk_set *s, char *line, uint32_t pid)
{
	unsigned long long a, b, dropped;
	unsigned int dev, stream, corr;
	struct nvk k;
	int used = 0;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "D %llu%n", &dropped, &used) == 1 && !line[used]) {
		s->dropped += dropped;
		return 0;
	}
	if (sscanf(line, "K %llu %llu %u %u %u %n", &a, &b, &dev, &stream, &corr,
		   &used) != 5 || !used || !line[used] || b < a)
		return -EINVAL;
	k = (struct nvk){ .start = a, .end = b, .pid = pid, .device = dev,
			  .stream = stream, .corr = corr, .name = strdup(line + used) };
	if (!k.name)
		return -ENOMEM;
	if (nvk_add(s, &k)) {
		free(k.name);
		return -ENOMEM;
	}
	return 0;
}

/* A process's file ($prefix.<pid>); it must end with its D line. */
static int nvk_file(struct nvk_set *s, const char *path, const char *prefix)
{
	uint32_t pid = (uint32_t)strtoul(path + strlen(prefix) + 1, NULL, 10);
	char *line = NULL;
	size_t cap = 0, no = 0;
	int ret = 0, ended = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		no++;
		ended = line[0] == 'D';
		ret = nvk_line(s, line, pid);
		if (ret == -EINVAL)
			fprintf(stderr, "uvm-trace record-nvidia: %s: line %zu: not a kernel "
				"record\n", path, no);
	}
	if (!ret && !ended) {
		fprintf(stderr, "uvm-trace record-nvidia: %s: process %u's kernels end "
			"without their last line (it did not exit normally)\n", path, pid);
		ret = -EINVAL;
	}
	free(line);
	fclose(f);
	return ret;
}

static int nvk_cmp(const void *a, const void *b)
{
	const struct nvk *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int nvk_write(const struct nvk_set *s, const char *out)
{
	FILE *f = fopen(out, "we");
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < s->n; i++) {
		const struct nvk *k = &s->v[i];

		fprintf(f, "{\"pid\":%u,\"device\":%u,\"stream\":%u,\"correlation\":%u,"
			"\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64 ",\"name\":", k->pid,
			k->device, k->stream, k->corr, k->start, k->end);
		ut_json_str(f, k->name);
		fputs("}\n", f);
	}
	if (fclose(f))
		return -errno;
	return 0;
}

static void nvk_free(struct nvk_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
}

/**
 * nvk_merge() - merge the per-process files $@prefix.<pid> into @out,
 * removing them.
 * @prefix: what UVM_NVREC_KERNELS said.
 * @out: the kernels' file (JSON Lines); not written on an error.
 * @nkernels: out, kernels written.
 * @dropped: out, records CUPTI said it dropped.
 *
 * Return: 0; -ENOENT if no process wrote a file (CUPTI was not loaded);
 * another -errno, said, on an error.
 */
int nvk_merge(const char *prefix, const char *out, uint64_t *nkernels, uint64_t *dropped)
{
	struct nvk_set s = { 0 };
	char pat[4200];
	glob_t g;
	size_t i;
	int ret = 0;

	snprintf(pat, sizeof(pat), "%s.[0-9]*", prefix);
	if (glob(pat, 0, NULL, &g))
		return -ENOENT;
	for (i = 0; i < g.gl_pathc && !ret; i++)
		ret = nvk_file(&s, g.gl_pathv[i], prefix);
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
	if (!ret) {
		qsort(s.v, s.n, sizeof(*s.v), nvk_cmp);
		ret = nvk_write(&s, out);
		if (ret)
			fprintf(stderr, "uvm-trace record-nvidia: %s: %s\n", out, strerror(-ret));
	}
	*nkernels = s.n;
	*dropped = s.dropped;
	nvk_free(&s);
	return ret;
}

/* Remove what the processes wrote (an error before the merge). */
void nvk_discard(const char *prefix)
{
	char pat[4200];
	glob_t g;
	size_t i;

	snprintf(pat, sizeof(pat), "%s.[0-9]*", prefix);
	if (glob(pat, 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
}
