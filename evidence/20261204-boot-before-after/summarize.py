#!/usr/bin/python3
"""The tables of README.md from the rounds kept here.

    PYTHONPATH=launcher evidence/20261204-boot-before-after/summarize.py

Each round-N directory is one sweep (manifest.json and its trimmed
results.json files, plus console-lines.json: each run's console.log and
dmesg.log line counts, taken before trimming).  Per topology and kernel:
boot to census (census_complete_s) before and after, median [min-max]
over the rounds, and after/before as a ratio taken round by round
(blkscale.figures.stats: with three rounds the bounds are min and max,
which hold the median ratio with 75% probability); then patched/stock
after the change, also round by round; then every run's host load.
"""

import json
import sys
from pathlib import Path

from blkscale.figures import stats

HERE = Path(__file__).resolve().parent
TOPOLOGIES = ("default", "oracle-4000", "ibm-5000", "sim-4096", "sim-16384")
KERNELS = ("stock", "patched")


def runs(rounds):
    out = []
    for rd in rounds:
        manifest = json.loads((rd / "manifest.json").read_text())
        lines_path = rd / "console-lines.json"
        lines = json.loads(lines_path.read_text()) if lines_path.exists() \
            else {}
        for run in manifest["runs"]:
            key = f"{run['topology']}/{run['variant']}"
            doc = json.loads((rd / key / "results.json").read_text())
            topo, _, setting = run["topology"].rpartition("-")
            load = run.get("host_load") or {}
            out.append({"round": rd.name, "topology": topo,
                        "setting": setting, "variant": run["variant"],
                        "outcome": run["outcome"],
                        "census_s": doc["boot"]["census_complete_s"],
                        "disks": doc["disks"]["found"]["total"],
                        "clocksource": (doc.get("guest") or {})
                        .get("clocksource"),
                        "console": doc["host"].get("console"),
                        "vcpus": doc["host"].get("vcpus"),
                        "others": load.get("others_cpu_share"),
                        "loaded": load.get("loaded"),
                        "lines": lines.get(key)})
    return out


def values(rs, topo, setting, variant):
    return {r["round"]: r["census_s"] for r in rs
            if (r["topology"], r["setting"], r["variant"]) ==
            (topo, setting, variant) and r["census_s"] is not None}


def _lines(counts):
    counts = counts or {}
    return "/".join(str(counts.get(n, "-"))
                    for n in ("console.log", "dmesg.log"))


def fmt(x):
    return f"{x:.2f}"


def main(dirs):
    rounds = [Path(d) for d in dirs] or sorted(HERE.glob("round-*"))
    rs = runs(rounds)
    print(f"{len(rounds)} rounds, {len(rs)} runs; failed: "
          f"{[r for r in rs if r['outcome'] != 'ok'] or 'none'}")
    print()
    print("| topology | kernel | before, s | after, s | after / before |")
    print("| --- | --- | --- | --- | --- |")
    for topo in TOPOLOGIES:
        for v in KERNELS:
            before = stats.summarise(values(rs, topo, "before", v))
            after = stats.summarise(values(rs, topo, "after", v))
            print(f"| {topo} | {v} | {before.text(fmt)} | {after.text(fmt)}"
                  f" | {stats.ratio_text(stats.paired_ratio(after, before))}"
                  " |")
    print()
    print("| topology | patched / stock before | patched / stock after |")
    print("| --- | --- | --- |")
    for topo in TOPOLOGIES:
        cells = [stats.ratio_text(stats.paired_ratio(
            values(rs, topo, s, "patched"), values(rs, topo, s, "stock")))
            for s in ("before", "after")]
        print(f"| {topo} | {cells[0]} | {cells[1]} |")
    print()
    print("every run: round, topology-setting, kernel, census s, disks, "
          "clocksource, console, vCPUs, console.log/dmesg.log lines, "
          "others' CPU share, loaded")
    for r in rs:
        print(f"  {r['round']} {r['topology']}-{r['setting']} {r['variant']}:"
              f" {r['census_s']} s, {r['disks']} disks, {r['clocksource']},"
              f" {r['console']}, {r['vcpus']} vCPUs, lines {_lines(r['lines'])},"
              f" others {r['others']}, loaded {r['loaded']}")


if __name__ == "__main__":
    main(sys.argv[1:])
