/* SPDX-License-Identifier: MIT */
/*
 * uvm_tool.h - code shared by uvm-smi and uvm-stat: the module through its
 * raw uapi (include/uapi/uvm.h), counter names, output helpers.
 *
 * The tools speak the uapi directly rather than through libuvm so that they
 * work (and say what is wrong) even when the library is missing or broken,
 * and so that they see fields libuvm does not export (BAR address/size).
 */
#ifndef UVM_TOOL_H
#define UVM_TOOL_H

#include <stdint.h>
#include <stdio.h>

#include "uapi/uvm.h"

/* Upper bound on the counters a tool reads; the module may know fewer. */
#define UT_MAX_STATS		256

/* Exit codes shared by the tools (documented in man/uvm-smi.1). */
#define UT_EXIT_OK		0
#define UT_EXIT_NO_DEVICE	1	/* module loaded, no device */
#define UT_EXIT_NO_MODULE	2	/* /dev/uvm missing or not openable */
#define UT_EXIT_USAGE		64

/** struct ut_module - one open of /dev/uvm and what GET_INFO said. */
struct ut_module {
	int fd;
	struct uvm_get_info info;
	struct uvm_device_info *devs;	/* info.num_devices entries */
};

int ut_open(struct ut_module *m);
void ut_close(struct ut_module *m);
int ut_refresh_devices(struct ut_module *m);
int ut_open_error(const char *prog, int err);

/* Counters: 0..n-1 read into @vals; returns the module's count or -errno. */
int ut_read_stats(int fd, unsigned int scope, uint64_t *vals, unsigned int cap);
const char *ut_stat_name(unsigned int idx, char *buf, size_t len);
const char *ut_stat_desc(unsigned int idx);
unsigned int ut_stat_known(void);

/*
 * A device's counters: the module keeps some per device and lists them,
 * "name value" per line, in the device's sysfs uvm/stats.
 */
#define UT_MAX_DEV_STATS	64
struct ut_dev_stats {
	int n;			/* counters read, or -errno */
	char name[UT_MAX_DEV_STATS][32];
	uint64_t val[UT_MAX_DEV_STATS];
};

int ut_read_dev_stats(const struct uvm_device_info *d, struct ut_dev_stats *s);

/* Output helpers. */
void ut_json_str(FILE *f, const char *s);
const char *ut_bytes(uint64_t v, char *buf, size_t len);
const char *ut_backend_name(uint32_t backend);
double ut_now(void);

#endif /* UVM_TOOL_H */
