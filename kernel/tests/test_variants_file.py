"""kernel/variants.toml and its one reader (`blkscale variants`): the
shipped variants as declared, and each kind of bad file refused in one
line that names the file and the field, with exit status 2."""
import os
import pathlib
import re
import subprocess

import pytest

TOP = pathlib.Path(__file__).resolve().parents[2]
BLKSCALE = TOP / "blkscale"

GOOD = '''
[[variant]]
name = "stock"
base = "linux-source-6.1"
config = ["kernel/configs/blkscale.config"]

[[variant]]
name = "distro"
base = "linux-image-amd64"
config = "distro"
modules = "package"
'''


def variants(*args):
    return subprocess.run([str(BLKSCALE), "variants", *args],
                          capture_output=True, text=True, timeout=60)


def write(tmp_path, text):
    path = tmp_path / "variants.toml"
    path.write_text(text)
    return path


def shell(name, file=None):
    out = variants(*(["--file", str(file)] if file else []), "--shell", name)
    assert out.returncode == 0, out.stderr
    return dict(line.split("=", 1) for line in out.stdout.splitlines())


def test_shipped_variants_are_declared():
    out = variants()
    assert out.returncode == 0, out.stderr
    names = [line.split()[0] for line in out.stdout.splitlines()[1:]]
    for name in ("stock", "patched", "stock-6.12", "patched-6.12", "debian"):
        assert name in names


def test_shipped_variants_say_what_they_are_made_of():
    assert shell("stock")["VARIANT_BASE"] == "linux-source-6.1"
    assert shell("patched")["VARIANT_PATCHES"] == "kernel/patches"
    six = shell("patched-6.12")
    assert six["VARIANT_BASE_VERSION"] == "6.12"
    assert six["VARIANT_PATCHES"] == "kernel/patches/6.12"
    debian = shell("debian")
    assert debian["VARIANT_KIND"] == "prebuilt"
    assert debian["VARIANT_BASE"] == "linux-image-amd64"
    assert debian["VARIANT_HEADERS"] == "linux-headers-amd64"


def test_the_baselines_kernel_applies_the_series_its_baseline_names():
    """patched-baseline: kernel/patches at the commit the patched
    baseline records, in a tree of its own, rebuilt when the baseline
    changes (bench/sweeps/nightly-gated.toml boots it)."""
    v = shell("patched-baseline")
    assert v["VARIANT_PATCHES"] == "kernel/patches"
    assert v["VARIANT_TREE"] == "patched-baseline"
    assert len(v["VARIANT_PATCHES_COMMIT"]) == 40
    assert shell("patched")["VARIANT_PATCHES_COMMIT"] == "''"
    out = variants("--make")
    deps = dict(line.split(" := ", 1) for line in out.stdout.splitlines()
                if " := " in line)["KERNEL_DEPS_patched-baseline"].split()
    assert "bench/baselines/patched.json" in deps
    assert "kernel/patches/series" not in deps


def test_variants_of_one_base_and_series_share_a_tree():
    assert shell("debug")["VARIANT_TREE"] == "patched"
    assert shell("patched-blktests")["VARIANT_TREE"] == "patched"
    assert shell("stock-6.12-blktests")["VARIANT_TREE"] == "stock-6.12"
    config = shell("stock-6.12-blktests")["VARIANT_CONFIG"].strip("'").split()
    assert config[-2:] == ["kernel/configs/blktests.config",
                           "kernel/configs/blktests-6.12.config"]
    six_one = shell("stock-blktests")["VARIANT_CONFIG"].strip("'").split()
    assert six_one[-1] == "kernel/configs/blktests.config"


def test_debian_config_variants_say_where_their_config_comes_from():
    """stock-dcfg and patched-dcfg: Debian's config of linux-image-amd64,
    trimmed by localmodconfig to a committed module list, in the stock
    and patched trees; rebuilt when the list changes."""
    for name, tree, patches in (("stock-dcfg", "stock", "''"),
                                ("patched-dcfg", "patched",
                                 "kernel/patches")):
        v = shell(name)
        assert v["VARIANT_BASE"] == "linux-source-6.1"
        assert v["VARIANT_CONFIG_FROM"] == "linux-image-amd64"
        assert v["VARIANT_MODULES_LIST"] == \
            "kernel/configs/debian-6.1.modules"
        assert v["VARIANT_CONFIG"] == "kernel/configs/debian-6.1.config"
        assert v["VARIANT_TREE"] == tree
        assert v["VARIANT_PATCHES"] == patches
        # Its blktests flavour keeps the same starting point.
        flavour = shell(f"{name}-blktests")
        assert flavour["VARIANT_CONFIG_FROM"] == "linux-image-amd64"
    assert shell("stock")["VARIANT_CONFIG_FROM"] == "''"
    out = variants("--make")
    deps = dict(line.split(" := ", 1) for line in out.stdout.splitlines()
                if " := " in line)
    assert "kernel/configs/debian-6.1.modules" in \
        deps["KERNEL_DEPS_stock-dcfg"].split()
    assert "kernel/configs/debian-6.1.modules" not in \
        deps["KERNEL_DEPS_stock"].split()


def test_the_module_list_names_modules_one_a_line():
    """localmodconfig reads the first word of every line: the list holds
    module names (as /proc/modules spells them) and comments only."""
    text = (TOP / "kernel/configs/debian-6.1.modules").read_text()
    names = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert names, "no module listed"
    for name in names:
        assert re.fullmatch(r"[a-z0-9_]+", name), name
    assert len(set(names)) == len(names)
    # What every guest loads (guest-tools/initramfs/modules, boot and plan).
    wanted = (TOP / "guest-tools/initramfs/modules").read_text().split("\n")
    for line in wanted:
        words = line.split()
        if len(words) == 2 and words[0] in ("boot", "plan"):
            assert words[1] in names, words[1]


def test_recorded_kernel_says_where_its_config_came_from(tmp_path,
                                                         monkeypatch):
    """results.json's kernel.config_origin is the build's config_origin
    file, null for a kernel built before it was recorded."""
    import sys
    sys.path.insert(0, str(TOP / "launcher"))
    from blkscale import kernels
    out = tmp_path / "kernel" / "out"
    for name in ("new", "old"):
        (out / name).mkdir(parents=True)
        (out / name / "config").write_text("CONFIG_X=y\n")
        (out / name / "base").write_text("linux-source-6.1 6.1.192-3\n")
    origin = ("debian linux-image-6.1.0-57-amd64 6.1.192-3 config, "
              "localmodconfig against kernel/configs/debian-6.1.modules")
    (out / "new" / "config_origin").write_text(origin + "\n")
    monkeypatch.setenv("BUILD", str(tmp_path))
    assert kernels.recorded("new")["config_origin"] == origin
    assert kernels.recorded("old")["config_origin"] is None


def test_a_user_adds_a_variant_in_a_few_lines(tmp_path):
    path = write(tmp_path, GOOD)
    out = variants("--file", str(path))
    assert out.returncode == 0, out.stderr
    assert [line.split()[0] for line in out.stdout.splitlines()[1:]] == \
        ["stock", "distro"]
    assert shell("distro", path)["VARIANT_KIND"] == "prebuilt"


def test_make_fragment_lists_every_variant_with_its_inputs():
    out = variants("--make")
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" := ", 1) for line in out.stdout.splitlines()
                 if " := " in line)
    assert "stock-6.12" in lines["KERNEL_VARIANTS"].split()
    assert "kernel/patches/series" in lines["KERNEL_DEPS_patched"].split()
    assert lines["KERNEL_PREBUILT_debian"] == "yes"


BAD = [
    ("not toml", 'name = "x" [', None, "not valid TOML"),
    ("no variant", "", "variant", "no [[variant]]"),
    ("stray table", GOOD + "\n[extra]\nx = 1\n", "extra", "unknown table"),
    ("no name", '[[variant]]\nbase = "linux-source-6.1"\n',
     "variant[0].name", "missing"),
    ("bad name", GOOD.replace('name = "stock"', 'name = "Stock!"'),
     "Stock!", "variant name"),
    ("twice", GOOD + GOOD, "stock.name", "declared twice"),
    ("no base", '[[variant]]\nname = "a"\nconfig = []\n', "a.base",
     "missing"),
    ("bad base", GOOD.replace("linux-source-6.1", "linux-6.1"),
     "stock.base", "neither"),
    ("unknown field", GOOD.replace('modules = "package"',
                                   'modules = "package"\nkernl = "x"'),
     "distro.kernl", "unknown field"),
    ("missing fragment", GOOD.replace("blkscale.config", "nosuch.config"),
     "stock.config[0]", "no such file"),
    ("config not a list", GOOD.replace(
        '["kernel/configs/blkscale.config"]', '"kernel/configs/x"'),
     "stock.config", "list of config fragments"),
    ("patches outside", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\npatches = "../p"'),
     "stock.patches", "inside the repository"),
    ("modules on source", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\nmodules = "package"'),
     "stock.modules", "prebuilt"),
    ("prebuilt own config", GOOD.replace('config = "distro"',
                                         'config = ["x"]'),
     "distro.config", "distro"),
    ("prebuilt no modules", GOOD.replace('modules = "package"\n', ""),
     "distro.modules", "must be \"package\""),
    ("prebuilt modules path", GOOD.replace('modules = "package"',
                                           'modules = "/lib/modules"'),
     "distro.modules", "must be \"package\""),
    ("prebuilt patched", GOOD.replace('modules = "package"',
                                      'modules = "package"\npatches = "p"'),
     "distro.patches", "cannot be patched"),
    ("series_at without patches", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'series_at = "bench/baselines/patched.json"'),
     "stock.series_at", "needs patches"),
    ("series_at outside", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\npatches = "p"\n'
        'series_at = "/tmp/b.json"'),
     "stock.series_at", "inside the repository"),
    ("prebuilt series_at", GOOD.replace(
        'modules = "package"', 'modules = "package"\nseries_at = "b.json"'),
     "distro.series_at", "cannot be patched"),
    ("bad headers", GOOD.replace('modules = "package"',
                                 'modules = "package"\nheaders = "gcc"'),
     "distro.headers", "linux-headers"),
    ("cmdline not a string", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\ncmdline = ["a=1"]'),
     "stock.cmdline", "string of kernel parameters"),
    ("cmdline sets the launcher's", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'cmdline = "quiet rdinit=/bin/sh"'),
     "stock.cmdline", 'must not set "rdinit=/bin/sh"'),
    ("config_from without modules_list", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'config_from = "linux-image-amd64"'),
     "stock.modules_list", "missing: config_from needs the list"),
    ("modules_list missing file", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'config_from = "linux-image-amd64"\n'
        'modules_list = "kernel/configs/none.modules"'),
     "stock.modules_list", "kernel/configs/none.modules: no such file"),
    ("modules_list outside", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'config_from = "linux-image-amd64"\n'
        'modules_list = "/tmp/lsmod"'),
     "stock.modules_list", "inside the repository"),
    ("modules_list without config_from", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'modules_list = "kernel/configs/debian-6.1.modules"'),
     "stock.modules_list", "only with config_from"),
    ("config_from not an image", GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'config_from = "linux-source-6.1"\n'
        'modules_list = "kernel/configs/debian-6.1.modules"'),
     "stock.config_from", "not a linux-image-X package"),
    ("prebuilt config_from", GOOD.replace(
        'modules = "package"', 'modules = "package"\n'
        'config_from = "linux-image-amd64"'),
     "distro.config_from", "only for a source"),
    ("flavour name taken", GOOD + '''
[[variant]]
name = "stock-blktests"
base = "linux-source-6.1"
config = ["kernel/configs/blkscale.config"]
''', "stock-blktests", "flavour"),
]


@pytest.mark.parametrize("case,text,field,problem", BAD,
                         ids=[b[0] for b in BAD])
def test_bad_file_is_one_line_naming_file_and_field(tmp_path, case, text,
                                                     field, problem):
    path = write(tmp_path, text)
    out = variants("--file", str(path))
    assert out.returncode == 2, out.stdout
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    where = f"{path}: {field}: " if field else f"{path}: "
    assert lines[0].startswith(where), lines[0]
    assert problem in lines[0]


def test_unknown_variant_names_the_declared_ones(tmp_path):
    out = variants("--file", str(write(tmp_path, GOOD)), "--shell", "nosuch")
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1
    assert "nosuch: no such variant (declared: stock, distro" in out.stderr


def test_missing_file_is_one_line(tmp_path):
    out = variants("--file", str(tmp_path / "none.toml"))
    assert out.returncode == 2
    assert out.stderr.startswith(f"{tmp_path / 'none.toml'}: ")
    assert out.stderr.count("\n") == 1


def test_build_script_stops_on_a_bad_variant_with_the_readers_line(tmp_path):
    """kernel/scripts read the file only through the reader: its error
    reaches `make kernel` as it is."""
    out = subprocess.run([str(TOP / "kernel" / "scripts" / "build.sh"),
                          "nosuch"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode != 0
    assert "kernel/variants.toml: nosuch: no such variant" in out.stderr


def test_missing_series_is_said_before_anything_is_built(tmp_path):
    """A variant whose patch directory has no series yet (a new base
    before its series is ported) stops the build naming the file it
    lacks, instead of building the stock tree under its name."""
    path = write(tmp_path, GOOD.replace(
        'config = ["kernel/configs/blkscale.config"]',
        'config = ["kernel/configs/blkscale.config"]\n'
        'patches = "kernel/patches/none"', 1))
    env = dict(os.environ, BLKSCALE_VARIANTS=str(path))
    out = subprocess.run([str(TOP / "kernel" / "scripts" /
                              "variant-tree.sh"), "stock"],
                         capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode != 0
    assert "stock: kernel/patches/none/series: no such file" in out.stderr


def test_shipped_612_series_is_where_patched_612_looks():
    assert shell("patched-6.12")["VARIANT_PATCHES"] == "kernel/patches/6.12"


def test_kernels_sweep_names_declared_variants():
    """bench/sweeps/kernels.toml sets the shipped kernels side by side:
    every name it uses is declared, and none of the seven is left out."""
    import tomllib
    sweep = tomllib.loads((TOP / "bench" / "sweeps" / "kernels.toml")
                          .read_text())
    out = variants()
    declared = {line.split()[0] for line in out.stdout.splitlines()[1:]}
    assert set(sweep["variants"]) <= declared
    assert {"debian", "stock", "patched", "stock-6.12", "patched-6.12",
            "stock-dcfg", "patched-dcfg"} <= set(sweep["variants"])
    assert sweep["topologies"] == ["default", "oracle-4000", "ibm-5000"]
    assert sweep["repeat"] == 3
