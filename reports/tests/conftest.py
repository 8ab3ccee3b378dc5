"""Shared set-up of the report tests: the committed fixtures (trimmed
copies of real runs, see make_fixture.py) and an HTML table reader."""

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from blkscale.paths import REPO

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class Tables(HTMLParser):
    """{table id: [[cell text, ...] per body row]} of a page, plus the
    header row under key (id, "head")."""

    def __init__(self):
        super().__init__()
        self.tables = {}
        self._id = None
        self._row = None
        self._cell = None
        self._head = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._id = attrs.get("id")
            self.tables[self._id] = []
            self.tables[(self._id, "head")] = []
        elif tag == "thead":
            self._head = True
        elif tag == "tbody":
            self._head = False
        elif tag == "tr" and self._id:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr" and self._row is not None:
            key = (self._id, "head") if self._head else self._id
            self.tables[key].append(self._row)
            self._row = None
        elif tag == "table":
            self._id = None


def read_tables(html_text):
    parser = Tables()
    parser.feed(html_text)
    return parser.tables


def load_json(path):
    with open(path) as f:
        return json.load(f)


def run_report(run_dir, *args):
    return subprocess.run([str(REPO / "blkscale"), "report", str(run_dir),
                           *args], capture_output=True, text=True,
                          timeout=300, cwd=REPO)


@pytest.fixture(scope="session")
def sweep_report(tmp_path_factory):
    """The report of the committed sweep fixture, built once."""
    run_dir = tmp_path_factory.mktemp("sweep") / "scale"
    shutil.copytree(FIXTURES / "scale", run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    report = run_dir / "report"
    return {"run_dir": run_dir, "report": report,
            "html": (report / "index.html").read_text(),
            "md": (report / "report.md").read_text(),
            "tables": read_tables((report / "index.html").read_text()),
            "stdout": out.stdout}


@pytest.fixture
def fixture_copy(tmp_path):
    """A writable copy of a fixture run directory."""
    def copy(name):
        dst = tmp_path / name
        shutil.copytree(FIXTURES / name, dst)
        return dst
    return copy


KERNELS_SWEEP = REPO / "evidence" / "20261205-kernels" / \
    "oracle-4000-5"


@pytest.fixture(scope="session")
def kernels_report(tmp_path_factory):
    """The report of the committed five-kernel sweep at one disk count
    (oracle-4000, 5 repeats), built once."""
    run_dir = tmp_path_factory.mktemp("kernels") / "oracle-4000-5"
    shutil.copytree(KERNELS_SWEEP, run_dir)
    out = run_report(run_dir)
    assert out.returncode == 0, out.stderr
    report = run_dir / "report"
    html = (report / "index.html").read_text()
    return {"run_dir": run_dir, "report": report, "html": html,
            "md": (report / "report.md").read_text(),
            "tables": read_tables(html), "stdout": out.stdout}
