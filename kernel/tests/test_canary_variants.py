"""The variants that test the nightly itself: `canary` (the patched
series, then known costs kept apart in kernel/canary) and
`patched-again` (the patched kernel under a second name, for an A/A
pair).  Neither may leak into the series or the default variants, and
the canary's series must stay the patched series plus its own patches.
Applying it needs the pristine tree (build/linux); skipped without."""

import pathlib
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
PATCHES = TOP / "kernel" / "patches"
CANARY = TOP / "kernel" / "canary"
LINUX = TOP / "build" / "linux"


def _series(directory):
    lines = (directory / "series").read_text().splitlines()
    return [ln.split("#", 1)[0].strip() for ln in lines
            if ln.split("#", 1)[0].strip()]


def _shell(name):
    out = subprocess.run([str(TOP / "blkscale"), "variants", "--shell",
                          name], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return dict(line.split("=", 1) for line in out.stdout.splitlines())


def test_the_canary_is_the_patched_series_then_its_own():
    patched = _series(PATCHES)
    canary = _series(CANARY)
    assert canary[:len(patched)] == [f"../patches/{p}" for p in patched]
    own = canary[len(patched):]
    assert own and all("/" not in p and (CANARY / p).is_file()
                       for p in own)
    assert not set(own) & set(patched)
    assert not any((PATCHES / p).exists() for p in own)


def test_neither_is_a_default_variant():
    makefile = (TOP / "Makefile").read_text()
    default = next(ln for ln in makefile.splitlines()
                   if ln.startswith("VARIANTS ?="))
    assert default.split("?=")[1].split() == ["stock", "patched"]


def test_declared_like_the_others():
    assert _shell("canary")["VARIANT_PATCHES"] == "kernel/canary"
    again = _shell("patched-again")
    assert again["VARIANT_PATCHES"] == "kernel/patches"
    # The A/A kernel shares the patched tree: same sources, built twice.
    assert again["VARIANT_TREE"] == "patched"
    assert _shell("canary")["VARIANT_CONFIG"] == \
        _shell("patched")["VARIANT_CONFIG"]


@pytest.mark.skipif(not (LINUX / ".git").exists() and
                    not (LINUX / "HEAD").exists(),
                    reason="no pristine tree (build/linux; make kernel)")
def test_the_canary_series_applies(tmp_path):
    """Every patch of the canary's series applies, in order, to the
    files it touches in the pristine 6.1 tree."""
    series = [CANARY / p for p in _series(CANARY)]
    touched = sorted({line.split()[2][2:] for p in series
                      for line in p.read_text().splitlines()
                      if line.startswith("diff --git ")})
    # Files the series creates are not in the base.
    present = subprocess.run(["git", "-C", str(LINUX), "ls-tree", "-r",
                              "--name-only", "base", "--", *touched],
                             capture_output=True, text=True,
                             check=True).stdout.split()
    archive = subprocess.run(["git", "-C", str(LINUX), "archive", "base",
                              *present], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=archive.stdout,
                   check=True)
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t",
           "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "base"], check=True)
    for patch in series:
        out = subprocess.run(git + ["am", "-q", "--keep-cr", str(patch)],
                             capture_output=True, text=True)
        assert out.returncode == 0, f"{patch.name}: {out.stderr}"


def test_the_canarys_costs_are_sized_on_its_command_line():
    """variants.toml's cmdline reaches every boot of the canary, and no
    other kernel's."""
    import sys
    sys.path.insert(0, str(TOP / "launcher"))
    from blkscale import kernels
    from blkscale.machine import guest
    from blkscale.topology.load import load as load_topology
    import tomllib
    declared = {v["name"]: v.get("cmdline", "") for v in tomllib.loads(
        (TOP / "kernel" / "variants.toml").read_text())["variant"]}
    sized = declared["canary"]
    assert sized.startswith("canary_probe_loops=")
    assert kernels.cmdline_of("canary") == sized
    assert kernels.cmdline_of("canary-blktests") == sized
    assert kernels.cmdline_of("patched") == ""
    assert kernels.cmdline_of("a-kernel-of-ones-own") == ""
    topo = load_topology(TOP / "bench" / "topologies" / "stress-500.toml")
    line = guest.kernel_cmdline(topo, "tcg", "canary")
    assert line.endswith(" " + sized)
    assert "canary" not in guest.kernel_cmdline(topo, "tcg", "patched")
