"""The machine a topology becomes, whichever backend starts it.

Both renderers (qemu/argv.py: the QEMU command line, libvirt/domain_xml.py:
the domain XML) take everything here and only spell it:

    model.py     the machine as frozen records (bridges, controllers,
                 disks, block nodes) and the StartPlan, built in one place
    backend.py   what the launcher asks of a backend (Starter) and of
                 the running machine it makes (Backend)
    files.py     RunFiles: the paths a run's machine refers to
    disks.py     node names, serials, backing files, image files and the
                 -blockdev and device properties of every disk
    guest.py     kernel command line, firmware, results port
    cmdline.py   ARG_MAX and the one message for a command line too long

Where disks sit (bus, slot, controller, target, LUN) comes from the PCI
layout (topology/layout.py: Layout.disks).
"""
