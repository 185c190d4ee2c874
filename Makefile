# SPDX-License-Identifier: GPL-2.0
#
# uvm: managed (unified) memory for Linux - module, library, tools, tests.
#
#   make            build kmod/uvm.ko (against KDIR), libuvm.so.0 and the tools
#   make deps       install what the build and the tests need (idempotent)
#   make test       deps + build + check + the suite in QEMU on 6.1, 6.12, sid, debug
#   make test-full  the same, every test group on every kernel (before a release)
#   make soak       long kill-stress, fuzzer and reference sweep (MINUTES=N)
#   make check      checkpatch --strict, sparse (C=1) and W=1 on each Debian kernel
#   make bench      benchmarks in the VM (not part of make test)
#   make experiment EXP=FILE   a uvm-exp sweep in the VM, with its report
#   make demo       boot the VM and show the devices and a managed-memory run
#
# KDIR defaults to the newest Debian kernel headers installed on this machine.

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KDIR	?= $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
BUILD	:= $(TOP)/build
CC	?= cc
CC	:= $(if $(filter default,$(origin CC)),gcc,$(CC))

# Kernels the suite runs on: the Debian flavours of scripts/flavours (6.1:
# bookworm, 6.12: trixie, sid: the newest kernel in the archive) and the
# suite's own debug kernel (scripts/debug-kernel: KASAN, lockdep, kmemleak,
# ...; built on first use). Which group runs on which kernel is written in
# tests/suite.list (docs/testing.md, "Which groups run where"); `make
# test-full` runs every group on every kernel, `make test-debug` the whole
# suite on the debug kernel alone, `make test KERNELS=6.1` a subset.
KERNELS	?= 6.1 6.12 sid debug

.PHONY: all module lib tools tests deps test check bench demo install clean help
all: module lib tools

# --- the module --------------------------------------------------------------
# Built in place (kmod/) against KDIR. scripts/build-kmod builds a copy per
# kernel under build/<kver>/ so objects of different kernels never mix.
# scripts/kdir-check first: missing headers, a missing compiler (the one the
# kernel was built with, e.g. gcc-14 for trixie's) or a kernel outside
# UVM_KERNEL_OLDEST..NEWEST (kmod/Kbuild) get a sentence naming the fix.
module:
	@$(TOP)/scripts/kdir-check "$(KDIR)"
	$(MAKE) -C $(KDIR) M=$(TOP) UVM_ROOT=$(TOP) modules

module-clean:
	@test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(TOP) clean

include libuvm/libuvm.mk
include tools/tools.mk
include tests/tests.mk

deps:
	@$(TOP)/scripts/deps

help:
	@sed -n '3,14p' $(firstword $(MAKEFILE_LIST))

clean: module-clean
	rm -rf $(BUILD)
include mk/extras.mk
include mk/clients.mk
include mk/install.mk
