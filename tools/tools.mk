# SPDX-License-Identifier: GPL-2.0
#
# tools/tools.mk - included by the top-level Makefile (TOP, BUILD, CC).
#
#   make tools      $(BUILD)/tools/uvm-smi, uvm-stat and uvm-exp
#
# uvm-smi and uvm-stat speak the module's uapi directly (no libuvm): they
# must work, and say what is wrong, on a machine where only the module is
# installed. uvm-exp runs workloads, so it links libuvm (`make install`
# links it again against the installed one: mk/install.mk).

TOOLS_DIR	:= $(TOP)/tools
TOOLS_OUT	:= $(BUILD)/tools
TOOLS_NAMES	:= uvm-smi uvm-stat
TOOLS_BINS	:= $(addprefix $(TOOLS_OUT)/,$(TOOLS_NAMES))
TOOLS_COMMON	:= $(TOOLS_OUT)/obj/uvm_tool.o $(TOOLS_OUT)/obj/uvm_proc.o

TOOLS_WARN	:= -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes \
		   -Wshadow -Wformat=2 -Wundef
TOOLS_CFLAGS	:= -std=gnu11 -O2 -g -D_GNU_SOURCE $(TOOLS_WARN) -I$(TOP)/include \
		   -MMD -MP $(EXTRA_TOOLS_CFLAGS)

.PHONY: tools tools-clean
tools: $(TOOLS_BINS)

$(TOOLS_OUT)/obj/%.o: $(TOOLS_DIR)/%.c $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(CC) $(TOOLS_CFLAGS) -c -o $@ $<

$(TOOLS_OUT)/%: $(TOOLS_OUT)/obj/%.o $(TOOLS_COMMON)
	$(CC) -o $@ $^

# uvm-exp runs workloads through libuvm (docs/experiments.md).
EXP_DIR		:= $(TOOLS_DIR)/exp
EXP_BIN		:= $(TOOLS_OUT)/uvm-exp
# uvm-replay is uvm-exp's replay workload under a name of its own
# (docs/replay.md); the replay reads traces with uvm-trace's reader.
REPLAY_BIN	:= $(TOOLS_OUT)/uvm-replay
EXP_MAINS	:= exp_main.c replay_main.c
EXP_OBJS	:= $(patsubst $(EXP_DIR)/%.c,$(TOOLS_OUT)/obj/exp/%.o,\
		     $(filter-out $(addprefix $(EXP_DIR)/,$(EXP_MAINS)),\
		       $(sort $(wildcard $(EXP_DIR)/*.c)))) \
		   $(TOOLS_OUT)/obj/trace/trace_read.o
EXP_LIBS	:= $(LIBUVM_LDFLAGS) -lnuma -lpthread -lm -lz

tools: $(EXP_BIN) $(REPLAY_BIN)

$(TOOLS_OUT)/obj/exp/%.o: $(EXP_DIR)/%.c $(wildcard $(EXP_DIR)/*.h) $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(CC) $(TOOLS_CFLAGS) $(LIBUVM_CPPFLAGS) -I$(TOP)/include -I$(TOOLS_DIR) -c -o $@ $<

$(EXP_BIN): $(TOOLS_OUT)/obj/exp/exp_main.o $(EXP_OBJS) $(LIBUVM_SO)
	$(CC) -o $@ $(TOOLS_OUT)/obj/exp/exp_main.o $(EXP_OBJS) $(EXP_LIBS)

$(REPLAY_BIN): $(TOOLS_OUT)/obj/exp/replay_main.o $(EXP_OBJS) $(LIBUVM_SO)
	$(CC) -o $@ $(TOOLS_OUT)/obj/exp/replay_main.o $(EXP_OBJS) $(EXP_LIBS)

-include $(wildcard $(TOOLS_OUT)/obj/*.d $(TOOLS_OUT)/obj/exp/*.d)

tools-clean:
	rm -rf $(TOOLS_OUT)

# Keep the objects (pattern-rule intermediates) so rebuilds stay incremental.
.PRECIOUS: $(TOOLS_OUT)/obj/%.o

# uvm-trace records a program's event stream to a trace file and reads
# traces (docs/trace-format.md). It speaks the uapi (no libuvm) and needs
# zlib; its Nsight Systems importer reads SQLite files with libsqlite3
# (docs/trace-import.md).
TRACE_DIR	:= $(TOOLS_DIR)/trace
TRACE_BIN	:= $(TOOLS_OUT)/uvm-trace
TRACE_OBJS	:= $(patsubst $(TRACE_DIR)/%.c,$(TOOLS_OUT)/obj/trace/%.o,\
		     $(sort $(wildcard $(TRACE_DIR)/*.c)))

tools: $(TRACE_BIN)

$(TOOLS_OUT)/obj/trace/%.o: $(TRACE_DIR)/%.c $(wildcard $(TRACE_DIR)/*.h) $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(CC) $(TOOLS_CFLAGS) -I$(TOOLS_DIR) -DUT_UVM_VERSION='"$(UVM_VERSION)"' -c -o $@ $<

$(TRACE_BIN): $(TRACE_OBJS) $(TOOLS_COMMON)
	$(CC) -o $@ $^ -lz -lsqlite3

# libuvm-nvrec.so: preloaded by `uvm-trace record-nvidia` into the program
# it records (tools/trace/record_nvidia.c); it finds it beside itself. It
# speaks to NVIDIA's driver's ioctls only: no CUDA header needed.
NVREC_SO	:= $(TOOLS_OUT)/libuvm-nvrec.so

tools: $(NVREC_SO)

$(NVREC_SO): $(TRACE_DIR)/shim/nvrec_shim.c $(TRACE_DIR)/nvuvm.h $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(TOOLS_CFLAGS)) -fPIC -shared -fvisibility=hidden \
		-o $@ $< -ldl -lpthread

# Host-side checks of record-nvidia and import nvuvm on the real records of
# bench/nvidia/recordings/ (no GPU, module or VM needed): TAP, exit 1 on a
# failure (docs/fidelity.md "Tests").
.PHONY: trace-nvidia-test
trace-nvidia-test: $(TRACE_BIN) $(REPLAY_BIN) $(NVREC_SO)
	@$(TOOLS_DIR)/tests/trace_nvidia_check | tee $(BUILD)/trace-nvidia-test.tap | \
		grep -v '^ok '; \
	$(TOOLS_DIR)/tests/trace_nvidia_cupti_check | \
		tee $(BUILD)/trace-nvidia-cupti-test.tap | grep -v '^ok '; \
	! grep -q '^not ok' $(BUILD)/trace-nvidia-test.tap $(BUILD)/trace-nvidia-cupti-test.tap

# The cost model fitted to the recorded kernel times (docs/fidelity.md,
# "Calibrating the cost model"): CAL_RECORDINGS (default the H200's, the
# set with each kernel's own work timed) into bench/nvidia/cost-fit.json.
CAL_RECORDINGS	?= $(TOP)/bench/nvidia/recordings/2026-11-27-h200
CAL_JSON	?= $(TOP)/bench/nvidia/cost-fit.json
.PHONY: calibrate
calibrate: $(EXP_BIN)
	@$(EXP_BIN) calibrate --out $(BUILD)/calibrate --json $(CAL_JSON) \
		$(sort $(wildcard $(CAL_RECORDINGS)/*.trace.xz))

.PHONY: calibrate-test
calibrate-test: $(EXP_BIN)
	@$(TOOLS_DIR)/tests/calibrate_check | tee $(BUILD)/calibrate-test.tap | \
		grep -v '^ok '; ! grep -q '^not ok' $(BUILD)/calibrate-test.tap

# tools/tests/trace_record_check.vm and trace_import_check.vm run it.
$(BUILD)/tests/trace_record_check: $(TRACE_BIN)
$(BUILD)/tests/trace_replay_check: $(TRACE_BIN) $(REPLAY_BIN)
$(BUILD)/tests/trace_import_check: $(TRACE_BIN)

-include $(wildcard $(TOOLS_OUT)/obj/trace/*.d)

# Reference workloads as CUDA programs (bench/nvidia/, docs/fidelity.md),
# to be recorded on NVIDIA's driver with `uvm-trace record-nvidia`. Built
# only where CUDA's nvcc and headers are (CUDA_HOME, default
# /usr/local/cuda); elsewhere the build says it skips them.
CUDA_HOME	?= /usr/local/cuda
NVCC		?= $(CUDA_HOME)/bin/nvcc
NVCC_ARCH	?= -arch=sm_90
NVWL_BIN	:= $(BUILD)/nvidia/nvwl
HAVE_CUDA	:= $(if $(and $(wildcard $(NVCC)),$(wildcard $(CUDA_HOME)/include/cuda_runtime.h)),1)
# record-nvidia's kernel launches: a CUDA injection library on CUPTI
# (tools/trace/cupti/), beside uvm-trace; built where CUPTI is.
CUPTI_INC	:= $(firstword $(dir $(wildcard $(CUDA_HOME)/include/cupti.h \
				$(CUDA_HOME)/extras/CUPTI/include/cupti.h)))
CUPTI_LIB	:= $(firstword $(dir $(wildcard $(CUDA_HOME)/lib64/libcupti.so \
				$(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so)))
NVCUPTI_SO	:= $(TOOLS_OUT)/libuvm-nvcupti.so

.PHONY: nvidia
tools: nvidia
ifeq ($(HAVE_CUDA),1)
nvidia: $(NVWL_BIN)
ifneq ($(and $(CUPTI_INC),$(CUPTI_LIB)),)
nvidia: $(NVCUPTI_SO)

$(NVCUPTI_SO): $(TRACE_DIR)/cupti/nvrec_cupti.c $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(CC) $(filter-out -MMD -MP,$(TOOLS_CFLAGS)) -isystem $(CUPTI_INC) \
		-isystem $(CUDA_HOME)/include -fPIC -shared -fvisibility=hidden -o $@ $< \
		-L$(CUPTI_LIB) -lcupti -Wl,-rpath,$(CUPTI_LIB)
else
nvidia:
	@echo "tools: no CUPTI under $(CUDA_HOME): record-nvidia will not record kernel launches"
endif

# Linked against the shared CUDA runtime, so that the binary recorded on a
# GPU is the one that runs on uvm.ko with libuvm's drop-in libcudart.so.13
# (the clients test; a statically linked runtime would reach libcuda's
# private interfaces instead).
$(NVWL_BIN): $(TOP)/bench/nvidia/nvwl.cu $(TOOLS_DIR)/tools.mk
	@mkdir -p $(@D)
	$(NVCC) -O2 $(NVCC_ARCH) -cudart shared -Xcompiler -Wall,-Wextra,-Werror -o $@ $<
else
nvidia:
	@echo "tools: no CUDA at $(CUDA_HOME) (nvcc, cuda_runtime.h): skipping bench/nvidia (the CUDA workloads) and libuvm-nvcupti.so (record-nvidia's kernel launches)"
endif
