"""What a run needs of a libvirt host, and whether the host has it:
`blkscale hosts check URI...` and the sweep's choice of hosts.

Everything is asked through the libvirt connection (capabilities, node
info), so the same questions work on a remote host.  The free disk space
is measured where a run's files go: here for shared staging, in the
host's `blkscale` storage pool for staging through volumes (the check
creates the pool when it is missing, as a run would, and first removes
the volumes killed runs of this machine left there: orphans.py).
"""

import shutil
import tempfile
import xml.etree.ElementTree as ET

from ..hostfacts import host_cpu
from . import daemon, orphans, staging as staging_mod, uri as uri_form

try:
    import libvirt
except ImportError:
    libvirt = None

ARCH = "x86_64"
MACHINE = "pc"          # domain_xml's <type machine='pc'>


def _version(number):
    major, rest = divmod(number, 1000000)
    minor, micro = divmod(rest, 1000)
    return f"{major}.{minor}.{micro}"


def _capabilities(conn):
    """(cpu model, machine names, domain types) for x86_64 guests."""
    root = ET.fromstring(conn.getCapabilities())
    cpu = root.find("host/cpu")
    model = " ".join(t for t in (cpu.findtext("vendor"),
                                 cpu.findtext("model")) if t) \
        if cpu is not None else None
    machines, types = [], []
    for guest in root.findall("guest"):
        arch = guest.find("arch")
        if arch is None or arch.get("name") != ARCH:
            continue
        for m in arch.findall("machine"):
            machines.append(m.text)
            if m.get("canonical"):
                machines.append(m.get("canonical"))
        types += [d.get("type") for d in arch.findall("domain")]
    return model, list(dict.fromkeys(machines)), list(dict.fromkeys(types))


def _pool_free_mib(conn, uri, facts):
    """Free space of blkscale's pool on the host (made if missing), after
    the orphans of killed runs are gone."""
    pool = staging_mod.ensure_pool(conn)
    try:
        facts["orphans_removed"] = orphans.remove(conn, pool, uri)
        pool.refresh(0)
        return pool.info()[3] // (1024 * 1024)
    except libvirt.libvirtError as e:
        raise staging_mod.StagingError(
            f"storage pool {staging_mod.POOL}: {e.get_error_message()}") \
            from None


def check(uri, staging=None):
    """The facts of one host as a dict: `ok` says whether a run can go
    there, `problem` why not.  staging: shared or volumes (default: by
    where the host is, staging.default_mode)."""
    facts = {"uri": uri, "ok": False, "problem": None, "local":
             uri_form.is_local(uri), "staging": staging,
             "libvirt_version": None,
             "qemu_version": None, "machines": [], "accelerators": [],
             "kvm": None, "cpus": None, "cpu_model": None,
             "memory_free_mib": None, "disk_free_mib": None,
             "orphans_removed": []}
    wrong = uri_form.problem(uri)
    if wrong:
        facts["problem"] = wrong
        return facts
    facts["staging"] = staging = staging or staging_mod.default_mode(uri)
    wrong = staging_mod.mode_problem(staging, uri)
    if wrong:
        facts["problem"] = f"staging {wrong}"
        return facts
    if libvirt is None:
        facts["problem"] = ("python3-libvirt is not installed (apt-get "
                            "install python3-libvirt)")
        return facts
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    try:
        daemon.ensure(uri)
        conn = libvirt.open(uri)
    except libvirt.libvirtError as e:
        facts["problem"] = f"cannot connect: {e.get_error_message()}"
        return facts
    except Exception as e:      # the daemon could not be started
        facts["problem"] = f"cannot connect: {e}"
        return facts
    try:
        facts["libvirt_version"] = _version(conn.getLibVersion())
        facts["qemu_version"] = ("QEMU emulator version "
                                 + _version(conn.getVersion()))
        info = conn.getInfo()
        facts["cpus"] = info[2]
        facts["memory_free_mib"] = conn.getFreeMemory() // (1024 * 1024)
        model, machines, types = _capabilities(conn)
        if staging == "volumes":
            facts["disk_free_mib"] = _pool_free_mib(conn, uri, facts)
    except libvirt.libvirtError as e:
        facts["problem"] = f"libvirt: {e.get_error_message()}"
        return facts
    except staging_mod.StagingError as e:
        facts["problem"] = str(e)
        return facts
    finally:
        conn.close()
    facts["machines"] = machines
    facts["accelerators"] = ["tcg" if t == "qemu" else t for t in types]
    facts["kvm"] = "kvm" in types
    facts["cpu_model"] = host_cpu() if facts["local"] else model
    if staging == "shared":
        facts["disk_free_mib"] = shutil.disk_usage(
            tempfile.gettempdir()).free // (1024 * 1024)
    if not machines:
        facts["problem"] = f"no {ARCH} QEMU emulator (install qemu-system-x86)"
    elif MACHINE not in machines:
        facts["problem"] = f"QEMU has no machine type {MACHINE!r}"
    facts["ok"] = facts["problem"] is None
    return facts


def _mib(value):
    if value is None:
        return "?"
    return f"{value / 1024:.1f} GiB" if value >= 1024 else f"{value} MiB"


def line(facts):
    """One line: what the host has, and whether a run can go there."""
    if facts["libvirt_version"] is None:
        return f"{facts['uri']}: run: no: {facts['problem']}"
    machines = [m for m in facts["machines"] if "-" not in m] or \
        facts["machines"]
    parts = [f"libvirt {facts['libvirt_version']}",
             facts["qemu_version"].replace("emulator version ", ""),
             "machines " + (" ".join(machines) or "none"),
             f"/dev/kvm {'yes' if facts['kvm'] else 'no'}",
             f"memory {_mib(facts['memory_free_mib'])} free",
             f"disk {_mib(facts['disk_free_mib'])} free",
             f"{facts['cpus']} CPUs ({facts['cpu_model'] or '?'})"]
    if facts.get("orphans_removed"):
        parts.append(f"{len(facts['orphans_removed'])} volumes of killed "
                     "runs removed")
    if not facts["ok"]:
        verdict = f"run: no: {facts['problem']}"
    elif facts.get("staging") == "volumes":
        verdict = "run: yes (staged through volumes)"
    else:
        verdict = "run: yes"
    return f"{facts['uri']}: " + ", ".join(parts) + f"; {verdict}"
