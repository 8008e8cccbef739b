"""pip installs the module into a virtual environment (python/pyproject.toml)
and the pyACL-style numpy sample runs from it against the real module."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from npu_env import REPO, HAVE_NUMPY, needs_device

PY_SRC = os.path.join(REPO, "python")


def run(argv, **kwargs):
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=600, **kwargs)
    return proc.returncode, proc.stdout


@unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
class VenvInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="acl-venv-")
        cls.venv = os.path.join(cls.tmp, "venv")
        cls.python = os.path.join(cls.venv, "bin", "python")
        # the checkout may be read-only (the VM): build from a copy of
        # python/, finding libacl_rt and the headers through NPU_SIM_ROOT
        src = os.path.join(cls.tmp, "src")
        shutil.copytree(PY_SRC, src, ignore=shutil.ignore_patterns(
            "build", "*.egg-info", "__pycache__"))
        # no PYTHONPATH: the module must come from the venv
        cls.env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        # --without-pip saves installing pip into the venv (slow in the VM):
        # the venv sees Debian's pip through --system-site-packages, and
        # `python -m pip` of the venv installs into the venv
        rc, out = run(["/usr/bin/python3", "-m", "venv", "--system-site-packages",
                       "--without-pip", cls.venv], env=cls.env)
        if rc != 0:
            raise AssertionError("venv failed: " + out)
        rc, out = run([cls.python, "-m", "pip", "install", "--no-build-isolation",
                       "--no-index", "--no-cache-dir", src],
                      env=dict(cls.env, NPU_SIM_ROOT=REPO), cwd=cls.tmp)
        cls.install = (rc, out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_installed_into_venv(self):
        rc, out = self.install
        self.assertEqual(rc, 0, out)
        self.assertIn("Successfully installed npu-sim-acl", out)
        rc, out = run([self.python, "-c", "import acl; print(acl.__file__)"],
                      env=self.env, cwd=self.tmp)
        self.assertEqual(rc, 0, out)
        self.assertTrue(out.startswith(os.path.join(self.venv, "lib")), out)
        rc, out = run([self.python, "-m", "pip", "show", "npu-sim-acl"],
                      env=self.env, cwd=self.tmp)
        self.assertEqual(rc, 0, out)
        self.assertIn("Name: npu-sim-acl", out)

    @needs_device
    def test_numpy_sample_from_venv(self):
        self.assertEqual(self.install[0], 0, self.install[1])
        sample = os.path.join(PY_SRC, "samples", "numpy_sample.py")
        rc, out = run([self.python, sample], env=self.env, cwd=self.tmp)
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.splitlines()[-2:], [
            "copied a (256, 1024) float32 array to the device and back: identical",
            "numpy sample: ok"])


if __name__ == "__main__":
    unittest.main()
