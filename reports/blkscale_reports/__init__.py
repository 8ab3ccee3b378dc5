"""Reports from blkscale results: HTML, Markdown and PNG plots of a sweep
(results/<run>/manifest.json) or of one launcher run
(results/<run>/summary.json).  What each figure means: reports/README.md.
"""
