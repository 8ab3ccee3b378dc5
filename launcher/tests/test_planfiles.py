"""plan.env, disk-groups, fio.job, fio-disks and lvm-disks as the guest's
/init and steps read them."""

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
delay = 0
params = { opts = "0x10", virtual_gb = 1 }
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


def test_fio_job_is_the_global_section(tmp_path):
    p = planned(tmp_path)
    job = planfiles.fio_job(p.topo)
    assert "verify=crc32c" in job
    assert "thread" in job.splitlines()
    assert "disk_util=0" in job.splitlines()
    assert "size=16m" in job.splitlines()
    jobs = [line for line in job.splitlines() if line.startswith("[")]
    assert jobs == ["[global]"]
    assert "filename=" not in job


def test_fio_spread_puts_io_anywhere_on_the_disk(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TOPO.replace("[plan.fio]\n",
                                 "[plan.fio]\nspread = true\n"))
    p = topology.prepare(path)
    lines = planfiles.fio_job(p.topo).splitlines()
    assert "size=100%" in lines and "io_size=16m" in lines


def test_fio_disks_by_serial(tmp_path):
    p = planned(tmp_path)
    assert planfiles.fio_disks(p.topo) == "data-0\ndata-1\ndata-2\nmore-0\n"
    names = p.layout.blk_names()
    assert planfiles.fio_disk_map(p.topo, names)["data-1"] == \
        ("data", 1, "vdb")


def test_fio_on_scsi_disks(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(TOPO.replace("[plan.fio]\ndisks = 4",
                                 '[plan.fio]\ngroups = ["s"]\ndisks = 100'))
    p = topology.prepare(path)
    # every disk of the group, however many were asked for
    assert planfiles.fio_disks(p.topo).split() == [f"s-{i}" for i in range(6)]
    assert planfiles.fio_disk_map(p.topo, p.layout.blk_names())["s-5"] == \
        ("s", 5, None)
    env = planfiles.plan_env(p.topo, "r", "stock")
    assert "BLKSCALE_FIO_BATCH=256" in env


def test_lvm_disks(tmp_path):
    p = planned(tmp_path)
    assert planfiles.lvm_disks(p.topo) == \
        "data-0\ndata-1\ndata-2\nmore-0\nmore-1\n"


def test_nonce_is_the_runs(tmp_path):
    p = planned(tmp_path)
    names = ["BLKSCALE_SIGNATURE_NONCE"]
    one = sourced(planfiles.plan_env(p.topo, "r1", "stock"), tmp_path, names)
    again = sourced(planfiles.plan_env(p.topo, "r1", "stock"), tmp_path,
                    names)
    other = sourced(planfiles.plan_env(p.topo, "r2", "stock"), tmp_path,
                    names)
    patched = sourced(planfiles.plan_env(p.topo, "r1", "patched"), tmp_path,
                      names)
    assert one == again
    assert len({one[names[0]], other[names[0]], patched[names[0]]}) == 3


def test_archive_holds_the_plan_files(tmp_path):
    p = planned(tmp_path)
    data = planfiles.plan_archive(p.topo, p.layout, "r", "stock")
    listing = subprocess.run(["cpio", "-t", "--quiet"], input=data,
                             capture_output=True, check=True).stdout.decode()
    assert listing.split() == ["etc", "etc/blkscale", "etc/blkscale/plan.env",
                               "etc/blkscale/disk-groups",
                               "etc/blkscale/fio.job",
                               "etc/blkscale/fio-disks",
                               "etc/blkscale/lvm-disks"]
