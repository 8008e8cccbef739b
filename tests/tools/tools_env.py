"""Shared by the tool tests: paths of the tools, running them, and the
in-tree `acl` module (through tests/py/npu_env)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "py"))

from npu_env import REPO, PYTHON_DIR, acl, needs_device  # noqa: E402,F401

SMI = os.path.join(REPO, "build", "tools", "npu-sim-smi")
LOAD = os.path.join(REPO, "build", "tools", "npu-sim-load")
MODULE_KO = os.environ.get("NPU_SIM_KO",
                           os.path.join(REPO, "kernel", "npu_sim.ko"))


def run(*argv, **kwargs):
    """Run a tool; return (returncode, stdout, stderr)."""
    proc = subprocess.run(list(argv), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=kwargs.pop("timeout", 120), **kwargs)
    return proc.returncode, proc.stdout, proc.stderr
