"""blkscale run TOPO: boot the topology on each kernel variant."""

import datetime
import os
import resource
import sys
import tempfile
from pathlib import Path

from .. import paths
from ..errors import (EXIT_INTERRUPTED, Interrupted, ResultsUnwritable,
                      TopologyError, UsageError, worst)
from ..guestlink import layers
from ..hostfacts import host_cpu
from ..names import RUN_ID, VARIANT
from ..libvirt import domain_xml
from ..libvirt import staging as staging_mod
from ..libvirt import uri as uri_form
from ..machine.files import RunFiles
from ..qemu import accel as accel_mod
from ..qemu import argv as qargv
from ..qemu import diskstart, hotplug
from ..session import repeats, summary
from ..session.progress import Progress
from ..session.signals import interruptible
from ..session.variant import (Options, check_socket_dir, kernel_files,
                               now_iso, run_variant)
from . import prepare


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
    parser.add_argument("--backend", choices=("qemu", "libvirt"),
                        default="qemu", help="start QEMU directly (default) "
                        "or as a transient libvirt domain")
    parser.add_argument("--libvirt-uri", metavar="URI",
                        default="qemu:///system", help="libvirt connection "
                        "for --backend libvirt (default: qemu:///system, "
                        "started if not running)")
    parser.add_argument("--staging", choices=("shared", "volumes"),
                        help="how the run's files reach the libvirt host: "
                        "shared (its daemon opens this machine's files) or "
                        "volumes (sent into a storage pool, console and "
                        "results as streams); default: shared for a daemon "
                        "on this machine, volumes over the network")
    parser.add_argument("--show-command", action="store_true",
                        help="print the QEMU command line, then run it")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the QEMU command line and stop; paths "
                             "of the run's temporary directory show as "
                             "@RUNDIR@; --accel auto shows the cached probe "
                             "verdict, or TCG")
    parser.add_argument("--run-id", metavar="ID",
                        help="name of the run (default: UTC time and "
                             "topology name)")
    parser.add_argument("--results-dir", metavar="DIR",
                        help="where runs go (default: results/)")
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


def _dry_run(planned, variants, args, qemu):
    """Print the command lines; no probe boot, no file created."""
    rundir = "@RUNDIR@"
    requested = args.accel
    if requested == "auto":
        # What a real run would use if a probe verdict is cached, else TCG.
        kernel = paths.kernel_dir(variants[0]) / "bzImage"
        requested = (accel_mod.cached(qemu, kernel) if kernel.is_file()
                     else None) or "tcg"
    for variant in variants:
        kernel = paths.kernel_dir(variant) / "bzImage"
        print(f"# {variant}")
        if args.backend == "libvirt":
            # libvirt wants absolute paths.
            files = RunFiles.under(kernel, "/" + rundir)
            mode = args.staging or staging_mod.default_mode(args.libvirt_uri)
            if mode == "volumes":
                # The pool's directory and the kernel's digest are the
                # host's and the kernel's: placeholders here.
                files = staging_mod.host_files(
                    files, "/@POOL@", domain_xml.domain_name(planned.topo, variant),
                    staging_mod.kernel_volume("@SHA256@"))
            print(domain_xml.domain_xml(planned, files, variant, requested,
                                        staging=mode), end="")
            continue
        files = RunFiles.under(kernel, rundir)
        argv = qargv.build_argv(planned, files, variant, requested, qemu)
        # What runs: past ARG_MAX some disks go over QMP (qemu/diskstart.py).
        start = diskstart.choose(argv)
        print(qargv.shell_command(start.argv))
        if start.commands:
            print(hotplug.shown(start.commands))
    return 0


def _libvirt_ready(uri):
    """python3-libvirt importable and a libvirtd serving uri (started if it
    is the local system daemon), before anything else starts."""
    from ..libvirt import daemon, domain
    if domain.libvirt is None:
        raise UsageError("--backend libvirt: python3-libvirt is not "
                         "installed (apt-get install python3-libvirt)")
    daemon.ensure(uri)


def _remote_accel(requested, uri):
    """(accelerator, reason, the host's facts) for a host over the
    network, from what its libvirt offers (this machine's /dev/kvm and
    probe say nothing of it)."""
    from ..libvirt import hostcheck
    facts = hostcheck.check(uri, "volumes")
    if facts["libvirt_version"] is None:
        raise UsageError(f"--libvirt-uri: {uri}: {facts['problem']}")
    if requested == "kvm" and not facts["kvm"]:
        raise UsageError(f"--accel kvm: {uri} offers no KVM domain type")
    if requested != "auto":
        return requested, "requested", facts
    if facts["kvm"]:
        return "kvm", f"libvirt on {uri} offers KVM", facts
    return "tcg", f"libvirt on {uri} offers no KVM", facts


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
    planned = prepare(args.topology)
    topo = planned.topo
    variants = _variants(args, topo)
    qemu = paths.qemu_binary()
    if args.dry_run:
        return _dry_run(planned, variants, args, qemu)

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
    if args.staging is not None and args.backend != "libvirt":
        raise UsageError("--staging: needs --backend libvirt")
    wrong = staging_mod.mode_problem(
        args.staging or staging_mod.default_mode(args.libvirt_uri),
        args.libvirt_uri)
    if args.backend == "libvirt" and wrong:
        raise UsageError(f"--staging: {wrong}")
    if args.profile is not None and args.backend == "libvirt":
        raise UsageError("--profile: needs the QEMU backend (its QMP monitor)")
    if args.profile is not None and not 0.05 <= args.profile <= 60:
        raise UsageError(f"--profile: {args.profile:g}: use 0.05 to 60 "
                         "seconds")
    for v in variants if args.profile is not None else ():
        if not (paths.kernel_dir(v) / "System.map").is_file():
            raise UsageError(f"{paths.display(paths.kernel_dir(v))}/System.map"
                             ": missing (make kernel); --profile needs it")
    if args.backend == "libvirt":
        from ..libvirt.domain import check_whole_command_line
        check_whole_command_line(planned)
        _libvirt_ready(args.libvirt_uri)
    image_layers = tuple(layers.for_plan(topo))
    version = accel_mod.qemu_version(qemu)
    progress = Progress(enabled=not args.quiet)
    status = EXIT_INTERRUPTED
    outcomes = []
    started = now_iso()
    try:
        with interruptible():
            cpu = None
            if args.backend == "libvirt" and not uri_form.is_local(
                    args.libvirt_uri):
                accel, reason, facts = _remote_accel(args.accel,
                                                     args.libvirt_uri)
                # results.json describes the host that ran the guest.
                version = facts["qemu_version"] or version
                cpu = facts["cpu_model"]
            else:
                accel, reason = accel_mod.choose(args.accel, qemu, version,
                                                 kernels[variants[0]][0],
                                                 progress)
            if accel == "kvm":
                planned.use_accel(accel)
            _raise_fd_limit(planned.resources.fds)
            opts = Options(qemu, accel, version, cpu or host_cpu(),
                           args.show_command, progress, args.backend,
                           args.libvirt_uri, args.profile or 0.0,
                           image_layers, args.staging)
            for k, variant in repeats.order(variants, args.repeat):
                where = run_dir / repeats.out_rel(variant, k, args.repeat)
                outcomes.append((k, run_variant(planned, variant, run_id,
                                                where, opts)))
            status = worst(o.status for _, o in outcomes)
            doc = summary.document(run_id, topo, accel, reason, started,
                                   now_iso(), outcomes, status, run_dir,
                                   args.repeat)
            try:
                path = summary.write(run_dir, doc)
            except OSError as e:
                raise ResultsUnwritable(
                    f"{paths.display(run_dir)}/summary.json: "
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
