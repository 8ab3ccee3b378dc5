"""The libvirt backend: QEMU started as a transient libvirt domain.

One object with machine/backend.py's Starter interface, and the one way
other packages and commands (bench's hosts, `hosts check`) ask about
libvirt hosts: URI forms, staging modes, a host's facts.  The daemon,
the domain XML, staging and the domain itself stay in daemon.py,
domain_xml.py, staging.py and domain.py.
"""

from .. import paths
from ..errors import TopologyError, UsageError
from ..machine.backend import Accelerator
from ..machine.files import RunFiles
from ..qemu import vcpuread
from . import domain, domain_xml, hostcheck, staging, uri as uri_form

SYSTEM_URI = "qemu:///system"
STAGING_MODES = staging.MODES
# Where --dry-run and `xml` show the run's temporary directory (libvirt
# wants absolute paths), and a volumes host's pool and kernel digest.
DRY_RUNDIR = "/@RUNDIR@"
DRY_POOL = "/@POOL@"
DRY_DIGEST = "@SHA256@"


class LibvirtBackend:
    name = "libvirt"

    # What anyone may ask of libvirt hosts without a backend of one.

    @staticmethod
    def uri_problem(uri):
        """What is wrong with the form of a libvirt URI, or None."""
        return uri_form.problem(uri)

    @staticmethod
    def default_staging(uri):
        """shared for a daemon on this machine, volumes over the network."""
        return staging.default_mode(uri)

    @staticmethod
    def staging_problem(mode, uri):
        """Why staging `mode` cannot serve `uri`, or None."""
        return staging.mode_problem(mode, uri)

    @staticmethod
    def host_facts(uri, staging_mode=None):
        """What `hosts check` says of a host, as a dict (hostcheck.py); on
        a host staged through volumes, killed runs' volumes go first."""
        return hostcheck.check(uri, staging_mode)

    @staticmethod
    def host_line(facts):
        return hostcheck.line(facts)

    @staticmethod
    def starts(qemu):
        """Whether a run through libvirt starts this QEMU binary: libvirt
        starts its host's own, the distro's."""
        return qemu == paths.qemu_binary()

    def __init__(self, uri=SYSTEM_URI, staging_mode=None, local=None):
        """local: the QEMU backend of this machine, which chooses the
        accelerator when the daemon runs here too; refused if its binary
        is not one libvirt starts."""
        if local is not None and not self.starts(local.qemu):
            raise UsageError("--qemu: the libvirt backend starts its host's "
                             "own QEMU; use --backend qemu")
        self.uri = uri
        self.staging_asked = staging_mode
        self.staging = staging_mode or self.default_staging(uri)
        self.local = local

    @property
    def remote(self):
        return not uri_form.is_local(self.uri)

    def check(self, planned, variants=(), profile=False):
        """Refuse a staging mode the host cannot use, --profile and the
        pathfail step (no QMP monitor of ours) and a topology whose command line is too long
        even with every SCSI disk attached live; no connection is
        made."""
        wrong = self.staging_problem(self.staging, self.uri)
        if wrong:
            raise UsageError(f"--staging: {wrong}")
        if profile:
            raise UsageError("--profile: needs the QEMU backend (its QMP "
                             "monitor)")
        topo = planned.topo
        if "pathfail" in topo.plan.steps:
            raise TopologyError(topo.path, "plan.steps", "step pathfail "
                                "needs the QEMU backend (it removes paths "
                                "over QEMU's QMP monitor)")
        domain.planned_late(planned)

    @staticmethod
    def disk_plan(planned):
        """Which SCSI disks libvirt would attach live, by the estimate
        (libvirt/domain.py planned_late); TopologyError if none can
        start."""
        return domain.planned_late(planned)

    @classmethod
    def describe(cls, planned):
        """What `plan` shows of this backend: its disks on the command
        line or attached live (livedisks.py), by the estimate; why it
        refuses the topology, if it does."""
        try:
            return cls.disk_plan(planned)
        except TopologyError as e:
            return {"refused": f"{e.field}: {e.problem}"}

    @staticmethod
    def lines(desc):
        """describe()'s part of a plan (desc["libvirt"]), as `plan`
        prints it."""
        lv = desc["libvirt"]
        if "refused" in lv:
            return [f"libvirt backend: refused: {lv['refused']}"]
        size = (f"command line about {lv['argv_bytes'] // 1024} KiB of "
                f"{lv['budget'] // 1024} KiB (ARG_MAX "
                f"{lv['arg_max'] // 1024} KiB less {lv['margin'] // 1024} "
                "KiB kept free)")
        if not lv["late"]:
            return [f"libvirt backend: every disk on the command line, "
                    f"{size}"]
        return [f"libvirt backend: about {lv['late']} of "
                f"{lv['scsi_disks']} SCSI disks attached live before the "
                f"guest runs ({lv['native']} with "
                f"virDomainAttachDeviceFlags, {lv['late'] - lv['native']} "
                f"through QEMU's monitor, about "
                f"{_duration(lv['attach_s'])} by the measured costs); "
                f"{size}; the run measures libvirt's own spelling"]

    def ready(self):
        """python3-libvirt importable and a libvirtd serving the URI
        (started if it is the local system daemon)."""
        if domain.libvirt is None:
            raise UsageError("--backend libvirt: python3-libvirt is not "
                             "installed (apt-get install python3-libvirt)")
        domain.daemon.ensure(self.uri)

    def accelerator(self, requested, kernel, progress=None):
        """This machine's choice for a daemon here; for a host over the
        network, what its libvirt offers (this machine's /dev/kvm and
        probe say nothing of it)."""
        if not self.remote:
            return self.local.accelerator(requested, kernel, progress)
        facts = hostcheck.check(self.uri, "volumes")
        if facts["libvirt_version"] is None:
            raise UsageError(f"--libvirt-uri: {self.uri}: {facts['problem']}")
        if requested == "kvm" and not facts["kvm"]:
            raise UsageError(f"--accel kvm: {self.uri} offers no KVM domain "
                             "type")
        accel, reason = requested, "requested"
        if requested == "auto":
            accel = "kvm" if facts["kvm"] else "tcg"
            reason = (f"libvirt on {self.uri} offers "
                      + ("KVM" if facts["kvm"] else "no KVM"))
        # results.json describes the host that ran the guest.
        version = facts.get("qemu_version") or self.local.version()
        return Accelerator(accel, reason, version, facts.get("cpu_model"))

    def dry_accel(self, requested, kernel):
        return self.local.dry_accel(requested, kernel)

    def render(self, planned, variant, accel, rundir=DRY_RUNDIR):
        """The domain XML of one variant, the disks it would attach live
        after it (by the estimate: the run asks libvirt); a volumes
        host's pool and kernel digest are the host's, placeholders
        here."""
        files = RunFiles.under(paths.kernel_dir(variant) / "bzImage", rundir)
        if self.staging == "volumes":
            files = staging.host_files(
                files, DRY_POOL, domain_xml.domain_name(planned.topo, variant),
                staging.kernel_volume(DRY_DIGEST))
        late = domain.planned_late(planned, files)["late"]
        xml, disks = domain_xml.split_xml(planned, files, variant, accel,
                                          staging=self.staging, late=late)
        shown = disks.shown()
        return xml + (shown + "\n" if shown else "")

    def machine(self, planned, files, variant, accel, tmp):
        """The configured Domain of one run (machine/backend.py)."""
        return domain.for_run(planned, files, variant, accel, self.uri, tmp,
                              self.staging)

    def profiler(self, variant, interval_s):
        raise UsageError("--profile: needs the QEMU backend (its QMP monitor)")

    def vcpu_snapshot(self, machine, variant):
        """Where the vCPUs are, read through libvirt's monitor
        passthrough as the QEMU backend reads them (qemu/vcpuread.py)."""
        return vcpuread.snapshot(machine, variant)

    def ask_backtrace(self, machine):
        """libvirt's injectNMI: an NMI to every vCPU."""
        machine.inject_nmi()
        return True


def _duration(seconds):
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
