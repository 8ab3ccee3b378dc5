"""guest.udev without a boot: what the plan tells the guest, the kernel
options a run refuses a kernel for, and the figures the summary draws
from a results.json with udev's section.  The refusals of bad values are
in bad-topologies/udev-*.toml."""

from blkscale import topology, udevkernel
from blkscale.guestlink import planfiles
from blkscale.results import udevfigures
from launchertest import all_files, fake_runs, run_cli

UDEV_TOPOLOGY = """\
[guest]
udev = true
{extra}
[[virtio_blk]]
id = "vd"
count = 2
[null_blk]
nr_devices = 2
"""

# What systemd's README asks, as a Debian kernel has it.
COMPLETE = {o: "y" for o in udevkernel.REQUIRED}


def plan_env(tmp_path, extra=""):
    path = tmp_path / "udev.toml"
    path.write_text(UDEV_TOPOLOGY.format(extra=extra))
    topo = topology.load(path)
    return planfiles.plan_env(topo, "r", "debian")


def test_plan_tells_the_guest(tmp_path):
    env = plan_env(tmp_path, 'udev_settle_s = 45\nudev_no_by_id = ["null_blk"]')
    assert "BLKSCALE_UDEV=1\n" in env
    assert "BLKSCALE_UDEV_SETTLE_S=45\n" in env
    assert "BLKSCALE_UDEV_NO_BY_ID=null_blk\n" in env


def test_udev_is_off_by_default(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text('[[virtio_blk]]\nid = "vd"\ncount = 2\n')
    env = planfiles.plan_env(topology.load(path), "r", "stock")
    assert "BLKSCALE_UDEV=0\n" in env
    assert "BLKSCALE_UDEV_SETTLE_S" not in env


def test_missing_options_are_named():
    tiny = dict(COMPLETE, NET=None, UNIX=None, INOTIFY_USER=None)
    tiny = {k: v for k, v in tiny.items() if v}
    assert udevkernel.missing(tiny) == ["CONFIG_NET", "CONFIG_UNIX",
                                        "CONFIG_INOTIFY_USER"]
    assert udevkernel.missing(COMPLETE) == []
    assert udevkernel.missing(dict(COMPLETE, UNIX="m")) == []
    assert udevkernel.missing(dict(COMPLETE, SYSFS_DEPRECATED="y")) == [
        "CONFIG_SYSFS_DEPRECATED=n"]


def test_run_refuses_a_kernel_without_what_udevd_needs(tmp_path, fake_env,
                                                       fake_build):
    """One line naming the file, the field, the kernel and its missing
    options; exit 2, no QEMU started, no file left."""
    config = fake_build / "kernel" / "out" / "stock" / "config"
    tiny = {k: v for k, v in COMPLETE.items()
            if k not in ("NET", "UNIX", "INOTIFY_USER")}
    config.write_text("".join(f"CONFIG_{k}={v}\n" for k, v in tiny.items())
                      + "# CONFIG_NET is not set\n")
    topo = tmp_path / "udev.toml"
    topo.write_text(UDEV_TOPOLOGY.format(extra=""))
    before = all_files(tmp_path)
    out = run_cli("run", topo, "--variant", "stock", "--accel", "tcg",
                  "--results-dir", tmp_path / "results", env=fake_env)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr == (f"{topo}: guest.udev: the stock kernel cannot run "
                          "systemd-udevd: it lacks CONFIG_NET, CONFIG_UNIX, "
                          "CONFIG_INOTIFY_USER\n")
    assert fake_runs(fake_env) == []
    assert all_files(tmp_path) == before


def test_run_passes_a_kernel_with_them(tmp_path, fake_env, fake_build):
    """The same run on a kernel with every option gets past the check
    (the fake QEMU then fails it for other reasons)."""
    config = fake_build / "kernel" / "out" / "stock" / "config"
    config.write_text("".join(f"CONFIG_{k}=y\n" for k in COMPLETE))
    topo = tmp_path / "udev.toml"
    topo.write_text(UDEV_TOPOLOGY.format(extra=""))
    out = run_cli("run", topo, "--variant", "stock", "--accel", "tcg",
                  "--dry-run", env=fake_env)
    assert "systemd-udevd" not in out.stderr


def results_with_udev(without_by_id=0):
    return {
        "disks": {"found": {"total": 4}},
        "census": {"links": {"disks_with_by_id": 4 - without_by_id,
                             "disks_without_by_id": without_by_id,
                             "disks_excused": 0, "disks_with_by_path": 4}},
        "udev": {"package": "udev 252.39-1~deb12u2", "coldplug": "live",
                 "settle_exit": 0, "settled_s": 13.0,
                 "cpu": {"hz": 100, "udevd_and_workers_ticks": 20},
                 "disk_latency_ms": {"median": 30.0, "p90": 50.0,
                                     "max": 70.0},
                 "monitor": {"kernel_events": 40, "udev_events": 40,
                             "last_disk_kernel_s": 10.25,
                             "last_udev_s": 12.5},
                 "log": {"worker_slow": 0, "worker_killed": 0,
                         "rule_failures": 1}},
    }


def test_figures_of_a_run_with_udev():
    fig = udevfigures.of(results_with_udev(without_by_id=1))
    assert fig["settle_after_last_disk_s"] == 2.25
    assert fig["cpu_ms_per_disk"] == 50.0      # 0.2 s over 4 disks
    assert fig["disks_without_by_id"] == 1
    assert "2.25 s after the last disk" in udevfigures.line(fig)
    assert "by-id 3 disks, 1 without" in udevfigures.links_line(fig)
    assert "rule failures 1" in udevfigures.links_line(fig)


def test_dropped_uevents_are_named():
    doc = results_with_udev()
    assert "dropped" not in udevfigures.line(udevfigures.of(doc))
    doc["udev"]["udevd_uevent_drops"] = 2803
    fig = udevfigures.of(doc)
    assert fig["udevd_uevent_drops"] == 2803
    assert "udevd's uevent socket dropped 2803 events" in \
        udevfigures.line(fig)


def test_no_settle_figure_when_settle_timed_out():
    doc = results_with_udev()
    doc["udev"]["settle_exit"] = 1
    assert udevfigures.of(doc)["settle_after_last_disk_s"] is None


def test_no_figures_without_udev():
    assert udevfigures.of({"disks": {"found": {"total": 4}}}) is None
