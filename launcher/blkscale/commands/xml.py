"""blkscale xml TOPO: print the libvirt domain XML of a topology."""

from .. import paths
from ..errors import UsageError
from ..libvirt import domain_xml
from ..machine.files import RunFiles
from ..names import VARIANT
from . import prepare


def add_arguments(parser):
    parser.add_argument("topology", metavar="TOPO", help="topology file")
    parser.add_argument("--variant", metavar="NAME",
                        help="kernel variant (default: the topology's first "
                             "guest.variants entry)")
    parser.add_argument("--accel", choices=("tcg", "kvm"), default="tcg",
                        help="domain type qemu (TCG, default) or kvm")
    parser.add_argument("--rundir", metavar="DIR", default="/@RUNDIR@",
                        help="absolute path shown for the run's temporary "
                             "directory (default: /@RUNDIR@)")


def main(args):
    planned = prepare(args.topology, accel=args.accel)
    variant = args.variant or planned.topo.guest.variants[0]
    if not VARIANT.fullmatch(variant):
        raise UsageError(f"--variant: {variant!r} is not a variant name")
    if not args.rundir.startswith("/"):
        raise UsageError(f"--rundir: {args.rundir!r}: libvirt needs an "
                         "absolute path")
    rundir = args.rundir.rstrip("/") or "/"
    files = RunFiles.under(paths.kernel_dir(variant) / "bzImage", rundir)
    print(domain_xml.domain_xml(planned, files, variant, args.accel), end="")
    return 0
