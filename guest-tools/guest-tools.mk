# Guest tools: static C tools for the guest, the helper module of each
# kernel variant, and the host unit tests of the shared library.
#
# Every directory under guest-tools/src/ except lib/, and every directory
# under guest-tools/tests/guest/, is one tool named after the directory:
# its *.c files are linked with the library in src/lib/ into
# $(BUILD)/guest-tools/bin/<tool>.

GT_DIR := guest-tools
GT_OUT := $(BUILD)/guest-tools
GT_KOUT := $(BUILD)/kernel/out
GT_CC ?= gcc
GT_WARN := -Wall -Wextra -Werror
GT_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g $(GT_WARN) \
	-I$(GT_DIR)/src/lib -I$(GT_DIR)/include
# Host unit tests run the library under the sanitizers.
GT_HOST_CFLAGS := $(GT_CFLAGS) -fsanitize=address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=all

GT_LIB_SRC := $(wildcard $(GT_DIR)/src/lib/*.c)
GT_HDRS := $(wildcard $(GT_DIR)/src/lib/*.h $(GT_DIR)/include/blkscale/*.h)
GT_LIB := $(GT_OUT)/obj/libblkscale.a
GT_HOST_LIB := $(GT_OUT)/host/libblkscale.a

GT_TOOL_DIRS := $(patsubst %/,%,$(filter-out $(GT_DIR)/src/lib/, \
	$(wildcard $(GT_DIR)/src/*/) $(wildcard $(GT_DIR)/tests/guest/*/)))
GT_TOOLS := $(notdir $(GT_TOOL_DIRS))
GT_TOOL_BINS := $(addprefix $(GT_OUT)/bin/,$(GT_TOOLS))

# The selftest once more for i386 (gcc-multilib): its ioctls then reach the
# module through compat_ioctl, and its compat test runs it in the guest.
GT_SELFTEST_DIR := $(GT_DIR)/tests/guest/blkscale-selftest
GT_SELFTEST32 := $(GT_OUT)/bin/blkscale-selftest32
GT_LIB32 := $(GT_OUT)/obj32/libblkscale.a
GT_TOOL_BINS += $(GT_SELFTEST32)

GT_MOD_SRC := $(wildcard $(GT_DIR)/module/*.c) $(GT_DIR)/module/Kbuild \
	$(GT_DIR)/module/Makefile $(GT_DIR)/include/blkscale/majors_uapi.h

GT_UNIT_SRC := $(wildcard $(GT_DIR)/tests/unit/test_*.c)
GT_UNIT_BINS := $(patsubst $(GT_DIR)/tests/unit/%.c,$(GT_OUT)/unit/%,$(GT_UNIT_SRC))

# What the initramfs of each variant takes from here (initramfs.mk); the
# variants are kernel/variants.toml's (kernel/kernel.mk).
$(foreach v,$(KERNEL_VARIANTS),$(eval GUEST_IMAGE_INPUTS_$(v) := \
	$(GT_TOOL_BINS) $(GT_OUT)/module/$(v)/blkscale_majors.ko))

.PHONY: guest-tools guest-tools-test guest-static-majors

guest-tools: $(GT_TOOL_BINS) ## Build the static guest tools (majorbench, procdevbench, ...)

guest-module-%: $(GT_OUT)/module/%/blkscale_majors.ko ## Build the helper module for a kernel variant (guest-module-stock)
	@:

# test_census_tool runs the real diskcensus binary against fake trees.
guest-tools-test: $(GT_UNIT_BINS) $(GT_TOOL_BINS) ## Run the host unit tests of the guest tools (cmocka)
	$(Q)$(GT_DIR)/tests/unit/run-unit-tests.sh $(GT_UNIT_BINS)

guest-static-majors: ## Regenerate the table of statically assigned block majors
	$(Q)$(GT_DIR)/src/lib/gen-static-majors.py \
		$(BUILD)/linux/Documentation/admin-guide/devices.txt \
		> $(GT_DIR)/src/lib/static_majors.c.tmp
	$(Q)mv $(GT_DIR)/src/lib/static_majors.c.tmp $(GT_DIR)/src/lib/static_majors.c

# The library, once for the guest (static) and once for the host tests.
$(GT_OUT)/obj/%.o: $(GT_DIR)/src/lib/%.c $(GT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(GT_CC) $(GT_CFLAGS) -c -o $@ $<

$(GT_OUT)/host/%.o: $(GT_DIR)/src/lib/%.c $(GT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  HOSTCC  $@")
	$(Q)$(GT_CC) $(GT_HOST_CFLAGS) -c -o $@ $<

$(GT_OUT)/obj32/%.o: $(GT_DIR)/src/lib/%.c $(GT_HDRS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC32    $@")
	$(Q)$(GT_CC) -m32 $(GT_CFLAGS) -c -o $@ $<

$(GT_LIB32): $(patsubst $(GT_DIR)/src/lib/%.c,$(GT_OUT)/obj32/%.o,$(GT_LIB_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(GT_SELFTEST32): $(wildcard $(GT_SELFTEST_DIR)/*.c $(GT_SELFTEST_DIR)/*.h) $(GT_HDRS) $(GT_LIB32)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CCLD32  $@")
	$(Q)$(GT_CC) -m32 $(GT_CFLAGS) -I$(GT_SELFTEST_DIR) -static -pthread -o $@ \
		$(wildcard $(GT_SELFTEST_DIR)/*.c) $(GT_LIB32) -lm

$(GT_LIB): $(patsubst $(GT_DIR)/src/lib/%.c,$(GT_OUT)/obj/%.o,$(GT_LIB_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

$(GT_HOST_LIB): $(patsubst $(GT_DIR)/src/lib/%.c,$(GT_OUT)/host/%.o,$(GT_LIB_SRC))
	$(Q)rm -f $@ && ar rcs $@ $^

define GT_TOOL_RULE
$(GT_OUT)/bin/$(notdir $(1)): $(wildcard $(1)/*.c $(1)/*.h) $(GT_HDRS) $(GT_LIB)
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  CCLD    $$@")
	$$(Q)$(GT_CC) $(GT_CFLAGS) -I$(1) -static -pthread -o $$@ \
		$(wildcard $(1)/*.c) $(GT_LIB) -lm
endef
$(foreach d,$(GT_TOOL_DIRS),$(eval $(call GT_TOOL_RULE,$(d))))

$(GT_OUT)/unit/%: $(GT_DIR)/tests/unit/%.c $(wildcard $(GT_DIR)/tests/unit/*.h) \
		$(GT_HDRS) $(GT_HOST_LIB)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  HOSTLD  $@")
	$(Q)$(GT_CC) $(GT_HOST_CFLAGS) -o $@ $< $(GT_HOST_LIB) -lcmocka -lm

# Reached through guest-module-%, the module would count as intermediate.
.PRECIOUS: $(GT_OUT)/module/%/blkscale_majors.ko

# The module is built out of a copy of its sources, so the source tree
# stays clean and each variant has its own objects.
# A prebuilt kernel declared without headers (an empty objdir) gets no
# module: the guest skips the steps that need it, and says why.
$(GT_OUT)/module/%/blkscale_majors.ko: $(GT_MOD_SRC) $(GT_KOUT)/%/bzImage
	$(Q)test -f $(GT_KOUT)/$*/objdir || \
		{ echo "guest-module-$*: no $(GT_KOUT)/$*/objdir (make kernel)" >&2; exit 1; }
	$(Q)if [ ! -s $(GT_KOUT)/$*/objdir ]; then \
		echo "  MODULE  $*: no kernel headers, no helper module"; \
	else \
		mkdir -p $(@D)/include/blkscale && \
		cp $(GT_DIR)/module/Kbuild $(GT_DIR)/module/Makefile \
			$(wildcard $(GT_DIR)/module/*.c) $(@D)/ && \
		cp $(GT_DIR)/include/blkscale/majors_uapi.h $(@D)/include/blkscale/ && \
		$(if $(Q),echo "  MODULE  $@" &&) \
		$(MAKE) --no-print-directory -C "$$(cat $(GT_KOUT)/$*/objdir)" \
			M=$(abspath $(@D)) $(if $(Q),-s) modules; \
	fi
