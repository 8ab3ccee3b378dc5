"""Options of a run that `blkscale run` and bench's sweeps share,
declared once: where results go, the run's name, and how files reach a
libvirt host."""

from ..libvirt.backend import STAGING_MODES


def add_run_arguments(parser, named_after):
    """--run-id, --results-dir and --staging; named_after says what the
    default run name comes from ("topology", "sweep")."""
    parser.add_argument("--staging", choices=STAGING_MODES,
                        help="how a run's files reach the libvirt host: "
                        "shared (its daemon opens this machine's files) or "
                        "volumes (sent into a storage pool, console and "
                        "results as streams); default: shared for a daemon "
                        "on this machine, volumes over the network")
    parser.add_argument("--run-id", metavar="ID",
                        help="name of the run (default: UTC time and the "
                             f"{named_after}'s name)")
    parser.add_argument("--results-dir", metavar="DIR",
                        help="where runs go (default: results/)")


def add_qemu_argument(parser, overrides):
    """--qemu; overrides: what the flag takes precedence over."""
    parser.add_argument("--qemu", metavar="patched|distro|PATH",
                        help="the QEMU binary: distro (Debian's), patched "
                             f"(make qemu) or a path; overrides {overrides}")
