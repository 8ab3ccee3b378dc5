"""Start libvirtd (and virtlogd) when they are not running.

These machines have no systemd: the daemons are started by hand,
`virtlogd -d` then `libvirtd -d`, and are ready when libvirtd's socket
accepts a connection.  Only the local system URI (qemu:///system) is
started here; any other URI must already be served.

PrivateDaemon starts a second libvirtd (and virtlogd) on this machine
whose configuration, sockets, state, logs, cache and run files all live
under one directory: a mount namespace of its own binds that directory's
parts over /etc/libvirt, /run/libvirt, /var/lib/libvirt, /var/log/libvirt
and /var/cache/libvirt, so the two daemons share nothing.  It is reached
as qemu+unix:///system?socket=DIR/run/libvirt-sock: a second host for a
sweep over hosts, tested without a second machine.
"""

import glob
import grp
import os
import signal
import shutil
import socket
import stat
import subprocess
import time

from ..errors import EXIT_GUEST_FAILURE, BlkscaleError, UsageError

SYSTEM_URI = "qemu:///system"
LIBVIRTD_SOCKET = "/var/run/libvirt/libvirt-sock"
VIRTLOGD_SOCKET = "/var/run/libvirt/virtlogd-sock"
START_TIMEOUT_S = 30
KVM_NODE = "/dev/kvm"


class DaemonError(BlkscaleError):
    """libvirtd could not be started or does not answer."""
    status = EXIT_GUEST_FAILURE


def accepts(path, timeout=1.0):
    """True if a unix socket at path accepts a connection."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
        return True
    except OSError:
        return False
    finally:
        sock.close()


def _start(program, socket_path, deadline):
    binary = shutil.which(program) or next(
        (p for p in (f"/usr/sbin/{program}", f"/sbin/{program}")
         if os.access(p, os.X_OK)), None)
    if binary is None:
        raise UsageError(f"{program}: not installed (apt-get install "
                         "libvirt-daemon-system)")
    if os.geteuid() != 0:
        raise UsageError(f"{socket_path}: not accepting connections and "
                         f"only root can start {program}")
    # -d forks a daemon: the command returns once it is detached.
    done = subprocess.run([binary, "-d"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True,
                          timeout=START_TIMEOUT_S)
    if done.returncode != 0:
        raise DaemonError(f"{program} -d: exit status {done.returncode}: "
                          f"{(done.stderr or done.stdout).strip()}")
    while not accepts(socket_path):
        if time.monotonic() > deadline:
            raise DaemonError(f"{program} started but {socket_path} accepts "
                              f"no connection after {START_TIMEOUT_S} s (see "
                              f"/var/log/libvirt/{program}.log)")
        time.sleep(0.2)


def kvm_node_for_qemu_group():
    """Give /dev/kvm the owner and mode Debian's udev rules give it.

    Without udev the node stays root:root 0600.  libvirt then finds KVM
    unusable for its qemu user and throws away its cached QEMU
    capabilities on every domain start, probing QEMU again about a dozen
    times (measured: 52 s per start instead of 0.8 s).  root:kvm 0660 is
    the packaged default; domains still run under TCG (type 'qemu').
    Returns True if the node was changed.
    """
    try:
        st = os.stat(KVM_NODE)
        kvm_gid = grp.getgrnam("kvm").gr_gid
    except (OSError, KeyError):
        return False
    mode = stat.S_IMODE(st.st_mode)
    if st.st_gid == kvm_gid and mode & 0o060 == 0o060:
        return False
    if os.geteuid() != 0:
        return False
    os.chown(KVM_NODE, st.st_uid, kvm_gid)
    os.chmod(KVM_NODE, mode | 0o060)
    return True


def ensure(uri=SYSTEM_URI):
    """Make sure a libvirtd serves uri; returns True if it was started."""
    if uri != SYSTEM_URI:
        return False
    kvm_node_for_qemu_group()
    if accepts(LIBVIRTD_SOCKET):
        return False
    deadline = time.monotonic() + START_TIMEOUT_S
    if not accepts(VIRTLOGD_SOCKET):
        _start("virtlogd", VIRTLOGD_SOCKET, deadline)
    _start("libvirtd", LIBVIRTD_SOCKET, deadline)
    return True


# The private daemon's directory -> what it hides in its mount namespace.
PRIVATE_MOUNTS = (("etc", "/etc/libvirt"), ("run", "/run/libvirt"),
                  ("lib", "/var/lib/libvirt"), ("log", "/var/log/libvirt"),
                  ("cache", "/var/cache/libvirt"))
# No network, no lock manager: it runs domains, nothing else.
PRIVATE_CONFIG = {
    "libvirtd.conf": 'unix_sock_group = "root"\nunix_sock_rw_perms = '
                     '"0700"\n',
    "virtlogd.conf": "",
    "qemu.conf": "",
}


def _program(name):
    binary = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/sbin/{name}")
         if os.access(p, os.X_OK)), None)
    if binary is None:
        raise UsageError(f"{name}: not installed (apt-get install "
                         "libvirt-daemon-system)")
    return binary


class PrivateDaemon:
    """A second libvirtd under `root`; start(), kill(), stop()."""

    def __init__(self, root):
        self.root = os.path.abspath(root)

    def path(self, part, *names):
        return os.path.join(self.root, part, *names)

    @property
    def socket(self):
        return self.path("run", "libvirt-sock")

    @property
    def uri(self):
        return f"qemu+unix:///system?socket={self.socket}"

    def _pid(self, name):
        try:
            with open(self.path("run", f"{name}.pid")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def start(self):
        """Start both daemons; returns the URI once libvirtd answers."""
        if os.geteuid() != 0:
            raise UsageError("a private libvirtd needs root (a mount "
                             "namespace and the system daemon's layout)")
        if accepts(self.socket):
            return self.uri
        unshare = _program("unshare")
        virtlogd, libvirtd = _program("virtlogd"), _program("libvirtd")
        for part, _ in PRIVATE_MOUNTS:
            os.makedirs(self.path(part), exist_ok=True)
        for name, text in PRIVATE_CONFIG.items():
            with open(self.path("etc", name), "w") as f:
                f.write(text)
        binds = " && ".join(f"mount --bind '{self.path(part)}' '{target}'"
                            for part, target in PRIVATE_MOUNTS)
        # Their pid files would be /run/<name>.pid, the system daemons'.
        # virtlogd still runs when only libvirtd died (kill()).
        start = [] if accepts(self.path("run", "virtlogd-sock")) else \
            [f"'{virtlogd}' -d -p '{self.path('run', 'virtlogd.pid')}'"]
        start.append(f"'{libvirtd}' -d -p "
                     f"'{self.path('run', 'libvirtd.pid')}'")
        script = " && ".join([binds] + start)
        # The daemons keep the namespace alive after the shell is gone.
        done = subprocess.run([unshare, "--mount", "--propagation", "private",
                               "sh", "-c", script], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True,
                              timeout=START_TIMEOUT_S)
        if done.returncode != 0:
            raise DaemonError(f"private libvirtd under {self.root}: exit "
                              f"status {done.returncode}: "
                              f"{(done.stderr or done.stdout).strip()}")
        deadline = time.monotonic() + START_TIMEOUT_S
        while not accepts(self.socket):
            if time.monotonic() > deadline:
                raise DaemonError(f"{self.socket}: no connection after "
                                  f"{START_TIMEOUT_S} s (see "
                                  f"{self.path('log')}/libvirtd.log)")
            time.sleep(0.2)
        return self.uri

    def qemu_pids(self):
        """QEMU processes this daemon started that still run."""
        pids = []
        for pidfile in glob.glob(self.path("run", "qemu", "*.pid")):
            if not os.path.exists(pidfile[:-4] + ".xml"):
                continue        # driver.pid: the daemon's own
            try:
                with open(pidfile) as f:
                    pid = int(f.read().strip())
                os.kill(pid, 0)
            except (OSError, ValueError):
                continue
            pids.append(pid)
        return pids

    def kill(self):
        """libvirtd dies at once, as a crashed daemon would (its QEMU
        processes and virtlogd live on)."""
        pid = self._pid("libvirtd")
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + START_TIMEOUT_S
        while accepts(self.socket) and time.monotonic() < deadline:
            time.sleep(0.1)

    def stop(self):
        """Both daemons and any QEMU they left, gone."""
        for pid in self.qemu_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name in ("libvirtd", "virtlogd"):
            pid = self._pid(name)
            if not pid:
                continue
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            deadline = time.monotonic() + START_TIMEOUT_S
            while time.monotonic() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                os.kill(pid, signal.SIGKILL)
