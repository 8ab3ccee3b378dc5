"""The selftest's leak check catches a leak of 16 bytes per registration.

The helper module's test-only knob leak_per_register makes every
registration leak 16 bytes (the smallest kmalloc object) during the leak
test (`blkscale-selftest --only leak --inject-leak 16`); the check's
tolerance, half of what such a leak adds over the test's registrations,
must not hide it.  The same test without the knob passes in every other
selftest run (test_fuzz_short.py, the ci-small boot test).  About 30 s
under TCG.  Needs `make kernel initramfs`; skipped without.
"""

import fuzzrun

TOPOLOGY = """\
description = "1 virtio-blk disk; the selftest's leak test with a leak injected"

[guest]
vcpus = 2
memory_mib = 512

[timeouts]
boot_s = 120
run_s = 300
hang_s = 60

[[virtio_blk]]
id = "vblk"
count = 1
size_mib = 64
backing = "null"

[plan]
steps = ["selftest"]
settle_s = 30

[plan.args]
selftest = "--only leak --inject-leak 16"
"""


def test_injected_leak_fails_the_leak_test(tmp_path):
    topo = tmp_path / "leak.toml"
    topo.write_text(TOPOLOGY)
    doc, console, output = fuzzrun.run(topo, "patched", tmp_path,
                                       timeout=900)
    assert doc is not None, f"no results.json: {output}\n" \
        f"{fuzzrun.post_mortem(console)}"
    tests = {t["name"]: t for t in doc["selftest"]["tests"]}
    assert list(tests) == ["leak"], tests
    leak = tests["leak"]
    assert leak["status"] == "fail", leak
    assert "Slab grew" in leak["detail"] and "leak injected" in \
        leak["detail"], leak
