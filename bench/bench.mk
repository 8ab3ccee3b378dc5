# bench: sweeps over topologies and kernel variants, nightly regression
# verdict against the committed baselines (bench/README.md).
#   make bench [BENCH_SWEEP=bench/sweeps/NAME.toml] [BENCH_TOPOLOGIES='a b']
#              [VARIANTS='stock patched'] [REPEAT=N] [BENCH_HOSTS='uri1 uri2']
#              [BENCH_STAGING=shared|volumes]
#   make nightly [NIGHT=<id>] [NIGHTLY_PARTS='gated every-disk ...']
#                [NIGHTLY_GATED_SWEEP=...] [NIGHTLY_SWEEP=...] [NIGHTLY_CURVE_SWEEP=...] [NIGHTLY_CURVE_QEMU=patched|distro|PATH]
#                [NIGHTLY_SIM_SWEEP=...] [NIGHTLY_KERNELS_SWEEP=...]
#   make weekly [NIGHT=<id>] [NIGHTLY_MULTIPATH_SWEEP=...]
#   make baseline RUN=results/<run>

BENCH_SWEEP ?= bench/sweeps/default.toml
# The gated part: today's patched kernel beside the one its baseline was
# measured on (kernel/variants.toml, patched-baseline), built in the part.
NIGHTLY_GATED_SWEEP ?= bench/sweeps/nightly-gated.toml
# The every-disk part: counts, memory and ceilings at 1000 to 5000 disks.
NIGHTLY_SWEEP ?= bench/sweeps/nightly.toml
# The boot curve past 10,000 disks: three repeats, its goals judged (not
# against a baseline), with the QEMU that make qemu builds in its part:
# Debian's spends most of a minute creating 20,000 disks before the guest
# starts (evidence/20261205-qemu-patched).  NIGHTLY_CURVE_QEMU=distro
# runs it with Debian's binary instead.
NIGHTLY_CURVE_SWEEP ?= bench/sweeps/bootcurve-nightly.toml
NIGHTLY_CURVE_QEMU ?= patched
# Every shipped kernel variant side by side (kernel/variants.toml): each
# must build and complete every run.  Built in the kernels part, so that
# a variant that cannot be built (a series not yet rebased onto its base)
# fails that part of the nightly and not the rest.
NIGHTLY_KERNELS_SWEEP ?= bench/sweeps/kernels.toml
# 65,536 scsi_debug LUNs on the patched kernel, held to a ceiling of ten
# minutes to census (stock beside it: sweeps/sim-65536-both.toml).
NIGHTLY_SIM_SWEEP ?= bench/sweeps/sim-65536.toml
# The weekly night: 4000 LUNs on two paths with dm-multipath, and a path
# removed under fio, in one boot, on the Debian-config pair (built in the
# part): one boot per kernel, three hours or more each, too long for a
# night.
NIGHTLY_MULTIPATH_SWEEP ?= bench/sweeps/multipath-4000.toml

# VARIANTS has a default in the top Makefile: pass it on only when the
# user set it, so that a sweep file's own list otherwise applies.
bench_overrides = \
	$(if $(BENCH_TOPOLOGIES),--topology '$(BENCH_TOPOLOGIES)') \
	$(if $(REPEAT),--repeat $(REPEAT)) \
	$(if $(BENCH_HOSTS),--host '$(BENCH_HOSTS)') \
	$(if $(BENCH_STAGING),--staging $(BENCH_STAGING)) \
	$(if $(filter command line environment,$(origin VARIANTS)),--variant '$(VARIANTS)')

.PHONY: bench nightly guest-tests-kernels weekly baseline

bench: deps kernel initramfs ## Sweep BENCH_SWEEP (topologies x VARIANTS, REPEAT times) into results/, print medians, spreads and ratios; BENCH_HOSTS='uri1 uri2': fan out over libvirt hosts (BENCH_STAGING=volumes: send their files as storage volumes)
	$(Q)./blkscale bench --sweep $(BENCH_SWEEP) $(bench_overrides)

# The kernels whose blktests flavour the nightly judges, pair by pair.
NIGHTLY_BLKTESTS_BASES := stock patched stock-6.12 patched-6.12

# The nightly runs by parts (./blkscale night, bench/README.md, Nightly),
# each with its own verdict, recorded in results/nightly-<night>/parts.json:
# interrupted, `make nightly` continues the newest unfinished night at the
# part it stopped in.  NIGHT=<id> picks a night; NIGHTLY_PARTS='gated
# every-disk' runs only those parts.  Each part builds the kernels it
# boots, so that their build time is its own.
# What the guest-tests part boots, built by the part itself: the debug
# kernel (fuzzing, glue-directory stress), the blktests flavours and
# Debian's own kernel (blktests).
guest-tests-kernels: kernel-debug guest-tools guest-module-debug $(BUILD)/initramfs/debug.cpio $(foreach v,$(NIGHTLY_BLKTESTS_BASES),$(KERNEL_OUT)/$(v)-blktests/bzImage $(BUILD)/initramfs/$(v)-blktests.cpio) $(KERNEL_OUT)/debian/bzImage $(BUILD)/initramfs/debian.cpio ## Build what the nightly's guest-tests part boots (the part runs it first)

nightly: deps kernel initramfs guest-tools ## The nightly by parts, resumable (NIGHT=<id>, NIGHTLY_PARTS='gated every-disk'): gated (NIGHTLY_GATED_SWEEP: the patched kernel beside the one its baseline was measured on, times gating) and every-disk (NIGHTLY_SWEEP, every disk proven) judged against bench/baselines, the boot curve to 20,000 disks with its goals on the patched QEMU (make qemu), 65,536 scsi_debug LUNs on the patched kernel, every declared kernel variant side by side, debug-kernel fuzzing and blktests; parts.json and a table of each part's verdict; exit 0 PASS, 1 REGRESSION, 3 INCONCLUSIVE, 4 parts still to run, 130 interrupted
	$(Q)./blkscale night $(if $(NIGHT),--night '$(NIGHT)') \
		$(if $(NIGHTLY_PARTS),--parts '$(NIGHTLY_PARTS)') \
		--gated-sweep $(NIGHTLY_GATED_SWEEP) \
		--sweep $(NIGHTLY_SWEEP) $(bench_overrides) \
		--curve-sweep $(NIGHTLY_CURVE_SWEEP) --curve-qemu $(NIGHTLY_CURVE_QEMU) \
		--sim-sweep $(NIGHTLY_SIM_SWEEP) --kernels-sweep $(NIGHTLY_KERNELS_SWEEP)

weekly: deps guest-tools ## The weekly night, resumable like the nightly (NIGHT=<id>): 4000 LUNs on two paths with dm-multipath, every map fio-verified, lvm on maps and every LUN's second path removed and added back under fio, on the Debian-config pair (NIGHTLY_MULTIPATH_SWEEP, its kernels built in the part); results/weekly-<night>/parts.json; exit as make nightly
	$(Q)./blkscale night --weekly $(if $(NIGHT),--night '$(NIGHT)') \
		--multipath-sweep $(NIGHTLY_MULTIPATH_SWEEP)

baseline: ## Refresh bench/baselines/<variant>.json from a nightly run: RUN=results/<run>
	$(Q)test -n "$(RUN)" || { echo "baseline: set RUN=results/<run> (a complete nightly sweep)" >&2; exit 2; }
	$(Q)./blkscale baseline $(RUN)
