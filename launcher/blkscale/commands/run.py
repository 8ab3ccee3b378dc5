"""blkscale run TOPO: boot the topology on each kernel variant."""

import datetime
import os
import resource
import sys
import tempfile
from pathlib import Path

from .. import backends, paths, provenance, topology, udevkernel
from ..machine import diskroom
from .. import qemubinary as qemu_binary
from ..errors import (EXIT_INTERRUPTED, Interrupted, ResultsUnwritable,
                      TopologyError, UsageError, worst)
from ..guestlink import layers
from ..names import RUN_ID, VARIANT
from ..results import runsummary
from ..session import repeats, summary
from ..session.progress import Progress
from ..session.signals import interruptible
from ..session.variant import (Options, check_socket_dir, kernel_files,
                               now_iso, run_variant)
from . import check
from .runflags import add_qemu_argument, add_run_arguments


def add_arguments(parser):
    parser.add_argument("topology", metavar="TOPO", help="topology file")
    parser.add_argument("--variant", action="append", metavar="NAME",
                        help="kernel variant to boot (repeatable; default: "
                             "the topology's guest.variants)")
    parser.add_argument("--kernel", metavar="PATH",
                        help="boot this bzImage as a one-off variant named "
                             "after its release (with --variant: as well)")
    parser.add_argument("--modules", metavar="DIR",
                        help="--kernel's modules: lib/modules/RELEASE, or a "
                             "root holding it (a modular kernel needs them)")
    parser.add_argument("--accel", choices=("auto", "tcg", "kvm"),
                        default="auto", help="auto: KVM only if a short "
                        "probe boot under KVM reaches init (default)")
    parser.add_argument("--backend", choices=backends.NAMES,
                        default="qemu", help="start QEMU directly (default) "
                        "or as a transient libvirt domain")
    parser.add_argument("--libvirt-uri", metavar="URI",
                        default="qemu:///system", help="libvirt connection "
                        "for --backend libvirt (default: qemu:///system, "
                        "started if not running)")
    add_qemu_argument(parser, "guest.qemu (default: distro)")
    parser.add_argument("--show-command", action="store_true",
                        help="print the QEMU command line, then run it")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the QEMU command line and stop; paths "
                             "of the run's temporary directory show as "
                             "@RUNDIR@; --accel auto shows the cached probe "
                             "verdict, or TCG")
    add_run_arguments(parser, "topology")
    parser.add_argument("--profile", nargs="?", type=float, const=0.2,
                        default=None, metavar="SECONDS",
                        help="sample the guest kernel's vCPUs over QMP every "
                             "SECONDS (default 0.2) and write profile.txt "
                             "and profile.json per variant (QEMU backend)")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="boot every variant N times, the variants' "
                             "order reversed on every other repeat; the "
                             "summary gives medians, spreads and ratios "
                             f"(1 to {repeats.MAX_REPEAT}, default 1)")
    parser.add_argument("--quiet", action="store_true",
                        help="no live progress line")


def _variants(args, topo):
    if args.modules and not args.kernel:
        raise UsageError("--modules: needs --kernel")
    variants = args.variant or ([] if args.kernel else topo.guest.variants)
    for v in variants:
        if not VARIANT.fullmatch(v):
            raise UsageError(f"--variant: {v!r} is not a variant name")
    if args.kernel:
        # A kernel given by path: a variant of its own (userkernel.py).
        from .. import userkernel
        variants = [*variants, userkernel.bzimage_release(args.kernel)
                    if args.dry_run else
                    userkernel.prepare(args.kernel, args.modules)]
    return list(dict.fromkeys(variants))


def _dry_run(planned, variants, args, backend):
    """Print what each variant would start; no probe boot, no file
    created."""
    accel = backend.dry_accel(args.accel,
                              paths.kernel_dir(variants[0]) / "bzImage")
    for variant in variants:
        print(f"# {variant}")
        print(backend.render(planned, variant, accel), end="")
    return 0


def _kernel_nr_cpus(variant):
    config = paths.kernel_dir(variant) / "config"
    try:
        for line in config.read_text().splitlines():
            if line.startswith("CONFIG_NR_CPUS="):
                return int(line.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return None


def _raise_fd_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if needed > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main(args):
    if not 1 <= args.repeat <= repeats.MAX_REPEAT:
        raise UsageError(f"--repeat: {args.repeat}: use 1 to "
                         f"{repeats.MAX_REPEAT}")
    planned = topology.prepare(args.topology)
    topo = planned.topo
    variants = _variants(args, topo)
    udevkernel.check(topo, variants)
    qemu = qemu_binary.resolve(args.qemu, topo)
    backend = backends.chosen(args.backend, qemu, args.libvirt_uri,
                              args.staging)
    # The topology refused by the backend it is for; the variants' own
    # refusals (--profile's System.map) come with backend.check() below.
    check(planned, backend)
    if args.dry_run:
        return _dry_run(planned, variants, args, backend)
    # Only a run writes into TMPDIR (--dry-run and plan show the room).
    diskroom.check_disk_room(topo)

    # Everything that can be refused is refused before anything starts.
    kernels = {v: kernel_files(v) for v in variants}
    for v in variants:
        nr = _kernel_nr_cpus(v)
        if nr is not None and topo.guest.vcpus > nr:
            raise TopologyError(topo.path, "guest.vcpus", f"{topo.guest.vcpus}"
                                f" exceeds CONFIG_NR_CPUS={nr} of the {v} "
                                "kernel")
    # mkdtemp's directory: blkscale-<variant>-<8 random characters>.
    check_socket_dir(os.path.join(tempfile.gettempdir(), "blkscale-" + max(
        variants, key=len) + "-xxxxxxxx"))
    run_id = args.run_id or (datetime.datetime.now(datetime.timezone.utc)
                             .strftime("%Y%m%d-%H%M%S") + "-" + topo.name)
    if not RUN_ID.fullmatch(run_id):
        raise UsageError(f"--run-id: {run_id!r}: use letters, digits, . _ -")
    base = Path(args.results_dir) if args.results_dir else paths.results_dir()
    run_dir = base / run_id
    if run_dir.exists():
        raise UsageError(f"{paths.display(run_dir)}: exists; choose another "
                         "--run-id")
    if args.profile is not None and not 0.05 <= args.profile <= 60:
        raise UsageError(f"--profile: {args.profile:g}: use 0.05 to 60 "
                         "seconds")
    backend.check(planned, variants, args.profile is not None)
    backend.ready()
    shared_layers = tuple(layers.for_plan(topo))
    image_layers = {v: shared_layers + tuple(layers.for_variant(topo, v))
                    for v in variants}
    progress = Progress(enabled=not args.quiet)
    status = EXIT_INTERRUPTED
    outcomes = []
    started = now_iso()
    made = provenance.describe()
    try:
        with interruptible():
            chosen = backend.accelerator(args.accel, kernels[variants[0]][0],
                                         progress)
            accel, reason = chosen.accel, chosen.reason
            _raise_fd_limit(planned.fds(accel))
            opts = Options(backend, chosen, args.show_command, progress,
                           args.profile or 0.0, image_layers)
            for k, variant in repeats.order(variants, args.repeat):
                where = run_dir / repeats.out_rel(variant, k, args.repeat)
                outcomes.append((k, run_variant(planned, variant, run_id,
                                                where, opts)))
            status = worst(o.status for _, o in outcomes)
            doc = summary.document(run_id, topo, accel, reason, started,
                                   now_iso(), outcomes, status, run_dir,
                                   args.repeat, made)
            try:
                path = runsummary.write_in(run_dir, doc)
            except OSError as e:
                raise ResultsUnwritable(
                    f"{paths.display(runsummary.path_in(run_dir))}: "
                    f"{e.strerror or e}; the variants' files are kept"
                ) from None
    except Interrupted as e:
        progress.end()
        print(f"blkscale: {e}; QEMU stopped and temporary files removed",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    out, errs = summary.report(doc, outcomes, path)
    for line in errs:
        print(line, file=sys.stderr)
    for line in out:
        print(line)
    sys.stdout.flush()
    return status
