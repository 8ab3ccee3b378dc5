"""QEMU backend: the command line, the process, QMP, the accelerator."""
