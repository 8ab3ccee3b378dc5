"""The guest profiler's parsing and report, on monitor output as QEMU 7.2
prints it."""

from blkscale.qemu.profiler import (GuestProfiler, SymbolMap, parse_registers,
                                    render_text, snapshot, stack_words)
from blkscale.qemu.qmp import QmpError
from blkscale.results.document import PROFILE_TOP, profile_digest

SYSTEM_MAP = """\
ffffffff81000000 T _text
ffffffff81001000 T do_one_initcall
ffffffff81002000 t acpi_ps_parse_loop
ffffffff81003000 T pci_conf1_read
ffffffff81004000 T default_idle
ffffffff81600100 T _etext
ffffffff82000000 D some_data
ffffffff82800000 T _sinittext
ffffffff82800100 t virtio_pci_driver_init
ffffffff82801000 T _einittext
"""

REGS = """\
CPU#0
RAX=0000000000000000 RBX=ffff888003e1c000 RCX=0000000000000000 RDX=0000000000000000
RSI=0000000000000000 RDI=0000000000000000 RBP=ffffc90000013c30 RSP=ffffc90000013c00
RIP=ffffffff81003010 RFL=00000246 [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=0
CPU#1
RAX=0000000000000000 RBX=0000000000000000 RCX=0000000000000000 RDX=0000000000000000
RSI=0000000000000000 RDI=0000000000000000 RBP=0000000000000000 RSP=ffffc9000007bef0
RIP=ffffffff81004002 RFL=00000246 [---Z-P-] CPL=0 II=0 A20=1 SMM=0 HLT=1
"""

STACK = """\
ffffc90000013c00: 0xffffffff81002044 0x0000000000000000
ffffc90000013c10: 0xffffffff82000010 0xffffffff82800140
ffffc90000013c20: 0xffffffff81002044 0x00007ffd12345678
"""


def _profiler(tmp_path, interval=0.5):
    path = tmp_path / "System.map"
    path.write_text(SYSTEM_MAP)
    return GuestProfiler(path, interval)


def test_symbols(tmp_path):
    (tmp_path / "System.map").write_text(SYSTEM_MAP)
    symbols = SymbolMap(tmp_path / "System.map")
    assert symbols.name(0xffffffff81003010) == "pci_conf1_read"
    assert symbols.name(0xffffffff82800140) == "virtio_pci_driver_init"
    assert symbols.name(0xffffffff82000010) is None     # data after _etext
    assert symbols.name(0xffffffffa0000000) is None     # module text
    assert symbols.name(0x00007ffd12345678) is None


def test_parse_registers():
    assert parse_registers(REGS) == [
        (0, 0xffffffff81003010, 0xffffc90000013c00, 0, False),
        (1, 0xffffffff81004002, 0xffffc9000007bef0, 0, True)]


def test_stack_words_drop_the_address_column():
    assert stack_words(STACK) == [0xffffffff81002044, 0, 0xffffffff82000010,
                                  0xffffffff82800140, 0xffffffff81002044,
                                  0x00007ffd12345678]


def test_samples_and_report(tmp_path):
    prof = _profiler(tmp_path)
    asked = []

    def hmp(command, cpu):
        asked.append((command, cpu))
        return REGS if command.startswith("info registers") else STACK

    assert prof.due(0.0)
    prof.sample(hmp, 0.0, "kernel")
    assert not prof.due(0.3) and prof.due(0.5)
    prof.sample(hmp, 0.6, "init")
    # Only the busy vCPU's stack is read, on that vCPU.
    assert asked[1] == ("x /48gx 0xffffc90000013c00", 0)
    doc = prof.summary()
    assert doc["states"] == {"kernel": 2, "idle": 2}
    assert doc["self"] == [{"symbol": "pci_conf1_read", "samples": 2}]
    inclusive = {r["symbol"]: r["samples"] for r in doc["inclusive"]}
    # A caller seen twice on one stack counts once per sample.
    assert inclusive == {"pci_conf1_read": 2, "acpi_ps_parse_loop": 2,
                         "virtio_pci_driver_init": 2}
    text = render_text(doc)
    assert "100.0%       2  pci_conf1_read" in text
    assert doc["timeline"][0]["phase"] == "kernel"
    assert doc["timeline"][-1]["phase"] == "init"


def test_user_and_firmware_are_not_kernel(tmp_path):
    prof = _profiler(tmp_path)
    regs = REGS.replace("CPL=0 II=0 A20=1 SMM=0 HLT=0",
                        "CPL=3 II=0 A20=1 SMM=0 HLT=0")
    regs = regs.replace("RIP=ffffffff81004002", "RIP=00000000000fd2a1")
    regs = regs.replace("HLT=1", "HLT=0")
    prof.sample(lambda c, cpu: regs, 0.0, "kernel")
    assert prof.summary()["states"] == {"user": 1, "other": 1}


def test_a_refused_sample_is_an_error_unless_qemu_is_exiting(tmp_path):
    from blkscale.qemu.qmp import QmpError

    def refused(cmd, cpu):
        raise QmpError("connection closed")

    prof = _profiler(tmp_path)
    prof.sample(refused, 0.0, "census", exited=lambda: True)
    assert prof.errors == 0
    prof.sample(refused, 1.0, "census", exited=lambda: False)
    prof.sample(refused, 2.0, "census")
    assert prof.errors == 2


def test_shares_name_the_clocksource_and_the_console(tmp_path):
    """A boot spending its samples in read_hpet and the 8250 says so at the
    top of the report; one that does not says 0%."""
    path = tmp_path / "System.map"
    path.write_text(SYSTEM_MAP.replace(
        "ffffffff81004000 T default_idle",
        "ffffffff81004000 T default_idle\n"
        "ffffffff81005000 t read_hpet\n"
        "ffffffff81006000 t io_serial_out\n"))
    prof = GuestProfiler(path, 0.5)
    for t, rip in enumerate(("ffffffff81005004", "ffffffff81005008",
                             "ffffffff81006010", "ffffffff81003010")):
        regs = REGS.replace("RIP=ffffffff81003010", f"RIP={rip}")
        prof.sample(lambda c, cpu, r=regs: r if c.startswith("info")
                    else STACK, float(t), "census")
    doc = prof.summary()
    assert doc["shares"]["clocksource"] == {
        "percent": 50.0, "samples": 2, "symbols": {"read_hpet": 2}}
    assert doc["shares"]["console"] == {
        "percent": 25.0, "samples": 1, "symbols": {"io_serial_out": 1}}
    text = render_text(doc)
    assert "clocksource:   50.0% of kernel samples (read_hpet 2)" in text
    assert "console:       25.0% of kernel samples (io_serial_out 1)" in text

    quiet = _profiler(tmp_path)
    quiet.sample(lambda c, cpu: REGS if c.startswith("info") else STACK,
                 0.0, "census")
    shares = quiet.summary()["shares"]
    assert shares["clocksource"]["percent"] == 0.0
    assert "console:        0.0% of kernel samples (none)" in render_text(
        quiet.summary())


def test_results_keep_the_shares_and_the_busiest_functions(tmp_path):
    """results.json's profile: the shares as percents and the top
    functions as shares of the kernel's samples, no more than PROFILE_TOP."""
    summary = {"interval_s": 0.2, "samples": 250,
               "states": {"kernel": 200, "idle": 50},
               "shares": {"clocksource": {"percent": 12.5, "samples": 25,
                                          "symbols": {"read_hpet": 25}},
                          "console": {"percent": 0.0, "samples": 0,
                                      "symbols": {}}},
               "self": [{"symbol": f"f{i}", "samples": 100 - i}
                        for i in range(PROFILE_TOP + 5)],
               "inclusive": [{"symbol": "get_device_parent", "samples": 150}]}
    digest = profile_digest(summary)
    assert digest["kernel_samples"] == 200
    assert digest["shares"] == {"clocksource": 12.5, "console": 0.0}
    assert len(digest["self"]) == PROFILE_TOP
    assert digest["self"][0] == {"symbol": "f0", "samples": 100,
                                 "percent": 50.0}
    assert digest["inclusive"] == [{"symbol": "get_device_parent",
                                    "samples": 150, "percent": 75.0}]
    # No kernel sample (a guest that only idled): shares of nothing are 0.
    idle = profile_digest(dict(summary, states={"idle": 9}))
    assert idle["self"][0]["percent"] == 0.0


def test_snapshot_of_a_stuck_guest_names_each_vcpu(tmp_path):
    """A hang report: vCPU 0 in a kernel function with its callers,
    vCPU 1 halted, once per sample; a refused read is counted, not raised.
    A vCPU running (vCPU 0) makes the guest busy."""
    path = tmp_path / "System.map"
    path.write_text(SYSTEM_MAP)
    lines, busy = snapshot(
        lambda c, cpu: REGS if c.startswith("info") else STACK,
        path, samples=2, gap_s=0.0)
    assert lines == [
        "+0.0 s vCPU 0: in pci_conf1_read <- acpi_ps_parse_loop "
        "<- virtio_pci_driver_init",
        "+0.0 s vCPU 1: halted (idle: waiting for an interrupt)",
        "+0.0 s vCPU 0: in pci_conf1_read <- acpi_ps_parse_loop "
        "<- virtio_pci_driver_init",
        "+0.0 s vCPU 1: halted (idle: waiting for an interrupt)"]
    assert busy is True

    def refused(c, cpu):
        raise QmpError("QEMU is gone")
    assert snapshot(refused, path, samples=2, gap_s=0.0) == (
        ["2 of 2 samples could not be read"], False)


def test_snapshot_of_an_idle_guest_is_not_busy(tmp_path):
    """Every vCPU halted in its last sample: a guest waiting for an
    interrupt, not one running somewhere."""
    path = tmp_path / "System.map"
    path.write_text(SYSTEM_MAP)
    halted = REGS.replace("CPL=0 II=0 A20=1 SMM=0 HLT=0",
                          "CPL=0 II=0 A20=1 SMM=0 HLT=1")
    assert halted != REGS
    lines, busy = snapshot(lambda c, cpu: halted, path, samples=1,
                           gap_s=0.0)
    assert busy is False and len(lines) == 2


def test_snapshot_without_a_system_map(tmp_path):
    """A kernel without a System.map that names its functions: the vCPUs
    are still read, running or halted, where by address."""
    lines, busy = snapshot(lambda c, cpu: REGS, None, samples=1, gap_s=0.0)
    assert lines == [
        "+0.0 s vCPU 0: running, not named at 0xffffffff81003010",
        "+0.0 s vCPU 1: halted (idle: waiting for an interrupt)"]
    assert busy is True


def test_snapshot_outside_the_text_gives_the_address(tmp_path):
    """A vCPU running where System.map names nothing (a module, or a
    kernel whose symbols blkscale lacks) is given by its RIP, so that
    the same address in every sample shows a loop."""
    path = tmp_path / "System.map"
    path.write_text(SYSTEM_MAP)
    module = REGS.replace("RIP=ffffffff81003010", "RIP=ffffffffc0a01234")
    lines, busy = snapshot(lambda c, cpu: module, path, samples=1,
                           gap_s=0.0)
    assert lines[0] == ("+0.0 s vCPU 0: outside the kernel's text "
                        "(firmware or a module) at 0xffffffffc0a01234")
    assert busy is True
