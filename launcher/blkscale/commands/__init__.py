"""The subcommand registry: one module per subcommand.

A subcommand module defines NAME, HELP, add_arguments(parser) and
main(args) -> exit status.  Modules are found in this package and in any
top-level directory of the repository that has a `commands/` directory
(bench/commands/bench.py, reports/commands/report.py, ...), so each
component brings its own subcommand without editing a list here.

NAME and HELP are read from the source without importing it; only the
subcommand being run is imported, so one component's heavy imports do not
slow down the others.
"""

import ast
import importlib
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from ..errors import UsageError


@dataclass
class Entry:
    name: str
    help: str
    module: str         # importable as blkscale.commands.<module>
    path: Path

    def load(self):
        return importlib.import_module(f"{__name__}.{self.module}")


def _search_path():
    dirs = [Path(__path__[0])]
    for child in sorted(paths.REPO.iterdir()):
        candidate = child / "commands"
        if child.name != "launcher" and candidate.is_dir():
            dirs.append(candidate)
    return dirs


def _constants(path):
    """Module-level NAME and HELP string constants of a source file."""
    found = {}
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return found
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if (isinstance(target, ast.Name)
                    and target.id in ("NAME", "HELP")
                    and isinstance(node.value, ast.Constant)
                    and isinstance(node.value.value, str)):
                found[target.id] = node.value.value
    return found


def discover():
    """{name: Entry} of every subcommand, in name order."""
    search = _search_path()
    # Modules outside this directory import as blkscale.commands.<module>.
    __path__[:] = [str(d) for d in search]
    found = {}
    for directory in search:
        for path in sorted(directory.glob("*.py")):
            if path.name.startswith("_"):
                continue
            consts = _constants(path)
            name = consts.get("NAME")
            if name is None:
                continue
            if name in found:
                raise UsageError(f"subcommand {name} is defined twice "
                                 f"({found[name].path}, {path})")
            found[name] = Entry(name, consts.get("HELP", ""), path.stem, path)
    return dict(sorted(found.items()))
