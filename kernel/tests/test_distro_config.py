"""A variant on a Debian image's config (config_from, modules_list):
configure_distro_tree makes Debian's config, trimmed by localmodconfig to
the module list, with the variant's fragments after it.  Every listed
module stays a module, the fragments apply, every option Debian builds
in and the result lacks is accounted for, and a list naming a module the
kernel does not build stops the build naming the file and the module.
Needs Debian's linux-image-amd64 package (apt-get download; cached under
build/kernel/distro-config/) and the linux-source-6.1 tree."""
import pathlib
import re
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
LIST = "kernel/configs/debian-6.1.modules"
FRAGMENT = TOP / "kernel/configs/debian-6.1.config"


def configure(tmp_path, modules_list):
    """Run configure_distro_tree for stock-dcfg into tmp_path/obj with
    VARIANT_MODULES_LIST overridden; (CompletedProcess, obj)."""
    obj = tmp_path / "obj"
    script = ('. kernel/scripts/common.sh; variant_load stock-dcfg; '
              f'VARIANT_MODULES_LIST="{modules_list}"; '
              'configure_distro_tree "$(variant_src stock-dcfg)" '
              f'"{obj}" stock-dcfg "{tmp_path}/config.log"')
    out = subprocess.run(["nice", "-n", "19", "bash", "-c", script],
                         cwd=TOP, capture_output=True, text=True,
                         timeout=900)
    return out, obj


def have_inputs():
    src = TOP / "build" / "linux"
    if not (src / "Makefile").is_file():
        return "no linux-source-6.1 tree (make kernel)"
    if subprocess.run(["apt-cache", "show", "linux-image-amd64"],
                      capture_output=True).returncode != 0:
        return "apt knows no linux-image-amd64"
    return None


def listed():
    return [line.split()[0] for line in
            (TOP / LIST).read_text().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_debian_config_keeps_the_listed_modules_and_says_why(tmp_path):
    why = have_inputs()
    if why:
        pytest.skip(why)
    out, obj = configure(tmp_path, LIST)
    assert out.returncode == 0, out.stderr
    config = (obj / ".config").read_text()
    # The fragment's options, as asked.
    for line in FRAGMENT.read_text().splitlines():
        if line.startswith("CONFIG_"):
            assert line in config.splitlines(), line
    # localmodconfig kept few modules: the listed ones, their
    # dependencies and the fragment's.
    modular = re.findall(r"^(CONFIG_\w+)=m$", config, re.M)
    assert 0 < len(modular) < 100, len(modular)
    assert "CONFIG_VIRTIO_BLK=m" in config and "CONFIG_SCSI_DEBUG=m" in config
    # Debian's built-ins: every one the result lacks is named with why.
    distro = obj / "distro.config"
    builtin = set(re.findall(r"^(CONFIG_\w+)=y$", distro.read_text(), re.M))
    have = set(re.findall(r"^(CONFIG_\w+)=y$", config, re.M))
    changes = dict(reversed(line.split()) for line in
                   (obj / "config-changes").read_text().splitlines())
    assert builtin - have == set(changes)
    assert set(changes.values()) <= {"fragment", "follows", "localmodconfig"}
    fragment_named = set(re.findall(r"^(?:# )?(CONFIG_\w+)[= ]",
                                    FRAGMENT.read_text(), re.M))
    assert {s for s, why in changes.items() if why == "fragment"} <= \
        fragment_named
    origin = (obj / "config_origin").read_text()
    assert origin.startswith("debian linux-image-6.1.0-")
    assert f"localmodconfig against {LIST} ({len(listed())} modules)" \
        in origin


def test_a_module_the_kernel_does_not_build_stops_it(tmp_path):
    why = have_inputs()
    if why:
        pytest.skip(why)
    bad = TOP / "build" / "test-bad.modules"
    bad.write_text("# a list with a module 6.1 has not\nvirtio_blk\n"
                   "no_such_module\n")
    try:
        out, obj = configure(tmp_path, "build/test-bad.modules")
    finally:
        bad.unlink()
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert lines[-1] == ("kernel: stock-dcfg: build/test-bad.modules: "
                         "modules this kernel does not build: "
                         "no_such_module"), out.stderr
    assert not (obj / ".config").exists()
