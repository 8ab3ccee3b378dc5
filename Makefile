# blkscale: large-scale disk topology simulator for a patched Linux kernel.
# `make help` lists the targets; every component brings its own fragment.

SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

BUILD ?= build
PYTHON := /usr/bin/python3
TOPOLOGY ?= topologies/default.toml
VARIANTS ?= stock patched
# V=1 shows every command.
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
export BUILD

include kernel/kernel.mk
include qemu/qemu.mk
-include guest-tools/guest-tools.mk
include guest-tools/initramfs/initramfs.mk
-include bench/bench.mk
-include reports/reports.mk

# What the blktests layer of the guest image takes from the host
# (guest-tools/initramfs/blktests/mklayer.sh), and g++ and liburing-dev for
# blktests' helpers.
BLKTESTS_PACKAGES := g++ gawk bsdextrautils xfsprogs e2fsprogs pciutils \
	mdadm nbd-client nbd-server dmsetup parted bc psmisc procps udev \
	blktrace dosfstools libnl-utils gzip liburing-dev

# What the multipath layer of the guest image takes from the host
# (guest-tools/initramfs/multipath/mklayer.sh).  On a host run by
# systemd the package also enables and starts multipathd there (`systemctl
# disable --now multipathd.service multipathd.socket` stops it); the
# guest runs its own.
MULTIPATH_PACKAGES := multipath-tools

# Debian packages the project needs, on a fresh Debian 12 machine.
DEB_PACKAGES := \
	linux-source-6.1 bc bison flex libelf-dev libssl-dev cpio xz-utils \
	kmod rsync ccache gcc make git sparse \
	qemu-system-x86 qemu-utils \
	libvirt-daemon-system libvirt-clients libxml2-utils \
	python3 python3-libvirt python3-pytest python3-matplotlib python3-numpy python3-scipy chromium \
	python3-venv python3-pip \
	fio lvm2 busybox-static libcmocka-dev libc6-dev \
	gcc-multilib libc6-dev-i386 \
	$(MULTIPATH_PACKAGES) \
	$(BLKTESTS_PACKAGES)

# The blktests checkout: the user's own, or the unmodified copy that sits
# beside the project for its tests and CI.
BLKTESTS_DIR ?= $(abspath $(firstword $(wildcard ../shared/peers/blktests)))
export BLKTESTS_DIR

.PHONY: help deps run test blktests clean distclean

help: ## List the targets
	@echo "blkscale: make TARGET [V=1] [TOPOLOGY=topologies/NAME.toml] [VARIANTS='stock patched']"
	@grep -hE '^[a-zA-Z0-9_%-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([^:]+):.*## (.*)/  \1\t\2/' | expand -t 24

# Install those of the Debian packages $(1) that are missing; $(2) names
# the target in the error.
define install_missing
	$(Q)missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${db:Status-Abbrev}' $$p 2>/dev/null | grep -q '^ii' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "  DEPS    installing:" $$missing; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends $$missing >/dev/null || \
		{ apt-get update -q >/dev/null && \
		  apt-get install -y -q --no-install-recommends $$missing >/dev/null; } || \
		{ echo "$(2): apt-get could not install:" $$missing >&2; exit 1; }; \
	fi
endef

deps: ## Install the Debian packages that are missing (needs root)
	$(call install_missing,$(DEB_PACKAGES),deps)

run: deps kernel initramfs ## Run TOPOLOGY on both kernel variants and summarise
	$(Q)./blkscale run $(TOPOLOGY) $(foreach v,$(VARIANTS),--variant $(v))

blktests: deps kernel-blktests $(foreach v,stock patched,$(BUILD)/initramfs/$(v)-blktests.cpio) ## Run blktests on the blktests flavour of both kernels (BLKTESTS_DIR: the checkout)
	$(Q)test -n "$(BLKTESTS_DIR)" || \
		{ echo "blktests: BLKTESTS_DIR: set it to a blktests checkout" >&2; exit 2; }
	$(Q)./blkscale run topologies/blktests.toml

# Each component's pytest suite runs in its own process; the last line is
# the sum of every suite, C unit tests included.
TEST_SUITES := $(patsubst %/,%,$(sort $(dir $(wildcard $(addsuffix /test_*.py, \
	launcher/tests kernel/tests guest-tools/tests bench/tests reports/tests)))))
TEST_REPORTS := $(BUILD)/test-reports

# Debian's own kernel is a download of a few seconds, not a build: the
# tests boot it to check the guest image of a modular kernel.
TEST_VARIANTS := debian

test: deps kernel initramfs $(foreach v,$(TEST_VARIANTS),$(KERNEL_OUT)/$(v)/bzImage $(INITRAMFS_DIR)/$(v).cpio) ## Run the whole test suite (C unit tests, pytest per component incl. boots)
	$(Q)rm -rf $(TEST_REPORTS) && mkdir -p $(TEST_REPORTS)
	$(Q)status=0; \
	$(MAKE) --no-print-directory guest-tools-test 2>&1 | tee $(TEST_REPORTS)/c-unit.log || status=1; \
	for suite in $(TEST_SUITES); do \
		name=$$(echo $$suite | tr / -); \
		echo "== $$suite"; \
		$(PYTHON) -m pytest -q -ra -p no:cacheprovider --junitxml=$(TEST_REPORTS)/$$name.xml \
			$$suite || status=1; \
	done; \
	$(PYTHON) launcher/scripts/test_summary.py $(TEST_REPORTS)/c-unit.log \
		$(foreach s,$(TEST_SUITES),$(TEST_REPORTS)/$(subst /,-,$(s)).xml) || status=1; \
	exit $$status

clean: ## Remove build outputs except the kernel trees
	rm -rf $(BUILD)/initramfs $(BUILD)/guest-tools

distclean: ## Remove build/ and results/ entirely
	rm -rf $(BUILD) results
