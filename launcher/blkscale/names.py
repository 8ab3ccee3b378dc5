"""The names that travel between the launcher, bench and reports.

A variant names a kernel build (build/kernel/out/<variant>) and a results
directory; a run id names results/<run>.  Both end up in paths, so each
pattern is defined here once.
"""

import re

# Topology names and kernel variants.
NAME_PATTERN = "[a-z0-9_-]{1,64}"
# A variant may carry its base's version (stock-6.12), never start with a dot.
VARIANT_PATTERN = "[a-z0-9_][a-z0-9_.-]{0,63}"
RUN_ID_PATTERN = "[A-Za-z0-9][A-Za-z0-9_.-]{0,127}"

VARIANT = re.compile(VARIANT_PATTERN)
RUN_ID = re.compile(RUN_ID_PATTERN)
