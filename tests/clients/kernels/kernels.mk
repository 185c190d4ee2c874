# SPDX-License-Identifier: GPL-2.0
#
# tests/clients/kernels/kernels.mk - included by tests/tests.mk.
#
# CPU implementations of real CUDA programs' kernels (docs/kernels.md,
# "Kernels by name"): one shared object per program, exporting
# uvm_kernel_impls, for UVM_KERNELS:
#
#   build/tests/clients/kernels/<program>.so  from tests/clients/kernels/<program>.c
#
# launch_test.c is cuda_launch_test's own (tests/kselftest/cuda_launch_test.c).
#
# `make tests` builds them; `make client-kernels` builds only them.

KN_DIR		:= $(TOP)/tests/clients/kernels
KN_OUT		:= $(BUILD)/tests/clients/kernels
KN_SRCS		:= $(sort $(wildcard $(KN_DIR)/*.c))
KN_SOS		:= $(patsubst $(KN_DIR)/%.c,$(KN_OUT)/%.so,$(KN_SRCS))
KN_CFLAGS	:= -std=gnu11 -O2 -g -fPIC -shared -Wall -Wextra -Werror \
		   -Wmissing-prototypes -I$(KN_DIR) -I$(TOP)/include/uvm

$(KN_OUT)/%.so: $(KN_DIR)/%.c $(KN_DIR)/kn.h $(KN_DIR)/kernels.mk $(TOP)/include/uvm/uvm_kernel.h
	@mkdir -p $(@D)
	$(CC) $(KN_CFLAGS) -o $@ $< -lm

.PHONY: client-kernels
client-kernels: $(KN_SOS)
tests: $(KN_SOS)

# answers.c serves vectorAdd.c's implementation under another name.
$(KN_OUT)/answers.so: $(KN_DIR)/vectorAdd.c
