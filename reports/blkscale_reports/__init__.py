"""Reports from blkscale results: HTML, Markdown and PNG plots of a sweep
(results/<run>/manifest.json) or of one launcher run
(results/<run>/summary.json).  What each figure means: reports/README.md.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
