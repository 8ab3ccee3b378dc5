"""Bad [[series]] and [[goals]] are refused with one line naming the
sweep file and the field, before anything runs."""

import pytest

CASES = [
    ('[[series]]\nname = "s"\ntopologies = ["{t}/small.toml"]\n'
     'before = ["{t}/big.toml"]\nafter = ["{t}/big.toml"]\n',
     "series[0]: needs either topologies, or before and after"),
    ('[[series]]\nname = "s"\nbefore = ["{t}/small.toml"]\n',
     "series[0].after: must be a non-empty array of topology names"),
    ('[[series]]\nname = "S s"\ntopologies = ["{t}/small.toml"]\n',
     "series[0].name: 'S s': use a-z, 0-9, _ and -"),
    ('[[series]]\nname = "s"\ntopologies = ["{t}/small.toml"]\n'
     'colour = "red"\n',
     "series[0].colour: unknown key"),
    ('[[series]]\nname = "s"\ntopologies = ["{t}/small.toml"]\n'
     'before_label = "x"\n',
     "series[0].before_label: only with before and after"),
    ('[[series]]\nname = "s"\ntopologies = ["{t}/small.toml", '
     '"{t}/small.toml"]\n',
     "series[0].topologies: lists a topology twice"),
    ('[[series]]\nname = "s"\ntopologies = ["{t}/nope.toml"]\n',
     "series[0].topologies[0]: topology"),
    ('[[series]]\nname = "s"\ntopologies = ["{t}/small.toml"]\n'
     '[[series]]\nname = "s"\ntopologies = ["{t}/big.toml"]\n',
     "series[1].name: two series named s"),
    ('[[goals]]\nname = "g"\nfigure = "boot_s"\ntopology = "small"\n'
     'max = 1\n',
     "goals[0].figure: must be one of boot_to_census_s, qemu_start_s, "
     "marginal_growth, marginal_cost_ms; got 'boot_s'"),
    ('[[goals]]\nname = "g"\nfigure = "qemu_start_s"\ntopology = "huge"\n'
     'max = 1\n',
     "goals[0].topology: 'huge' is not a topology of this sweep"),
    ('[[goals]]\nname = "g"\nfigure = "marginal_growth"\nseries = "x"\n'
     'max = 1\n',
     "goals[0].series: 'x' is not a series of this sweep"),
    ('[[goals]]\nname = "g"\nfigure = "per_disk_growth"\nseries = "x"\n'
     'max = 1\n',
     "goals[0].figure: must be one of boot_to_census_s, qemu_start_s, "
     "marginal_growth, marginal_cost_ms; got 'per_disk_growth'"),
    ('[[goals]]\nname = "g"\nfigure = "qemu_start_s"\ntopology = "small"\n'
     'max = -1\n',
     "goals[0].max: must be a positive number"),
    ('[[goals]]\nname = "g"\nfigure = "qemu_start_s"\ntopology = "small"\n'
     'series = "x"\nmax = 1\n',
     "goals[0].series: qemu_start_s is a figure of a topology"),
]


@pytest.mark.parametrize("extra, message", CASES)
def test_bad_series_or_goal(bench_env, extra, message):
    sweep = bench_env.write_sweep("bad", ["small", "big"],
                                  extra.format(t=bench_env.topos))
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"{sweep}: {message}"), lines[0]
    assert not bench_env.results.exists()
    assert bench_env.calls() == []


def test_series_alone_makes_the_run_list(bench_env):
    """Without `topologies`, the series' topologies are the runs."""
    sweep = bench_env.tmp / "only.toml"
    sweep.write_text(f'variants = ["patched"]\n[[series]]\nname = "s"\n'
                     f'topologies = ["{bench_env.topos}/big.toml", '
                     f'"{bench_env.topos}/small.toml"]\n')
    out = bench_env.run("bench", sweep=sweep)
    assert out.returncode == 0, out.stderr
    assert [r["topology"] for r in bench_env.manifest()["runs"]] == \
        ["big", "small"]
