# SPDX-License-Identifier: GPL-2.0
#
# tests/tests.mk - included by the top-level Makefile.
#
#   make tests    build every tests/kselftest/*.c into build/tests/<name>
#   make kmods    build the module for every kernel in KERNELS (build/<kver>/;
#                 the debug kernel itself on first use)
#   make check    scripts/check: checkpatch --strict, sparse and W=1, Debian kernels
#   make check-next  W=1 + sparse build against experimental's kernel (not in make test)
#   make test     deps + kmods + lib + tools + tests + check + the VM suite
#                 (tests/suite.list's matrix, within TEST_BUDGET minutes)
#   make test-full   the same with every group on every kernel
#
# A test source declares what it links in one comment line, e.g.
#   // LDLIBS: -lnuma -ldrm -luvm
# -luvm links $(LIBUVM_SO) (defined by libuvm/libuvm.mk) with an rpath, so the
# binary runs unchanged in the VM (the repository has the same path there).
# Every tests/kselftest/*.c is one test program; shared code goes in headers.

UVM_CACHE	?= $(shell $(TOP)/scripts/cache-dir)
TEST_DIR	:= $(TOP)/tests/kselftest
TEST_OUT	:= $(BUILD)/tests
TEST_SRCS	:= $(sort $(wildcard $(TEST_DIR)/*.c))
TEST_NAMES	:= $(patsubst $(TEST_DIR)/%.c,%,$(TEST_SRCS))
TEST_BINS	:= $(addprefix $(TEST_OUT)/,$(TEST_NAMES))

# The harness headers warn under -Wextra (unused-parameter, sign-compare):
# those two are silenced for test code only. uapi/uvm.h includes <drm.h>
# (libdrm's copy); include/uapi comes last so it never shadows system headers.
TEST_CFLAGS	:= -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -O2 -g \
		   -pthread -D_GNU_SOURCE -MMD -MP -I$(TEST_DIR)/include -I$(UVM_CACHE)/selftests -I$(TOP)/include \
		   -idirafter $(TOP)/include/uapi \
		   $(shell pkg-config --cflags libdrm 2>/dev/null)
TEST_CFLAGS	+= $(EXTRA_TEST_CFLAGS)

comma := ,
test_ldlibs_raw = $(shell sed -n 's|^// LDLIBS:||p' $(TEST_DIR)/$(1).c)
test_ldlibs = $(patsubst -luvm,$(LIBUVM_SO) -Wl$(comma)-rpath$(comma)$(patsubst %/,%,$(dir $(LIBUVM_SO))),$(call test_ldlibs_raw,$(1)))

define test_rule
$(TEST_OUT)/$(1): $(TEST_DIR)/$(1).c $(if $(filter -luvm,$(call test_ldlibs_raw,$(1))),$(LIBUVM_SO)) | $(UVM_CACHE)/selftests/kselftest_harness.h
	@mkdir -p $$(@D); rm -f $$@
	$$(if $$(filter -luvm,$$(call test_ldlibs_raw,$(1))),$$(if $$(LIBUVM_SO),,$$(error $(1): needs -luvm but LIBUVM_SO is not defined)))
	$$(CC) $$(TEST_CFLAGS) -o $$@ $$< $$(call test_ldlibs,$(1))
endef
$(foreach t,$(TEST_NAMES),$(eval $(call test_rule,$(t))))
-include $(TEST_BINS:=.d)

$(UVM_CACHE)/selftests/kselftest_harness.h:
	@echo "missing $@: run 'make deps'" >&2; exit 1

.PHONY: tests kmods check test test-suite
tests: $(TEST_BINS)

kmods:
	@set -e; for k in $(KERNELS); do $(TOP)/scripts/build-kmod $$k >/dev/null; done

# sparse and W=1 on the Debian kernels only (the debug kernel builds with W=1
# in make kmods anyway).
check:
	@$(TOP)/scripts/check $(filter-out debug,$(KERNELS))

# Build-only: W=1 + sparse against experimental's kernel (the flavour next,
# in its chroot, updated to experimental's newest headers first). Not part
# of make test: it says whether the next kernel still builds.
.PHONY: check-next
check-next:
	@$(TOP)/scripts/check --no-checkpatch --update next

# The whole thing, in order (sub-makes so that every step sees what the
# previous one installed or built). A failing `make check` does not stop the
# suite: it is counted as one more failure; so is a test that does not
# build. run-suite prints the closing "N passed, N failed" line; .ci/run
# repeats it after make's own messages. Time: the budget of docs/testing.md
# (TEST_BUDGET minutes for a warm run, +10 %) is checked by run-suite; what
# filling the caches took (scripts/deps, the debug kernel's first build) is
# a cold run's extra and is printed apart. The Debian kernels' modules are
# built once, by make check's W=1 + sparse build into build/<kver>/ (the
# module the VM suite loads); kmods builds the debug kernel's.
TEST_BUDGET	?= 45
SUITE_JOBS	?= $(shell nproc)
test:
	@rm -f $(BUILD)/test-results/summary
	@t0=$$(date +%s); \
	  $(TOP)/scripts/deps || exit 1; \
	  case " $(KERNELS) " in *" debug "*) $(TOP)/scripts/debug-kernel >/dev/null || exit 1 ;; esac; \
	  t1=$$(date +%s); \
	  $(MAKE) --no-print-directory kmods lib tools KERNELS="$(filter debug,$(KERNELS))" || exit 1; \
	  $(MAKE) --no-print-directory -k tests || echo "make test: some tests did not build (counted as failed)" >&2; \
	  mkdir -p $(BUILD)/test-results/host; \
	  $(MAKE) --no-print-directory -s abi-test >$(BUILD)/test-results/host/abi.tap 2>&1; \
	  echo $$? >$(BUILD)/test-results/host/abi.status; \
	  $(MAKE) --no-print-directory -s trace-nvidia-test >/dev/null 2>&1; \
	  cp $(BUILD)/trace-nvidia-test.tap $(BUILD)/test-results/host/trace_nvidia.tap 2>/dev/null; \
	  cp $(BUILD)/trace-nvidia-cupti-test.tap $(BUILD)/test-results/host/trace_nvidia_cupti.tap 2>/dev/null; \
	  $(MAKE) --no-print-directory -s calibrate-test >/dev/null 2>&1; \
	  cp $(BUILD)/calibrate-test.tap $(BUILD)/test-results/host/calibrate.tap 2>/dev/null; \
	  for t in trace_nvidia trace_nvidia_cupti calibrate; do \
	    grep -q '^not ok' $(BUILD)/test-results/host/$$t.tap 2>/dev/null; \
	    echo $$(( $$? == 0 )) >$(BUILD)/test-results/host/$$t.status; \
	  done; \
	  if $(TOP)/scripts/check --out $(BUILD) $(filter-out debug,$(KERNELS)); then extra=; else extra=make-check; fi; \
	  $(TOP)/tests/run-suite --kernels "$(KERNELS)" --jobs $(SUITE_JOBS) $(SUITE_ARGS) \
	    --budget $(TEST_BUDGET) --since $$t0 --cache-seconds $$((t1 - t0)) \
	    --host-tap $(BUILD)/test-results/host/abi.tap \
	    --host-tap $(BUILD)/test-results/host/trace_nvidia.tap \
	    --host-tap $(BUILD)/test-results/host/trace_nvidia_cupti.tap \
	    --host-tap $(BUILD)/test-results/host/calibrate.tap \
	    $${extra:+--also-failed $$extra}

# The whole matrix: every group and every test on every kernel (before a
# release; about twice make test's time, so no budget).
.PHONY: test-full
test-full:
	@$(MAKE) --no-print-directory test SUITE_ARGS=--full TEST_BUDGET=1000

# The VM suite alone (everything built already).
test-suite:
	@$(TOP)/tests/run-suite --kernels "$(KERNELS)" --jobs $(SUITE_JOBS) $(SUITE_ARGS)

# The whole suite on the debug kernel alone (builds it on first use).
.PHONY: test-debug
test-debug:
	@$(MAKE) --no-print-directory test KERNELS=debug SUITE_ARGS=--full TEST_BUDGET=1000

# The fuzzer: build/tests/uvm_fuzz and `make fuzz` (tests/fuzz/fuzz.mk).
include $(TOP)/tests/fuzz/fuzz.mk

# Real programs' kernels for UVM_KERNELS (tests/clients/kernels/kernels.mk).
include $(TOP)/tests/clients/kernels/kernels.mk
