# Base initramfs of each variant (guest-tools/PROTOCOL.md).
INITRAMFS_DIR := $(BUILD)/initramfs
INITRAMFS_SRC := $(wildcard guest-tools/initramfs/*) $(wildcard guest-tools/initramfs/steps/*)

.PHONY: initramfs
initramfs: $(foreach v,$(VARIANTS),$(INITRAMFS_DIR)/$(v).cpio) ## Build the guest initramfs of the VARIANTS kernels (default: stock patched)

# GUEST_IMAGE_INPUTS_<variant>: the guest tools and helper module of that
# variant, from guest-tools/guest-tools.mk.
$(INITRAMFS_DIR)/%.cpio: $(KERNEL_OUT)/%/bzImage $(INITRAMFS_SRC) $$(GUEST_IMAGE_INPUTS_$$*)
	$(Q)mkdir -p $(INITRAMFS_DIR)
	$(Q)guest-tools/initramfs/mkinitramfs.sh $* $@

.PHONY: initramfs-all
initramfs-all: $(foreach v,$(filter-out %-blktests,$(KERNEL_VARIANTS)),$(INITRAMFS_DIR)/$(v).cpio) ## Build the guest initramfs of every declared variant (kernel/variants.toml)
