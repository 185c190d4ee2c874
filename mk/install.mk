# SPDX-License-Identifier: GPL-2.0
#
# mk/install.mk - `make install` and its test (included by the top-level
# Makefile).
#
#   make install [DESTDIR=/scratch] [PREFIX=/usr/local] [KVER=...] [KDIR=...]
#
# Installs:
#   /lib/modules/$(KVER)/updates/uvm.ko   (depmod -a $(KVER), unless DESTDIR is set)
#   /usr/src/uvm-$(UVM_VERSION)/          DKMS source tree (dkms.conf, Kbuild, kmod/, include/uapi/)
#   $(LIBDIR)/libuvm.so.0.1.0, libuvm.so.0, libuvm.so, $(LIBDIR)/pkgconfig/libuvm.pc
#   $(LIBDIR)/uvm/libcudart.so.13, libcuda.so.1 (+ .so links): the drop-in libraries;
#   LD_LIBRARY_PATH=$(LIBDIR)/uvm runs a binary linked against NVIDIA's on libuvm
#   $(INCLUDEDIR)/uvm/*.h (libuvm, CUDA API), $(INCLUDEDIR)/uvm/uapi/uvm{,_drm}.h
#   $(BINDIR)/uvm-smi, uvm-stat; $(MANDIR)/man1/uvm-smi.1, uvm-stat.1
#   $(BINDIR)/uvm-trace; $(BINDIR)/uvm-exp and uvm-replay (linked again against $(LIBDIR)'s libuvm), uvm-exp-report,
#   uvm-exp-check; $(DATADIR)/uvm/*.exp (the sample and reference experiments)
#   $(UDEVDIR)/70-uvm.rules, $(SYSUSERSDIR)/uvm.conf (group "uvm")
# KVER defaults to the release of KDIR's headers; the module is built with
# scripts/build-kmod for it. Paths outside PREFIX (modules, /usr/src, udev)
# are fixed because the kernel, DKMS and udev only look there.
#
#   make install-test   host half of the install test: install into
#                       build/install-test/root, check the tree, build
#                       uvm.ko from the installed DKMS tree for every
#                       kernel in KERNELS (as dkms would); TAP in
#                       build/install-test/host.tap. The VM half
#                       (tools/tests/install_check.vm) loads those modules.

UVM_VERSION	?= 0.1.0
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
DATADIR		?= $(PREFIX)/share
UDEVDIR		?= /lib/udev/rules.d
SYSUSERSDIR	?= /usr/lib/sysusers.d
DKMSDIR		?= /usr/src/uvm-$(UVM_VERSION)
# The release the module's vermagic carries: UTS_RELEASE (Debian's
# include/config/kernel.release says 6.1.192 where uname -r says
# 6.1.0-56-amd64), else kernel.release.
KVER		?= $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
			$(KDIR)/include/generated/utsrelease.h 2>/dev/null), \
		   $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null))
INSTALL		?= install

.PHONY: install install-module install-dkms install-lib install-tools install-test
install: install-module install-dkms install-lib install-tools

install-module:
	@test -n "$(KVER)" || { echo "install: no KVER (no kernel headers? pass KDIR= or KVER=)" >&2; exit 1; }
	$(TOP)/scripts/build-kmod $(KVER) >/dev/null
	$(INSTALL) -D -m 644 $(BUILD)/$(KVER)/kmod/uvm.ko $(DESTDIR)/lib/modules/$(KVER)/updates/uvm.ko
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); \
	 else echo "install: DESTDIR set: depmod skipped (run 'depmod -a $(KVER)' on the target)"; fi

install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMSDIR)/kmod $(DESTDIR)$(DKMSDIR)/include/uapi
	$(INSTALL) -m 644 $(TOP)/Kbuild $(DESTDIR)$(DKMSDIR)/Kbuild
	$(INSTALL) -m 644 $(TOP)/kmod/Kbuild $(wildcard $(TOP)/kmod/*.[ch]) $(DESTDIR)$(DKMSDIR)/kmod/
	$(INSTALL) -m 644 $(wildcard $(TOP)/include/uapi/*.h) $(DESTDIR)$(DKMSDIR)/include/uapi/
	sed 's|@VERSION@|$(UVM_VERSION)|g' $(TOP)/dkms.conf >$(DESTDIR)$(DKMSDIR)/dkms.conf

install-lib: lib
	$(INSTALL) -D -m 755 $(LIBUVM_BUILD)/$(LIBUVM_REAL) $(DESTDIR)$(LIBDIR)/$(LIBUVM_REAL)
	ln -sf $(LIBUVM_REAL) $(DESTDIR)$(LIBDIR)/$(LIBUVM_SONAME)
	ln -sf $(LIBUVM_SONAME) $(DESTDIR)$(LIBDIR)/libuvm.so
	$(INSTALL) -D -m 755 $(LIBUVM_DROPIN_DIR)/libcudart.so.13 $(DESTDIR)$(LIBDIR)/uvm/libcudart.so.13
	$(INSTALL) -D -m 755 $(LIBUVM_DROPIN_DIR)/libcuda.so.1 $(DESTDIR)$(LIBDIR)/uvm/libcuda.so.1
	ln -sf libcudart.so.13 $(DESTDIR)$(LIBDIR)/uvm/libcudart.so
	ln -sf libcuda.so.1 $(DESTDIR)$(LIBDIR)/uvm/libcuda.so
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/uvm/uapi $(DESTDIR)$(LIBDIR)/pkgconfig
	$(INSTALL) -m 644 $(wildcard $(TOP)/include/uvm/*.h) $(DESTDIR)$(INCLUDEDIR)/uvm/
	$(INSTALL) -m 644 $(wildcard $(TOP)/include/uapi/*.h) $(DESTDIR)$(INCLUDEDIR)/uvm/uapi/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(UVM_VERSION)|' $(TOP)/libuvm.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/libuvm.pc
	@if [ -z "$(DESTDIR)" ]; then ldconfig; fi

install-tools: tools
	$(INSTALL) -D -m 755 $(TOOLS_BINS) -t $(DESTDIR)$(BINDIR)
	$(INSTALL) -D -m 644 $(TOP)/man/uvm-smi.1 $(TOP)/man/uvm-stat.1 -t $(DESTDIR)$(MANDIR)/man1
	$(CC) -o $(DESTDIR)$(BINDIR)/uvm-exp $(TOOLS_OUT)/obj/exp/exp_main.o $(EXP_OBJS) \
		-L$(LIBUVM_BUILD) -luvm -Wl,-rpath,$(LIBDIR) -lnuma -lpthread -lm -lz
	$(CC) -o $(DESTDIR)$(BINDIR)/uvm-replay $(TOOLS_OUT)/obj/exp/replay_main.o $(EXP_OBJS) \
		-L$(LIBUVM_BUILD) -luvm -Wl,-rpath,$(LIBDIR) -lnuma -lpthread -lm -lz
	$(INSTALL) -m 755 $(TRACE_BIN) $(DESTDIR)$(BINDIR)/uvm-trace
	$(INSTALL) -m 755 $(EXP_DIR)/exp-report $(DESTDIR)$(BINDIR)/uvm-exp-report
	$(INSTALL) -m 755 $(EXP_DIR)/exp-check $(DESTDIR)$(BINDIR)/uvm-exp-check
	$(INSTALL) -D -m 644 $(wildcard $(EXP_DIR)/*.exp) -t $(DESTDIR)$(DATADIR)/uvm
	$(INSTALL) -D -m 644 $(TOP)/udev/70-uvm.rules $(DESTDIR)$(UDEVDIR)/70-uvm.rules
	$(INSTALL) -D -m 644 $(TOP)/udev/uvm-sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/uvm.conf
	@if [ -z "$(DESTDIR)" ]; then \
	   getent group uvm >/dev/null || groupadd --system uvm; \
	   ! command -v udevadm >/dev/null || udevadm control --reload 2>/dev/null || true; \
	 fi

install-test: lib tools
	@KERNELS="$(KERNELS)" $(TOP)/tools/tests/install-check

# make tests: the VM half needs the host half's results and modules. Redone
# when anything installed changes.
INSTALL_CHECK_DEPS := $(wildcard $(TOP)/kmod/*.[ch] $(TOP)/kmod/Kbuild $(TOP)/include/uapi/*.h $(TOP)/include/uvm/*.h \
			$(TOP)/Kbuild $(TOP)/dkms.conf $(TOP)/libuvm.pc.in $(TOP)/udev/* \
			$(TOP)/man/*.1 $(TOP)/mk/install.mk $(TOP)/tools/tests/install-check \
			$(TOP)/tests/abi/dropin_rt.c)
$(BUILD)/install-test/host.tap: $(INSTALL_CHECK_DEPS) $(LIBUVM_SO) $(LIBUVM_DROPINS) $(TOOLS_BINS)
	@KERNELS="$(KERNELS)" $(TOP)/tools/tests/install-check || true
	@test -s $@
$(BUILD)/tests/install_check: $(BUILD)/install-test/host.tap
