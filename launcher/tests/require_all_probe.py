"""Skips of every kind, for test_require_all.py (not collected by itself:
the name does not start with test_)."""

import pytest


def test_missing_kernel():
    pytest.skip("not built: build/kernel/out/stock/bzImage (make kernel)")


def test_missing_module():
    pytest.importorskip("blkscale_no_such_module")


def test_no_kvm():
    pytest.skip("no usable /dev/kvm: auto chooses TCG without probing")


def test_no_root():
    pytest.skip("mounting a tmpfs needs root")


def test_runs():
    assert True
