#!/usr/bin/python3
"""Where a boot with many SCSI hosts spends its time, host by host, from
the guest's kernel log (dmesg.log beside each results.json).  For each
SCSI host (an mptsas1068 HBA or a virtio-scsi controller): `attach`,
from the host's registration to its last disk's "scsi H:C:T:L" line
(on SAS: ports, end devices and their transport-class devices, then
the SCSI devices); `between`, from that to the next host's registration
(on SAS: mptbase bringing up the next HBA's IOC; on virtio-scsi: the
scan of the host's empty target ids); and on SAS `bringup`, from the
HBA's PCI enable to its host.  Each as the median over the first and
the last ten hosts: growth from first to last is a cost that grows with
what is already there.

    evidence/20261206-sas-hba/hba_timeline.py RUN_DIR... > timeline.json
"""

import json
import re
import statistics
import sys
from pathlib import Path

LINE = re.compile(r"\[\s*([\d.]+)\] (.*)")
ENABLE = re.compile(r"^mptsas \S+: enabling device")
HOST = re.compile(r"^scsi host(\d+): ")
DISK = re.compile(r"^scsi (\d+):\d+:\d+:\d+: Direct-Access")


def timeline(dmesg):
    """{host: [registered, last disk]} and the mptsas PCI enables."""
    hosts, enables = {}, []
    for raw in dmesg.read_text(errors="replace").splitlines():
        m = LINE.match(raw)
        if not m:
            continue
        t, text = float(m.group(1)), m.group(2)
        if ENABLE.match(text):
            enables.append(t)
        elif (h := HOST.match(text)):
            hosts[int(h.group(1))] = [t, t]
        elif (d := DISK.match(text)) and int(d.group(1)) in hosts:
            hosts[int(d.group(1))][1] = t
    return [hosts[k] for k in sorted(hosts)], enables


def ends(values, k=10):
    return {"first": round(statistics.median(values[:k]), 4),
            "last": round(statistics.median(values[-k:]), 4),
            "median": round(statistics.median(values), 4)}


def one(dmesg):
    hosts, enables = timeline(dmesg)
    if len(hosts) < 2:
        sys.exit(f"{dmesg}: {len(hosts)} SCSI hosts: nothing to compare")
    attach = [last - reg for reg, last in hosts]
    between = [b[0] - a[1] for a, b in zip(hosts, hosts[1:])]
    out = {"hosts": len(hosts), "first_host_s": hosts[0][0],
           "span_s": round(hosts[-1][1] - hosts[0][0], 2),
           "attach_s": ends(attach), "between_s": ends(between)}
    if enables:
        if len(enables) != len(hosts):
            sys.exit(f"{dmesg}: {len(enables)} HBAs enabled, {len(hosts)} "
                     "SCSI hosts: the log is incomplete")
        out["bringup_s"] = ends([h[0] - e for e, h in zip(enables, hosts)])
    return out


def main():
    out = {}
    for run in sys.argv[1:]:
        for dmesg in sorted(Path(run).glob("**/dmesg.log")):
            key = str(dmesg.parent.relative_to(Path(run).parent))
            out[key] = one(dmesg)
    if not out:
        sys.exit("no dmesg.log under " + " ".join(sys.argv[1:]))
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
