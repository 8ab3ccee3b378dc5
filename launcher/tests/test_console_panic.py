"""A kernel panic reaches console.log and ends the run with status 5, on
the quiet console (the default: loglevel=5 on the 8250), the virtio
console and the serial one.

The smoke topology on the patched kernel with the test-only step
`fault` in panic mode (sysrq c after the census): the panic is printed
from the panic path itself, so on the virtio console it must cross
virtio from a CPU that will never return.  Needs `make kernel
initramfs`; skipped without.
"""

import json
import re

import pytest

from launchertest import TOPOLOGIES, all_files, need_built, run_cli

VARIANT = "patched"
PANIC = "Kernel panic - not syncing: sysrq triggered crash"


@pytest.mark.parametrize("console,cmdline_word", [
    ("quiet", None), ("virtio", "console=hvc0"), ("serial", "console=ttyS0")])
def test_panic_reaches_console_log(console, cmdline_word, tmp_path):
    need_built(VARIANT)
    text = (TOPOLOGIES / "smoke.toml").read_text()
    text = text.replace('steps = ["census"]', 'steps = ["census", "fault"]')
    text = re.sub(r"(?m)^\[guest\]$", f'[guest]\nconsole = "{console}"',
                  text)
    assert '"fault"' in text and f'console = "{console}"' in text
    topo = tmp_path / "panic.toml"
    topo.write_text(text + '\n[plan.args]\nfault = "panic"\n')
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    results = tmp_path / "results"
    out = run_cli("run", topo, "--variant", VARIANT, "--accel", "tcg",
                  "--run-id", "r", "--results-dir", results, "--quiet",
                  env={"TMPDIR": str(tmp)}, timeout=300)
    assert out.returncode == 5, out.stdout + out.stderr
    entry = json.loads((results / "r" / "summary.json").read_text())[
        "variants"][VARIANT]
    assert entry["outcome"] == "panic" and PANIC in entry["message"]
    vdir = results / "r" / VARIANT
    assert all_files(vdir) == ["console.log"]
    assert all_files(tmp) == []
    log = (vdir / "console.log").read_text(errors="replace")
    assert PANIC in log
    # what led to it (sysrq raises the console's level for its own line)
    assert "sysrq: Trigger a crash" in log
    if cmdline_word is None:
        # the quiet console: no notice, so neither the banner nor a disk
        assert "Linux version" not in log and "Attached SCSI" not in log
        return
    # the whole log: the kernel's first line, the command line it ran
    # with, the disks
    assert "Linux version" in log
    assert cmdline_word in log.split("Command line:", 1)[1].split("\n")[0]
    assert "Attached SCSI disk" in log
