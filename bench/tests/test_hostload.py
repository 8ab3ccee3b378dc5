"""Host load around a run: load average, steal and the run's own CPU
time; a run is marked loaded when the rest of the host used the CPU."""

from blkscale.figures import hostload


def _stat(tmp_path, name, user, system, idle, steal):
    path = tmp_path / name
    path.write_text(f"cpu  {user} 0 {system} {idle} 0 0 0 {steal} 0 0\n"
                    "cpu0 1 2 3 4 5 6 7 8 0 0\n")
    return path


def _sample(tmp_path, name, ticks, load, cpu_s, at):
    stat = _stat(tmp_path, f"{name}.stat", *ticks)
    avg = tmp_path / f"{name}.loadavg"
    avg.write_text(f"{load} 0.50 0.25 1/100 42\n")
    s = hostload.sample(str(stat), str(avg))
    s["children_cpu_s"], s["monotonic"] = cpu_s, at
    return s


def test_idle_host_is_not_loaded(tmp_path):
    # 100 s on 2 CPUs at 100 Hz; the run used 90 of the 100 busy seconds.
    before = _sample(tmp_path, "a", (0, 0, 0, 0), 0.1, 10.0, 0.0)
    after = _sample(tmp_path, "b", (8000, 2000, 10000, 0), 1.9, 100.0,
                    100.0)
    load = hostload.summarise(before, after, cpus=2, hz=100)
    assert load["loadavg_before"] == [0.1, 0.5, 0.25]
    assert load["loadavg_after"] == [1.9, 0.5, 0.25]
    assert load["run_cpu_s"] == 90.0
    assert load["others_cpu_share"] == 0.05 and load["steal_share"] == 0.0
    assert load["loaded"] is False
    assert hostload.mark({"host_load": load}) == ""


def test_busy_or_stolen_host_is_loaded(tmp_path):
    before = _sample(tmp_path, "a", (0, 0, 0, 0), 2.0, 0.0, 0.0)
    # Busy 150 of 200 CPU-seconds, the run only 60 of them.
    after = _sample(tmp_path, "b", (12000, 3000, 5000, 0), 3.0, 60.0,
                    100.0)
    load = hostload.summarise(before, after, cpus=2, hz=100)
    assert load["others_cpu_share"] == 0.45 and load["loaded"] is True
    assert hostload.mark({"host_load": load}) == \
        "loaded host: other work used 45% of the host's CPU"
    after = _sample(tmp_path, "c", (9000, 0, 9000, 2000), 3.0, 90.0, 100.0)
    load = hostload.summarise(before, after, cpus=2, hz=100)
    assert load["steal_share"] == 0.1 and load["loaded"] is True


def test_short_run_is_not_judged(tmp_path):
    before = _sample(tmp_path, "a", (0, 0, 0, 0), 0.1, 0.0, 0.0)
    after = _sample(tmp_path, "b", (100, 100, 0, 0), 0.1, 0.0, 1.0)
    assert hostload.summarise(before, after, cpus=2, hz=100)["loaded"] \
        is None


def test_table_lists_runs_on_a_loaded_host():
    from blkscale_bench import table
    load = {"loaded": True, "others_cpu_share": 0.8, "steal_share": 0.0}
    manifest = {"run": "r", "status": "complete",
                "sweep": {"topologies": {}, "variants": ["stock"],
                          "repeat": 2},
                "runs": [{"topology": "t", "variant": "stock", "repeat": 1,
                          "outcome": "ok", "host_load": None},
                         {"topology": "t", "variant": "stock", "repeat": 2,
                          "outcome": "ok", "host_load": load}]}
    lines = table.lines(manifest, {})
    assert "t stock #2: loaded host: other work used 80% of the host's " \
        "CPU; its figures may be slow" in lines
    assert not any("#1" in ln for ln in lines)
