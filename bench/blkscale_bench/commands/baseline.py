"""blkscale baseline RUN_DIR: make a sweep the nightly's new baselines."""

from blkscale.results.manifest import path_in as manifest_path
from blkscale_bench import repeats
from blkscale_bench.errors import BenchError
from blkscale_bench.judging import baseline
from blkscale_bench.sweepfile import display


def add_arguments(parser):
    parser.add_argument("run_dir", metavar="RUN_DIR",
                        help="a sweep directory, results/<run>")
    parser.add_argument("--variant", action="append", metavar="NAME",
                        help="only this variant (repeatable; default: all "
                             "of the sweep)")
    parser.add_argument("--baselines", metavar="DIR",
                        default=str(baseline.DEFAULT_DIR),
                        help="where to write (default: bench/baselines)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the baseline's topologies this sweep did "
                             "not run (each records its own run)")
    parser.add_argument("--force", action="store_true",
                        help="accept a partial sweep or runs without results")


def _changes(old, new):
    """Lines saying how the figures moved, for the reviewer."""
    out = []
    old_t = (old or {}).get("topologies") or {}
    for topo, entry in new["topologies"].items():
        before = (old_t.get(topo) or {}).get("metrics") or {}
        for metric, value in entry["metrics"].items():
            prev = before.get(metric)
            if prev is None:
                out.append(f"    {topo} {metric}: new {value:g}")
            elif prev != value:
                out.append(f"    {topo} {metric}: {prev:g} -> {value:g}")
    return out


def main(args):
    manifest, docs = repeats.load(args.run_dir)
    where = display(manifest_path(args.run_dir))
    if manifest.get("status") != "complete" and not args.force:
        raise BenchError(where, "status", f"{manifest.get('status')} "
                         "sweep; a baseline needs a complete one "
                         "(--force to accept it)")
    missing = [f"{r['topology']} {r['variant']}"
               for r in manifest.get("runs") or [] if not r["results"]]
    if missing and not args.force:
        raise BenchError(where, "runs", "no results for " +
                         ", ".join(missing) + " (--force to accept)")
    # The baseline of a figure is the median of its repeats.
    figures = repeats.medians(repeats.figures(manifest, docs))
    variants = args.variant or manifest["sweep"]["variants"]
    for v in variants:
        if v not in manifest["sweep"]["variants"]:
            raise BenchError("command line", "--variant",
                             f"{v!r} is not a variant of this sweep")
    for v in variants:
        ids = baseline.series_of(docs, v, where)
        commit = baseline.series_commit(v, ids)
        new = baseline.build(manifest, figures, v, ids, commit)
        if not new["topologies"]:
            raise BenchError(where, "runs", f"no results for {v}")
        old = baseline.load(args.baselines, v)
        if args.merge:
            new = baseline.merge(old, new)
        path = baseline.write(args.baselines, new)
        print(f"{display(path)}: baseline of {v} from run "
              f"{manifest['run']}")
        if ids:
            print(f"    series: {len(ids)} patches, " + (
                f"as commit {commit[:12]} holds them" if commit else
                "in no commit of this repository: a kernel variant with "
                "series_at cannot boot it again (commit the series and "
                "make the baseline again)"))
        for line in _changes(old, new):
            print(line)
    return 0
