"""`blkscale --home DIR`: the checkout (or a home with a checkout's
layout) the command works on, handed to the packages as BLKSCALE_HOME
(blkscale/paths.py) before they are imported, since they find their
home once, when first imported."""

import os

# blkscale.paths.HOME_VARIABLE, spelled here because importing blkscale
# would find the home before --home is known.
HOME_VARIABLE = "BLKSCALE_HOME"
OPTION = "--home"


def take_home(argv, environ=os.environ):
    """Set BLKSCALE_HOME from a --home DIR (or --home=DIR) before the
    subcommand; argparse checks and lists the option too."""
    words = iter(argv)
    for word in words:
        if word == OPTION:
            value = next(words, None)
        elif word.startswith(OPTION + "="):
            value = word.split("=", 1)[1]
        elif word.startswith("-"):
            continue
        else:
            return
        if value:
            environ[HOME_VARIABLE] = os.path.abspath(value)
