"""The module in a virtual environment: `make` builds a wheel with pip from
python/pyproject.toml and pip-installs it into build/python/venv (a venv
with --system-site-packages, for Debian's numpy); the pyACL-style numpy
sample runs with that venv's python against the real module.  (pip itself
takes minutes in the emulated guest, so the install is done on the host.)"""
import os
import re
import subprocess
import unittest

from npu_env import REPO, HAVE_NUMPY, needs_device

VENV = os.path.join(REPO, "build", "python", "venv")
PYTHON = os.path.join(VENV, "bin", "python")
SAMPLE = os.path.join(REPO, "python", "samples", "numpy_sample.py")


def run(argv):
    # no PYTHONPATH: the module must come from the venv
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=300, env=env, cwd="/")
    return proc.returncode, proc.stdout


def dkms_version():
    with open(os.path.join(REPO, "dkms.conf")) as f:
        return re.search(r'^PACKAGE_VERSION="([^"]+)"', f.read(), re.M).group(1)


@unittest.skipUnless(os.path.exists(os.path.join(VENV, ".installed"))
                     or os.environ.get("NPU_SIM_REQUIRE_DEVICE") == "1",
                     "no build/python/venv (pip, setuptools or wheel missing at make)")
class Venv(unittest.TestCase):
    def test_installed_by_pip(self):
        code = ("import acl, importlib.metadata as m; print(acl.__file__); "
                "d = m.distribution('npu-sim-acl'); "
                "print(d.version, d.read_text('INSTALLER').strip())")
        rc, out = run([PYTHON, "-c", code])
        self.assertEqual(rc, 0, out)
        path, meta = out.splitlines()
        self.assertTrue(path.startswith(os.path.join(VENV, "lib") + os.sep), path)
        self.assertEqual(meta, "%s pip" % dkms_version())

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    @needs_device
    def test_numpy_sample(self):
        rc, out = run([PYTHON, SAMPLE])
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.splitlines()[-2:], [
            "copied a (256, 1024) float32 array to the device and back: identical",
            "numpy sample: ok"])


if __name__ == "__main__":
    unittest.main()
