"""What the Python tests share: importing the in-tree `acl` module (built
into build/python by `make`; PYTHON_DIR is that directory) and
deciding whether a test that needs the real device runs, skips or fails.

Tests that need /dev/npu_sim0 skip where it does not exist (a host without
the module), except when NPU_SIM_REQUIRE_DEVICE=1 (set by run-in-guest): then
a missing device is a failure, so a broken VM setup cannot pass silently.
"""
import os
import sys
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON_DIR = os.path.join(REPO, "build", "python")
if PYTHON_DIR not in sys.path:
    sys.path.insert(0, PYTHON_DIR)

import acl  # noqa: E402  (after the path is set)

DEVICE = "/dev/npu_sim0"


def device_present():
    return os.path.exists(DEVICE)


def needs_device(test):
    """Decorator for tests that need the loaded module."""
    if device_present() or os.environ.get("NPU_SIM_REQUIRE_DEVICE") == "1":
        return test
    return unittest.skip(DEVICE + " missing (module not loaded)")(test)


try:
    import numpy  # noqa: F401
    HAVE_NUMPY = True
except ImportError:
    HAVE_NUMPY = False
