# Kernel variants: every [[variant]] of kernel/variants.toml, built from a
# linux-source-X package (with its patch directory's series) or taken
# from a prebuilt Debian kernel package.  `make kernel` builds VARIANTS.
KERNEL_OUT := $(BUILD)/kernel/out
KERNEL_SCRIPTS := $(addprefix kernel/scripts/,common.sh source-tree.sh variant-tree.sh build.sh)
KERNEL_PREBUILT_SCRIPTS := $(addprefix kernel/scripts/,common.sh build.sh prebuilt.sh)
# BLKSCALE_VARIANTS: a variants file of one's own instead.
KERNEL_VARIANTS_FILE := $(or $(BLKSCALE_VARIANTS),kernel/variants.toml)
KERNEL_VARIANTS_MK := $(BUILD)/kernel/variants$(if $(BLKSCALE_VARIANTS),-$(notdir $(basename $(BLKSCALE_VARIANTS)))).mk

# What the variants file says, as make variables (KERNEL_VARIANTS,
# KERNEL_DEPS_<variant>, KERNEL_PREBUILT_<variant>); remade, and make
# restarted, when the file or a series changes.
$(KERNEL_VARIANTS_MK): $(KERNEL_VARIANTS_FILE) $(wildcard kernel/patches/series kernel/patches/*/series) launcher/blkscale/kernels.py
	@mkdir -p $(@D)
	$(Q)./blkscale variants --make >$@.tmp && mv $@.tmp $@
# Soft: `make deps` must work before python3 is installed.
-include $(KERNEL_VARIANTS_MK)

.PHONY: kernel kernel-debug kernel-blktests kernel-all check-series format-series
kernel: $(foreach v,$(VARIANTS),$(KERNEL_OUT)/$(v)/bzImage) ## Build the VARIANTS kernels (default: stock patched; ./blkscale variants lists them all)

kernel-all: $(foreach v,$(filter-out %-blktests,$(KERNEL_VARIANTS)),$(KERNEL_OUT)/$(v)/bzImage) ## Build every declared variant (kernel/variants.toml), blktests flavours aside

kernel-debug: $(KERNEL_OUT)/debug/bzImage ## Build the debug variant (patched + lockdep, DEBUG_LIST, SLUB debugging, kmemleak)

kernel-blktests: $(foreach v,$(VARIANTS),$(KERNEL_OUT)/$(v)-blktests/bzImage) ## Build the blktests flavour of the VARIANTS kernels (loop, md, nbd, sg, cgroups, dm, zoned, ublk: kernel/configs/blktests.config, and blktests-X.Y.config where a base needs more)

# A variant is rebuilt only when its scripts, config fragments or patches
# change; kbuild then recompiles only what they affect.
# A kernel whose build did not record its base (out/base) is built again.
kernel_unrecorded = $(if $(wildcard $(KERNEL_OUT)/$(1)/bzImage),$(if $(wildcard $(KERNEL_OUT)/$(1)/base),,FORCE))
.PHONY: FORCE
.SECONDEXPANSION:
$(KERNEL_OUT)/%/bzImage: $$(KERNEL_DEPS_$$*) $$(call kernel_unrecorded,$$*)
	$(Q)kernel/scripts/build.sh $*

check-series: ## Check each series of kernel/patches on its own (CHECK_SERIES_PATCHES=kernel/patches/NAME: one; CHECK_SERIES_VARIANT=patched-6.12: the 6.12 one): the cover letter's [RFC PATCH vN n/N] prefix, base-commit, changelogs, Signed-off-by, checkpatch --strict; each prefix applies, builds (x86_64, !PROC_FS, !BLOCK_LEGACY_AUTOLOAD, i386, W=1, sparse: CHECK_SERIES_CONFIGS) and boots smoke
	$(Q)kernel/scripts/check-series.sh

format-series: ## Write a sendable copy of the series to build/series-out, From: and Signed-off-by: from your git identity
	$(Q)kernel/scripts/format-series.sh
