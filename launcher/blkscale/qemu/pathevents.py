"""Paths of multipath LUNs removed and added back while the guest runs:
the host's half of the pathfail step (guest-tools/initramfs/steps/pathfail).

The step asks (guestlink/channel.py, BLKSCALE-ASK paths-down, paths-up);
the launcher removes the scsi-hd device of every path plan.pathfail names
(QMP device_del: the LUN's block node stays, its other paths use it) and
later adds the same devices back with the options they started with, as
a fabric that drops and regains a path does.  The guest measures what
multipath makes of it; the host records when it acted and how long QEMU
took, in results.json's host.path_events.
"""

import time

from ..machine.disks import parse_path_device_id
from .hotplug import BATCH, device_command, is_hotplugged
from .qmp import QmpError


def _path_devices(argv, commands):
    """device_add commands of every path device, from the command line
    and the disks added over QMP before the guest ran."""
    found = [device_command(value) for opt, value in zip(argv, argv[1:])
             if opt == "-device" and is_hotplugged(value)]
    found += [c for c in commands if c["execute"] == "device_add"]
    return [c for c in found
            if parse_path_device_id(c["arguments"].get("id", ""))]


class PathEvents:
    """Answers the pathfail step's requests on one QEMU machine."""

    def __init__(self, paths, argv, commands=()):
        self.paths = set(paths)
        self.devices = [c for c in _path_devices(argv, commands)
                        if parse_path_device_id(
                            c["arguments"]["id"])[1] in self.paths]
        self.records = []
        self._down = False

    @classmethod
    def of(cls, machine, topo):
        """The handler for a machine, or None when the plan removes no
        path."""
        if "pathfail" not in topo.plan.steps:
            return None
        start = machine.start
        return cls(topo.plan.pathfail.paths, machine.argv,
                   start.commands if start else ())

    def commands(self, request):
        if request == "paths-down":
            return [{"execute": "device_del",
                     "arguments": {"id": c["arguments"]["id"]}}
                    for c in self.devices]
        return list(self.devices)

    def answer(self, request, guest_uptime_s, pipeline):
        """Carry out one request; pipeline(commands) sends QMP commands
        and raises QmpError.  Returns the record, error included: a
        request the host could not carry out leaves the guest waiting
        for an effect that never comes, and its step says so."""
        record = {"request": request, "guest_uptime_s": guest_uptime_s,
                  "devices": len(self.devices), "host_s": None,
                  "error": None}
        wanted = request == "paths-down"
        if self._down == wanted:
            record["error"] = (f"{request} while the paths are already "
                               f"{'down' if wanted else 'up'}")
        elif not self.devices:
            record["error"] = "no path device to act on"
        else:
            commands = self.commands(request)
            t0 = time.monotonic()
            try:
                for start in range(0, len(commands), BATCH):
                    pipeline(commands[start:start + BATCH])
                self._down = wanted
            except QmpError as e:
                record["error"] = str(e)
            record["host_s"] = round(time.monotonic() - t0, 3)
        self.records.append(record)
        return record
