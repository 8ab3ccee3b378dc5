"""A night of the nightly, run by parts over as many sittings as it
takes (`blkscale night`, `make nightly`):

    parts.py     the parts, in order, and the commands each runs
    record.py    results/<kind>-<night>/parts.json (nightly or weekly):
                 each part's status and verdict, and the night's verdict
    sitting.py   one sitting: the parts still to run, one after another,
                 until the last or a signal
"""
