"""QEMU backend: the command line, the process, QMP, the accelerator;
backend.py:QemuBackend is the one object the launcher uses."""
