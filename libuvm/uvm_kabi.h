/* SPDX-License-Identifier: MIT */
/*
 * uvm_kabi.h - the kernel ABI (include/uapi/uvm.h) inside libuvm.
 *
 * The uapi header and the public library header both name a
 * "struct uvm_device_info" (the kernel's is the wire format, the library's
 * is what applications see and may differ as either side grows). The kernel's
 * is renamed here so a file can use both; include this after uvm_internal.h.
 */
#ifndef UVM_KABI_H
#define UVM_KABI_H

#include "uvm_internal.h"

#define uvm_device_info uvm_kabi_device_info
#include <uapi/uvm_drm.h>
#undef uvm_device_info

/* The library's public constants mirror the kernel's. */
_Static_assert(UVM_DEVICE_BACKEND_PCI_BAR == UVM_BACKEND_PCI_BAR, "backend");
_Static_assert(UVM_DEVICE_BACKEND_EMULATED == UVM_BACKEND_EMULATED, "backend");
_Static_assert(UVM_DEVICE_CPU_MAPPABLE == UVM_DEVICE_CAP_CPU_MAPPABLE, "caps");
_Static_assert(UVM_DEVICE_PEER_COPY == UVM_DEVICE_CAP_PEER_COPY, "caps");
_Static_assert(UVM_MODULE_TEST_IOCTLS == UVM_CAP_TEST_IOCTLS, "caps");
_Static_assert(UVM_MODULE_PAGEABLE_MIRROR == UVM_CAP_PAGEABLE_MIRROR, "caps");
_Static_assert(UVM_MODULE_PAGEABLE_MIGRATE == UVM_CAP_PAGEABLE_MIGRATE, "caps");
_Static_assert(sizeof(((struct uvm_device_info *)0)->name) ==
	       sizeof(((struct uvm_kabi_device_info *)0)->name), "name");

#endif /* UVM_KABI_H */
