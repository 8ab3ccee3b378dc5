"""The launcher's subcommands (run, plan, validate, xml); cli.py lists them.

Each starts with prepare(): the topology planned, and refused if QEMU
could not be started with it.
"""

from .. import topology
from ..machine.diskroom import check_disk_room
from ..qemu import argv


def prepare(path, accel="tcg"):
    planned = topology.prepare(path, accel)
    argv.check_size(planned)
    check_disk_room(planned.topo)
    return planned
