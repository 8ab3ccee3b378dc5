# bench: sweeps over topologies and kernel variants, nightly regression
# verdict against the committed baselines (bench/README.md).
#   make bench [BENCH_SWEEP=bench/sweeps/NAME.toml] [BENCH_TOPOLOGIES='a b']
#              [VARIANTS='stock patched'] [REPEAT=N] [BENCH_HOSTS='uri1 uri2']
#              [BENCH_STAGING=shared|volumes]
#   make nightly [NIGHTLY_SWEEP=...] [NIGHTLY_CURVE_SWEEP=...] [NIGHTLY_CURVE_QEMU=patched|distro|PATH]
#   make baseline RUN=results/<run>

BENCH_SWEEP ?= bench/sweeps/default.toml
NIGHTLY_SWEEP ?= bench/sweeps/nightly.toml
# The boot curve past 10,000 disks: three repeats, its goals judged (not
# against a baseline), with the QEMU that make qemu builds in the recipe:
# Debian's spends most of a minute creating 20,000 disks before the guest
# starts (evidence/20261205-qemu-patched).  NIGHTLY_CURVE_QEMU=distro
# runs it with Debian's binary instead.
NIGHTLY_CURVE_SWEEP ?= bench/sweeps/bootcurve-nightly.toml
NIGHTLY_CURVE_QEMU ?= patched
# Every shipped kernel variant side by side (kernel/variants.toml): each
# must build and complete every run.  Built in the recipe, so that a
# variant that cannot be built (a series not yet rebased onto its base)
# fails this part of the nightly and not the rest; plain `make`, so that
# `make -n nightly` runs nothing.
NIGHTLY_KERNELS_SWEEP ?= bench/sweeps/kernels.toml
# 65,536 scsi_debug LUNs on both kernels, the patched one held to a
# ceiling of ten minutes to census.
NIGHTLY_SIM_SWEEP ?= bench/sweeps/sim-65536.toml

# VARIANTS has a default in the top Makefile: pass it on only when the
# user set it, so that a sweep file's own list otherwise applies.
bench_overrides = \
	$(if $(BENCH_TOPOLOGIES),--topology '$(BENCH_TOPOLOGIES)') \
	$(if $(REPEAT),--repeat $(REPEAT)) \
	$(if $(BENCH_HOSTS),--host '$(BENCH_HOSTS)') \
	$(if $(BENCH_STAGING),--staging $(BENCH_STAGING)) \
	$(if $(filter command line environment,$(origin VARIANTS)),--variant '$(VARIANTS)')

.PHONY: bench nightly baseline

bench: deps kernel initramfs ## Sweep BENCH_SWEEP (topologies x VARIANTS, REPEAT times) into results/, print medians, spreads and ratios; BENCH_HOSTS='uri1 uri2': fan out over libvirt hosts (BENCH_STAGING=volumes: send their files as storage volumes)
	$(Q)./blkscale bench --sweep $(BENCH_SWEEP) $(bench_overrides)

# The kernels whose blktests flavour the nightly judges, pair by pair.
NIGHTLY_BLKTESTS_BASES := stock patched stock-6.12 patched-6.12

# The nightly also fuzzes the helper module on the debug kernel (lockdep,
# DEBUG_LIST, SLUB debugging, kmemleak) and adds and removes SCSI devices
# in parallel on it (the glue-directory stress): too slow under TCG for
# make test.
nightly: deps kernel initramfs kernel-debug guest-tools guest-module-debug $(BUILD)/initramfs/debug.cpio $(foreach v,$(NIGHTLY_BLKTESTS_BASES),$(KERNEL_OUT)/$(v)-blktests/bzImage $(BUILD)/initramfs/$(v)-blktests.cpio) ## Stress and every-disk sweep judged against bench/baselines (every repeat counts; undecided times get more repeats), the boot curve to 20,000 disks with its goals on the patched QEMU (make qemu), 65,536 scsi_debug LUNs on both kernels (patched at most 10 minutes to census), debug-kernel fuzzing, blktests on both kernels of each base (6.1, 6.12) and on Debian's own, every declared kernel variant side by side (bench/sweeps/kernels.toml); JUnit XML; fails on a regression and on an undecided verdict (./blkscale nightly tells them apart: exit 1 and 3)
	$(Q)failed=0; undecided=0; \
	verdict() { case $$1 in 0) ;; 3) undecided=1 ;; *) failed=1 ;; esac; }; \
	rc=0; ./blkscale nightly --sweep $(NIGHTLY_SWEEP) $(bench_overrides) || rc=$$?; verdict $$rc; \
	rc=0; { $(if $(filter patched,$(NIGHTLY_CURVE_QEMU)),make --no-print-directory qemu &&) \
		./blkscale bench --sweep $(NIGHTLY_CURVE_SWEEP) --qemu $(NIGHTLY_CURVE_QEMU); } || rc=$$?; verdict $$rc; \
	rc=0; ./blkscale nightly --sweep $(NIGHTLY_SIM_SWEEP) || rc=$$?; verdict $$rc; \
	rc=0; { make --no-print-directory kernel-all initramfs-all && \
		./blkscale bench --sweep $(NIGHTLY_KERNELS_SWEEP); } || rc=$$?; verdict $$rc; \
	rc=0; BLKSCALE_NIGHTLY=1 $(PYTHON) -m pytest -q -ra -p no:cacheprovider \
		--junitxml=$(BUILD)/nightly-guest-tests.xml \
		guest-tools/tests/test_fuzz_debug.py \
		guest-tools/tests/test_gluestress_debug.py \
		guest-tools/tests/test_blktests_nightly.py \
		guest-tools/tests/test_blktests_debian.py \
		guest-tools/tests/test_blktests_flavour.py \
		kernel/tests/test_check_series.py || rc=1; verdict $$rc; \
	if [ $$failed = 1 ]; then exit 1; fi; \
	if [ $$undecided = 1 ]; then echo "nightly: INCONCLUSIVE (exit 3): nothing failed, something could not be decided"; exit 3; fi

baseline: ## Refresh bench/baselines/<variant>.json from a nightly run: RUN=results/<run>
	$(Q)test -n "$(RUN)" || { echo "baseline: set RUN=results/<run> (a complete nightly sweep)" >&2; exit 2; }
	$(Q)./blkscale baseline $(RUN)
