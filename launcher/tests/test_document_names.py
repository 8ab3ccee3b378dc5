"""A run's documents have one owner each: results.json, summary.json and
a sweep's manifest.json are named only in the documents layer
(blkscale.results), so that no other module writes or reads them but
through its records.

A name counts wherever the code spells it: a path, a message, part of
an f-string.  Docstrings and comments describe the documents and may
name them.
"""

import ast

from test_layers import LAYERS, PACKAGES, _modules, layer, unit

NAMES = ("results.json", "summary.json", "manifest.json")
DOCUMENTS = next(i for i, (name, _) in enumerate(LAYERS)
                 if name == "documents")


def _docstrings(tree):
    """The string nodes that are docstrings."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and \
                    isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def spelled(source):
    """The document names a module's code spells, with their lines."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            found += [(name, node.lineno) for name in NAMES
                      if name in node.value]
    return sorted(found)


def named_outside(sources):
    """"module:line name" of every document name spelled outside the
    documents layer; sources {module: source}."""
    wrong = []
    for module, source in sorted(sources.items()):
        if layer(unit(module)) == DOCUMENTS:
            continue
        wrong += [f"{module}:{line} {name}" for name, line in spelled(source)]
    return wrong


def test_only_the_documents_layer_names_the_documents():
    sources = {m: p.read_text() for m, p in _modules().items()}
    assert len(sources) > 140 and set(PACKAGES) <= set(sources)
    assert named_outside(sources) == []


def test_the_check_fails_on_a_module_that_names_one():
    bad = {
        # a reader of its own, a path in an f-string, a message
        "blkscale_reports.blktestsruns":
            'import json\n'
            'def read(d):\n'
            '    """Reads results.json (a docstring may name it)."""\n'
            '    return json.load(open(d + "/results.json"))\n',
        "blkscale_bench.slowdown":
            'def where(run):\n    return f"{run}/manifest.json"\n',
        "blkscale.commands.run":
            'def fail(d):\n    raise OSError(f"{d}/summary.json: full")\n',
        # a report's summary.json is named by the documents layer too
        "blkscale_reports.summary_files":
            'import os\nOUT = os.path.join("report", "summary.json")\n',
        # the documents layer names them
        "blkscale.results.runresults": 'FILENAME = "results.json"\n',
        "blkscale.results": 'REPORT_SUMMARY_FILE = "summary.json"\n',
    }
    assert named_outside(bad) == [
        "blkscale.commands.run:2 summary.json",
        "blkscale_bench.slowdown:2 manifest.json",
        "blkscale_reports.blktestsruns:4 results.json",
        "blkscale_reports.summary_files:2 summary.json"]


def dict_path_readers(sources):
    """"module:line" of every import of the documents layer's dict-path
    reader (`lookup`) outside that layer: a module there reads fields
    through the records' properties."""
    wrong = []
    for module, source in sorted(sources.items()):
        if layer(unit(module)) == DOCUMENTS:
            continue
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and \
                    "results" in (node.module or "") and \
                    any(a.name == "lookup" for a in node.names):
                wrong.append(f"{module}:{node.lineno}")
    return wrong


def test_no_module_outside_the_documents_layer_reads_by_dict_path():
    sources = {m: p.read_text() for m, p in _modules().items()}
    assert dict_path_readers(sources) == []


def test_the_dict_path_check_fails_on_a_module_that_does():
    bad = {
        "blkscale_reports.series":
            "from blkscale.results.read import lookup as get\n",
        "blkscale.figures.metrics":
            "import os\nfrom ..results.runresults import Results, lookup\n",
        "blkscale.results.runresults": "from .read import lookup\n",
        "blkscale_bench.table": "from blkscale.results.read import number\n",
    }
    assert dict_path_readers(bad) == ["blkscale.figures.metrics:2",
                                      "blkscale_reports.series:1"]
