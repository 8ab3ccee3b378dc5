"""The bench subcommands of blkscale, a module each, with their --help
paragraphs (launcher/README.md, Adding a subcommand)."""

from blkscale.results.manifest import FILENAME as MANIFEST

COMMANDS = {
    "baseline": "Write bench/baselines/<variant>.json from a finished sweep "
                "(a nightly run, normally) for the nightly to compare "
                "against; review and commit the files. Refuses partial "
                "sweeps and sweeps with runs that brought no results, "
                "unless --force.",
    "bench": "Run a sweep: every topology of a sweep file on every kernel "
             "variant, into results/<run>/<topology>/<variant>/, with "
             f"results/<run>/{MANIFEST}; prints the figures and the "
             "ratios to the reference variant. Exit status: 0 all runs ok "
             "and every goal passed, 1 a run or a goal failed, 3 a goal "
             "undecided and nothing failed, 2 usage, 130 interrupted "
             "(manifest marked partial).",
    "night": "Run the nightly by parts (gated, every-disk, bootcurve, sim, "
             "kernels, guest-tests), resumable: a night interrupted "
             "continues where it stopped, keeping each finished part's "
             "verdict (results/nightly-<night>/parts.json); --weekly: the "
             "weekly night (multipath), results/weekly-<night>. Exit status: "
             "0 PASS (every part ran and passed), 1 REGRESSION (a part "
             "failed), 3 INCONCLUSIVE (a part undecided), 4 UNFINISHED "
             "(parts still to run), 2 usage, 130 interrupted.",
    "nightly": "Run the nightly stress sweep and compare every figure with "
               "bench/baselines/<variant>.json under per-metric ratio "
               "thresholds; writes results/<run>/nightly.xml (JUnit) and "
               "nightly.json. Exit status: 0 PASS, 1 REGRESSION (a run that "
               "failed or is missing, a wrong count, a figure beyond its "
               "limit or missing), 3 INCONCLUSIVE (a gating time the "
               "repeats could not decide, nothing failed), 2 usage, 130 "
               "interrupted.",
}
