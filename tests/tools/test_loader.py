"""npu-sim-load against the real module: status, refusing to unload busy
devices (naming the process), unloading, loading with parameters.  Needs
root and the module loaded; leaves it loaded with its original parameters.
"""
import os
import subprocess
import sys
import time
import unittest

from tools_env import LOAD, MODULE_KO, PYTHON_DIR, SMI, needs_device, run

PARAMS_DIR = "/sys/module/npu_sim/parameters"
PARAM_NAMES = ("num_devices", "hbm_mib", "host_access", "va_window_gib")


def loaded():
    return os.path.exists("/sys/module/npu_sim")


def current_params():
    params = []
    for name in PARAM_NAMES:
        try:
            with open(os.path.join(PARAMS_DIR, name)) as f:
                value = f.read().strip()
            # bool parameters read back as Y/N; the loader takes 1/0
            value = {"Y": "1", "N": "0"}.get(value, value)
            params.append("%s=%s" % (name, value))
        except OSError:
            pass
    return params


def unload_when_idle(timeout=10):
    """Unload, retrying while a just-exited process still holds a device."""
    deadline = time.time() + timeout
    while True:
        rc, out, err = run(LOAD, "unload")
        if rc == 0 or time.time() > deadline:
            return rc, out, err
        time.sleep(0.2)


@needs_device
class Loader(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.params = current_params()

    @classmethod
    def tearDownClass(cls):
        # put back what the VM runner loaded
        if loaded() and current_params() == cls.params:
            return
        if loaded():
            unload_when_idle()
        rc, _, err = run(LOAD, "load", "--module", MODULE_KO, *cls.params)
        if rc != 0:
            # later tests would all fail: say why here
            sys.stderr.write("test_loader: cannot restore npu_sim: %s" % err)

    def test_1_status(self):
        rc, out, _ = run(LOAD, "status")
        self.assertEqual(rc, 0)
        self.assertIn("npu_sim: loaded", out)
        self.assertIn("/dev/npu_sim0: capacity", out)
        for param in self.params:
            self.assertIn(param, out)

    def test_2_refuses_bad_parameters(self):
        for bad in ("bogus=1", "hbm_mib", "hbm_mib=-5", "hbm_mib=12x"):
            rc, _, err = run(LOAD, "load", bad)
            self.assertEqual(rc, 2, bad)
            self.assertIn("bad parameter", err)
        rc, _, err = run(LOAD, "frobnicate")
        self.assertEqual(rc, 2)

    def test_3_refuses_to_load_twice(self):
        rc, _, err = run(LOAD, "load", "--module", MODULE_KO)
        self.assertEqual(rc, 1)
        self.assertIn("already loaded", err)

    def test_4_refuses_to_unload_busy_devices(self):
        code = ("import sys, acl; acl.rt.set_device(0); "
                "p, r = acl.rt.malloc(4096, 2); print('ready', r, flush=True); "
                "sys.stdin.read()")
        holder = subprocess.Popen([sys.executable, "-c", code],
                                  env=dict(os.environ, PYTHONPATH=PYTHON_DIR),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  universal_newlines=True)
        try:
            self.assertEqual(holder.stdout.readline().strip(), "ready 0")
            rc, _, err = run(LOAD, "unload")
            self.assertEqual(rc, 1)
            self.assertIn("devices are busy", err)
            self.assertIn("pid %d (" % holder.pid, err)
            self.assertIn("/dev/npu_sim0", err)
            self.assertTrue(loaded())
        finally:
            holder.stdin.close()
            holder.wait(timeout=60)

    def test_5_unload_and_load_with_parameters(self):
        rc, out, err = unload_when_idle()
        self.assertEqual(rc, 0, err)
        self.assertIn("unloaded", out)
        self.assertFalse(loaded())
        rc, _, err = run(LOAD, "unload")
        self.assertEqual(rc, 1)
        self.assertIn("not loaded", err)
        rc, out, _ = run(LOAD, "status")
        self.assertEqual(rc, 1)
        self.assertIn("not loaded", out)
        rc, _, err = run(SMI)
        self.assertEqual(rc, 1)
        self.assertIn("module is not loaded", err)

        rc, out, err = run(LOAD, "load", "num_devices=3", "hbm_mib=64",
                           "host_access=1", "--module", MODULE_KO)
        self.assertEqual(rc, 0, err)
        self.assertIn("num_devices=3 hbm_mib=64 host_access=1", out)
        self.assertEqual(sorted(os.listdir("/sys/class/npu_sim")),
                         ["npu_sim0", "npu_sim1", "npu_sim2"])
        for dev in range(3):
            with open("/sys/class/npu_sim/npu_sim%d/capacity_bytes" % dev) as f:
                self.assertEqual(int(f.read()), 64 << 20)
            with open("/sys/class/npu_sim/npu_sim%d/host_access" % dev) as f:
                self.assertEqual(f.read().strip(), "1")
        self.assertTrue(os.path.exists("/dev/npu_sim2"))

    def test_6_load_with_profile(self):
        rc, _, err = run(LOAD, "load", "--profile", "atlas-a4")
        self.assertEqual(rc, 2)
        self.assertIn("unknown profile 'atlas-a4'; valid profiles: ascend950 atlas-a3 "
                      "atlas-a2 atlas-200i-500-a2 atlas-inference atlas-training", err)
        if loaded():
            rc, _, err = unload_when_idle()
            self.assertEqual(rc, 0, err)
        rc, out, err = run(LOAD, "load", "--profile", "atlas-inference",
                           "--module", MODULE_KO)
        self.assertEqual(rc, 0, err)
        self.assertIn("with profile=atlas-inference", out)
        for dev in range(2):
            base = "/sys/class/npu_sim/npu_sim%d/" % dev
            with open(base + "profile") as f:
                self.assertEqual(f.read(), "atlas-inference\n")
            with open(base + "soc_name") as f:
                self.assertEqual(f.read(), "Ascend310P3\n")
            with open(base + "capacity_bytes") as f:
                self.assertEqual(int(f.read()), 768 << 20)  # the profile's default
        rc, out, _ = run(LOAD, "status")
        self.assertEqual(rc, 0)
        self.assertIn("profile: atlas-inference (Atlas inference products, SoC Ascend310P3)", out)


if __name__ == "__main__":
    unittest.main()
