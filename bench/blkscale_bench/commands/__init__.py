"""The bench subcommands of blkscale, a module each, with their --help
paragraphs (launcher/README.md, Adding a subcommand)."""

COMMANDS = {
    "baseline": "Write bench/baselines/<variant>.json from a finished sweep "
                "(a nightly run, normally) for the nightly to compare "
                "against; review and commit the files. Refuses partial "
                "sweeps and sweeps with runs that brought no results, "
                "unless --force.",
    "bench": "Run a sweep: every topology of a sweep file on every kernel "
             "variant, into results/<run>/<topology>/<variant>/, with "
             "results/<run>/manifest.json; prints the figures and the "
             "ratios to the reference variant. Exit status: 0 all runs ok, "
             "1 a run failed, 2 usage, 130 interrupted (manifest marked "
             "partial).",
    "nightly": "Run the nightly stress sweep and compare every figure with "
               "bench/baselines/<variant>.json under per-metric ratio "
               "thresholds; writes results/<run>/nightly.xml (JUnit) and "
               "nightly.json. Exit status: 0 pass, 1 regression or missing "
               "figure, 2 usage, 130 interrupted.",
}
