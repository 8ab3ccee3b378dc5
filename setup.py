"""What pip runs to build blkscale; the package is declared in
pyproject.toml.

setuptools needs the wheel package (Debian's python3-wheel) to build for
pip; without it pip stops with "invalid command 'bdist_wheel'" and no
hint, as it does with a python3 that is not Debian's.  Say what to do
instead, in one line, before setuptools is even asked.
"""

import importlib.util
import sys

if importlib.util.find_spec("wheel") is None:
    sys.exit(f"blkscale: {sys.executable} has no wheel package (pip: "
             "invalid command 'bdist_wheel'); install with Debian's: "
             "/usr/bin/python3 -m venv --system-site-packages v")

from setuptools import setup  # noqa: E402  (after the check above)

setup()
