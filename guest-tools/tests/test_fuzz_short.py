"""A short fuzz of the helper module on the patched kernel, in make test.

20,000 randomized ioctls from several threads through `./blkscale run`
(selftest first, then the fuzz step), checked as the nightly run on the
debug kernel is, without kmemleak.  It also shows that an unregister
whose results cannot be written is refused before the major is let go:
the fuzzer counts such refusals and checks each one.  The module's
fault injection fails every re-registration after a wrong-name unregister
with ENOMEM: the module must keep such majors, and the closing phase
(every file closed, rmmod, insmod, a node of every major ever held
opened) must find nothing registered that calls into the unloaded module.
About 15 s under TCG.  Needs `make kernel initramfs`; skipped without.
"""

import fuzzrun

TOPOLOGY = """\
description = "2 virtio-blk disks; selftest, then 20,000 fuzzed ioctls"

[guest]
vcpus = 2
memory_mib = 1024
variants = ["patched"]

[timeouts]
boot_s = 120
run_s = 300
hang_s = 60

[[virtio_blk]]
id = "vblk"
count = 2
size_mib = 64
backing = "null"

[plan]
steps = ["selftest", "fuzz"]
settle_s = 30

[plan.args]
fuzz = "--calls 20000 --seed 1 --inject-enomem"
"""


def test_short_fuzz_on_patched_kernel(tmp_path):
    topo = tmp_path / "fuzz-short.toml"
    topo.write_text(TOPOLOGY)
    doc, console, output = fuzzrun.run(topo, "patched", tmp_path,
                                       timeout=900)
    fuzz = fuzzrun.check(doc, console, output, 20_000)
    kept = fuzz["efault_unregister_kept"]
    assert kept["unregister"] + kept["batch"] > 0, kept
    assert doc["outcome"]["status"] == 0, doc["outcome"]
