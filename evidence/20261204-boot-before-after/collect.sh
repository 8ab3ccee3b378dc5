#!/bin/bash
# Copies the rounds' sweeps from results/ into round-N here, trimmed by
# reports/tests/make_fixture.py, with each run's console.log and
# dmesg.log line counts (console-lines.json), taken before trimming.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
results=${1:-$top/results}
for i in 1 2 3; do
	src=$results/20261204-boot-before-after-$i
	[ -d "$src" ] || continue
	rm -rf "$here/round-$i"
	/usr/bin/python3 "$top/reports/tests/make_fixture.py" "$src" "$here/round-$i"
	/usr/bin/python3 - "$src" "$here/round-$i/console-lines.json" <<'PY'
import json, sys
from pathlib import Path
src = Path(sys.argv[1])
out = {}
for vdir in sorted(p.parent for p in src.glob("*/*/results.json")):
    key = f"{vdir.parent.name}/{vdir.name}"
    out[key] = {name: len((vdir / name).read_text(errors="replace")
                          .splitlines())
                for name in ("console.log", "dmesg.log")
                if (vdir / name).exists()}
Path(sys.argv[2]).write_text(json.dumps(out, indent=1) + "\n")
PY
done
