// SPDX-License-Identifier: GPL-2.0
/*
 * fidelity_report.c - `uvm-exp fidelity`'s comparison (fidelity.h): the
 * goals of docs/fidelity.md judged per recording, the side-by-side table,
 * the JSON and one plot per recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exp.h"
#include "fidelity.h"

#define MIB		(1024.0 * 1024.0)

const char *const fid_goal_names[G_NR] = {
	"bytes_direction", "bytes_cause", "migrations", "cpu_faults_per_block",
	"kernel_time",
};

/* The bound of each goal, percent (G_CPU_BLOCK: equal). */
static const double bound[G_NR] = { 2, 10, 20, 0, 25 };

/* |rep - rec| / rec in percent; 100 where only one side has any. */
static double pct(double rec, double rep)
{
	if (rec == 0)
		return rep == 0 ? 0 : 100;
	return 100 * fabs(rep - rec) / rec;
}

static uint64_t fault_bytes(const struct exp_detail *d)
{
	return d->cause[UVM_EVENT_CAUSE_CPU_FAULT] + d->cause[UVM_EVENT_CAUSE_DEVICE_FAULT] +
	       d->cause[UVM_EVENT_CAUSE_COLLAPSE];
}

/* The worst of @n parts' errors; @applies: any part has bytes. */
static double worst(const uint64_t *rec, const uint64_t *rep, unsigned int n,
		    bool *applies, unsigned int *which)
{
	double w = 0, e;
	unsigned int i;

	*applies = false;
	for (i = 0; i < n; i++) {
		if (!rec[i] && !rep[i])
			continue;
		*applies = true;
		e = pct((double)rec[i], (double)rep[i]);
		if (e >= w) {
			w = e;
			*which = i;
		}
	}
	return w;
}

static void why(struct fid_goal *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why(struct fid_goal *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->why, sizeof(g->why), fmt, ap);
	va_end(ap);
}

static void judge_direction(struct fid_case *c, struct fid_goal *g)
{
	static const char *const dir[] = { "host to device", "device to host",
					   "device to device" };
	const uint64_t rec[] = { c->rec.h2d, c->rec.d2h, c->rec.d2d };
	const uint64_t rep[] = { c->rep.h2d, c->rep.d2h, c->rep.d2d };
	unsigned int i = 0;

	g->err = worst(rec, rep, 3, &g->applies, &i);
	g->met = g->err <= bound[G_DIRECTION];
	if (g->met)
		return;
	if (rep[i] < rec[i])
		why(g, "%s: %.1f MiB, NVIDIA %.1f: the replay redoes the recorded faults only; "
		    "pages NVIDIA's prefetcher brought that uvm.ko's does not are never "
		    "touched here", dir[i], rep[i] / MIB, rec[i] / MIB);
	else
		why(g, "%s: %.1f MiB, NVIDIA %.1f: uvm.ko moves more per fault than NVIDIA's "
		    "driver", dir[i], rep[i] / MIB, rec[i] / MIB);
}

static void judge_cause(struct fid_case *c, struct fid_goal *g)
{
	static const char *const cls[] = { "the program's own (user)", "fault-driven",
					   "prefetched" };
	const uint64_t rec[] = { c->rec.cause[UVM_EVENT_CAUSE_USER], fault_bytes(&c->rec),
				 c->rec.cause[UVM_EVENT_CAUSE_PREFETCH] };
	const uint64_t rep[] = { c->rep.cause[UVM_EVENT_CAUSE_USER], fault_bytes(&c->rep),
				 c->rep.cause[UVM_EVENT_CAUSE_PREFETCH] };
	unsigned int i = 0;

	g->err = worst(rec, rep, 3, &g->applies, &i);
	g->met = g->err <= bound[G_CAUSE];
	if (g->met)
		return;
	if (i == 1 && rep[1] > rec[1])
		why(g, "%s bytes %.1f MiB, NVIDIA %.1f: uvm.ko counts every page a fault "
		    "moves as the fault's; NVIDIA's driver counts the faulting 4 KiB page "
		    "and calls the rest of its region prefetch", cls[i], rep[i] / MIB,
		    rec[i] / MIB);
	else if (i == 2 && rep[2] < rec[2])
		why(g, "%s bytes %.1f MiB, NVIDIA %.1f: uvm.ko's density prefetcher "
		    "prefetches less than NVIDIA's here", cls[i], rep[i] / MIB, rec[i] / MIB);
	else
		why(g, "%s bytes %.1f MiB, NVIDIA %.1f", cls[i], rep[i] / MIB, rec[i] / MIB);
}

static void judge_ops(struct fid_case *c, struct fid_goal *g)
{
	g->applies = c->rec.ops || c->rep.ops;
	g->err = pct((double)c->rec.ops, (double)c->rep.ops);
	g->met = g->err <= bound[G_OPS];
	if (g->met)
		return;
	if (c->rep.ops < c->rec.ops)
		why(g, "%" PRIu64 " migrations, NVIDIA %" PRIu64 ": uvm.ko copies a block's "
		    "pages of one cause in one migration, NVIDIA's driver in one copy per "
		    "contiguous run or region", c->rep.ops, c->rec.ops);
	else
		why(g, "%" PRIu64 " migrations, NVIDIA %" PRIu64 ": uvm.ko splits what "
		    "NVIDIA's driver copies at once", c->rep.ops, c->rec.ops);
}

static void judge_cpu(struct fid_case *c, struct fid_goal *g)
{
	double blocks = (double)c->rec.cpu_blocks;

	g->applies = c->rec.cpu_faults || c->rep.cpu_faults;
	g->err = blocks ? c->rep.cpu_faults / blocks : 0;
	g->met = c->rep.cpu_faults == c->rec.cpu_faults &&
		 c->rep.cpu_blocks == c->rec.cpu_blocks;
	if (g->met)
		return;
	if (c->rep.cpu_faults < c->rec.cpu_faults)
		why(g, "%.2f CPU faults per 2 MiB block, NVIDIA %.2f: %" PRIu64 " recorded "
		    "CPU faults found their page on the CPU already, brought by an "
		    "earlier fault's region (which differs from the driver's where its "
		    "state differs; under policies other than density64k a CPU fault "
		    "brings its whole block home, and fault-ahead the next blocks)",
		    g->err, blocks ? c->rec.cpu_faults / blocks : 0,
		    c->rec.cpu_faults - c->rep.cpu_faults);
	else
		why(g, "%.2f CPU faults per 2 MiB block, NVIDIA %.2f", g->err,
		    blocks ? c->rec.cpu_faults / blocks : 0);
}

/* Kernel times summed over the kernels measured without the recorder. */
static void ktimes(const struct fid_case *c, double *meas, double *model)
{
	size_t i;

	*meas = *model = 0;
	for (i = 0; i < c->nk; i++) {
		if (c->k[i].measured_s < 0)
			continue;
		*meas += c->k[i].measured_s;
		*model += c->k[i].modelled_s;
	}
}

static void judge_ktime(struct fid_case *c, struct fid_goal *g)
{
	double meas, model;

	ktimes(c, &meas, &model);
	g->applies = meas > 0;
	g->err = pct(meas, model);
	g->met = g->applies && g->err <= bound[G_KTIME];
	if (!g->applies || g->met)
		return;
	if (model < meas)
		why(g, "modelled %.3f ms, measured %.3f: the model prices fault batches, "
		    "faulted pages and bytes moved, not the kernel's own work or the "
		    "GPU's stalls on them", model * 1e3, meas * 1e3);
	else
		why(g, "modelled %.3f ms, measured %.3f: the model prices each batch and "
		    "page serially; the driver overlaps them with its copies", model * 1e3,
		    meas * 1e3);
}

void fid_judge(struct fid_case *c)
{
	judge_direction(c, &c->goal[G_DIRECTION]);
	judge_cause(c, &c->goal[G_CAUSE]);
	judge_ops(c, &c->goal[G_OPS]);
	judge_cpu(c, &c->goal[G_CPU_BLOCK]);
	judge_ktime(c, &c->goal[G_KTIME]);
}

/* ---- the table */

/* One line: @what, both sides with @dec decimals, their difference. */
static void row(FILE *f, const char *what, double rec, double rep, int dec)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), "%.*f", dec, rec);
	snprintf(b, sizeof(b), "%.*f", dec, rep);
	if (rec || rep)
		fprintf(f, "  %-28s %14s %14s %9.1f %%\n", what, a, b, pct(rec, rep));
	else
		fprintf(f, "  %-28s %14s %14s\n", what, a, b);
}

static void sizes_row(FILE *f, const char *who, const uint64_t *v)
{
	unsigned int i;

	fprintf(f, "  %-28s", who);
	for (i = 0; i < DETAIL_SIZES; i++)
		fprintf(f, " %6" PRIu64, v[i]);
	fputc('\n', f);
}

static void table_bytes(FILE *f, const struct exp_detail *a, const struct exp_detail *b)
{
	row(f, "host to device MiB", a->h2d / MIB, b->h2d / MIB, 2);
	row(f, "device to host MiB", a->d2h / MIB, b->d2h / MIB, 2);
	row(f, "device to device MiB", a->d2d / MIB, b->d2d / MIB, 2);
	row(f, "user (program) MiB", a->cause[UVM_EVENT_CAUSE_USER] / MIB,
	    b->cause[UVM_EVENT_CAUSE_USER] / MIB, 2);
	row(f, "fault-driven MiB", fault_bytes(a) / MIB, fault_bytes(b) / MIB, 2);
	row(f, "  of it CPU faults MiB", a->cause[UVM_EVENT_CAUSE_CPU_FAULT] / MIB,
	    b->cause[UVM_EVENT_CAUSE_CPU_FAULT] / MIB, 2);
	row(f, "prefetched (driver) MiB", a->cause[UVM_EVENT_CAUSE_PREFETCH] / MIB,
	    b->cause[UVM_EVENT_CAUSE_PREFETCH] / MIB, 2);
	row(f, "evicted MiB", a->cause[UVM_EVENT_CAUSE_EVICTION] / MIB,
	    b->cause[UVM_EVENT_CAUSE_EVICTION] / MIB, 2);
}

static void table_events(FILE *f, const struct exp_detail *a, const struct exp_detail *b)
{
	row(f, "migrations", (double)a->ops, (double)b->ops, 0);
	fprintf(f, "  %-28s      4K     8K    16K    32K    64K   128K   256K   512K     1M"
		"     2M    >2M\n", "migration sizes");
	sizes_row(f, "  NVIDIA", a->sizes);
	sizes_row(f, "  uvm.ko", b->sizes);
	row(f, "fault batches", (double)a->batches, (double)b->batches, 0);
	row(f, "faulted pages", (double)a->fault_pages, (double)b->fault_pages, 0);
	row(f, "CPU faults", (double)a->cpu_faults, (double)b->cpu_faults, 0);
	row(f, "CPU faults per 2 MiB block",
	    a->cpu_blocks ? (double)a->cpu_faults / a->cpu_blocks : 0,
	    a->cpu_blocks ? (double)b->cpu_faults / a->cpu_blocks : 0, 2);
	row(f, "thrashing detected", (double)a->thrash[0], (double)b->thrash[0], 0);
	row(f, "throttled", (double)a->thrash[1], (double)b->thrash[1], 0);
	row(f, "pinned", (double)a->thrash[2], (double)b->thrash[2], 0);
	row(f, "remote maps", (double)a->remote_maps, (double)b->remote_maps, 0);
	row(f, "remote-mapped MiB", a->remote_bytes / MIB, b->remote_bytes / MIB, 2);
}

static void table_kernels(FILE *f, const struct fid_case *c)
{
	double meas, model, rec = 0, mrec = 0;
	size_t i, n = 0;

	for (i = 0; i < c->nk; i++) {
		if (c->k[i].measured_s < 0)
			continue;
		rec += c->k[i].recorded_s;
		mrec += c->k[i].modelled_rec_s;
		n++;
	}
	ktimes(c, &meas, &model);
	if (!n) {
		fprintf(f, "  kernels: %s\n", c->nk ? "no times measured without the "
			"recorder" : "no kernel launches recorded");
		return;
	}
	fprintf(f, "  kernels (%zu of %zu measured)  measured %.3f ms, under the recorder "
		"%.3f ms\n", n, c->nk, meas * 1e3, rec * 1e3);
	fprintf(f, "  %-28s %14.3f %14.3f %9.1f %%  (vs measured)\n",
		"modelled ms (NVIDIA, uvm.ko)", mrec * 1e3, model * 1e3, pct(meas, model));
}

static void table_goals(FILE *f, const struct fid_case *c)
{
	unsigned int g;

	for (g = 0; g < G_NR; g++) {
		const struct fid_goal *x = &c->goal[g];

		if (!x->applies)
			continue;
		fprintf(f, "  goal %-22s %s", fid_goal_names[g], x->met ? "met" : "MISSED");
		if (g == G_CPU_BLOCK)
			fprintf(f, "\n");
		else
			fprintf(f, " (%.1f %%, bound %.0f %%)\n", x->err, bound[g]);
		if (!x->met)
			fprintf(f, "    why: %s\n", x->why);
	}
}

void fid_table(FILE *f, const struct fid_case *c)
{
	fprintf(f, "== %s (%s)\n", c->name, c->source);
	if (!c->ok) {
		fprintf(f, "  not compared: %s\n\n", c->error);
		return;
	}
	fprintf(f, "  %-28s %14s %14s %11s\n", "", "NVIDIA", "uvm.ko", "difference");
	table_bytes(f, &c->rec, &c->rep);
	table_events(f, &c->rec, &c->rep);
	table_kernels(f, c);
	table_goals(f, c);
	fputc('\n', f);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the kernel-time errors; -1 if none applies. */
static double median_ktime(const struct fid_case *c, size_t n)
{
	double *v = calloc(n ? n : 1, sizeof(*v)), m;
	size_t i, k = 0;

	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		if (c[i].ok && c[i].goal[G_KTIME].applies)
			v[k++] = c[i].goal[G_KTIME].err;
	if (!k) {
		free(v);
		return -1;
	}
	qsort(v, k, sizeof(*v), cmp_double);
	m = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	free(v);
	return m;
}

void fid_summary(FILE *f, const struct fid_case *c, size_t n)
{
	unsigned int met[G_NR] = { 0 }, of[G_NR] = { 0 }, g;
	double med = median_ktime(c, n);
	size_t i;

	fprintf(f, "%-22s %-12s %-12s %-12s %-12s %-12s\n", "workload", "direction",
		"cause", "migrations", "CPU/block", "kernel time");
	for (i = 0; i < n; i++) {
		fprintf(f, "%-22s", c[i].name);
		for (g = 0; g < G_NR; g++) {
			const struct fid_goal *x = &c[i].goal[g];
			char cell[32];

			if (!c[i].ok || !x->applies)
				snprintf(cell, sizeof(cell), "-");
			else if (g == G_CPU_BLOCK)
				snprintf(cell, sizeof(cell), "%s %.2f", x->met ? "ok" : "MISS",
					 x->err);
			else
				snprintf(cell, sizeof(cell), "%s %.1f%%", x->met ? "ok" : "MISS",
					 x->err);
			fprintf(f, " %-12s", cell);
			if (c[i].ok && x->applies) {
				of[g]++;
				met[g] += x->met;
			}
		}
		fputc('\n', f);
	}
	fprintf(f, "%-22s", "met");
	for (g = 0; g < G_NR; g++) {
		char cell[32];

		snprintf(cell, sizeof(cell), "%u/%u", met[g], of[g]);
		fprintf(f, " %-12s", cell);
	}
	fputc('\n', f);
	if (med >= 0)
		fprintf(f, "median kernel-time error %.1f %% (goal 15 %%: %s)\n", med,
			med <= 15 ? "met" : "MISSED");
}

/* ---- JSON */

static void json_kernels(FILE *f, const struct fid_case *c)
{
	size_t i;

	fprintf(f, ",\"kernels\":[");
	for (i = 0; i < c->nk; i++) {
		const struct fid_kernel *k = &c->k[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		exp_json_str(f, k->name);
		if (k->measured_s >= 0)
			fprintf(f, ",\"measured_s\":%.9f", k->measured_s);
		else
			fprintf(f, ",\"measured_s\":null");
		if (k->own_s >= 0)
			fprintf(f, ",\"own_s\":%.9f", k->own_s);
		else
			fprintf(f, ",\"own_s\":null");
		fprintf(f, ",\"recorded_s\":%.9f,\"modelled_s\":%.9f,"
			"\"modelled_recording_s\":%.9f}", k->recorded_s, k->modelled_s,
			k->modelled_rec_s);
	}
	fputc(']', f);
}

static void json_case(FILE *f, const struct fid_case *c)
{
	unsigned int g;

	fprintf(f, "{\"name\":");
	exp_json_str(f, c->name);
	fprintf(f, ",\"source\":");
	exp_json_str(f, c->source);
	fprintf(f, ",\"ok\":%s,\"error\":", c->ok ? "true" : "false");
	exp_json_str(f, c->error);
	if (!c->ok) {
		fputc('}', f);
		return;
	}
	fprintf(f, ",\"nvidia\":");
	exp_detail_json(f, &c->rec);
	fprintf(f, ",\"uvm\":");
	exp_detail_json(f, &c->rep);
	fprintf(f, ",\"replay_modelled_s\":%.9f", c->rep_modelled_s);
	json_kernels(f, c);
	fprintf(f, ",\"goals\":{");
	for (g = 0; g < G_NR; g++) {
		const struct fid_goal *x = &c->goal[g];

		fprintf(f, "%s\"%s\":{\"applies\":%s,\"met\":%s,\"err\":%.4f,\"why\":",
			g ? "," : "", fid_goal_names[g], x->applies ? "true" : "false",
			x->met ? "true" : "false", x->err);
		exp_json_str(f, x->met ? "" : x->why);
		fputc('}', f);
	}
	fprintf(f, "}}");
}

int fid_json(const char *path, const struct fid_opts *o, const struct fid_case *c,
	     size_t n)
{
	double med = median_ktime(c, n);
	FILE *f = fopen(path, "w");
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "{\"policy\":");
	exp_json_str(f, o->policy);
	fputc(',', f);
	exp_cost_json(f, &o->cost);
	fprintf(f, ",\"median_kernel_time_err\":");
	if (med >= 0)
		fprintf(f, "%.4f", med);
	else
		fprintf(f, "null");
	fprintf(f, ",\"cases\":[");
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_case(f, &c[i]);
	}
	fprintf(f, "]}\n");
	return fclose(f) ? -1 : 0;
}

/* ---- plots */

static int plot_data(const struct fid_opts *o, const struct fid_case *c)
{
	const struct exp_detail *a = &c->rec, *b = &c->rep;
	double meas, model;
	char path[PATH_MAX + 16];
	unsigned int i;
	FILE *f;

	ktimes(c, &meas, &model);
	snprintf(path, sizeof(path), "%s/%s.dat", o->out, c->name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "# metric NVIDIA uvm.ko\n");
	fprintf(f, "h2d_MiB %g %g\nd2h_MiB %g %g\nd2d_MiB %g %g\n", a->h2d / MIB,
		b->h2d / MIB, a->d2h / MIB, b->d2h / MIB, a->d2d / MIB, b->d2d / MIB);
	fprintf(f, "fault_MiB %g %g\nprefetch_MiB %g %g\nuser_MiB %g %g\n",
		fault_bytes(a) / MIB, fault_bytes(b) / MIB,
		a->cause[UVM_EVENT_CAUSE_PREFETCH] / MIB, b->cause[UVM_EVENT_CAUSE_PREFETCH] / MIB,
		a->cause[UVM_EVENT_CAUSE_USER] / MIB, b->cause[UVM_EVENT_CAUSE_USER] / MIB);
	fprintf(f, "migrations %" PRIu64 " %" PRIu64 "\nbatches %" PRIu64 " %" PRIu64
		"\ncpu_faults %" PRIu64 " %" PRIu64 "\nthrash %" PRIu64 " %" PRIu64
		"\nthrottled %" PRIu64 " %" PRIu64 "\nremote_maps %" PRIu64 " %" PRIu64
		"\nkernel_ms %g %g\n", a->ops, b->ops, a->batches, b->batches,
		a->cpu_faults, b->cpu_faults, a->thrash[0], b->thrash[0], a->thrash[1],
		b->thrash[1], a->remote_maps, b->remote_maps, meas * 1e3, model * 1e3);
	fprintf(f, "\n\n# size NVIDIA uvm.ko\n");
	for (i = 0; i < DETAIL_SIZES; i++)
		fprintf(f, "%s %" PRIu64 " %" PRIu64 "\n", i == DETAIL_SIZES - 1 ? ">2M" :
			i < 8 ? (const char *[]){ "4K", "8K", "16K", "32K", "64K", "128K",
						  "256K", "512K" }[i] :
			i == 8 ? "1M" : "2M", a->sizes[i], b->sizes[i]);
	return fclose(f) ? -1 : 0;
}

static int plot_script(const struct fid_opts *o, const struct fid_case *c)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.gp", o->out, c->name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "set terminal png size 1400,520 noenhanced\nset output '%s/%s.png'\n"
		"set multiplot layout 1,2 title '%s: NVIDIA (recorded) and uvm.ko (replayed, %s)'\n"
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\nset xtics rotate by -40\n"
		"set key top right\nset logscale y\n"
		"set title 'counts + 1 (log scale)'\n"
		"plot '%s/%s.dat' index 0 using ($2+1):xtic(1) title 'NVIDIA', '' index 0 using ($3+1) title 'uvm.ko'\n"
		"unset logscale y\nset yrange [0:*]\n"
		"set title 'migrations by size'\n"
		"plot '%s/%s.dat' index 1 using 2:xtic(1) title 'NVIDIA', '' index 1 using 3 title 'uvm.ko'\n"
		"unset multiplot\n", o->out, c->name, c->name, o->policy, o->out, c->name,
		o->out, c->name);
	return fclose(f) ? -1 : 0;
}

/*
 * gnuplot @script, its messages to @script.log: its exit status, 127 if
 * there is no gnuplot.
 */
static int gnuplot(const char *script)
{
	char log[PATH_MAX + 32];
	pid_t pid;
	int st, fd;

	snprintf(log, sizeof(log), "%.*s.log", PATH_MAX, script);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void fid_plots(const struct fid_opts *o, const struct fid_case *c, size_t n)
{
	char path[PATH_MAX + 16];
	bool have = true;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!c[i].ok)
			continue;
		if (plot_data(o, &c[i]) || plot_script(o, &c[i])) {
			fprintf(stderr, "uvm-exp fidelity: %s/%s.dat: %s\n", o->out, c[i].name,
				strerror(errno));
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s.gp", o->out, c[i].name);
		if (have && gnuplot(path) == 127) {
			fprintf(stderr, "uvm-exp fidelity: no gnuplot: the plots' scripts are "
				"%s/*.gp\n", o->out);
			have = false;
		}
	}
}
