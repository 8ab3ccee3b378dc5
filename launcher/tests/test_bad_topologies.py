"""Every file in bad-topologies/ is refused with exactly its one line.

The first line of each file is `# expect: FIELD: PROBLEM`; the CLI must
print `PATH: FIELD: PROBLEM` on stderr and nothing else, exit with status
2, start no QEMU and leave no file behind.  `run` is checked on every
file, `validate` on all of them at once, `plan` and `run --dry-run` on one
file per kind of check (syntax, schema, cross-field, feasibility).
"""

import pytest

from launchertest import HERE, REPO, all_files, fake_runs, run_cli

BAD = HERE / "bad-topologies"
CASES = sorted(p.name for p in BAD.glob("*.toml"))
ONE_PER_KIND = ["syntax-error.toml", "string-for-integer.toml",
                "fio-verify-on-null.toml", "pci-full.toml", "memory-too-small.toml"]


def rel(name):
    return (BAD / name).relative_to(REPO)


def expected_line(name):
    first = (BAD / name).read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{name}: no '# expect:' line"
    return f"{rel(name)}: {first[len('# expect: '):]}\n"


def check_refused(args, expected, tmp_path, env):
    before = all_files(tmp_path)
    out = run_cli(*args, env=env)
    assert out.returncode == 2, out.stderr
    assert out.stderr == expected
    assert out.stdout == ""
    assert fake_runs(env) == [], "QEMU was started"
    assert all_files(tmp_path) == before, "files were created"


def test_corpus_is_not_empty():
    assert len(CASES) >= 30
    assert set(ONE_PER_KIND) <= set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_run_refuses(name, tmp_path, fake_env):
    check_refused(["run", rel(name), "--accel", "tcg", "--results-dir",
                   tmp_path / "results"], expected_line(name), tmp_path,
                  fake_env)


@pytest.mark.parametrize("name", ONE_PER_KIND)
@pytest.mark.parametrize("command", [["plan"], ["run", "--dry-run"]])
def test_other_commands_refuse(name, command, tmp_path, fake_env):
    check_refused([command[0], rel(name), *command[1:]], expected_line(name),
                  tmp_path, fake_env)


def test_validate_reports_every_file(tmp_path, fake_env):
    before = all_files(tmp_path)
    out = run_cli("validate", *[rel(n) for n in CASES], env=fake_env)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.splitlines(keepends=True) == [expected_line(n)
                                                    for n in CASES]
    assert all_files(tmp_path) == before
