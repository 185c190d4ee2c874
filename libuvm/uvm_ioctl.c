// SPDX-License-Identifier: MIT
/*
 * uvm_ioctl.c - the single ioctl entry point of the library.
 */
#include <errno.h>
#include <sys/ioctl.h>

#include "uvm_internal.h"

/*
 * Like libdrm's drmIoctl(): a signal or a transient -EAGAIN from the module
 * restarts the call, so callers never see EINTR. Callers zero their argument
 * structs with uvm_memclear() before filling them, so pads and reserved
 * fields the kernel checks are always zero.
 */
int uvm_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));

	return ret == -1 ? -errno : 0;
}
