"""The kernel variants declared in kernel/variants.toml.

One reader for everyone: the launcher and bench ask it what a variant is,
and the kernel build scripts ask it through `blkscale variants --shell
NAME` (shell assignments) and `--make` (a makefile fragment), so the file
is parsed in one place only.  A bad file is one line, FILE: FIELD:
PROBLEM, and exit status 2 (errors.InputError).
"""

import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import paths, seriesrev
from .errors import InputError
from .names import VARIANT

DEFAULT_FILE = "kernel/variants.toml"
# What a flavour adds to a source variant: NAME-blktests.  A base whose
# Kconfig spells an option differently adds FRAGMENT-X.Y.config as well
# (6.12's null_blk fault injection depends on FAULT_INJECTION_CONFIGFS).
FLAVOURS = {"blktests": "kernel/configs/blktests.config"}
SOURCE_BASE = re.compile(r"linux-source-(\d+\.\d+)")
IMAGE_BASE = re.compile(r"linux-image-[a-z0-9][a-z0-9.+-]*")
HEADERS = re.compile(r"linux-headers-[a-z0-9][a-z0-9.+-]*")
FIELDS = {"name", "base", "config", "patches", "modules", "headers",
          "cmdline", "series_at", "config_from", "modules_list"}
# Words of a kernel command line the launcher sets itself
# (guest-tools/PROTOCOL.md), which neither a variant's cmdline nor a
# topology's guest.cmdline may set.
RESERVED_CMDLINE = ("console=", "earlycon", "panic=", "rdinit=", "init=")


@dataclass(frozen=True)
class Variant:
    name: str
    base: str                   # a Debian package name
    config: tuple = ()          # fragments (repository paths); () = distro
    patches: str = None         # repository path of the patch directory
    modules: str = None         # prebuilt: "package" (its own tree)
    headers: str = None         # prebuilt: linux-headers package
    flavour_of: str = None      # NAME-blktests: NAME
    tree: str = field(default=None, compare=False)
    cmdline: str = ""           # appended to every boot of this kernel
    series_at: str = None       # a baseline file: its series' commit
    config_from: str = None     # source: a linux-image-X whose config
    #                             replaces tinyconfig
    modules_list: str = None    # with config_from: localmodconfig's list

    @property
    def prebuilt(self):
        return self.base.startswith("linux-image-")

    @property
    def base_version(self):
        """6.1 of linux-source-6.1; None for a prebuilt kernel."""
        m = SOURCE_BASE.fullmatch(self.base)
        return m.group(1) if m else None

    @property
    def distro_config(self):
        """Whether the kernel is built with a distribution's config (its
        own, or one taken from a linux-image package), not tinyconfig's
        fragments: what a disk costs in memory differs 2.9x."""
        return not self.config or self.config_from is not None

    @property
    def patched(self):
        """Whether the kernel carries a patch series (what the guest's
        selftest expects of it)."""
        return self.patches is not None


def _file(path):
    """The file asked for, else $BLKSCALE_VARIANTS (a variants file of
    one's own for make and the build scripts), else the shipped one."""
    path = path or os.environ.get("BLKSCALE_VARIANTS")
    return Path(path) if path else paths.REPO / DEFAULT_FILE


def _shown(path):
    return paths.display(path)


def load(path=None):
    """{name: Variant} in the file's order, flavours included."""
    path = _file(path)
    shown = _shown(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise InputError(shown, None, e.strerror or str(e)) from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(shown, None, f"not valid TOML: {e}") from None
    extra = sorted(set(data) - {"variant"})
    if extra:
        raise InputError(shown, extra[0], "unknown table (each variant is "
                         "a [[variant]])")
    tables = data.get("variant")
    if not isinstance(tables, list) or not tables:
        raise InputError(shown, "variant", "declares no [[variant]]")
    variants = {}
    for i, table in enumerate(tables):
        name = table.get("name")
        if not isinstance(name, str):
            raise InputError(shown, f"variant[{i}].name", "missing")
        if name in variants:
            raise InputError(shown, f"{name}.name", "declared twice")
        variants[name] = _variant(shown, name, table)
    for v in list(variants.values()):
        if v.prebuilt:
            continue
        for flavour, fragment in FLAVOURS.items():
            fname = f"{v.name}-{flavour}"
            if fname in variants:
                raise InputError(shown, fname, f"a name reserved for the "
                                 f"{flavour} flavour of {v.name}")
            variants[fname] = Variant(fname, v.base,
                                      v.config + _flavour_fragments(
                                          fragment, v.base_version),
                                      v.patches, flavour_of=v.name,
                                      cmdline=v.cmdline,
                                      series_at=v.series_at,
                                      config_from=v.config_from,
                                      modules_list=v.modules_list)
    return _with_trees(variants)


def _flavour_fragments(fragment, base_version):
    """The flavour's fragment, and its base's own addition if it has one."""
    own = fragment.removesuffix(".config") + f"-{base_version}.config"
    return (fragment, own) if (paths.REPO / own).is_file() else (fragment,)


def _with_trees(variants):
    """Variants with one base and one patch directory share a source
    tree, named after the first of them: ccache and kbuild then reuse
    objects between them (stock and stock-blktests, patched and debug)."""
    owners = {}
    out = {}
    for v in variants.values():
        if v.prebuilt:
            out[v.name] = v
            continue
        key = (v.base, v.patches, v.series_at)
        owner = owners.setdefault(key, v.flavour_of or v.name)
        out[v.name] = replace(v, tree=owner)
    return out


def _variant(shown, name, table):
    if not VARIANT.fullmatch(name):
        raise InputError(shown, name, "a variant name is lower-case letters, "
                         "digits, '.', '_' and '-', at most 64")
    unknown = sorted(set(table) - FIELDS)
    if unknown:
        raise InputError(shown, f"{name}.{unknown[0]}", "unknown field "
                         f"(fields: {', '.join(sorted(FIELDS))})")
    base = table.get("base")
    if not isinstance(base, str):
        raise InputError(shown, f"{name}.base", "missing: a Debian "
                         "linux-source-X or linux-image-X package")
    cmdline = _cmdline(shown, name, table.get("cmdline", ""))
    if SOURCE_BASE.fullmatch(base):
        return replace(_source_variant(shown, name, table, base),
                       cmdline=cmdline)
    if IMAGE_BASE.fullmatch(base):
        return replace(_prebuilt_variant(shown, name, table, base),
                       cmdline=cmdline)
    raise InputError(shown, f"{name}.base", f"{base!r}: neither "
                     "linux-source-X.Y nor linux-image-X")


def _cmdline(shown, name, value):
    """Kernel parameters of the variant (the canary's costs are sized
    with them), none of those the launcher sets."""
    if not isinstance(value, str):
        raise InputError(shown, f"{name}.cmdline", "must be a string of "
                         "kernel parameters")
    for word in value.split():
        if word.startswith(RESERVED_CMDLINE):
            raise InputError(shown, f"{name}.cmdline", f'must not set '
                             f'"{word}" (the launcher sets console=, '
                             "earlycon, panic=, init= and rdinit=)")
    return " ".join(value.split())


def cmdline_of(name):
    """A declared variant's own kernel parameters; "" for any other
    kernel (one of the user's own, booted with --kernel)."""
    try:
        variants = load()
    except InputError:
        return ""
    v = variants.get(name)
    return v.cmdline if v else ""


def _repo_path(shown, where, value, what):
    if not isinstance(value, str) or not value:
        raise InputError(shown, where, f"must be a {what} path")
    p = Path(value)
    if p.is_absolute() or ".." in p.parts:
        raise InputError(shown, where, f"{value!r}: a path inside the "
                         "repository, without '..'")
    return value


def _source_variant(shown, name, table, base):
    for key in ("modules", "headers"):
        if key in table:
            raise InputError(shown, f"{name}.{key}", "only for a prebuilt "
                             "(linux-image-X) base")
    config = table.get("config")
    if not isinstance(config, list) or not config:
        raise InputError(shown, f"{name}.config", "a source base needs a "
                         "list of config fragments")
    fragments = []
    for i, f in enumerate(config):
        where = f"{name}.config[{i}]"
        fragments.append(_repo_path(shown, where, f, "config fragment"))
        if not (paths.REPO / f).is_file():
            raise InputError(shown, where, f"{f}: no such file")
    patches = table.get("patches")
    if patches is not None:
        _repo_path(shown, f"{name}.patches", patches, "patch directory")
    series_at = table.get("series_at")
    if series_at is not None:
        if patches is None:
            raise InputError(shown, f"{name}.series_at", "needs patches: "
                             "the directory whose series it takes")
        _repo_path(shown, f"{name}.series_at", series_at, "baseline file")
    config_from = table.get("config_from")
    modules_list = table.get("modules_list")
    if config_from is not None:
        if not isinstance(config_from, str) or not IMAGE_BASE.fullmatch(
                config_from):
            raise InputError(shown, f"{name}.config_from", f"{config_from!r}"
                             ": not a linux-image-X package (the Debian "
                             "kernel whose config is the starting point)")
        if modules_list is None:
            raise InputError(shown, f"{name}.modules_list", "missing: "
                             "config_from needs the list of modules a "
                             "guest loads, for localmodconfig (e.g. "
                             "kernel/configs/debian-6.1.modules)")
    if modules_list is not None:
        where = f"{name}.modules_list"
        if config_from is None:
            raise InputError(shown, where, "only with config_from (it "
                             "trims that config's modules)")
        _repo_path(shown, where, modules_list, "module list")
        if not (paths.REPO / modules_list).is_file():
            raise InputError(shown, where, f"{modules_list}: no such file")
    return Variant(name, base, tuple(fragments), patches,
                   series_at=series_at, config_from=config_from,
                   modules_list=modules_list)


def _prebuilt_variant(shown, name, table, base):
    if table.get("config") != "distro":
        raise InputError(shown, f"{name}.config", "a prebuilt kernel keeps "
                         "its own: config = \"distro\"")
    for key in ("patches", "series_at"):
        if key in table:
            raise InputError(shown, f"{name}.{key}", "a prebuilt kernel "
                             "cannot be patched")
    for key in ("config_from", "modules_list"):
        if key in table:
            raise InputError(shown, f"{name}.{key}", "only for a source "
                             "(linux-source-X) base: a prebuilt kernel "
                             "keeps its own config")
    modules = table.get("modules")
    if modules != "package":
        # A kernel and modules of one's own: run --kernel PATH --modules DIR.
        raise InputError(shown, f"{name}.modules", "must be \"package\" (the "
                         "image package's own /lib/modules tree)")
    headers = table.get("headers")
    if headers is not None and (not isinstance(headers, str)
                                or not HEADERS.fullmatch(headers)):
        raise InputError(shown, f"{name}.headers", f"{headers!r}: not a "
                         "linux-headers-X package")
    return Variant(name, base, (), None, modules, headers)


def get(name, path=None):
    """The variant called name, or InputError naming the file."""
    variants = load(path)
    if name not in variants:
        raise InputError(_shown(_file(path)), name, "no such variant "
                         f"(declared: {', '.join(variants)})")
    return variants[name]


def config_hash(config_text):
    """sha256 of a kernel .config, as results record it."""
    return hashlib.sha256(config_text.encode()).hexdigest()


def series(v):
    """The patch files a variant applies, in order ([] if none); None if
    its patch directory or series file does not exist (for a series_at
    variant: at the baseline's commit, or no commit recorded)."""
    if v.patches is None:
        return []
    if v.series_at is not None:
        try:
            text = seriesrev.show(series_commit(v), f"{v.patches}/series")
        except InputError:
            return None
    else:
        f = paths.REPO / v.patches / "series"
        if not f.is_file():
            return None
        text = f.read_text()
    return seriesrev.names(text)


def series_commit(v):
    """The commit whose patch directory a series_at variant applies: the
    one its baseline file records (source.series_commit), which
    `blkscale baseline` finds from the patches the baseline's kernel was
    built with.  InputError naming the file where there is none."""
    where = v.series_at
    try:
        doc = json.loads((paths.REPO / where).read_text())
    except OSError as e:
        raise InputError(where, None, e.strerror or str(e)) from None
    except ValueError as e:
        raise InputError(where, None, f"not valid JSON: {e}") from None
    commit = (doc.get("source") or {}).get("series_commit")
    if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{40}",
                                                        commit):
        raise InputError(where, "source.series_commit", "no commit recorded "
                         f"(variant {v.name} builds the series it names): "
                         "make the baseline again from a run of a committed "
                         "series")
    return commit


def series_expectation(name):
    """What the guest's selftest expects of a kernel: "patched" with a
    patch series, "stock" without, "none" for a kernel the variants file
    does not declare (one given by path)."""
    try:
        v = load().get(name)
    except InputError:
        return "none"
    if v is None:
        return "none"
    return "patched" if v.patched else "stock"


def recorded(name):
    """What results.json records of a built variant's kernel: its base
    package and version, its config's sha256 and where that config came
    from, and the patches applied (build/kernel/out/NAME/: base, config,
    config_origin, patches, written by the build); None for what the
    build did not leave."""
    kdir = paths.kernel_dir(name)

    def text(file):
        try:
            return (kdir / file).read_text()
        except OSError:
            return None

    base = (text("base") or "").split()
    config = text("config")
    patches = text("patches")
    user = text("userkernel")
    origin = text("config_origin")
    return {
        "base_package": base[0] if base else None,
        "base_version": " ".join(base[1:]) or None,
        "config_sha256": config_hash(config) if config is not None else None,
        "config_origin": origin.strip() or None if origin else None,
        "patches": None if patches is None else [
            {"patch_id": line.split(None, 1)[0],
             "subject": (line.split(None, 1)[1:] or [""])[0]}
            for line in patches.splitlines() if line.strip()],
        "given_by_path": user.strip() if user else None,
    }
