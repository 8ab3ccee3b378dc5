"""The libvirt backend: the same topologies as transient libvirt domains.

domain_xml.py renders the domain XML from the planned topology (the same
Layout the QEMU command line is built from), daemon.py starts libvirtd
when it is not running, domain.py runs one domain like qemu/machine.py
runs one QEMU process, staging.py and orphans.py send a run's files to
a host over the network and clean up after killed runs; backend.py:
LibvirtBackend is the one object the launcher and bench use.
LIBVIRT.md explains the choices.
"""
