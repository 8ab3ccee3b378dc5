"""How a run was made, as every run's document records it: the command
that started it and the project's commit (a sweep's manifest.json, a
single run's summary.json)."""

import subprocess
import sys

from .paths import REPO


def command_output(argv, cwd=None):
    """A command's stdout, or None if it cannot run or fails."""
    try:
        out = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                             timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def git_state():
    """{commit, dirty}: dirty when tracked files differ from the commit."""
    commit = command_output(["git", "rev-parse", "HEAD"], cwd=REPO)
    status = command_output(["git", "status", "--porcelain",
                             "--untracked-files=no"], cwd=REPO)
    return {"commit": commit.strip() if commit else None,
            "dirty": bool(status.strip()) if status is not None else None}


def command_line():
    """How this command was invoked: the blkscale command, whether
    ./blkscale, an installed blkscale or `python3 -m blkscale_cli`
    started it."""
    return ["blkscale"] + sys.argv[1:]


def describe():
    return {"command": command_line(), "git": git_state()}
