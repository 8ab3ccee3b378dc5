"""libvirt connection URIs of the QEMU driver: their form, and whether
the daemon runs on this machine.

A daemon on this machine (qemu:///system, or another daemon's socket:
qemu+unix:///system?socket=PATH) can open the files the launcher made
(kernel, per-run initramfs, disk images, console and results files); a
host reached over the network gets them through libvirt (staging.py).
"""

import os
from urllib.parse import parse_qs, urlsplit

TRANSPORTS = ("", "unix", "ssh", "libssh", "libssh2", "tcp", "tls")
NETWORK = ("ssh", "libssh", "libssh2", "tcp", "tls")
PATHS = ("/system", "/session")


def problem(uri):
    """What is wrong with the form of uri, or None."""
    if not isinstance(uri, str) or not uri:
        return ("must be a libvirt URI such as qemu:///system or "
                "qemu+ssh://user@host/system")
    if any(c.isspace() for c in uri):
        return f"{uri!r}: a URI has no spaces"
    parts = urlsplit(uri)
    driver, _, transport = parts.scheme.partition("+")
    if driver != "qemu":
        return f"{uri!r}: not a QEMU driver URI (qemu:// or qemu+TRANSPORT://)"
    if transport not in TRANSPORTS:
        return (f"{uri!r}: unknown transport {transport!r} (known: "
                + ", ".join(t for t in TRANSPORTS if t) + ")")
    if parts.path not in PATHS:
        return f"{uri!r}: path must be /system or /session"
    query = parse_qs(parts.query)
    if "socket" in query and transport != "unix":
        return f"{uri!r}: socket= needs the qemu+unix transport"
    if transport in NETWORK and not parts.hostname:
        return f"{uri!r}: the {transport} transport needs a host name"
    return None


def is_local(uri):
    """True when the daemon runs on this machine (no host in the URI)."""
    parts = urlsplit(uri)
    return not parts.hostname and parts.scheme.partition("+")[2] in (
        "", "unix")


def socket_path(uri):
    """The socket= of a qemu+unix URI, else None."""
    values = parse_qs(urlsplit(uri).query).get("socket")
    return values[0] if values else None


def run_dir(uri, default):
    """Where the daemon keeps its QEMU pid files: beside its socket
    (libvirt's own layout: /run/libvirt/libvirt-sock and /run/libvirt/qemu)
    for a daemon reached through socket=, else default."""
    sock = socket_path(uri)
    return os.path.join(os.path.dirname(sock), "qemu") if sock else default
