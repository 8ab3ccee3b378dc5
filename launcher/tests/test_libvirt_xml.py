"""The libvirt domain XML of every shipped topology.

Golden files of the small topologies are what `./blkscale xml TOPO
--variant stock` prints, with the build directory shown as @BUILD@ and
the DAC label as +@UID@:+@GID@.  Regenerate after an intended change with
BLKSCALE_REGEN_GOLDEN=1 (never under CI).  The printed XML of every
topology libvirt runs must pass virt-xml-validate (slice offsets and
drive addresses within the schema's ranges) and be accepted by libvirt's
test driver, hold each disk once at an address of its own, and place
every device where the QEMU command line places it.
"""

import json
import re
import shlex
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from launchertest import (GOLDEN, GOLDEN_TOPOLOGIES, HERE, QEMU_ONLY,
                          libvirt_topologies, regenerating_goldens, run_cli)

from blkscale import topology
from blkscale.libvirt import domain_xml
from blkscale.machine import disks, guest
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv

LABEL = re.compile(r"<label>\+\d+:\+\d+</label>")
Q = "{" + domain_xml.QEMU_NS + "}"


def xml_of(topo, build):
    out = run_cli("xml", f"topologies/{topo}.toml", "--variant", "stock",
                  env={"BUILD": str(build)})
    assert out.returncode == 0, out.stderr
    return out.stdout


def normalized(text, build):
    text = text.replace(str(build), "@BUILD@")
    return LABEL.sub("<label>+@UID@:+@GID@</label>", text)


@pytest.mark.parametrize("topo", GOLDEN_TOPOLOGIES)
def test_golden_xml(topo, tmp_path):
    build = tmp_path / "build"
    text = xml_of(topo, build)
    golden = GOLDEN / f"{topo}.xml"
    if regenerating_goldens():
        golden.write_text(normalized(text, build))
    assert golden.exists(), "no golden file; run with BLKSCALE_REGEN_GOLDEN=1"
    assert normalized(text, build) == golden.read_text(), (
        f"{topo}: domain XML changed; if intended, regenerate with "
        "BLKSCALE_REGEN_GOLDEN=1")


def test_golden_files_are_the_small_topologies():
    assert sorted(p.stem for p in GOLDEN.glob("*.xml")) == GOLDEN_TOPOLOGIES


# Every topology the libvirt backend starts (the two it refuses take the
# validator minutes).
@pytest.mark.parametrize("topo", libvirt_topologies())
def test_virt_xml_validate(topo, tmp_path):
    validate = shutil.which("virt-xml-validate")
    if validate is None:
        pytest.skip("virt-xml-validate not installed (libvirt-clients)")
    path = tmp_path / f"{topo}.xml"
    path.write_text(xml_of(topo, tmp_path / "build"))
    out = subprocess.run([validate, str(path), "domain"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("topo", QEMU_ONLY)
def test_qemu_only_topologies_are_refused(topo):
    """A plan that removes paths over QMP has no libvirt form: `xml`
    says so in one line naming the field, and prints no XML."""
    out = run_cli("xml", f"topologies/{topo}.toml", "--variant",
                       "stock")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip().endswith(
        "plan.steps: step pathfail needs the QEMU backend (it removes "
        "paths over QEMU's QMP monitor)")
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("topo", ["oracle-4000-verify", "ibm-5000-verify"])
def test_values_stay_within_the_schema(topo):
    """libvirt's schema is narrower than its parser: a slice's offset is
    an unsignedInt, a drive address's controller and target have two
    digits.  The scale topologies reach both limits, and stay within."""
    root = ET.fromstring(domain_xml.domain_xml(planned_of(topo),
                                               sample_files(), "stock"))
    offsets = [int(e.get("offset")) for e in root.iter("slice")]
    assert offsets and max(offsets) < 2**32
    drives = [e for e in root.iter("address") if e.get("type") == "drive"]
    assert drives
    assert max(int(e.get("target")) for e in drives) <= 99
    assert max(int(e.get("controller")) for e in drives) <= 99
    # Disks past the schema's drive addresses are still there, on the
    # command line.
    args = [e.get("value") for e in root.iter(Q + "arg")]
    on_cmdline = sum(1 for a in args if a.startswith('{"driver":"scsi-hd"'))
    assert on_cmdline + sum(1 for d in root.iter("disk")
                            if d.find("target").get("bus") == "scsi") == \
        planned_of(topo).topo.expected["scsi"]


def test_slices_fill_one_file_per_4_gib():
    """Slice files hold at most 4 GiB of slices, every offset inside its
    file, and no two slices overlap."""
    planned = planned_of("ibm-5000-verify")
    group = planned.topo.pci_groups[0]
    files = sample_files()
    sizes = dict(disks.image_files(planned, files))
    assert len(sizes) > 1
    assert all(size <= 2**32 for size in sizes.values())
    assert sum(sizes.values()) == group.disks * group.size_bytes
    seen = set()
    for i in range(group.disks):
        path, offset = disks.slice_place(files, group, i)
        assert offset + group.size_bytes <= sizes[path]
        assert (path, offset) not in seen
        seen.add((path, offset))


def test_virt_xml_validate_rejects_a_broken_domain(tmp_path):
    """The validator is really consulted: a domain without <name> fails."""
    validate = shutil.which("virt-xml-validate")
    if validate is None:
        pytest.skip("virt-xml-validate not installed (libvirt-clients)")
    text = re.sub(r"<name>[^<]*</name>", "",
                  xml_of("smoke", tmp_path / "build"))
    path = tmp_path / "broken.xml"
    path.write_text(text)
    out = subprocess.run([validate, str(path), "domain"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0


def sample_files():
    return RunFiles(kernel="/k/bzImage", initrd="/r/initrd.cpio",
                          console="/r/console.log", qmp="/r/qmp.sock",
                          results="/r/results.stream", disks="/r/disks")


def planned_of(topo):
    return topology.prepare(HERE.parents[1] / "topologies" / f"{topo}.toml")


@pytest.mark.parametrize("topo", ["smoke", "ci-small", "oracle-4000"])
def test_test_driver_accepts(topo):
    libvirt = pytest.importorskip("libvirt")
    libvirt.registerErrorHandler(lambda _c, _e: None, None)
    text = domain_xml.domain_xml(planned_of(topo), sample_files(), "stock")
    conn = libvirt.open("test:///default")
    try:
        dom = conn.createXML(text, 0)
        assert dom.name() == f"blkscale-{topo}-stock"
        assert dom.isActive()
        dom.destroy()
        dom = conn.defineXML(text)
        dom.undefine()
        with pytest.raises(libvirt.libvirtError):
            conn.createXML(text.replace("<domain ", "<domian ", 1), 0)
    finally:
        conn.close()


def test_names_are_escaped():
    """A group id or description with markup stays text."""
    planned = planned_of("ci-small")
    # Planted past the schema, which refuses such an id, into the frozen
    # records the domain is written from.
    object.__setattr__(planned.topo.group("data"), "id", "</disk><evil/>&")
    object.__setattr__(planned.topo, "description", "<evil>a & b</evil>")
    text = domain_xml.domain_xml(planned, sample_files(), "stock")
    root = ET.fromstring(text)
    assert root.find(".//evil") is None
    assert root.findtext("description") == "<evil>a & b</evil>"
    serials = [e.text for e in root.iter("serial") if e.text]
    assert "</disk><evil/>&-0" in serials
    files = [e.get("file") for e in root.iter("source") if e.get("file")]
    assert "/r/disks/</disk><evil/>&-0.img" in files


def _kv(spec):
    """driver,key=value,... -> (driver, {key: value})."""
    head, *rest = spec.split(",")
    return head, dict(item.split("=", 1) for item in rest)


def argv_places(planned):
    """serial or controller id -> (bus, slot) from the QEMU command line."""
    argv = qargv.build_argv(planned, sample_files(), "stock", "tcg", "qemu")
    places = {}
    for opt, value in zip(argv, argv[1:]):
        if opt != "-device":
            continue
        driver, props = _kv(value)
        key = props.get("serial") or props.get("id")
        if driver in ("virtio-blk-pci", "virtio-scsi-pci", "mptsas1068",
                      "pci-bridge"):
            places[key] = (props["bus"], int(props["addr"], 16))
        elif driver == "scsi-hd":
            # bus=/.../<controller>/virtio-bus/virtio-scsi-device/<ctrl>.0
            ctrl = props["bus"].rsplit("/", 1)[-1][:-2]
            # a LUN's paths share its serial: one key per controller
            places[f"{key}@{ctrl}"] = (ctrl, int(props["scsi-id"]),
                                       int(props["lun"]))
    return places


def late_devices(text):
    """The disks `xml` lists after the domain as attached live: (<disk>
    elements, device_add arguments)."""
    disks, added = [], []
    for line in text.splitlines():
        if line.startswith("<!-- attach "):
            disks.append(ET.fromstring(line[len("<!-- attach "):-4]))
        elif line.startswith("<!-- qmp "):
            command = json.loads(line[len("<!-- qmp "):-4])
            if command["execute"] == "device_add":
                added.append(json.dumps(command["arguments"]))
    return disks, added


def xml_places(root, text=""):
    """The same map from the domain XML, native and command-line devices,
    and from `text`'s disks attached live."""
    late_disks, late_added = late_devices(text)
    devices = root.find("devices")
    alias_of_index = {"0": "pci.0"}
    for ctrl in devices.findall("controller[@type='pci']"):
        if ctrl.get("model") == "pci-bridge":
            alias_of_index[ctrl.get("index")] = ctrl.find("alias").get("name")
    scsi_alias = {c.get("index"): c.find("alias").get("name")
                  for c in devices.findall("controller[@type='scsi']")}

    def pci(elem):
        addr = elem.find("address")
        return (alias_of_index[str(int(addr.get("bus"), 16))],
                int(addr.get("slot"), 16))

    places = {}
    for ctrl in devices.findall("controller"):
        if ctrl.get("model") == "pci-bridge" or ctrl.get("type") == "scsi":
            places[ctrl.find("alias").get("name")] = pci(ctrl)
    for disk in devices.findall("disk") + late_disks:
        serial = disk.findtext("serial")
        addr = disk.find("address")
        if addr.get("type") == "pci":
            places[serial] = pci(disk)
        else:
            ctrl = scsi_alias[addr.get("controller")]
            places[f"{serial}@{ctrl.removeprefix('ua-')}"] = (
                ctrl, int(addr.get("target")), int(addr.get("unit")))
    args = [a.get("value") for a in root.iter(Q + "arg")]
    devices = [v for o, v in zip(args, args[1:]) if o == "-device"]
    for value in devices + late_added:
        props = json.loads(value)
        driver = props["driver"]
        key = props.get("serial") or props.get("id")
        if driver == "scsi-hd":
            ctrl = props["bus"][:-2]
            places[f"{key}@{ctrl.removeprefix('ua-')}"] = (
                ctrl, int(props["scsi-id"]), int(props["lun"]))
        else:
            places[key] = (props["bus"], int(props["addr"], 16))
    return places


def _strip_ua(places):
    out = {}
    for key, place in places.items():
        key = key[3:] if key.startswith("ua-") else key
        bus = place[0][3:] if place[0].startswith("ua-") else place[0]
        out[key] = (bus, *place[1:])
    return out


@pytest.mark.parametrize("topo", libvirt_topologies())
def test_same_placement_as_qemu_argv(topo):
    """Every bridge, controller and disk sits where the QEMU argv puts it,
    including devices at slot 0 of a bridge, which only the command line
    can place."""
    planned = planned_of(topo)
    root = domain_xml.build(planned, sample_files(), "stock")
    assert _strip_ua(xml_places(root)) == argv_places(planned)


@pytest.mark.parametrize("topo", libvirt_topologies())
def test_every_disk_once_at_its_own_address(topo, tmp_path):
    """What `blkscale xml` prints holds each disk once, each device at an
    address of its own, as many of each kind as the plan."""
    planned = planned_of(topo)
    text = xml_of(topo, tmp_path / "build")
    root = ET.fromstring(text)
    places = _strip_ua(xml_places(root, text))
    expected = planned.topo.expected
    bridges = {b.qemu_id for b in planned.layout.bridges}
    controllers = {disks.controller_id(d.group, d.index)
                   for d in planned.layout.devices
                   if d.group.kind in ("virtio_scsi", "sas")}
    assert bridges | controllers <= set(places)
    serials = set(places) - bridges - controllers
    assert len(serials) == expected["virtio"] + expected["scsi"]
    assert len(set(places.values())) == len(places)
    args = [a.get("value") for a in root.iter(Q + "arg")]
    assert "-drive" not in args


def test_null_disks_use_blockdev_and_file_disks_are_native():
    planned = planned_of("ci-small")
    root = domain_xml.build(planned, sample_files(), "stock")
    args = [a.get("value") for a in root.iter(Q + "arg")]
    assert "-drive" not in args
    blockdevs = [v for o, v in zip(args, args[1:]) if o == "-blockdev"]
    assert all("driver=null-co" in b for b in blockdevs)
    # 16 null virtio-blk and 64 null SCSI disks; sparse and slice ones are
    # <disk> elements unless they sit at slot 0 of a bridge.
    assert len(blockdevs) == 16 + 64
    disks = root.find("devices").findall("disk")
    assert len(disks) == 16
    slices = [d for d in disks if d.find("source/slices") is not None]
    assert len(slices) == 8
    assert all(d.find("shareable") is not None for d in slices)
    offsets = sorted(int(d.find("source/slices/slice").get("offset"))
                     for d in slices)
    size = planned.topo.group("slices").size_bytes
    assert offsets == [i * size for i in range(8)]


def test_kernel_console_results_and_reboot():
    planned = planned_of("smoke")
    root = domain_xml.build(planned, sample_files(), "patched",
                            name="blkscale-x", label="+7:+8")
    assert root.get("type") == "qemu"
    assert root.findtext("name") == "blkscale-x"
    assert root.findtext("os/kernel") == "/k/bzImage"
    assert root.findtext("os/initrd") == "/r/initrd.cpio"
    # libvirt streams the serial console only: console=ttyS0
    assert root.findtext("os/cmdline") == guest.kernel_cmdline(
        planned.topo, "tcg")
    assert root.findtext("os/cmdline").startswith("console=ttyS0 ")
    assert root.findtext("on_reboot") == "destroy"
    # Streams, not files: virtlogd would roll files over at 2 MiB.
    assert root.find("devices/serial").get("type") == "pty"
    assert root.find("devices/serial/source") is None
    channel = root.find("devices/channel")
    assert channel.get("type") == "unix"
    assert channel.find("source").get("mode") == "bind"
    assert "/r/" not in domain_xml.render(root).replace("/r/initrd", "")
    assert channel.find("target").get("name") == "org.blkscale.results"
    assert root.findtext("seclabel/label") == "+7:+8"
    assert root.find("seclabel").get("relabel") == "no"
    assert root.find("devices/memballoon").get("model") == "none"


def test_overrides_carry_what_xml_cannot():
    planned = planned_of("smoke")
    root = domain_xml.build(planned, sample_files(), "stock")
    props = {(d.get("alias"), p.get("name")): p.get("value")
             for d in root.iter(Q + "device") for p in d.iter(Q + "property")}
    dev = next(d for d in planned.layout.devices
               if d.group.kind == "virtio_scsi")
    alias = domain_xml.controller_alias(dev.group, dev.index)
    assert props[(alias, "vectors")] == str(dev.vectors)
    assert props[(alias, "virtqueue_size")] == str(dev.queue_size)


def test_cli_rejects_relative_rundir(tmp_path):
    out = run_cli("xml", "topologies/smoke.toml", "--rundir", "rel/dir")
    assert out.returncode == 2
    assert "--rundir" in out.stderr


def test_cli_prints_one_document(tmp_path):
    """The printed XML is the whole output: it parses as one document."""
    text = xml_of("smoke", tmp_path / "build")
    root = ET.fromstring(text)
    assert root.tag == "domain"
    assert shlex.split(root.findtext("os/cmdline"))[0] == "console=ttyS0"


def test_file_disk_at_bridge_slot_0_goes_to_command_line(tmp_path):
    """libvirt refuses slot 0 of a pci-bridge; that disk is a -device."""
    path = tmp_path / "bridged.toml"
    path.write_text('description = "sparse disks behind a bridge"\n'
                    '[guest]\nvcpus = 1\nmemory_mib = 512\n'
                    '[[virtio_blk]]\nid = "d"\ncount = 40\nsize_mib = 8\n'
                    'backing = "sparse"\n'
                    '[plan]\nsteps = ["census"]\n')
    planned = topology.prepare(path)
    at_zero = [d for d in planned.layout.devices
               if d.bus.kind != "root" and d.slot == 0]
    assert len(at_zero) == 1
    root = domain_xml.build(planned, sample_files(), "stock")
    serials = [d.findtext("serial") for d in root.iter("disk")]
    assert len(serials) == 39
    zero = disks.disk_serial(at_zero[0].group, at_zero[0].index)
    assert zero not in serials
    args = [a.get("value") for a in root.iter(Q + "arg")]
    device = next(json.loads(a) for a in args if f'"serial":"{zero}"' in a)
    assert (device["bus"], device["addr"]) == (
        f"ua-{at_zero[0].bus.qemu_id}", "0x0")
    assert f"driver=file,node-name=d-{zero}," in " ".join(args)
    shpc = [p for p in root.iter(Q + "property") if p.get("name") == "shpc"]
    assert [p.get("value") for p in shpc] == ["false"]
    assert _strip_ua(xml_places(root)) == argv_places(planned)
