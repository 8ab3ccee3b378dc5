#!/usr/bin/python3
"""The table of README.md from the rounds kept here (or from results/).

    evidence/20261204-clock-console/summarize.py [DIR...]

Each DIR is one round's sweep (manifest.json and its results.json files);
by default the round-* directories beside this file.  Per setting and
variant: boot to census (the guest's census_complete_s), the run's CPU
time (host_load.run_cpu_s: QEMU and the launcher, which load from other
work on the host does not inflate as it does elapsed time), each as
median [min-max] over the rounds, the ratio to the old setting taken
round by round, the clocksource the guest reported, the clock floors
(median of the empty timed region, user space and kernel) and the
console.log lines, with every run's host load.
"""

import json
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Ratios are taken against these, in the same round: the old setting,
# and the new one (for scsi_debug's delay).
REFERENCES = ("sim4096-before", "sim4096-after")


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    return (f"{statistics.median(values):.2f} [{min(values):.2f}-"
            f"{max(values):.2f}]")


def runs_of(round_dir):
    manifest = json.loads((round_dir / "manifest.json").read_text())
    for run in manifest["runs"]:
        vdir = round_dir / run["topology"] / run["variant"]
        doc = json.loads((vdir / "results.json").read_text())
        console = vdir / "console.log"
        lines = (len(console.read_text(errors="replace").splitlines())
                 if console.exists() else None)
        guest = doc.get("guest") or {}
        user = (guest.get("clock_empty_user_ns") or {}).get("median")
        kernel = ((doc.get("majors") or {}).get("clock_empty_kernel_ns")
                  or {}).get("median")
        yield {"round": round_dir.name, "topology": run["topology"],
               "variant": run["variant"],
               "census_s": doc["boot"]["census_complete_s"],
               "cpu_s": run["host_load"].get("run_cpu_s"),
               "others": run["host_load"].get("others_cpu_share"),
               "loaded": run["host_load"].get("loaded"),
               "clocksource": guest.get("clocksource"),
               "console": doc["host"].get("console"),
               "user_floor_ns": user, "kernel_floor_ns": kernel,
               "console_lines": lines}


def main(dirs):
    rounds = [Path(d) for d in dirs] or sorted(HERE.glob("round-*"))
    runs = [r for d in rounds for r in runs_of(d)]
    keys = list(dict.fromkeys((r["topology"], r["variant"]) for r in runs))
    print("setting / variant: census s, run CPU s, each median [min-max]; "
          "ratios to the old and the new setting, paired by round; "
          "clocksource; floors ns "
          "(user, kernel); console.log lines")
    for topo, variant in keys:
        mine = [r for r in runs if (r["topology"], r["variant"]) ==
                (topo, variant)]
        paired = ""
        for ref in REFERENCES:
            # the reference with the same number of vCPUs
            if topo.endswith("-1cpu"):
                ref += "-1cpu"
            ratios, cpu_ratios = [], []
            for r in mine:
                base = [b for b in runs if b["round"] == r["round"] and
                        b["variant"] == variant and b["topology"] == ref]
                if base and r["census_s"] and base[0]["census_s"]:
                    ratios.append(r["census_s"] / base[0]["census_s"])
                    cpu_ratios.append(r["cpu_s"] / base[0]["cpu_s"])
            if ratios and ref != topo:
                paired += (f"; /{ref} census {spread(ratios)}, CPU "
                           f"{spread(cpu_ratios)}")
        census = spread([r["census_s"] for r in mine])
        print(f"{topo} {variant}: census {census}"
              f" s, CPU {spread([r['cpu_s'] for r in mine])} s{paired}; "
              f"{sorted({str(r['clocksource']) for r in mine})}; floors "
              f"{spread([r['user_floor_ns'] for r in mine])}, "
              f"{spread([r['kernel_floor_ns'] for r in mine])}; lines "
              f"{spread([r['console_lines'] for r in mine])}")
    print("host load per run (others' share of the CPU, loaded):")
    for r in runs:
        print(f"  {r['round']} {r['topology']} {r['variant']}: census "
              f"{r['census_s']} s, others {r['others']}, loaded {r['loaded']}")


if __name__ == "__main__":
    main(sys.argv[1:])
