"""blkscale variants: the declared kernel variants and whether each is built.

--shell NAME and --make give the kernel build scripts and kernel.mk what
kernel/variants.toml says, so that the file has one reader (kernels.py).
"""

import shlex

from .. import kernels, paths


def add_arguments(parser):
    parser.add_argument("--file", metavar="TOML",
                        help=f"variants file (default: {kernels.DEFAULT_FILE})")
    parser.add_argument("--flavours", action="store_true",
                        help="list the blktests flavours too")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--shell", metavar="NAME",
                     help="print the variant as shell assignments "
                          "(for kernel/scripts)")
    how.add_argument("--make", action="store_true",
                     help="print the variants as a makefile fragment "
                          "(for kernel/kernel.mk)")


def built(name):
    """(release or None, whether bzImage and the guest image exist)."""
    kdir = paths.kernel_dir(name)
    release_file = kdir / "release"
    release = (release_file.read_text().strip()
               if release_file.is_file() else None)
    return release, ((kdir / "bzImage").is_file()
                     and paths.initramfs(name).is_file())


def shell(v):
    commit = kernels.series_commit(v) if v.series_at else ""
    values = {
        "NAME": v.name,
        "BASE": v.base,
        "KIND": "prebuilt" if v.prebuilt else "source",
        "BASE_VERSION": v.base_version or "",
        "TREE": v.tree or "",
        "CONFIG": " ".join(v.config),
        "PATCHES": v.patches or "",
        # The commit whose patch directory it applies, "" for today's.
        "PATCHES_COMMIT": commit,
        "MODULES": v.modules or "",
        "HEADERS": v.headers or "",
        # A source variant on a Debian image's config, trimmed by
        # localmodconfig to the modules its list names.
        "CONFIG_FROM": v.config_from or "",
        "MODULES_LIST": v.modules_list or "",
    }
    return "".join(f"VARIANT_{k}={shlex.quote(val)}\n"
                   for k, val in values.items())


def make_fragment(variants):
    """KERNEL_VARIANTS, and each variant's inputs: a kernel is rebuilt
    when its fragments or patches change."""
    lines = ["# Generated from kernel/variants.toml by `blkscale variants "
             "--make`.",
             f"KERNEL_VARIANTS := {' '.join(variants)}"]
    for v in variants.values():
        if v.prebuilt:
            deps = ["$(KERNEL_PREBUILT_SCRIPTS)"]
        else:
            deps = ["$(KERNEL_SCRIPTS)", *v.config]
            if v.modules_list:
                deps.append(v.modules_list)
            files = kernels.series(v)
            if v.series_at:
                # Its series changes with the commit the baseline names.
                deps.append(v.series_at)
            elif files:
                deps.append(f"{v.patches}/series")
                deps += [f"{v.patches}/{p}" for p in files]
        lines.append(f"KERNEL_DEPS_{v.name} := {' '.join(deps)}")
        lines.append(f"KERNEL_PREBUILT_{v.name} := "
                     f"{'yes' if v.prebuilt else ''}")
    return "\n".join(lines) + "\n"


def _config_word(v):
    if v.prebuilt:
        return "distro"
    if v.config_from:
        return "+".join([f"{v.config_from}(localmod)",
                         *(c.rsplit("/", 1)[-1].removesuffix(".config")
                           for c in v.config)])
    return "+".join(c.rsplit("/", 1)[-1].removesuffix(".config")
                    for c in v.config)


def _source_word(v):
    if v.prebuilt:
        return v.base + (f" (headers {v.headers})" if v.headers else "")
    if v.patches is None:
        return v.base
    files = kernels.series(v)
    series = (f"{len(files)} patches" if files is not None
              else "missing series")
    at = f" at the commit {v.series_at} names" if v.series_at else ""
    return f"{v.base} + {v.patches}{at} ({series})"


def main(args):
    variants = kernels.load(args.file)
    if args.shell:
        if args.shell not in variants:
            kernels.get(args.shell, args.file)
        print(shell(variants[args.shell]), end="")
        return 0
    if args.make:
        print(make_fragment(variants), end="")
        return 0
    rows = [("variant", "release", "built", "config", "source")]
    for v in variants.values():
        if v.flavour_of and not args.flavours:
            continue
        release, ready = built(v.name)
        rows.append((v.name, release or "-", "yes" if ready else "no",
                     _config_word(v), _source_word(v)))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[4])
    return 0
