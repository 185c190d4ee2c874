# SPDX-License-Identifier: GPL-2.0
#
# tools/tools.mk - included by the top-level Makefile (TOP, BUILD, CC).
#
#   make tools      $(BUILD)/tools/uvm-smi and $(BUILD)/tools/uvm-stat
#
# The tools speak the module's uapi directly (no libuvm): they must work,
# and say what is wrong, on a machine where only the module is installed.

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

-include $(wildcard $(TOOLS_OUT)/obj/*.d)

tools-clean:
	rm -rf $(TOOLS_OUT)

# Keep the objects (pattern-rule intermediates) so rebuilds stay incremental.
.PRECIOUS: $(TOOLS_OUT)/obj/%.o
