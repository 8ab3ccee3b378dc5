"""The libvirt hosts a sweep fans out over: `hosts` in a sweep file,
`--host URI` on the command line, each with a number of `slots` (units
run at once on it, default 1) and a `staging`: how a run's files reach
it, "shared" (its daemon opens this machine's files; the default for a
daemon on this machine) or "volumes" (sent into a storage pool of the
host, console and results as libvirt streams; the default, and the only
choice, over the network).

    hosts = ["qemu:///system", "qemu+ssh://bench@build2/system"]
    hosts = [{uri = "qemu:///system", slots = 2}, "qemu+ssh://b2/system"]
    hosts = [{uri = "qemu+unix:///system?socket=/run/lv2/libvirt-sock",
              staging = "volumes"}]

Only the URI's form is checked here; whether a host can run a guest is
the launcher's `hosts check`, asked when the sweep starts.
"""

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from blkscale.libvirt.backend import LibvirtBackend

from .errors import BenchError
from .tablekeys import check_keys

MAX_SLOTS = 64
HOST_KEYS = ("uri", "slots", "staging")


@dataclass(frozen=True)
class Host:
    uri: str
    slots: int = 1
    staging: str = None         # None: the launcher's default for the URI

    @property
    def staging_used(self):
        return self.staging or LibvirtBackend.default_staging(self.uri)


def check_uri(uri, where, fieldname):
    """A QEMU driver URI libvirt can connect to, or BenchError."""
    wrong = LibvirtBackend.uri_problem(uri)
    if wrong:
        raise BenchError(where, fieldname, wrong)
    return uri


def check_slots(value, where, fieldname):
    if isinstance(value, bool) or not isinstance(value, int) or \
            not 1 <= value <= MAX_SLOTS:
        raise BenchError(where, fieldname, f"must be an integer "
                         f"1..{MAX_SLOTS}, got {value!r}")
    return value


def check_staging(value, uri, where, fieldname):
    """shared or volumes, and one the host can use, or BenchError."""
    if not isinstance(value, str):
        raise BenchError(where, fieldname, f"must be \"shared\" or "
                         f"\"volumes\", got {value!r}")
    wrong = LibvirtBackend.staging_problem(value, uri)
    if wrong:
        raise BenchError(where, fieldname, wrong)
    return value


def parse(value, where, fieldname="hosts"):
    """The sweep file's `hosts` array -> [Host]; BenchError names the
    entry (FILE: hosts[i]: problem)."""
    if not isinstance(value, list) or not value:
        raise BenchError(where, fieldname, "must be a non-empty array of "
                         "libvirt URIs or {uri, slots} tables")
    out = []
    for i, entry in enumerate(value):
        name = f"{fieldname}[{i}]"
        if isinstance(entry, dict):
            check_keys(entry, HOST_KEYS, where, name)
            if "uri" not in entry:
                raise BenchError(where, name, "needs a uri")
            uri = check_uri(entry["uri"], where, f"{name}.uri")
            slots = check_slots(entry.get("slots", 1), where,
                                f"{name}.slots")
            staging = check_staging(entry["staging"], uri, where,
                                    f"{name}.staging") \
                if "staging" in entry else None
        else:
            uri, slots, staging = check_uri(entry, where, name), 1, None
        if any(h.uri == uri for h in out):
            raise BenchError(where, name, f"{uri!r} is listed twice (give "
                             "it more slots instead)")
        out.append(Host(uri, slots, staging))
    return out


def from_command_line(uris, slots, staging=None):
    """--host URI (repeatable, or space-separated) with --slots N and
    --staging MODE (for every --host)."""
    slots = check_slots(slots, "command line", "--slots") \
        if slots is not None else 1
    found = parse(list(uris), "command line", "--host")
    if staging is not None:
        for h in found:
            check_staging(staging, h.uri, "command line", "--staging")
    return [Host(h.uri, slots, staging) for h in found]


def label(uri):
    """A short name for tables: the host part, else the socket, else the
    URI."""
    parts = urlsplit(uri)
    socket = parse_qs(parts.query).get("socket")
    if parts.hostname:
        return parts.hostname
    if socket:
        return f"{parts.scheme}:{socket[0]}"
    return uri
