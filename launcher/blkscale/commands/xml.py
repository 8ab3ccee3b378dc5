"""blkscale xml TOPO: print the libvirt domain XML of a topology, and the
SCSI disks a run would attach live after it starts (XML comments)."""

from ..errors import UsageError
from ..libvirt.backend import DRY_RUNDIR, LibvirtBackend
from ..names import VARIANT
from . import prepare


def add_arguments(parser):
    parser.add_argument("topology", metavar="TOPO", help="topology file")
    parser.add_argument("--variant", metavar="NAME",
                        help="kernel variant (default: the topology's first "
                             "guest.variants entry)")
    parser.add_argument("--accel", choices=("tcg", "kvm"), default="tcg",
                        help="domain type qemu (TCG, default) or kvm")
    parser.add_argument("--rundir", metavar="DIR", default=DRY_RUNDIR,
                        help="absolute path shown for the run's temporary "
                             "directory (default: /@RUNDIR@)")


def main(args):
    planned = prepare(args.topology, accel=args.accel,
                      backend=LibvirtBackend())
    variant = args.variant or planned.topo.guest.variants[0]
    if not VARIANT.fullmatch(variant):
        raise UsageError(f"--variant: {variant!r} is not a variant name")
    if not args.rundir.startswith("/"):
        raise UsageError(f"--rundir: {args.rundir!r}: libvirt needs an "
                         "absolute path")
    rundir = args.rundir.rstrip("/") or "/"
    # What a run on this machine's system daemon would start.
    print(LibvirtBackend().render(planned, variant, args.accel, rundir),
          end="")
    return 0
