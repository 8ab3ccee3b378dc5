"""The subcommand registry: one module per subcommand.

A subcommand module defines NAME, HELP, add_arguments(parser) and
main(args) -> exit status.  Modules are found in this package and in any
top-level directory of the repository that has a `commands/` directory
(bench/commands/bench.py, reports/commands/report.py, ...), so each
component brings its own subcommand without editing a list here.
"""

import importlib
import pkgutil

from .. import paths
from ..errors import UsageError


def _search_path():
    dirs = list(__path__)
    for child in sorted(paths.REPO.iterdir()):
        candidate = child / "commands"
        if child.name != "launcher" and candidate.is_dir():
            dirs.append(str(candidate))
    return dirs


def discover():
    """{name: module} of every subcommand, in name order."""
    found = {}
    search = _search_path()
    # Modules outside this directory import as blkscale.commands.<name>.
    __path__[:] = search
    for info in pkgutil.iter_modules(search):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "NAME", None)
        if name is None:
            continue
        if name in found:
            raise UsageError(f"subcommand {name} is defined twice "
                             f"({found[name].__file__}, {module.__file__})")
        found[name] = module
    return dict(sorted(found.items()))
