"""One transient libvirt domain: configure, launch, wait, shutdown.

machine/backend.py's Backend, like qemu/machine.py's Machine, so that
session/variant.py watches either the same way.  The domain is created with
VIR_DOMAIN_START_AUTODESTROY: libvirtd destroys it when our connection
closes, so even a launcher killed with SIGKILL leaves no domain behind;
shutdown() (and leaving the `with` block) destroys it at once.

The domain is created paused, its console and results channel are opened
as streams copied into the run's local files, and only then does the
guest run: no byte of either is lost (libvirt's file chardevs go through
virtlogd, which rolls them over at 2 MiB).  With staging "volumes"
(staging.py) the domain's files are first sent to the host's storage pool,
and its volumes are deleted when it ends.
"""

import json
import os
import shlex
import signal
import threading
import time

from ..errors import UsageError
from ..machine import cmdline
from ..machine.errors import LaunchError, file_tail
from ..qemu.qmp import QmpError, hmp_arguments
from . import daemon, domain_xml, livedisks, staging as staging_mod
from .streams import StreamPump
from . import uri as uri_form

try:
    import libvirt
    import libvirt_qemu
except ImportError:             # checked in Domain.launch()
    libvirt = libvirt_qemu = None

# Where libvirtd (qemu:///system) keeps the pid file and the log of a domain.
RUN_DIR = "/var/run/libvirt/qemu"
LOG_DIR = "/var/log/libvirt/qemu"
# How long exitcode() waits for the stop event of a domain that is gone.
EVENT_GRACE_S = 2
# ... and for the console and results streams to bring their last bytes.
STREAM_GRACE_S = 10

_loop_lock = threading.Lock()
_loop_started = False


def _event_loop():
    """libvirt's default event loop in a daemon thread, once per process.

    Lifecycle events tell how a domain stopped (shut down, destroyed,
    crashed); a transient domain is gone right after, with nothing to ask.
    """
    global _loop_started
    with _loop_lock:
        if _loop_started:
            return
        libvirt.virEventRegisterDefaultImpl()

        def run():
            while True:
                libvirt.virEventRunDefaultImpl()
        threading.Thread(target=run, name="libvirt-events",
                         daemon=True).start()
        _loop_started = True


def _quiet_errors(_ctx, _err):
    # libvirt prints every error on stderr by default; ours carry them.
    pass


def parse_log_command(text):
    """The QEMU argv of the last start in a libvirt domain log."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if ": starting up " in line]
    if not starts:
        return []
    command = []
    for line in lines[starts[-1] + 1:]:
        command.append(line[:-1] if line.endswith("\\") else line)
        if not line.endswith("\\"):
            break
    try:
        words = shlex.split(" ".join(command))
    except ValueError:
        return []
    # LC_ALL=C PATH=... HOME=... precede the binary.
    while words and "=" in words[0] and not words[0].startswith("-"):
        words.pop(0)
    return words


class Domain:
    """A transient libvirt domain; a context manager."""

    # The progress line's phase while qmp_disks() counts.
    late_phase = "attach live"

    def __init__(self, uri=daemon.SYSTEM_URI, stager=None, make_xml=None,
                 late=None, local=None):
        self.uri = uri
        # Staged through volumes: the Stager, and (XML, Late) of its files.
        self.stager, self._make_xml = stager, make_xml
        # The run's files the console and results streams are copied into.
        self._local = stager.local if stager is not None else local
        # The SCSI disks attached after the domain starts (livedisks.py).
        self.late = late or livedisks.Late()
        self.late_added = None
        self.attach_s = None
        self.left_volumes = []
        self.staging_s = None       # sending the files, before QEMU starts
        self._cancel = threading.Event()
        self._pumps = []
        self.xml = None
        self.name = None
        self.argv = []
        self.spawned_at = None
        self.qemu_start_s = None
        self.peak_rss_kib = 0
        self._conn = None
        self._dom = None
        self._callback = None
        self._stopped = threading.Event()
        self._stop_detail = None
        self._exitcode = None
        self._pid = None

    def configure(self, xml, name):
        if self._dom is not None:
            raise RuntimeError("configure() after launch()")
        self.xml, self.name = xml, name

    def shown(self):
        late = self.late.shown()
        return self.xml.rstrip("\n") + ("\n" + late if late else "")

    @property
    def log_path(self):
        # Another daemon's logs (qemu+unix:///system?socket=..., or over
        # the network) are its own; without them, the command line is
        # libvirt's rendering.
        if uri_form.socket_path(self.uri) or not uri_form.is_local(self.uri):
            return None
        return os.path.join(LOG_DIR, f"{self.name}.log")

    def qemu_log(self, limit=4000):
        """The tail of libvirt's log of this domain (QEMU's stderr too)."""
        return file_tail(self.log_path, limit) if self.log_path else ""

    def _on_lifecycle(self, _conn, dom, event, detail, _opaque):
        if dom.name() == self.name and event == libvirt.VIR_DOMAIN_EVENT_STOPPED:
            self._stop_detail = detail
            self._stopped.set()

    def qmp_disks(self):
        """(disks attached so far, disks to attach), or None when every
        disk is on the command line or none is attached yet."""
        if self.late_added is None:
            return None
        return self.late_added, self.late.disks

    def late_record(self):
        """results.json's host.late_disks: the disks attached live, before
        the guest ran (None if none)."""
        if not self.late.disks:
            return None
        return {"method": "libvirt-attach", "disks": self.late.disks,
                "native": self.late.native, "monitor": self.late.monitor,
                "added": self.late_added,
                "seconds": (round(self.attach_s, 3)
                            if self.attach_s is not None else None)}

    def launch(self, timeout=None, tick=None):
        """Create the domain; returns the start-up time in seconds.

        createXML returns once QEMU runs the guest: the time it takes is
        libvirt's and QEMU's start together, the number to compare with
        the QEMU backend's start (spawn to QMP greeting).  Sending a
        staged run's files comes before and is not part of it
        (staging_s).  A domain with late disks (livedisks.py) is created
        paused, they are attached, then it runs: their time is part of
        the start, as the QEMU backend's QMP disks are.  It runs in a
        thread so that tick() (about twice a second) keeps the progress
        line alive and SIGINT is not held up; timeout is accepted for the
        Machine interface, libvirt bounds its own waits.
        """
        if self.xml is None:
            raise RuntimeError("launch() before configure()")
        if libvirt is None:
            raise UsageError("python3-libvirt is not installed (apt-get "
                             "install python3-libvirt)")
        daemon.ensure(self.uri)
        _event_loop()
        libvirt.registerErrorHandler(_quiet_errors, None)
        try:
            self._conn = libvirt.open(self.uri)
            self._callback = self._conn.domainEventRegisterAny(
                None, libvirt.VIR_DOMAIN_EVENT_ID_LIFECYCLE,
                self._on_lifecycle, None)
        except libvirt.libvirtError as e:
            self.shutdown()
            raise LaunchError(f"{self.uri}: {e.get_error_message()}") from None
        result = {}
        # Not Thread.join(): a join cut short by the SIGINT exception can
        # leave the thread looking finished while createXML still runs
        # (CPython 3.11), and the new domain would go unseen.
        done = threading.Event()

        def create():
            flags = libvirt.VIR_DOMAIN_START_AUTODESTROY
            try:
                if self.stager is not None:
                    self.xml, self.late = self._make_xml(self.stager.stage(
                        self._conn, self._cancel))
                    if self._cancel.is_set():
                        raise staging_mod.Cancelled()
                    # QEMU's start is timed from here, as for shared files.
                    self.staging_s = time.monotonic() - self.spawned_at
                    self.spawned_at = time.monotonic()
                # Paused until the streams are open: no byte is lost.
                flags |= libvirt.VIR_DOMAIN_START_PAUSED
                result["dom"] = dom = self._conn.createXML(self.xml, flags)
                # The late disks before the streams: a stream waiting
                # for data holds the connection's socket, and each call
                # would wait for libvirt's 5 s keepalive to get it back.
                if self.late.disks and not self._cancel.is_set():
                    self._attach(dom)
                if not self._cancel.is_set():
                    self._open_streams(dom)
                if not self._cancel.is_set():
                    dom.resume()
            except livedisks.AttachError as e:
                result["attach"] = e
            except libvirt.libvirtError as e:
                result["error"] = e
            except staging_mod.StagingError as e:
                result["staging"] = e
            except staging_mod.Cancelled:
                pass
            finally:
                done.set()

        self.spawned_at = time.monotonic()
        worker = threading.Thread(target=create, name="libvirt-create",
                                  daemon=True)
        worker.start()
        try:
            while not done.is_set():
                if tick:
                    tick()
                done.wait(0.5)
        finally:
            # Interrupted or not: the domain, if created, must be known to
            # shutdown() so that it is destroyed; files still being sent
            # stop at the next chunk, a staged domain is not resumed.
            if not done.is_set():
                self._cancel.set()
            done.wait()
            self._dom = result.get("dom")
        if "staging" in result:
            self.shutdown()
            raise result["staging"]
        if "attach" in result:
            log = self.qemu_log().strip()
            self.shutdown()
            raise LaunchError(f"domain {self.name}: {result['attach']} "
                              f"({self.late_added or 0} of "
                              f"{self.late.disks} disks attached)",
                              log) from None
        if "error" in result:
            log = self.qemu_log().strip()
            self.shutdown()
            raise LaunchError(f"libvirt did not start domain {self.name}: "
                              f"{result['error'].get_error_message()}",
                              log) from None
        self.qemu_start_s = time.monotonic() - self.spawned_at
        self.argv = self._read_argv()
        self._pid = self._read_pid()
        return self.qemu_start_s

    def _attach(self, dom):
        """The late disks, into the paused domain, before the guest runs
        (part of QEMU's start, as the QEMU backend's QMP disks are)."""
        def added(n):
            self.late_added = n
        t0 = time.monotonic()
        self.late_added = 0
        livedisks.attach(libvirt, libvirt_qemu.qemuMonitorCommand, dom,
                         self.late, self._cancel, added)
        self.attach_s = time.monotonic() - t0

    def _open_streams(self, dom):
        """The console and results channel, copied into the run's local
        files; opened while the domain is paused."""
        local = self._local
        for path in (local.console, local.results):
            open(path, "ab").close()
        for path, opener, name in (
                (local.console, lambda st: dom.openConsole(None, st, 0),
                 "console"),
                (local.results, lambda st: dom.openChannel(
                    domain_xml.RESULTS_PORT, st, 0), "results")):
            stream = self._conn.newStream(0)
            opener(stream)
            self._pumps.append(StreamPump(stream, path, name).start())

    def _end_streams(self, timeout):
        """Wait for the streams to bring their last bytes, then stop
        them."""
        for pump in self._pumps:
            pump.join(timeout)
        for pump in self._pumps:
            pump.stop()

    def _read_argv(self):
        if self.log_path is None:
            try:
                return shlex.split(self._conn.domainXMLToNative(
                    "qemu-argv", self.xml))
            except (libvirt.libvirtError, ValueError):
                return []
        try:
            with open(self.log_path, errors="replace") as f:
                return parse_log_command(f.read())
        except OSError:
            return []

    def _read_pid(self):
        if not uri_form.is_local(self.uri):
            return None
        run_dir = uri_form.run_dir(self.uri, RUN_DIR)
        try:
            with open(os.path.join(run_dir, f"{self.name}.pid")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def _kill_orphan(self):
        """libvirtd is gone but its QEMU may run on: on this machine, end
        it by its pid, after checking that the pid is still our guest's."""
        if not self._pid:
            return
        try:
            with open(f"/proc/{self._pid}/cmdline", "rb") as f:
                mine = f"guest={self.name},".encode() in f.read()
            if mine:
                os.kill(self._pid, signal.SIGKILL)
        except OSError:
            pass

    def is_running(self):
        if self._dom is None or self._stopped.is_set():
            return False
        try:
            return bool(self._dom.isActive())
        except libvirt.libvirtError:
            return False

    def qmp(self, name, **arguments):
        """One QMP command through libvirt's monitor passthrough: the
        diagnosis of a stopped run reads QEMU as the QEMU backend does."""
        if self._dom is None:
            raise QmpError("the domain was never started")
        command = {"execute": name}
        if arguments:
            command["arguments"] = arguments
        try:
            reply = json.loads(libvirt_qemu.qemuMonitorCommand(
                self._dom, json.dumps(command), 0))
        except libvirt.libvirtError as e:
            raise QmpError(f"{name}: {e.get_error_message()}") from None
        except ValueError as e:
            raise QmpError(f"{name}: not a QMP reply: {e}") from None
        if "error" in reply:
            raise QmpError(f"{name}: {reply['error'].get('desc')}")
        return reply.get("return")

    def hmp(self, command, cpu_index=None):
        """A human monitor command over QMP (the vCPUs' registers)."""
        return self.qmp("human-monitor-command",
                        **hmp_arguments(command, cpu_index))

    def inject_nmi(self):
        """libvirt's own call for QMP inject-nmi: an NMI to every vCPU."""
        try:
            self._dom.injectNMI(0)
        except libvirt.libvirtError as e:
            raise QmpError(f"inject-nmi: {e.get_error_message()}") from None

    def _connected(self):
        try:
            return self._conn is not None and bool(self._conn.isAlive())
        except libvirt.libvirtError:
            return False

    def exitcode(self):
        """None while the domain runs; 0 if it shut down or was destroyed
        (the guest's reboot, with on_reboot=destroy), 1 if QEMU crashed or
        failed."""
        if self._exitcode is not None:
            return self._exitcode
        if self._dom is None or self.is_running():
            return None
        self._stopped.wait(EVENT_GRACE_S)
        # What the guest wrote last is still on its way from the host.
        self._end_streams(STREAM_GRACE_S)
        self._exitcode = 0 if self._stop_detail in (
            None, libvirt.VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN,
            libvirt.VIR_DOMAIN_EVENT_STOPPED_DESTROYED) else 1
        return self._exitcode

    def sample_rss(self):
        """Peak resident memory of QEMU so far (VmHWM), KiB.

        The pid file is readable on the local system daemon; elsewhere
        libvirt's current RSS of the domain is the best we have.
        """
        if not self.is_running():
            return self.peak_rss_kib
        value = 0
        if self._pid:
            try:
                with open(f"/proc/{self._pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            value = int(line.split()[1])
            except (OSError, ValueError, IndexError):
                value = 0
        if not value:
            try:
                value = self._dom.memoryStats().get("rss", 0)
            except libvirt.libvirtError:
                value = 0
        self.peak_rss_kib = max(self.peak_rss_kib, value)
        return self.peak_rss_kib

    def shutdown(self, hard=False, timeout=10):
        """Destroy the domain if it still runs and close the connection."""
        if self._dom is not None and self.is_running():
            try:
                self._dom.destroy()
                if self._exitcode is None:
                    # Stopped by us: not a QEMU failure.
                    self._exitcode = 0
            except libvirt.libvirtError:
                pass        # already gone
        if self._conn is not None and not self._connected():
            # Also when the daemon died while creating the domain.
            self._pid = self._pid or self._read_pid()
            self._kill_orphan()
        self._end_streams(0)
        if self.stager is not None and self._conn is not None:
            # The volumes of a run, also one that failed or was cut short.
            self.left_volumes = self.stager.cleanup()
        if self._conn is not None:
            try:
                if self._callback is not None:
                    self._conn.domainEventDeregisterAny(self._callback)
            except libvirt.libvirtError:
                pass
            try:
                self._conn.close()
            except libvirt.libvirtError:
                pass
            self._conn = None
        return self.exitcode() if self._dom is not None else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown(hard=True)
        return False


def for_run(planned, files, variant, accel, uri, tmpdir, staging=None):
    """A configured Domain for one run, the SCSI disks that do not fit
    libvirt's command line to be attached live (livedisks.py); its name
    ends like the run's temporary directory, so that
    concurrent runs do not collide.  staging: "shared" or "volumes"
    (default: shared for a daemon on this machine)."""
    suffix = os.path.basename(tmpdir.rstrip("/")).rsplit("-", 1)[-1]
    name = domain_xml.domain_name(planned.topo, variant, suffix)
    staging = staging or staging_mod.default_mode(uri)
    if staging == "shared":
        xml, late = fit_command_line(
            lambda n: domain_xml.split_xml(planned, files, variant, accel,
                                           name, late=n), planned, uri,
            files)
        domain = Domain(uri, late=late, local=files)
        domain.configure(xml, name)
        return domain

    stager = staging_mod.Stager(planned, files, name,
                                _ask(uri, staging_mod.planned_target),
                                tmpdir, uri)

    def make_xml(host_files, n):
        return domain_xml.split_xml(planned, host_files, variant, accel,
                                    name, staging="volumes", late=n)

    xml, late = fit_command_line(lambda n: make_xml(stager.files(), n),
                                 planned, uri, stager.files())
    # The staged files' XML, with as many late disks as measured here.
    domain = Domain(uri, stager, lambda hf: make_xml(hf, late.disks), late)
    domain.configure(xml, name)
    return domain


def _ask(uri, question):
    """question(conn) on a connection of its own, LaunchError if the host
    does not answer."""
    if libvirt is None:
        raise UsageError("python3-libvirt is not installed (apt-get "
                         "install python3-libvirt)")
    libvirt.registerErrorHandler(_quiet_errors, None)
    try:
        conn = libvirt.open(uri)
    except libvirt.libvirtError as e:
        raise LaunchError(f"{uri}: {e.get_error_message()}") from None
    try:
        return question(conn)
    finally:
        conn.close()


def planned_late(planned, files=None):
    """The estimate alone, before libvirtd is asked anything: a dict of
    the SCSI disks to attach live (`late`, of them `native` <disk>
    elements, the rest through the monitor) and the command line's
    estimated `argv_bytes`; TopologyError if it is too long even with
    every SCSI disk attached live (virtio-blk disks and controllers cannot
    be).  BLKSCALE_DISK_METHOD=qmp attaches every SCSI disk live, argv or
    stack none."""
    from ..machine.files import sample_files
    from ..qemu.diskstart import SWITCH, forced
    bare, costs, native = domain_xml.estimate(planned,
                                              files or sample_files())
    late = livedisks.late_by_estimate(bare, costs)
    method = forced()
    if method == "qmp":
        late = len(costs)       # every SCSI disk attached live
    elif method is not None and late:
        cmdline.check_size(planned.topo, bare + sum(costs), livedisks.BUDGET,
                           via="through libvirt ",
                           note=f" ({SWITCH}={method}: no disk attached live)")
    if late is None:
        cmdline.check_size(planned.topo, bare, livedisks.BUDGET,
                           via="through libvirt ", note=_BARE_NOTE)
    kept = len(costs) - late
    late_native = sum(native[kept:])
    return {"late": late, "native": late_native,
            "attach_s": round(livedisks.attach_seconds(
                late_native, late - late_native)),
            "scsi_disks": len(costs),
            "argv_bytes": bare + sum(costs[:kept]),
            "budget": livedisks.BUDGET,
            "arg_max": livedisks.LIBVIRT_ARG_MAX,
            "margin": livedisks.MARGIN}


_BARE_NOTE = (" without a single SCSI disk (PCI devices cannot be attached "
              "live; the QEMU backend raises QEMU's stack rlimit)")


def fit_command_line(make, planned, uri, files):
    """(domain XML, Late) whose QEMU command line, as libvirt spells it,
    fits livedisks.BUDGET, and whose XML libvirt's RPC carries: the last
    SCSI disks attached live.

    libvirt spells each of its own disks as two JSON -blockdev and a JSON
    -device, about 600 bytes against our 200, and its answer to an
    over-long command is only "Argument list too long", so it is asked for
    the command first; make(n) is the XML with n late disks.
    """
    estimated = planned_late(planned, files)["late"]
    if libvirt is None:
        return make(estimated)
    made = {}

    def size_of(n):
        made[n] = xml, _ = make(n)
        if len(xml.encode()) > livedisks.XML_MAX + livedisks.MARGIN:
            # Past what libvirt's RPC carries: no need to ask.
            return livedisks.limited_size(0, len(xml.encode()))
        return livedisks.limited_size(livedisks.command_line_bytes(
            conn.domainXMLToNative("qemu-argv", xml)), len(xml.encode()))

    conn = libvirt.open(uri)
    try:
        late, size = livedisks.late_count(size_of, estimated,
                                          domain_xml.scsi_disks(planned))
    except libvirt.libvirtError as e:
        raise LaunchError(f"{uri}: cannot check the domain's command line: "
                          f"{e.get_error_message()}") from None
    finally:
        conn.close()
    if late is None:
        cmdline.check_size(planned.topo, size, livedisks.BUDGET,
                           via="through libvirt ", note=_BARE_NOTE)
    return made[late]
