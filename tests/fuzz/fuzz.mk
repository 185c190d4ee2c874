# SPDX-License-Identifier: GPL-2.0
#
# tests/fuzz/fuzz.mk - the fuzzer (included by tests/tests.mk).
#
#   make tests     also builds build/tests/uvm_fuzz (the suite's "fuzz" group)
#   make fuzz SECONDS=N [SEED=N] [KERNEL=6.12] [FUZZ_ARGS="--skip op,op"]
#                  one long run in the VM; results in build/fuzz-results/
#
# The fuzzer's VM: the default ivshmem devices plus one emulated device of
# 64 MiB (evictions) and the test ioctls on (TEST_DEVMEM is fuzzed too).

FUZZ_DIR	:= $(TOP)/tests/fuzz
FUZZ_SRCS	:= $(sort $(wildcard $(FUZZ_DIR)/*.c))
FUZZ_HDRS	:= $(wildcard $(FUZZ_DIR)/*.h) $(TOP)/include/uapi/uvm.h $(TOP)/include/uapi/uvm_drm.h
FUZZ_BIN	:= $(BUILD)/tests/uvm_fuzz
FUZZ_CFLAGS	:= -std=gnu11 -Wall -Wextra -Wshadow -O2 -g -pthread -D_GNU_SOURCE \
		   -I$(UVM_CACHE)/selftests -idirafter $(TOP)/include/uapi \
		   $(shell pkg-config --cflags libdrm 2>/dev/null)
FUZZ_VM_OPTS	:= --emulated 1 --emulated-mb 64 --param enable_test_ioctls=1
SECONDS		?= 600
KERNEL		?= 6.12

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS) | $(UVM_CACHE)/selftests/kselftest_harness.h
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRCS)

tests: $(FUZZ_BIN)

# A long run: the VM's limit is the run's length plus five minutes.
.PHONY: fuzz
fuzz: $(FUZZ_BIN)
	@d=$(BUILD)/fuzz-results/$(KERNEL)-$$(date +%Y%m%d-%H%M%S); mkdir -p $$d; \
	echo "fuzz: results in $$d"; \
	{ $(TOP)/tests/vm/run --kernel $(KERNEL) $(FUZZ_VM_OPTS) \
	    --timeout $$(($(SECONDS) + 300)) --results $$d/vm -- \
	    build/tests/uvm_fuzz --seconds $(SECONDS) $(if $(SEED),--seed $(SEED)) $(FUZZ_ARGS); \
	  echo $$? >$$d/status; } 2>&1 | tee $$d/output; exit $$(cat $$d/status)
