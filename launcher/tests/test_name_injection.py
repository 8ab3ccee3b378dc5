"""Names and paths reach QEMU's argv, libvirt's XML and the guest's
plan.env only validated or escaped.

Hostile values (`a,b=c`, `x</disk>`, `$(id)`, `;`, a newline) go into
every topology field that names something (ids, the topology's name,
variants, group references, module parameters): each is refused with
one line naming the file and the field, exit status 2, nothing started.
Free-text fields (description, guest.cmdline, plan.args) take them: they
reach argv as one argument, the XML as escaped text and plan.env
single-quoted, intact and inert.  Paths come from the environment
(TMPDIR, BUILD) and are free-form: inside QEMU option lists their commas
are doubled, which a real boot from such a TMPDIR shows QEMU accepts.
"""

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from blkscale import topology
from blkscale.guestlink import planfiles
from blkscale.libvirt import domain_xml
from blkscale.machine import guest
from blkscale.machine.files import RunFiles
from blkscale.qemu import argv as qargv
from launchertest import all_files, fake_runs, need_built, run_cli

HOSTILE = ["a,b=c", "x</disk>", "$(id)", ";", "a\nb"]
BASE = guest.BASE_CMDLINE
# The launcher's own words end the same way whatever the console.
BASE_END = ("panic=-1 rdinit=/init unknown_nmi_panic panic_print=0x40 "
            "tsc=reliable")
DISKS = """
[[virtio_blk]]
id = "data"
count = 2
backing = "sparse"
[[virtio_scsi]]
id = "scsi"
targets = 2
"""


def q(value):
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value)


# field as the error names it -> topology text with the value in it
NAMED = {
    "name": lambda v: f"name = {q(v)}\n" + DISKS,
    "virtio_blk[0].id": lambda v: DISKS.replace('"data"', q(v)),
    "virtio_scsi[0].id": lambda v: DISKS.replace('"scsi"', q(v)),
    "guest.variants[0]": lambda v: f"[guest]\nvariants = [{q(v)}]\n" + DISKS,
    "plan.fio.groups[0]": lambda v: DISKS + '[plan]\nsteps = ["census", '
                                   f'"fio"]\n[plan.fio]\ngroups = [{q(v)}]\n',
    "plan.lvm.groups[0]": lambda v: DISKS + '[plan]\nsteps = ["census", '
                                   f'"lvm"]\n[plan.lvm]\ngroups = [{q(v)}]\n',
    "scsi_debug.params.opts": lambda v: DISKS +
    f"[scsi_debug]\nparams = {{ opts = {q(v)} }}\n",
    "null_blk.params.": lambda v: DISKS +
    f"[null_blk]\nparams = {{ {q(v)} = 1 }}\n",
}


def free_text(value):
    return (f"description = {q(value)}\n[guest]\nvariants = [\"stock\"]\n"
            f"cmdline = {q(value)}\n" + DISKS +
            f'[plan]\nsteps = ["census"]\n[plan.args]\ncensus = {q(value)}\n')


def escaped(text):
    return text.replace("\n", "\\n")


def test_named_fields_refuse_hostile_values(tmp_path):
    files, fields = [], []
    for field, make in NAMED.items():
        for i, value in enumerate(HOSTILE):
            path = tmp_path / f"{field.replace('.', '_')}-{i}.toml"
            path.write_text(make(value))
            files.append(path)
            # a parameter name is part of the field path
            fields.append(field + escaped(value) if field.endswith(".")
                          else field)
    out = run_cli("validate", *files)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == len(files), out.stderr
    for path, field in zip(files, fields):
        assert sum(line.startswith(f"{path}: {field}: ") for line in lines) \
            == 1, (path, field, out.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in files), "validate left files behind"


@pytest.mark.parametrize("field", list(NAMED))
def test_run_refuses_before_starting_anything(field, tmp_path, fake_env):
    path = tmp_path / "hostile.toml"
    path.write_text(NAMED[field]("a,b=c"))
    results = tmp_path / "results"
    out = run_cli("run", path, "--accel", "tcg", "--results-dir", results,
                  env=fake_env)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.count("\n") == 1
    assert out.stderr.startswith(f"{path}: {field}")
    assert fake_runs(fake_env) == [] and not results.exists()
    assert all_files(fake_env["TMPDIR"]) == []


@pytest.mark.parametrize("field", ["description", "guest.cmdline",
                                   "plan.args.census"])
def test_free_text_refuses_a_newline(field, tmp_path):
    text = free_text("safe")
    key = field.rsplit(".", 1)[-1]
    text = text.replace(f'{key} = "safe"', f'{key} = "a\\nb"', 1)
    path = tmp_path / "newline.toml"
    path.write_text(text)
    out = run_cli("validate", path)
    assert out.returncode == 2
    assert out.stderr == (f"{path}: {field}: must not contain control "
                          "characters\n")


def dry_run_argv(path, env):
    out = run_cli("run", path, "--dry-run", "--variant", "stock", "--accel",
                  "tcg", env=env)
    assert out.returncode == 0, out.stderr
    return shlex.split(out.stdout.split("\n", 1)[1].replace("\\\n", ""))


def xml_of(path, env):
    out = run_cli("xml", path, "--variant", "stock", env=env)
    assert out.returncode == 0, out.stderr
    return ET.fromstring(out.stdout)


def tags(root):
    return Counter(el.tag for el in root.iter())


@pytest.mark.parametrize("value", HOSTILE[:-1])
def test_free_text_reaches_argv_xml_and_plan_env_intact(value, tmp_path,
                                                        fake_env):
    safe, hostile = tmp_path / "safe.toml", tmp_path / "hostile.toml"
    safe.write_text(free_text("safe"))
    hostile.write_text(free_text(value))

    # argv: the command line is one argument; nothing else changes
    argv, base = dry_run_argv(hostile, fake_env), dry_run_argv(safe, fake_env)
    assert len(argv) == len(base)
    # what the launcher puts before guest.cmdline, as the safe file shows
    argv_base = base[base.index("-append") + 1].removesuffix(" safe")
    assert argv_base.endswith(BASE_END)
    assert argv[argv.index("-append") + 1] == f"{argv_base} {value}"
    assert [a for a in argv if value in a] == [f"{argv_base} {value}"]

    # XML: text of two elements, no element more or less
    dom, base_dom = xml_of(hostile, fake_env), xml_of(safe, fake_env)
    assert tags(dom) == tags(base_dom)
    assert dom.find("description").text == value
    xml_base = base_dom.find("os/cmdline").text.removesuffix(" safe")
    assert xml_base.startswith("console=ttyS0 ")
    assert xml_base.endswith(BASE_END)
    assert dom.find("os/cmdline").text == f"{xml_base} {value}"

    # plan.env: sourced by a POSIX shell, the value comes back as it was
    planned = topology.prepare(hostile)
    env_file = tmp_path / "plan.env"
    env_file.write_text(planfiles.plan_env(planned.topo, "r", "stock"))
    script = f'. "{env_file}"; printf %s "$BLKSCALE_STEP_ARGS_census"'
    got = subprocess.run(["sh", "-c", script], capture_output=True,
                         text=True, check=True).stdout
    assert got == value


def qemu_opts(text):
    """The items of a QEMU option list; ',,' is a comma inside an item."""
    items, cur, i = [], "", 0
    while i < len(text):
        if text[i] == "," and text[i + 1:i + 2] == ",":
            cur, i = cur + ",", i + 2
        elif text[i] == ",":
            items.append(cur)
            cur, i = "", i + 1
        else:
            cur, i = cur + text[i], i + 1
    return items + [cur]


HOSTILE_DIR = "/r/a,b=c $(id);<x>&\"q'"
PATH_TOPO = """
[guest]
variants = ["stock"]
[[virtio_blk]]
id = "sp"
count = 3
backing = "sparse"
bus = "bridge"
[[virtio_blk]]
id = "sl"
count = 2
backing = "slice"
[[virtio_scsi]]
id = "sc"
targets = 2
backing = "sparse"
bus = "bridge"
"""


def hostile_files():
    d = HOSTILE_DIR
    return RunFiles(kernel="/b,b/bzImage", initrd=f"{d}/initrd.cpio",
                          console=f"{d}/console.log", qmp=f"{d}/qmp.sock",
                          results=f"{d}/results.stream", disks=f"{d}/disks",
                          serial=f"{d}/serial.log")


def check_option_lists(args):
    """Every path in an option list is whole; returns how many there were."""
    n = 0
    for opt, value in zip(args, args[1:]):
        if opt not in ("-chardev", "-blockdev", "-device", "-global"):
            continue
        for item in qemu_opts(value):
            key, _, val = item.partition("=")
            assert key not in ("b", "b=c"), f"injected option in {value!r}"
            if key in ("path", "filename"):
                assert val.startswith(HOSTILE_DIR + "/"), value
                n += 1
    return n


def test_paths_in_qemu_option_lists_double_their_commas(tmp_path):
    path = tmp_path / "paths.toml"
    path.write_text(PATH_TOPO)
    planned = topology.prepare(path)
    argv = qargv.build_argv(planned, hostile_files(), "stock", "tcg", "qemu")
    # console, QMP, results; 3 + 2 sparse disks; a file node per slice (2)
    assert check_option_lists(argv) == 10
    # plain arguments stay as they are
    assert argv[argv.index("-initrd") + 1] == f"{HOSTILE_DIR}/initrd.cpio"
    assert argv[argv.index("-kernel") + 1] == "/b,b/bzImage"


def test_paths_in_libvirt_xml_are_escaped(tmp_path):
    path = tmp_path / "paths.toml"
    path.write_text(PATH_TOPO)
    planned = topology.prepare(path)
    text = domain_xml.render(domain_xml.build(planned, hostile_files(),
                                              "stock"))
    dom = ET.fromstring(text)
    # disk sources carry our paths; the results channel's socket is one
    # libvirt chooses, so it names none
    sources = [s.get("file") or s.get("path") for s in dom.iter("source")
               if s.get("mode") != "bind"]
    assert sources and all(s.startswith(HOSTILE_DIR + "/") for s in sources)
    assert dom.find("os/initrd").text == f"{HOSTILE_DIR}/initrd.cpio"
    args = [a.get("value") for a in
            dom.iter("{" + domain_xml.QEMU_NS + "}arg")]
    # the SCSI disks behind the bridge's slot 0 are command-line devices
    assert check_option_lists(args) == 2
    # the markup in the path is text, not markup
    assert "<x>" not in text and "&lt;x&gt;&amp;" in text


def test_real_boot_from_a_hostile_tmpdir(tmp_path):
    """QEMU parses the doubled commas back: the guest finds every disk."""
    need_built("patched")
    topo = tmp_path / "paths.toml"
    topo.write_text(PATH_TOPO.replace('"stock"', '"patched"')
                    + '[plan]\nsteps = ["census"]\nsettle_s = 30\n')
    # short: the QMP socket path must fit in 108 bytes
    top = tempfile.mkdtemp(prefix="bk-")
    try:
        tmp = os.path.join(top, "a,b=c $(id);<x>&'q")
        os.mkdir(tmp)
        results = tmp_path / "results"
        out = run_cli("run", topo, "--accel", "tcg", "--run-id", "r",
                      "--results-dir", results, "--quiet",
                      env={"TMPDIR": tmp}, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        doc = json.loads((results / "r" / "patched" /
                          "results.json").read_text())
        assert doc["disks"]["found"]["total"] == 7 == \
            doc["topology"]["expected"]["total"]
        assert os.listdir(tmp) == []
    finally:
        shutil.rmtree(top)
