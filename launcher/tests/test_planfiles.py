"""plan.env, fio.job and lvm-disks as the guest's /init reads them."""

import shutil
import subprocess

from blkscale import topology
from blkscale.guestlink import planfiles

TOPO = """
[[virtio_blk]]
id = "data"
count = 3
size_mib = 128
backing = "sparse"
[[virtio_blk]]
id = "more"
count = 2
backing = "slice"
[[virtio_scsi]]
id = "s"
targets = 2
luns = 3
[scsi_debug]
add_host = 2
max_luns = 4
params = { delay = 0, opts = "0x10", virtual_gb = 1 }
[null_blk]
nr_devices = 3
[plan]
steps = ["census", "fio", "lvm"]
settle_s = 7
[plan.args]
census = "--expect 'it''s' \\"all\\" $HOME"
[plan.fio]
disks = 4
[plan.lvm]
disks = 5
"""


def planned(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TOPO)
    return topology.prepare(path)


def sourced(env_text, tmp_path, names):
    """Values as a child of busybox sh sees them after sourcing the file."""
    path = tmp_path / "plan.env"
    path.write_text(env_text)
    script = f". {path}; sh -c '" + "; ".join(
        f'printf "%s\\n" "${n}"' for n in names) + "'"
    # The guest sources it with busybox sh.
    shell = ["busybox", "sh"] if shutil.which("busybox") else ["sh"]
    out = subprocess.run([*shell, "-c", script], capture_output=True,
                         text=True, check=True, env={})
    return dict(zip(names, out.stdout.split("\n")))


def test_plan_env(tmp_path):
    p = planned(tmp_path)
    text = planfiles.plan_env(p.topo, "run-1", "patched")
    names = ["BLKSCALE_PROTOCOL", "BLKSCALE_RUN", "BLKSCALE_VARIANT",
             "BLKSCALE_STEPS", "BLKSCALE_EXPECT_VIRTIO",
             "BLKSCALE_EXPECT_SCSI", "BLKSCALE_EXPECT_SIM",
             "BLKSCALE_MODPROBE", "BLKSCALE_SETTLE_S",
             "BLKSCALE_STEP_ARGS_census"]
    values = sourced(text, tmp_path, names)
    assert values == {
        "BLKSCALE_PROTOCOL": "1", "BLKSCALE_RUN": "run-1",
        "BLKSCALE_VARIANT": "patched", "BLKSCALE_STEPS": "census fio lvm",
        "BLKSCALE_EXPECT_VIRTIO": "5", "BLKSCALE_EXPECT_SCSI": "6",
        "BLKSCALE_EXPECT_SIM": "11",
        "BLKSCALE_MODPROBE": "scsi_debug add_host=2 num_tgts=1 max_luns=4 "
                             "dev_size_mb=8 delay=0 opts=0x10 virtual_gb=1;"
                             "null_blk nr_devices=3 gb=1",
        "BLKSCALE_SETTLE_S": "7",
        "BLKSCALE_STEP_ARGS_census": "--expect 'it''s' \"all\" $HOME",
    }


def test_fio_job_uses_predicted_names(tmp_path):
    p = planned(tmp_path)
    job = planfiles.fio_job(p.topo, p.layout.blk_names())
    assert "verify=crc32c" in job
    jobs = [line for line in job.splitlines() if line.startswith("[")]
    assert jobs == ["[global]", "[data-0]", "[data-1]", "[data-2]",
                    "[more-0]"]
    files = [line for line in job.splitlines()
             if line.startswith("filename=")]
    assert files == ["filename=/dev/vda", "filename=/dev/vdb",
                     "filename=/dev/vdc", "filename=/dev/vdd"]


def test_lvm_disks(tmp_path):
    p = planned(tmp_path)
    assert planfiles.lvm_disks(p.topo, p.layout.blk_names()) == \
        "/dev/vda\n/dev/vdb\n/dev/vdc\n/dev/vdd\n/dev/vde\n"


def test_archive_holds_the_three_files(tmp_path):
    p = planned(tmp_path)
    data = planfiles.plan_archive(p.topo, p.layout, "r", "stock")
    listing = subprocess.run(["cpio", "-t", "--quiet"], input=data,
                             capture_output=True, check=True).stdout.decode()
    assert listing.split() == ["etc", "etc/blkscale", "etc/blkscale/plan.env",
                               "etc/blkscale/fio.job",
                               "etc/blkscale/lvm-disks"]
