"""The launcher's subcommands (run, plan, validate, xml, hosts, variants).

COMMANDS: the name of each (its module here) and its --help paragraph;
the blkscale command (blkscale_cli) lists them with bench's and
reports'.  Each that boots or plans starts with prepare(): the topology
planned, and refused if the backend it is for could not start it.  The
host's free disk space is not the topology's: only run refuses on it
(machine/diskroom.py), and plan shows it.
"""

from .. import topology
from ..qemu.backend import QemuBackend
from ..results.runresults import FILENAME as RESULTS

COMMANDS = {
    "hosts": "hosts check URI...: per libvirt host one line: libvirt and "
             "QEMU versions, machine types, /dev/kvm, free memory and "
             "disk, CPUs, and whether a run can go there. Exit status: 0 "
             "every host can run, 1 one cannot, 2 usage.",
    "plan": "Show what a topology turns into without booting: disks, PCI "
            "layout, MSI-X vectors, I/O space, file descriptors, guest "
            "memory, block majors, the guest plan, and the QEMU binary a "
            "run would start with its start time predicted from measured "
            "starts.",
    "run": "Boot a topology under QEMU (directly, or through libvirt with "
           "--backend libvirt) on each kernel variant and collect "
           f"results/<run>/<variant>/{RESULTS}. Exit status: 0 ok, 1 a "
           "guest step failed, 2 usage or invalid topology, 3 QEMU or "
           "results channel failure, 4 timeout or hung guest, 5 kernel "
           "panic, 6 results directory full or unwritable, 130 "
           "interrupted.",
    "validate": "Check topology files: syntax, fields, PCI layout and "
                "resources. One line per file; exit status 2 if any is "
                "invalid.",
    "variants": "List the kernel variants of kernel/variants.toml with "
                "their release and whether they are built (make kernel "
                "VARIANTS='...' builds them).",
    "xml": "Print the libvirt domain XML that `run --backend libvirt` "
           "would start for a topology (one variant), and after it, as XML "
           "comments, the SCSI disks it would attach live because they "
           "pass libvirt's command line (by the estimate; the run asks "
           "libvirt). Paths of the run's temporary directory show as "
           "/@RUNDIR@.",
}


def prepare(path, accel="tcg", backend=None):
    """The planned topology, refused by the backend's check() (the QEMU
    backend's unless another is given)."""
    planned = topology.prepare(path, accel)
    check(planned, backend or QemuBackend())
    return planned


def prepare_with_start(path, accel="tcg"):
    """The planned topology and the QEMU backend's StartPlan (how QEMU
    would get its disks, which `plan` shows)."""
    planned = topology.prepare(path, accel)
    return planned, check(planned, QemuBackend())


def check(planned, backend):
    """What the backend refuses of a planned topology; returns what its
    check() does."""
    return backend.check(planned)
