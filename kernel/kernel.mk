# Kernel variants: stock linux-source-6.1 and stock + kernel/patches/series.
KERNEL_OUT := $(BUILD)/kernel/out
KERNEL_SCRIPTS := $(addprefix kernel/scripts/,common.sh source-tree.sh variant-tree.sh build.sh)
KERNEL_CONFIG := kernel/configs/blkscale.config
KERNEL_SERIES := $(wildcard kernel/patches/series) \
	$(addprefix kernel/patches/,$(shell sed -e 's/\#.*//' kernel/patches/series 2>/dev/null))

KERNEL_DEPS_stock := $(KERNEL_SCRIPTS) $(KERNEL_CONFIG)
KERNEL_DEPS_patched := $(KERNEL_DEPS_stock) $(KERNEL_SERIES)
KERNEL_DEPS_debug := $(KERNEL_DEPS_patched) kernel/configs/debug.config
KERNEL_DEPS_stock-blktests := $(KERNEL_DEPS_stock) kernel/configs/blktests.config
KERNEL_DEPS_patched-blktests := $(KERNEL_DEPS_patched) kernel/configs/blktests.config

.PHONY: kernel kernel-debug kernel-blktests check-series
kernel: $(foreach v,stock patched,$(KERNEL_OUT)/$(v)/bzImage) ## Build the stock and patched kernels (bzImage + modules)

kernel-debug: $(KERNEL_OUT)/debug/bzImage ## Build the debug variant (patched + lockdep, DEBUG_LIST, SLUB debugging, kmemleak)

kernel-blktests: $(foreach v,stock patched,$(KERNEL_OUT)/$(v)-blktests/bzImage) ## Build the blktests flavour of both kernels (loop, md, nbd, sg, cgroups, dm, zoned, ublk: kernel/configs/blktests.config)

# A variant is rebuilt only when its scripts, config fragments or patches
# change; kbuild then recompiles only what they affect.
.SECONDEXPANSION:
$(KERNEL_OUT)/%/bzImage: $$(KERNEL_DEPS_$$*)
	$(Q)kernel/scripts/build.sh $*

check-series: ## Check the series: [PATCH n/N], Signed-off-by, checkpatch --strict, and each prefix applies, builds and boots smoke
	$(Q)kernel/scripts/check-series.sh
