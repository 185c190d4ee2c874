# SPDX-License-Identifier: GPL-2.0
#
# mk/clients.mk - real CUDA programs nobody here wrote, built the way their
# authors build them, for the clients test (tests/clients/clients_check.vm
# in the default group; docs/libuvm.md, "Programs built for CUDA"):
#
#   $(BUILD)/tests/clients/uvm/    cuda-samples' deviceQuery and
#                                  deviceQueryDrv compiled against
#                                  include/uvm and linked against libuvm
#                                  (no CUDA installation needed)
#   $(BUILD)/tests/clients/nvcc/   the same two, vectorAdd,
#                                  UnifiedMemoryPerf and bench/nvidia's
#                                  answers (CUDA 13's answers where its
#                                  docs are silent), built by NVIDIA's
#                                  nvcc against NVIDIA's headers
#                                  and linked against NVIDIA's libcudart.so.13
#                                  and libcuda.so.1 stub, as nvcc links; they
#                                  run on libuvm's drop-in libraries
#                                  (LD_LIBRARY_PATH=$(BUILD)/libuvm/cuda).
#   $(BUILD)/nvidia/nvwl           the fidelity workloads (tools/tools.mk),
#                                  the very binary recorded on GPUs.
# The nvcc builds only where CUDA is (HAVE_CUDA, tools/tools.mk); the test
# skips those checks without them.
#
# The samples are vendored unmodified in tests/clients/cuda-samples/ (BSD-3,
# its LICENSE; the commit is in tests/clients/README.md).

CLIENTS_SRC	:= $(TOP)/tests/clients/cuda-samples
CLIENTS_OUT	:= $(BUILD)/tests/clients
NVCC_FLAGS	:= -O2 -cudart shared $(NVCC_ARCH) -I$(CLIENTS_SRC)/Common
NVCC_DRV	:= -L$(CUDA_HOME)/lib64/stubs -lcuda

CLIENTS_CXXFLAGS := -O2 -w -I$(TOP)/include/uvm -I$(CLIENTS_SRC)/Common
CLIENTS_UVM	:= $(CLIENTS_OUT)/uvm/deviceQuery $(CLIENTS_OUT)/uvm/deviceQueryDrv
CLIENTS_NVCC	:= $(if $(HAVE_CUDA),$(addprefix $(CLIENTS_OUT)/nvcc/,deviceQuery deviceQueryDrv \
		   vectorAdd UnifiedMemoryPerf answers) $(NVWL_BIN))

SAMPLE_DQ	:= $(CLIENTS_SRC)/Samples/1_Utilities/deviceQuery/deviceQuery.cpp
SAMPLE_DQD	:= $(CLIENTS_SRC)/Samples/1_Utilities/deviceQueryDrv/deviceQueryDrv.cpp
SAMPLE_VA	:= $(CLIENTS_SRC)/Samples/0_Introduction/vectorAdd/vectorAdd.cu
SAMPLE_UMP_DIR	:= $(CLIENTS_SRC)/Samples/6_Performance/UnifiedMemoryPerf
SAMPLE_UMP	:= $(addprefix $(SAMPLE_UMP_DIR)/,matrixMultiplyPerf.cu commonKernels.cu \
		   helperFunctions.cpp)

.PHONY: clients
clients: $(CLIENTS_UVM) $(CLIENTS_NVCC) $(TEST_OUT)/clients_check
tests: clients

$(CLIENTS_OUT)/uvm/deviceQuery: $(SAMPLE_DQ) $(LIBUVM_SO)
	@mkdir -p $(@D)
	$(CXX) $(CLIENTS_CXXFLAGS) -o $@ $< $(EX_LDFLAGS)

$(CLIENTS_OUT)/uvm/deviceQueryDrv: $(SAMPLE_DQD) $(LIBUVM_SO)
	@mkdir -p $(@D)
	$(CXX) $(CLIENTS_CXXFLAGS) -o $@ $< $(EX_LDFLAGS)

$(CLIENTS_OUT)/nvcc/deviceQuery: $(SAMPLE_DQ)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -o $@ $<

$(CLIENTS_OUT)/nvcc/deviceQueryDrv: $(SAMPLE_DQD)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -o $@ $< $(NVCC_DRV)

$(CLIENTS_OUT)/nvcc/vectorAdd: $(SAMPLE_VA)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -o $@ $<

$(CLIENTS_OUT)/nvcc/UnifiedMemoryPerf: $(SAMPLE_UMP) $(wildcard $(SAMPLE_UMP_DIR)/*.hpp)
	@mkdir -p $(@D)
	$(NVCC) $(NVCC_FLAGS) -o $@ $(SAMPLE_UMP)

# What CUDA 13 answers where its docs are silent (bench/nvidia/answers.cu):
# the same questions put to libuvm. One file for sm_100 only: a kernel an
# sm_90 device has no image for.
$(CLIENTS_OUT)/nvcc/answers: $(TOP)/bench/nvidia/answers.cu $(TOP)/bench/nvidia/answers_sm100.cu
	@mkdir -p $(@D)
	$(NVCC) -O2 -cudart shared $(NVCC_ARCH) -c -o $@.o $(TOP)/bench/nvidia/answers.cu
	$(NVCC) -O2 -cudart shared -arch=sm_100 -c -o $@.sm100.o $(TOP)/bench/nvidia/answers_sm100.cu
	$(NVCC) -cudart shared -o $@ $@.o $@.sm100.o

$(TEST_OUT)/clients_check: $(TOP)/tests/clients/clients_check.vm $(CLIENTS_UVM) $(CLIENTS_NVCC) \
			    $(KN_SOS) $(LIBUVM_DROPINS)
	@mkdir -p $(@D)
	install -m 755 $< $@
