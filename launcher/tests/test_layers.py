"""The packages stand in layers, each importing only the ones below it,
and find one another without path tricks.

    cli                 blkscale_cli: the command (cli/)
    bench and reports   blkscale_bench, blkscale_reports: side by side,
                        neither imports the other
    run                 the backends (qemu, libvirt), what they share
                        (machine), the guest link, one run (session), the
                        launcher's subcommands
    figures             statistics, metrics, curves, verdicts
    documents           results.json, summary.json, manifest.json
    model               a topology file to a plan
    base                paths, errors, names, host facts, the QEMU binary

The graph is read from the code (every import statement, those inside
functions too).  A unit is a folder (a package or subpackage) or a
module of a package's top folder; no import runs from a unit to one of
a higher layer, and no units import one another in a circle.  Bench
never reaches into the QEMU or libvirt backends: it asks a backend's
object (its backend.py) or runs the launcher.  Its tools (qemustart,
startcost, attachcost: measurements of QEMU and libvirt themselves, not
a subcommand) may, and no module of the product imports them.  No file
outside the tests puts anything on sys.path (./blkscale sets PYTHONPATH
for its child, an install needs nothing).
"""

import ast
import subprocess

from launchertest import REPO

# The folder that holds each package.
PACKAGES = {"blkscale_cli": REPO / "cli", "blkscale": REPO / "launcher",
            "blkscale_bench": REPO / "bench",
            "blkscale_reports": REPO / "reports"}
# Lowest first; a unit belongs to the layer of its longest prefix here.
LAYERS = [
    ("base", {"blkscale", "blkscale.paths", "blkscale.errors",
              "blkscale.names", "blkscale.hostfacts", "blkscale.kernels",
              "blkscale.provenance", "blkscale.qemubinary"}),
    ("model", {"blkscale.topology"}),
    ("documents", {"blkscale.results"}),
    ("figures", {"blkscale.figures"}),
    ("run", {"blkscale.machine", "blkscale.guestlink", "blkscale.qemu",
             "blkscale.libvirt", "blkscale.backends", "blkscale.session",
             "blkscale.commands", "blkscale.userkernel"}),
    ("bench and reports", {"blkscale_bench", "blkscale_reports"}),
    ("cli", {"blkscale_cli"}),
]
BACKENDS = ("blkscale.qemu", "blkscale.libvirt")
BENCH_TOOLS = {"blkscale_bench.qemustart", "blkscale_bench.startcost",
               "blkscale_bench.attachcost"}


def _modules():
    """{module name: file} of every package."""
    found = {}
    for package, top in PACKAGES.items():
        for path in sorted((top / package).rglob("*.py")):
            parts = path.relative_to(top).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(name, path, modules):
    """The modules of ours that one module imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) -
                                       node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # `from x import y`: y is a module of x, or a name in x.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules
                       else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target:
                out.add(target)
    return out


def module_graph():
    modules = _modules()
    return {name: _imports(name, path, modules)
            for name, path in modules.items()}


def unit(module):
    """A package's top module, its top folder's modules, and one unit
    per subpackage."""
    return ".".join(module.split(".")[:2])


def layer(unit_name):
    """The index in LAYERS of the unit's layer, or None."""
    best = None
    for index, (_, members) in enumerate(LAYERS):
        for prefix in members:
            if (unit_name == prefix or unit_name.startswith(prefix + ".")) \
                    and (best is None or len(prefix) > len(best[1])):
                best = (index, prefix)
    return best[0] if best else None


def unit_edges(graph):
    edges = {}
    for module, targets in graph.items():
        edges.setdefault(unit(module), set())
        for target in targets:
            if unit(target) != unit(module):
                edges[unit(module)].add(unit(target))
    return edges


def upward(graph):
    """Each import from a unit to a higher layer, or between bench and
    reports, as "a -> b (layer -> layer)"."""
    wrong = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = layer(unit(module)), layer(unit(target))
            top_a, top_b = module.split(".")[0], target.split(".")[0]
            if there > here or (there == here and top_a != top_b):
                wrong.append(f"{module} -> {target} ({LAYERS[here][0]} -> "
                             f"{LAYERS[there][0]})")
    return wrong


def cycles(edges):
    """The strongly connected sets of more than one unit (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def internal(module):
    """A module of a backend other than its object (backend.py)."""
    return unit(module) in BACKENDS and not module.endswith(".backend")


def backend_reaches(graph):
    """Imports of the QEMU or libvirt backends' internals by bench, its
    tools aside, and imports of those tools by anything of the product."""
    wrong = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if module.startswith("blkscale_bench") and \
                    unit(module) not in BENCH_TOOLS and \
                    internal(target):
                wrong.append(f"{module} -> {target}")
            if unit(target) in BENCH_TOOLS and unit(module) != unit(target):
                wrong.append(f"{module} -> {target} (a tool)")
    return wrong


def test_every_unit_has_a_layer():
    assert [u for u in unit_edges(module_graph()) if layer(u) is None] == []


def test_no_import_runs_up_a_layer():
    assert upward(module_graph()) == []


def test_no_units_import_one_another_in_a_circle():
    assert cycles(unit_edges(module_graph())) == []


def test_bench_never_reaches_into_a_backend():
    assert backend_reaches(module_graph()) == []


def test_the_graph_is_read_from_the_code():
    graph = module_graph()
    # An import inside a function, a relative one and `from x import y`
    # with y a module all count.
    assert "blkscale.userkernel" in graph["blkscale.commands.run"]
    assert "blkscale.topology" in graph["blkscale.commands"]
    assert "blkscale.figures.stats" in graph["blkscale.figures.bootcurve"]
    assert {"blkscale.commands", "blkscale_bench.commands",
            "blkscale_reports.commands"} <= graph["blkscale_cli.dispatch"]
    assert len(graph) > 140


def test_the_checks_fail_on_a_bad_graph():
    bad = {"blkscale.figures.stats": {"blkscale.qemu.argv"},
           "blkscale.qemu.argv": {"blkscale.machine.guest"},
           "blkscale.machine.guest": {"blkscale.qemu.binary"},
           "blkscale_reports.load": {"blkscale_bench.table"},
           "blkscale_bench.table": {"blkscale.libvirt.domain"},
           "blkscale_bench.hosts": {"blkscale.libvirt.backend"},
           "blkscale_bench.qemustart": {"blkscale.qemu.argv"},
           "blkscale_bench.sweepfile": {"blkscale_bench.qemustart"},
           "blkscale.paths": {"blkscale_cli.main"}}
    assert upward(bad) == [
        "blkscale.figures.stats -> blkscale.qemu.argv (figures -> run)",
        "blkscale.paths -> blkscale_cli.main (base -> cli)",
        "blkscale_reports.load -> blkscale_bench.table "
        "(bench and reports -> bench and reports)"]
    assert cycles(unit_edges(bad)) == [["blkscale.machine", "blkscale.qemu"]]
    assert backend_reaches(bad) == [
        "blkscale_bench.sweepfile -> blkscale_bench.qemustart (a tool)",
        "blkscale_bench.table -> blkscale.libvirt.domain"]
    assert layer("blkscale.newfolder") == 0
    assert layer("blkscale_bench.newfolder") == 5


def test_no_file_outside_the_tests_edits_sys_path():
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
    scripts = [f for f in tracked if f.endswith(".py") or f == "blkscale"]
    assert "blkscale" in scripts and len(scripts) > 100
    editing = [f for f in scripts
               if "/tests/" not in f and not f.startswith("tests/")
               and "sys.path" in (REPO / f).read_text()]
    assert editing == []
