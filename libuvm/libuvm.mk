# SPDX-License-Identifier: GPL-2.0
#
# libuvm: the user-space library (included by the top-level Makefile, which
# defines TOP, BUILD and CC).
#
#   make lib        $(BUILD)/libuvm/libuvm.so.0.1.0 + libuvm.so.0 + libuvm.so
#   make abi-test   host-side ABI, symbol and no-module tests (TAP output)
#
# For other makefiles (tests/tests.mk):
#   LIBUVM_SO        path of the built libuvm.so.0 (depend on it)
#   LIBUVM_CPPFLAGS  -I for the CUDA-compatible headers and uvm.h
#   LIBUVM_LDFLAGS   link flags for -luvm, with an rpath to the build dir
#   ABI_TEST_CMD     command that runs the host ABI tests (exit 0 = pass)

LIBUVM_DIR	:= $(TOP)/libuvm
LIBUVM_BUILD	:= $(BUILD)/libuvm
LIBUVM_SONAME	:= libuvm.so.0
LIBUVM_REAL	:= libuvm.so.0.1.0
LIBUVM_SO	:= $(LIBUVM_BUILD)/$(LIBUVM_SONAME)
LIBUVM_CPPFLAGS	:= -I$(TOP)/include/uvm
LIBUVM_LDFLAGS	:= -L$(LIBUVM_BUILD) -luvm -Wl,-rpath,$(LIBUVM_BUILD)

LIBUVM_DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
LIBUVM_DRM_LIBS	  := $(shell pkg-config --libs libdrm 2>/dev/null || echo -ldrm)

LIBUVM_WARN	:= -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes \
		   -Wshadow -Wformat=2 -Wundef
LIBUVM_CFLAGS	:= -std=gnu11 -O2 -g -fPIC -fvisibility=hidden $(LIBUVM_WARN) \
		   -D_GNU_SOURCE $(LIBUVM_CPPFLAGS) -I$(TOP)/include $(LIBUVM_DRM_CFLAGS)
LIBUVM_LIBS	:= $(LIBUVM_DRM_LIBS) -lnuma -lpthread

LIBUVM_SRCS	:= $(sort $(wildcard $(LIBUVM_DIR)/*.c))
LIBUVM_OBJS	:= $(patsubst $(LIBUVM_DIR)/%.c,$(LIBUVM_BUILD)/obj/%.o,$(LIBUVM_SRCS))
LIBUVM_MAP	:= $(LIBUVM_BUILD)/libuvm.map

.PHONY: lib abi-test lib-clean
lib: $(LIBUVM_SO) $(LIBUVM_BUILD)/libuvm.so

$(LIBUVM_BUILD)/obj/%.o: $(LIBUVM_DIR)/%.c $(TOP)/libuvm/libuvm.mk
	@mkdir -p $(dir $@)
	$(CC) $(LIBUVM_CFLAGS) -MMD -MP -c -o $@ $<

# The version script is generated from the checked-in symbol list.
$(LIBUVM_MAP): $(LIBUVM_DIR)/symbols.txt
	@mkdir -p $(dir $@)
	{ echo 'LIBUVM_0 {'; echo 'global:'; \
	  sed -e 's/#.*//' -e '/^[[:space:]]*$$/d' -e 's/.*/	&;/' $<; \
	  echo 'local:'; echo '	*;'; echo '};'; } > $@.tmp && mv $@.tmp $@

$(LIBUVM_BUILD)/$(LIBUVM_REAL): $(LIBUVM_OBJS) $(LIBUVM_MAP)
	$(CC) -shared -Wl,-soname,$(LIBUVM_SONAME) -Wl,--version-script=$(LIBUVM_MAP) \
		-Wl,-z,defs -Wl,-z,now -Wl,-z,relro -o $@ $(LIBUVM_OBJS) $(LIBUVM_LIBS)

$(LIBUVM_SO): $(LIBUVM_BUILD)/$(LIBUVM_REAL)
	ln -sf $(LIBUVM_REAL) $@

$(LIBUVM_BUILD)/libuvm.so: $(LIBUVM_SO)
	ln -sf $(LIBUVM_SONAME) $@

-include $(LIBUVM_OBJS:.o=.d)

# --- host-side tests (tests/abi) ---------------------------------------------
ABI_TEST_CMD	:= $(TOP)/tests/abi/run $(TOP) $(BUILD)/abi $(LIBUVM_BUILD)
abi-test: lib
	CC="$(CC)" $(ABI_TEST_CMD)

lib-clean:
	rm -rf $(LIBUVM_BUILD) $(BUILD)/abi
