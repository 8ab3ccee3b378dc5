"""Running a sweep: the launcher as a child process per run, on this
machine or fanned out over libvirt hosts, into results/<run>/ with its
manifest.

    sweep.py      the sweep: every topology on every variant, repeated
    order.py      the order of the runs, variants alternating
    launch.py     one launcher child, and what it left behind
    fanout.py     a sweep over several libvirt hosts
    workqueue.py  the one queue the hosts take their units from
    progress.py   the live line
    signals.py    SIGINT/SIGTERM passed on to the children
    hostinfo.py   what the manifest says about this machine
"""
