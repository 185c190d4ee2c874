# SPDX-License-Identifier: GPL-2.0
#
# libuvm: the user-space library (included by the top-level Makefile, which
# defines TOP, BUILD and CC).
#
#   make lib        $(BUILD)/libuvm/libuvm.so.0.1.0 + libuvm.so.0 + libuvm.so, and the
#                   drop-in libraries $(BUILD)/libuvm/cuda/libcudart.so.13 and
#                   libcuda.so.1 (+ libcudart.so, libcuda.so)
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
LIBUVM_DROPIN_DIR := $(LIBUVM_BUILD)/cuda
LIBUVM_COMMA	:= ,
LIBUVM_DROPINS	:= $(LIBUVM_DROPIN_DIR)/libcudart.so.13 $(LIBUVM_DROPIN_DIR)/libcuda.so.1 \
		   $(LIBUVM_DROPIN_DIR)/libcudart.so $(LIBUVM_DROPIN_DIR)/libcuda.so

.PHONY: lib abi-test lib-clean
lib: $(LIBUVM_SO) $(LIBUVM_BUILD)/libuvm.so $(LIBUVM_DROPINS)

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

# --- drop-in libraries --------------------------------------------------------
# libcudart.so.13 and libcuda.so.1 for binaries linked against NVIDIA's
# libraries: SONAMEs and symbol versions as NVIDIA's (every libcudart export
# versioned libcudart.so.13; libcuda.so.1 unversioned, as the toolkit's stub).
# No second compile of libuvm: each export is a jump to libuvm.so.0's
# function (libuvm/dropin.S), so the process has one runtime whichever of
# the three it loads; RUNPATH $ORIGIN/.. finds libuvm.so.0 (build tree and
# $(LIBDIR)/uvm alike). libcudart.so.13 carries symbols.txt's cuda* and
# __cuda* names, libcuda.so.1 its cu* names; uvm* names stay in libuvm.so.0.
LIBUVM_CUDART_RE := ^_*cuda
LIBUVM_CUDA_RE	:= ^cu[A-Z]

# dropin_names RE: symbols.txt's names matching RE, one a line
dropin_names = sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' -e 's/[[:space:]]//g' \
	$(LIBUVM_DIR)/symbols.txt | grep -E '$(1)'

.SECONDARY: $(LIBUVM_DROPIN_DIR)/libcudart.list $(LIBUVM_DROPIN_DIR)/libcuda.list
$(LIBUVM_DROPIN_DIR)/%.list: $(LIBUVM_DIR)/symbols.txt $(TOP)/libuvm/libuvm.mk
	@mkdir -p $(dir $@)
	$(call dropin_names,$(if $(filter libcudart,$*),$(LIBUVM_CUDART_RE),$(LIBUVM_CUDA_RE))) | \
		sed 's/.*/UVM_DROPIN(&)/' >$@.tmp && mv $@.tmp $@

$(LIBUVM_DROPIN_DIR)/libcudart.map: $(LIBUVM_DIR)/symbols.txt $(TOP)/libuvm/libuvm.mk
	@mkdir -p $(dir $@)
	{ echo 'libcudart.so.13 {'; echo 'global:'; \
	  $(call dropin_names,$(LIBUVM_CUDART_RE)) | sed 's/.*/	&;/'; \
	  echo 'local:'; echo '	*;'; echo '};'; } >$@.tmp && mv $@.tmp $@

$(LIBUVM_DROPIN_DIR)/libcuda.map: $(LIBUVM_DIR)/symbols.txt $(TOP)/libuvm/libuvm.mk
	@mkdir -p $(dir $@)
	{ echo '{'; echo 'global:'; \
	  $(call dropin_names,$(LIBUVM_CUDA_RE)) | sed 's/.*/	&;/'; \
	  echo 'local:'; echo '	*;'; echo '};'; } >$@.tmp && mv $@.tmp $@

$(LIBUVM_DROPIN_DIR)/%.o: $(LIBUVM_DIR)/dropin.S $(LIBUVM_DROPIN_DIR)/%.list
	$(CC) -fPIC -c -DDROPIN_LIST='"$*.list"' -I$(LIBUVM_DROPIN_DIR) -o $@ $<

# dropin_link SONAME MAP OBJ [extra ld flags]
dropin_link = $(CC) -shared -Wl,-soname,$(1) -Wl,--version-script=$(2) -Wl,-z,defs \
	-Wl,-z,now -Wl,-z,relro -Wl,-z,noexecstack -Wl,--enable-new-dtags \
	-Wl,-rpath,'$$ORIGIN/..' $(4) -o $@ $(3) -L$(LIBUVM_BUILD) -l:$(LIBUVM_SONAME)

$(LIBUVM_DROPIN_DIR)/libcudart.so.13: $(LIBUVM_DROPIN_DIR)/libcudart.o \
		$(LIBUVM_DROPIN_DIR)/libcudart.map $(LIBUVM_SO)
	$(call dropin_link,libcudart.so.13,$(LIBUVM_DROPIN_DIR)/libcudart.map,$<)

$(LIBUVM_DROPIN_DIR)/libcuda.so.1: $(LIBUVM_DROPIN_DIR)/libcuda.o \
		$(LIBUVM_DROPIN_DIR)/libcuda.map $(LIBUVM_SO)
	$(call dropin_link,libcuda.so.1,$(LIBUVM_DROPIN_DIR)/libcuda.map,$<,-Wl$(LIBUVM_COMMA)--filter=$(LIBUVM_SONAME))

$(LIBUVM_DROPIN_DIR)/libcudart.so: $(LIBUVM_DROPIN_DIR)/libcudart.so.13
	ln -sf libcudart.so.13 $@

$(LIBUVM_DROPIN_DIR)/libcuda.so: $(LIBUVM_DROPIN_DIR)/libcuda.so.1
	ln -sf libcuda.so.1 $@

# --- host-side tests (tests/abi) ---------------------------------------------
ABI_TEST_CMD	:= $(TOP)/tests/abi/run $(TOP) $(BUILD)/abi $(LIBUVM_BUILD)
abi-test: lib
	CC="$(CC)" $(ABI_TEST_CMD)

lib-clean:
	rm -rf $(LIBUVM_BUILD) $(BUILD)/abi
