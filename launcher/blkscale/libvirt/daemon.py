"""Start libvirtd (and virtlogd) when they are not running.

These machines have no systemd: the daemons are started by hand,
`virtlogd -d` then `libvirtd -d`, and are ready when libvirtd's socket
accepts a connection.  Only the local system URI (qemu:///system) is
started here; any other URI must already be served.
"""

import grp
import os
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
