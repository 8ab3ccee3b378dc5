"""A patch series as this repository's history holds it: the series file
and patches of a patch directory at a commit, and the commit whose
series a kernel was built from.

A baseline records the patches its kernel carried as git patch-ids
(results.json's kernel.patches); the nightly boots that series again
beside today's (kernel/variants.toml, series_at), so the commit is found
by patch-id, which a changed changelog or subject does not move.
"""

import subprocess

from . import paths
from .errors import InputError


def _git(*args, stdin=None):
    return subprocess.run(["git", "-C", str(paths.REPO), *args],
                          input=stdin, capture_output=True, check=False)


def show(commit, path):
    """The text of path at commit; InputError if it has none."""
    out = _git("show", f"{commit}:{path}")
    if out.returncode:
        raise InputError(path, None, f"not in commit {commit[:12]}: "
                         f"{out.stderr.decode().strip()}")
    return out.stdout.decode()


def names(series_text):
    """The patch files a series file lists, in order."""
    out = []
    for line in series_text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def patch_id(patch_bytes):
    """git patch-id --stable of a patch ('' for one with no diff)."""
    out = subprocess.run(["git", "patch-id", "--stable"], input=patch_bytes,
                         capture_output=True, check=False)
    return out.stdout.decode().split(" ", 1)[0]


def patch_ids_at(commit, patch_dir):
    """The patch-ids of the series in patch_dir at commit, in order; None
    where the commit has no such series."""
    try:
        files = names(show(commit, f"{patch_dir}/series"))
    except InputError:
        return None
    ids = []
    for name in files:
        out = _git("show", f"{commit}:{patch_dir}/{name}")
        if out.returncode:
            return None
        ids.append(patch_id(out.stdout))
    return ids


def find_commit(patch_dir, ids, start="HEAD"):
    """The newest commit at or before start that changed patch_dir and
    left its series with exactly these patch-ids, in order; None if
    none has."""
    commits = _git("rev-list", start, "--", patch_dir)
    if commits.returncode:
        return None
    for commit in commits.stdout.decode().split():
        if patch_ids_at(commit, patch_dir) == list(ids):
            return commit
    return None
