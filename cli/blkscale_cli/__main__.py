"""`python3 -m blkscale_cli`: the blkscale command."""

import sys

from .main import main

sys.exit(main())
