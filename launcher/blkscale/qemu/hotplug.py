"""SCSI disks added over QMP before the guest runs, not on the command line.

The kernel's ARG_MAX (a quarter of the stack rlimit, at most 6 MiB) bounds
QEMU's command line, and so the disks of one guest.  Past it QEMU starts
with -S (vCPUs stopped), the launcher adds each LUN's block nodes
(`blockdev-add`) and its scsi-hd (`device_add`) over QMP in pipelined
batches, then `cont` starts the guest, which finds every LUN present when
it first scans its controllers.  PCI devices (bridges, controllers,
virtio-blk disks) stay on the command line: their slots are on bridges
without hot-plug (shpc=off), and 7934 of them fit there anyway.

split() takes the command line build_argv() made, so the disks and their
options are still spelled in exactly one place.
"""

import json

# Commands per QMP write (measured in topologies/README.md, "How QEMU
# gets its disks").
BATCH = 500


def _split_opts(spec):
    """key=value,... -> [(key, value)]; ",," is a comma in a value."""
    items = spec.replace(",,", "\0").split(",")
    return [tuple(s.replace("\0", ",") for s in item.split("=", 1))
            for item in items]


def _typed(value):
    """QMP's blockdev-add is typed: sizes and offsets are numbers, on/off
    booleans; the command line spells them all as text."""
    if value.isdigit():
        return int(value)
    if value in ("on", "off"):
        return value == "on"
    return value


def blockdev_command(spec):
    return {"execute": "blockdev-add",
            "arguments": {k: _typed(v) for k, v in _split_opts(spec)}}


def device_command(spec):
    """-device DRIVER,k=v,... as device_add, whose properties are parsed
    like the command line's: text is fine."""
    (driver,), *props = _split_opts(spec)
    args = {"driver": driver}
    for key, value in props:
        args[key] = value
    return {"execute": "device_add", "arguments": args}


def is_hotplugged(spec):
    return spec.startswith("scsi-hd,")


def _units(argv):
    """The argv in units: (tokens, is a SCSI disk).  A SCSI disk's unit is
    its -blockdev options and its -device; build_argv() puts a disk's
    -blockdev options right before its -device."""
    units, pending = [], []
    i = 0
    while i < len(argv):
        opt, value = argv[i], argv[i + 1] if i + 1 < len(argv) else ""
        if opt == "-blockdev":
            pending += [opt, value]
            i += 2
            continue
        if opt == "-device" and is_hotplugged(value):
            units.append((pending + [opt, value], True))
            pending = []
            i += 2
            continue
        if pending:
            units.append((pending, False))
            pending = []
        units.append(([opt], False))
        i += 1
    if pending:
        units.append((pending, False))
    return units


def _commands(tokens):
    pairs = zip(tokens[::2], tokens[1::2])
    return [blockdev_command(v) if o == "-blockdev" else device_command(v)
            for o, v in pairs]


def split(argv, excess=None):
    """(argv with -S and without some SCSI disks, their QMP commands).

    excess None moves every SCSI disk; else the last ones whose options
    add up to at least excess bytes (as argv_bytes() counts them).
    """
    units = _units(argv)
    moved = [False] * len(units)
    need = excess
    for n in range(len(units) - 1, -1, -1):
        tokens, scsi = units[n]
        if not scsi:
            continue
        if need is not None and need <= 0:
            break
        moved[n] = True
        if need is not None:
            need -= sum(len(t.encode()) + 1 + 8 for t in tokens)
    out, commands = [], []
    for (tokens, _), move in zip(units, moved):
        if move:
            commands += _commands(tokens)
        else:
            out += tokens
    return out + ["-S"], commands


def shown(commands):
    """The QMP commands as --show-command prints them, one per line."""
    return "\n".join("# qmp " + json.dumps(c, separators=(",", ":"))
                     for c in commands)


def add(qmp, commands, deadline, alive, batch=BATCH, added=None):
    """Send the commands in batches, then `cont`.  added(n), if given,
    hears the disks (device_add commands) QEMU has taken after each
    batch: creating tens of thousands of them takes minutes."""
    disks = 0
    for start in range(0, len(commands), batch):
        chunk = commands[start:start + batch]
        qmp.pipeline(chunk, deadline, alive)
        disks += sum(c["execute"] == "device_add" for c in chunk)
        if added:
            added(disks)
    qmp.command("cont", deadline=deadline, alive=alive)
