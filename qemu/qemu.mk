# QEMU: qemu-system-x86_64 built from Debian's source of the installed
# QEMU with the series in qemu/patches (qemu/README.md).  `make qemu`
# builds it; the launcher runs it with `--qemu patched`.
QEMU_OUT := $(BUILD)/qemu/out
QEMU_SCRIPTS := $(addprefix qemu/scripts/,common.sh fetch.sh build.sh)
# -j for ninja; 1 leaves the second core to whatever else runs.
QEMU_JOBS ?= 1
export QEMU_JOBS

# What building QEMU needs beyond `make deps`: only this path installs it.
QEMU_DEB_PACKAGES := dpkg-dev ninja-build meson pkg-config ccache \
	libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev

.PHONY: qemu qemu-deps
qemu: qemu-deps $(QEMU_OUT)/qemu-system-x86_64 ## Build qemu-system-x86_64 from Debian's qemu source with qemu/patches (QEMU_JOBS=1)

qemu-deps:
	$(call install_missing,$(QEMU_DEB_PACKAGES),qemu)

# Built again when a script, the series or a patch changes, or when
# Debian's QEMU is upgraded (its file list in dpkg's database changes).
$(QEMU_OUT)/qemu-system-x86_64: $(QEMU_SCRIPTS) qemu/qemu.mk qemu/patches/series \
		$(wildcard qemu/patches/0*.patch) $(wildcard /var/lib/dpkg/info/qemu-system-x86.list)
	$(Q)qemu/scripts/build.sh
