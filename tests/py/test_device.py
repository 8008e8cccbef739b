"""The `acl` module against the real module: devices, malloc family, copies
both ways, memset, get_mem_info.  Needs /dev/npu_sim0 (see npu_env)."""
import glob
import os
import subprocess
import sys
import unittest

from npu_env import acl, needs_device, HAVE_NUMPY, REPO, PYTHON_DIR

if HAVE_NUMPY:
    import numpy

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
D2D = acl.ACL_MEMCPY_DEVICE_TO_DEVICE
MiB = 1 << 20


def strict_mode():
    try:
        with open("/sys/class/npu_sim/npu_sim0/host_access") as f:
            return f.read().strip() == "0"
    except OSError:
        return False


@needs_device
class Device(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.to_free = []

    def tearDown(self):
        for ptr in self.to_free:
            acl.rt.free(ptr)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def malloc(self, size, policy=acl.ACL_MEM_MALLOC_HUGE_FIRST):
        ptr, ret = acl.rt.malloc(size, policy)
        self.assertEqual(ret, 0)
        self.to_free.append(ptr)
        return ptr

    def test_soc_name_of_the_profile(self):
        # the module's profile (sysfs) names the SoC acl.get_soc_name() gives
        with open("/sys/class/npu_sim/npu_sim0/profile") as f:
            profile = f.read().strip()
        soc = {"ascend950": "Ascend950PR_9599", "atlas-a3": "Ascend910_9391",
               "atlas-a2": "Ascend910B1", "atlas-200i-500-a2": "Ascend310B1",
               "atlas-inference": "Ascend310P3", "atlas-training": "Ascend910A"}
        self.assertEqual(acl.get_soc_name(), soc[profile])

    def test_device_queries(self):
        self.assertEqual(acl.rt.get_device(), (0, 0))
        count, ret = acl.rt.get_device_count()
        self.assertEqual(ret, 0)
        # one device per class device the module made
        self.assertEqual(count, len(glob.glob("/sys/class/npu_sim/npu_sim[0-9]*")))
        self.assertEqual(acl.rt.get_run_mode(), (acl.ACL_HOST, 0))
        self.assertEqual(acl.rt.set_device(count), acl.ACL_ERROR_RT_INVALID_DEVICEID)

    def test_malloc_free(self):
        ptr, ret = acl.rt.malloc(100, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.assertNotEqual(ptr, 0)
        self.assertEqual(ptr % 64, 0)
        self.assertEqual(acl.rt.free(ptr + 64),   # interior pointer: the driver's refusal
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.free(ptr), 0)
        self.assertEqual(acl.rt.free(ptr), acl.ACL_ERROR_RT_PARAM_INVALID)  # second free

    def test_malloc_variants(self):
        for fn in (acl.rt.malloc_align32, acl.rt.malloc_cached):
            ptr, ret = fn(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST)
            self.assertEqual(ret, 0, fn.__name__)
            self.assertEqual(acl.rt.free(ptr), 0)
        ptr, ret = acl.rt.malloc_with_cfg(4096, 0, {})
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.free_with_dev_sync(ptr), 0)
        ptr, ret = acl.rt.malloc_with_cfg(4096, 0, None)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.free(ptr), 0)

    def test_round_trip_bytes(self):
        data = os.urandom(MiB + 123)
        dev = self.malloc(len(data))
        self.assertEqual(acl.rt.memcpy(dev, len(data), acl.util.bytes_to_ptr(data),
                                       len(data), H2D), 0)
        out = bytearray(len(data))
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(out), len(out), dev,
                                       len(data), D2H), 0)
        self.assertEqual(bytes(out), data)

    def test_device_to_device_and_host_memory(self):
        data = bytes(range(256)) * 64
        a, b = self.malloc(len(data)), self.malloc(len(data))
        host, ret = acl.rt.malloc_host(len(data))
        self.assertEqual(ret, 0)
        self.assertEqual(host % 64, 0)
        try:
            self.assertEqual(acl.rt.memcpy(a, len(data), acl.util.bytes_to_ptr(data),
                                           len(data), H2D), 0)
            self.assertEqual(acl.rt.memcpy(b, len(data), a, len(data), D2D), 0)
            self.assertEqual(acl.rt.memcpy(host, len(data), b, len(data), D2H), 0)
            self.assertEqual(acl.util.ptr_to_bytes(host, len(data)), data)
        finally:
            self.assertEqual(acl.rt.free_host(host), 0)

    def test_peer_access_between_two_devices(self):
        data = bytes(range(251)) * 40
        n = len(data)
        can, ret = acl.rt.device_can_access_peer(0, 1)
        self.assertEqual((can, ret), (1, 0))
        self.assertEqual(acl.rt.device_can_access_peer(1, 1)[1], acl.ACL_ERROR_INVALID_PARAM)
        count, ret = acl.rt.get_device_count()
        self.assertEqual(acl.rt.device_can_access_peer(0, count)[1],
                         acl.ACL_ERROR_RT_INVALID_DEVICEID)
        self.assertEqual(acl.rt.set_device(1), 0)
        extra0 = False
        try:
            src = self.malloc(n)           # on device 1
            self.assertEqual(acl.rt.memcpy(src, n, acl.util.bytes_to_ptr(data), n, H2D), 0)
            self.assertEqual(acl.rt.set_device(0), 0)
            extra0 = True
            dst = self.malloc(n)           # on device 0
            self.assertEqual(acl.rt.memcpy(dst, n, src, n, D2D),
                             acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
            self.assertEqual(acl.rt.device_enable_peer_access(1, 1),
                             acl.ACL_ERROR_FEATURE_UNSUPPORTED)
            self.assertEqual(acl.rt.device_enable_peer_access(0, 0), acl.ACL_ERROR_INVALID_PARAM)
            self.assertEqual(acl.rt.device_enable_peer_access(1, 0), 0)
            self.assertEqual(acl.rt.memcpy(dst, n, src, n, D2D), 0)
            out = bytearray(n)
            self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(out), n, dst, n, D2H), 0)
            self.assertEqual(bytes(out), data)
            self.assertEqual(acl.rt.device_disable_peer_access(1), 0)
            self.assertEqual(acl.rt.device_disable_peer_access(1), acl.ACL_ERROR_RT_PARAM_INVALID)
            self.assertEqual(acl.rt.memcpy(dst, n, src, n, D2D),
                             acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        finally:
            for ptr in self.to_free:
                acl.rt.free(ptr)
            self.to_free = []
            self.assertEqual(acl.rt.reset_device(1), 0)
            if extra0:
                self.assertEqual(acl.rt.reset_device(0), 0)

    def test_copy_errors_as_in_c(self):
        dev = self.malloc(4096)
        src = bytes(8192)
        # count > dest_max
        self.assertEqual(acl.rt.memcpy(dev, 4096, acl.util.bytes_to_ptr(src), 8192, H2D),
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        # kind outside the enum
        self.assertEqual(acl.rt.memcpy(dev, 4096, acl.util.bytes_to_ptr(src), 16, 99),
                         acl.ACL_ERROR_INVALID_PARAM)

    def test_memset_and_memcpy2d(self):
        dev = self.malloc(64 * 64)
        self.assertEqual(acl.rt.memset(dev, 64 * 64, 0x1A7, 64 * 64), 0)
        self.assertEqual(acl.rt.memset(dev, 16, 0, 32),  # count > max
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        out = bytearray(16 * 8)
        # 8 rows of 16 bytes from a 64-byte pitch into a packed buffer
        self.assertEqual(acl.rt.memcpy2d(acl.util.bytes_to_ptr(out), 16, dev, 64,
                                         16, 8, D2H), 0)
        self.assertEqual(bytes(out), b"\xa7" * 128)

    def test_get_mem_info_follows_allocations(self):
        free0, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        self.assertEqual(ret, 0)
        self.assertGreater(total, 0)
        self.assertLessEqual(free0, total)
        ptr, ret = acl.rt.malloc(4 * MiB, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        free1, _, _ = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        self.assertGreaterEqual(free0 - free1, 4 * MiB)
        self.assertEqual(acl.rt.free(ptr), 0)
        free2, _, _ = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        self.assertEqual(free2, free0)

    def test_capacity_exceeded_is_allocation_error(self):
        _, total, _ = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        self.assertEqual(acl.rt.malloc(total + MiB, acl.ACL_MEM_MALLOC_NORMAL_ONLY),
                         (0, acl.ACL_ERROR_RT_MEMORY_ALLOCATION))

    @unittest.skipUnless(strict_mode(), "device 0 is in host-access mode")
    def test_reading_device_memory_from_host_raises(self):
        dev = self.malloc(4096)
        with self.assertRaises(ValueError):
            acl.util.ptr_to_bytes(dev, 16)

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_numpy_round_trip(self):
        arr = numpy.arange(256 * 1024, dtype=numpy.float32)
        dev = self.malloc(arr.nbytes)
        self.assertEqual(acl.rt.memcpy(dev, arr.nbytes, acl.util.numpy_to_ptr(arr),
                                       arr.nbytes, H2D), 0)
        out = numpy.empty_like(arr)
        self.assertEqual(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, dev,
                                       arr.nbytes, D2H), 0)
        self.assertTrue((out == arr).all())


@needs_device
class MemorySample(unittest.TestCase):
    def test_pyacl_style_sample_runs(self):
        sample = os.path.join(REPO, "python", "samples", "memory_sample.py")
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        run = subprocess.run([sys.executable, sample], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertIn("copied 1048576 bytes to the device and back: identical",
                      run.stdout)
        self.assertIn("memory sample: ok", run.stdout)


if __name__ == "__main__":
    unittest.main()
