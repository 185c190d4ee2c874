/* SPDX-License-Identifier: GPL-2.0 */
/* fuzz_report.h - kernel log scanning and hang reports (fuzz_report.c). */
#ifndef UVM_FUZZ_REPORT_H
#define UVM_FUZZ_REPORT_H

#include <sys/types.h>

#include "fuzz.h"

int fz_kmsg_open(void);
int fz_kmsg_scan(int fd);
int fz_kmsg_total(void);
void fz_dump_task(pid_t pid);
void fz_dump_ops(const struct fz_shared *sh, int w, int nthreads);
int fz_children(pid_t ppid, pid_t *out, int max);

#endif /* UVM_FUZZ_REPORT_H */
