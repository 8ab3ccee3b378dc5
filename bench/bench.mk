# bench: sweeps over topologies and kernel variants, nightly regression
# verdict against the committed baselines (bench/README.md).
#   make bench [BENCH_SWEEP=bench/sweeps/NAME.toml] [BENCH_TOPOLOGIES='a b']
#              [VARIANTS='stock patched'] [REPEAT=N] [BENCH_HOSTS='uri1 uri2']
#              [BENCH_STAGING=shared|volumes]
#   make nightly [NIGHTLY_SWEEP=...] [NIGHTLY_CURVE_SWEEP=...]
#   make baseline RUN=results/<run>

BENCH_SWEEP ?= bench/sweeps/default.toml
NIGHTLY_SWEEP ?= bench/sweeps/nightly.toml
# The boot curve past 10,000 disks: figures and goals printed, not judged
# against a baseline (a single run per point).
NIGHTLY_CURVE_SWEEP ?= bench/sweeps/bootcurve-nightly.toml

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

# The nightly also fuzzes the helper module on the debug kernel (lockdep,
# DEBUG_LIST, SLUB debugging, kmemleak): too slow under TCG for make test.
nightly: deps kernel initramfs kernel-debug guest-tools guest-module-debug $(BUILD)/initramfs/debug.cpio kernel-blktests $(foreach v,stock patched,$(BUILD)/initramfs/$(v)-blktests.cpio) ## Stress and every-disk sweep judged against bench/baselines, the boot curve to 20,000 disks, debug-kernel fuzzing, blktests on both kernels; JUnit XML, non-zero on regression
	$(Q)status=0; \
	./blkscale nightly --sweep $(NIGHTLY_SWEEP) $(bench_overrides) || status=$$?; \
	./blkscale bench --sweep $(NIGHTLY_CURVE_SWEEP) || status=1; \
	BLKSCALE_NIGHTLY=1 $(PYTHON) -m pytest -q -ra -p no:cacheprovider \
		--junitxml=$(BUILD)/nightly-guest-tests.xml \
		guest-tools/tests/test_fuzz_debug.py \
		guest-tools/tests/test_blktests_nightly.py \
		guest-tools/tests/test_blktests_flavour.py || status=1; \
	exit $$status

baseline: ## Refresh bench/baselines/<variant>.json from a nightly run: RUN=results/<run>
	$(Q)test -n "$(RUN)" || { echo "baseline: set RUN=results/<run> (a complete nightly sweep)" >&2; exit 2; }
	$(Q)./blkscale baseline $(RUN)
