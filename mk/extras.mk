# SPDX-License-Identifier: GPL-2.0
#
# mk/extras.mk - examples, benchmarks, demo and their smoke tests (included
# by the top-level Makefile after libuvm.mk, tools.mk and tests.mk).
#
#   make examples   every examples/*.c into $(BUILD)/examples/<name> (part of all)
#   make benches    every bench/*.c into $(BUILD)/bench/<name>
#   make bench      scripts/bench: benchmarks in the VM, report in bench/results/
#   make demo       scripts/demo: the walkthrough in a VM with two devices
#   make stress     kill-stress (tests/kselftest/uvm_stress.c) in one VM:
#                   MINUTES=10 KERNEL=6.12 [SEED=N] [WORKERS=N] [STRESS_ARGS=...]
#                   [STRESS_MODULE=path/uvm.ko]; results in build/stress-results/
#   make faultinj   fault injection (tests/kselftest/fault_inject_test.c) in
#                   one VM on the debug kernel (the only one with
#                   CONFIG_FAULT_INJECTION): ITERS random-phase iterations
#                   per path (default 400; make test runs 40)
#   make soak       the long runs make test keeps short, one after the other on
#                   KERNEL (default 6.12): kill-stress for MINUTES (default
#                   10), the fuzzer for MINUTES, the whole reference
#                   experiment (tools/exp/reference.exp) and its report, and
#                   fault injection on the debug kernel (about MINUTES);
#                   SOAK="stress fuzz reference faultinj" picks; fails if
#                   any failed
#
# A bench or example source declares extra libraries like a test does:
#   // LDLIBS: -luvm -lnuma
# -luvm links $(LIBUVM_SO) with an rpath (the repository has the same path
# in the VM). Examples always link libuvm (they use the CUDA runtime API).
#
# Smoke tests: `make tests` also puts the scripts in tools/tests/*.vm into
# $(BUILD)/tests/<name> (without .vm), where tests/suite.list names them.

EX_DIR		:= $(TOP)/examples
EX_OUT		:= $(BUILD)/examples
EX_NAMES	:= $(patsubst $(EX_DIR)/%.c,%,$(sort $(wildcard $(EX_DIR)/*.c)))
EX_BINS		:= $(addprefix $(EX_OUT)/,$(EX_NAMES))
EX_CFLAGS	:= -std=gnu11 -O2 -g -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
		   $(LIBUVM_CPPFLAGS) -MMD -MP
EX_LDFLAGS	:= $(LIBUVM_SO) -Wl,-rpath,$(patsubst %/,%,$(dir $(LIBUVM_SO)))

BENCH_DIR	:= $(TOP)/bench
BENCH_OUT	:= $(BUILD)/bench
BENCH_NAMES	:= $(patsubst $(BENCH_DIR)/%.c,%,$(sort $(wildcard $(BENCH_DIR)/*.c)))
BENCH_BINS	:= $(addprefix $(BENCH_OUT)/,$(BENCH_NAMES))
BENCH_CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -I$(TOP)/include \
		   -idirafter $(TOP)/include/uapi $(LIBUVM_CPPFLAGS) -MMD -MP
bench_ldlibs_raw = $(shell sed -n 's|^// LDLIBS:||p' $(BENCH_DIR)/$(1).c)
bench_ldlibs = $(patsubst -luvm,$(EX_LDFLAGS),$(call bench_ldlibs_raw,$(1)))

SMOKE_SRCS	:= $(sort $(wildcard $(TOP)/tools/tests/*.vm))
SMOKE_BINS	:= $(patsubst $(TOP)/tools/tests/%.vm,$(BUILD)/tests/%,$(SMOKE_SRCS))

.PHONY: examples benches bench demo stress soak faultinj experiment extras-clean
all: examples
examples: $(EX_BINS)
benches: $(BENCH_BINS)

$(EX_OUT)/%: $(EX_DIR)/%.c $(LIBUVM_SO)
	@mkdir -p $(@D)
	$(CC) $(EX_CFLAGS) -o $@ $< $(EX_LDFLAGS)

define bench_rule
$(BENCH_OUT)/$(1): $(BENCH_DIR)/$(1).c $(if $(filter -luvm,$(call bench_ldlibs_raw,$(1))),$(LIBUVM_SO))
	@mkdir -p $$(@D)
	$$(CC) $$(BENCH_CFLAGS) -o $$@ $$< $$(call bench_ldlibs,$(1))
endef
$(foreach b,$(BENCH_NAMES),$(eval $(call bench_rule,$(b))))
-include $(EX_BINS:=.d) $(BENCH_BINS:=.d)

# The smoke tests need what they run: tools, examples, benchmarks.
tests: $(SMOKE_BINS)
$(BUILD)/tests/%: $(TOP)/tools/tests/%.vm $(TOOLS_BINS) $(EXP_BIN) $(EX_BINS) $(BENCH_BINS)
	@mkdir -p $(@D)
	install -m 755 $< $@

# A benchmark that does not build is reported and left out, not fatal.
bench: tools
	@$(MAKE) --no-print-directory -k benches || echo "bench: some benchmarks did not build (left out)" >&2
	@$(TOP)/scripts/bench

# A uvm-exp sweep in the VM, with its report (docs/experiments.md).
experiment: tools
	@test -n "$(EXP)" || { echo "usage: make experiment EXP=FILE [KERNEL=6.1]" >&2; exit 2; }
	@$(TOP)/scripts/experiment $(EXP)

demo: tools examples
	@$(TOP)/scripts/demo

# Kill-stress: MINUTES of random SIGKILLs of workers doing managed-memory
# work on two 64 MiB devices (oversubscribed), then a final check of all
# data; the VM harness checks leaks and the kernel log after unloading.
MINUTES		?= 10
KERNEL		?= 6.12
STRESS_RESULTS	:= $(BUILD)/stress-results/$(KERNEL)-$(shell date +%Y%m%d-%H%M%S)
stress: $(BUILD)/tests/uvm_stress
	@$(if $(STRESS_MODULE),true,$(TOP)/scripts/build-kmod $(KERNEL) >/dev/null)
	$(TOP)/tests/vm/run --kernel $(KERNEL) --devices 64M --emulated 1 --emulated-mb 64 \
	  $(if $(STRESS_MODULE),--module $(STRESS_MODULE)) \
	  --timeout $$(( $(MINUTES) * 60 + 1200 )) --results $(STRESS_RESULTS) \
	  -- $(BUILD)/tests/uvm_stress --minutes $(MINUTES) $(if $(SEED),--seed $(SEED)) \
	  $(if $(WORKERS),--workers $(WORKERS)) $(STRESS_ARGS)

# Fault injection, long: the random phase ITERS times per path (each about
# 4 s on the debug kernel under TCG, 13 paths).
ITERS		?= 400
FAULTINJ_RESULTS := $(BUILD)/faultinj-results/debug-$(shell date +%Y%m%d-%H%M%S)
faultinj: $(BUILD)/tests/fault_inject_test
	@$(TOP)/scripts/debug-kernel >/dev/null && $(TOP)/scripts/build-kmod debug >/dev/null
	$(TOP)/tests/vm/run --kernel debug --devices 64M --emulated 1 --emulated-mb 64 \
	  --timeout $$(( $(ITERS) * 10 + 1800 )) --results $(FAULTINJ_RESULTS) \
	  -- env FAULTINJ_ITERS=$(ITERS) UVM_TEST_TIMEOUT_SCALE=$${UVM_DEBUG_TIMEOUT_SCALE:-5} \
	  $(BUILD)/tests/fault_inject_test

SOAK		?= stress fuzz reference faultinj
soak: tests tools
	@rc=0; for s in $(SOAK); do case $$s in \
	  stress) $(MAKE) --no-print-directory stress MINUTES=$(MINUTES) KERNEL=$(KERNEL) || rc=1 ;; \
	  fuzz) $(MAKE) --no-print-directory fuzz SECONDS=$$(($(MINUTES) * 60)) KERNEL=$(KERNEL) || rc=1 ;; \
	  reference) $(MAKE) --no-print-directory experiment EXP=$(TOP)/tools/exp/reference.exp KERNEL=$(KERNEL) || rc=1 ;; \
	  faultinj) $(MAKE) --no-print-directory faultinj ITERS=$$(($(MINUTES) * 15)) || rc=1 ;; \
	  *) echo "soak: unknown part '$$s' (stress fuzz reference faultinj)" >&2; rc=2 ;; \
	  esac; echo "soak: $$s done (status so far $$rc)" >&2; done; exit $$rc

extras-clean:
	rm -rf $(EX_OUT) $(BENCH_OUT)
