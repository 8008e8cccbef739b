"""The pyACL functions added for issue 24 (tests/unit/check-pyacl-surface):
acl.float16_to_float / float_to_float16 / data_type_size, get_version_str /
get_cann_version, and acl.rt get_last_error / peek_at_last_error,
malloc_for_task_scheduler, malloc_host_with_cfg, mem_flush /
mem_invalidate, memcpy_async_with_condition, cmo_async,
device_peer_access_status.  Exact values and codes, success and bad input."""
import os
import tempfile
import unittest

from npu_env import acl, needs_device

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
ptr_of = acl.util.bytes_to_ptr
THREAD_LEVEL = 0        # ACL_RT_THREAD_LEVEL
PKG_CANN, PKG_RUNTIME = 0, 1
CMO_PREFETCH, CMO_FLUSH = 0, 3
ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_STRING, ACL_DT_UNDEFINED = 0, 1, 9, 13, -1
ACL_ERROR_INVALID_FILE = 100003


class Pure(unittest.TestCase):
    def test_float16(self):
        self.assertEqual(acl.float16_to_float(0x3c00), 1.0)
        self.assertEqual(acl.float16_to_float(0xc000), -2.0)
        self.assertEqual(acl.float16_to_float(0x3e00), 1.5)
        self.assertEqual(acl.float_to_float16(1.5), 0x3e00)
        self.assertEqual(acl.float_to_float16(-2.0), 0xc000)
        self.assertEqual(acl.float_to_float16(0.0), 0)
        with self.assertRaises(OverflowError):
            acl.float16_to_float(0x10000)
        with self.assertRaises(TypeError):
            acl.float_to_float16("1")

    def test_data_type_size(self):
        self.assertEqual(acl.data_type_size(ACL_FLOAT), 4)
        self.assertEqual(acl.data_type_size(ACL_FLOAT16), 2)
        self.assertEqual(acl.data_type_size(ACL_INT64), 8)
        self.assertEqual(acl.data_type_size(ACL_STRING), 0)
        self.assertEqual(acl.data_type_size(ACL_DT_UNDEFINED), 0)
        self.assertEqual(acl.data_type_size(9999), 8)    # unknown: 8, as CANN
        with self.assertRaises(OverflowError):
            acl.data_type_size(1 << 40)

    def test_last_error(self):
        acl.rt.get_last_error(THREAD_LEVEL)              # forget older ones
        self.assertEqual(acl.rt.get_last_error(THREAD_LEVEL), 0)
        self.assertEqual(acl.rt.free(0), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.peek_at_last_error(THREAD_LEVEL), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.peek_at_last_error(THREAD_LEVEL), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.peek_at_last_error(1), acl.ACL_ERROR_INVALID_PARAM)  # bad level
        self.assertEqual(acl.rt.get_last_error(1), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.get_last_error(THREAD_LEVEL), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.get_last_error(THREAD_LEVEL), 0)   # read cleared it


class Versions(unittest.TestCase):
    def setUp(self):
        self.old = os.environ.get("ASCEND_HOME_PATH")
        self.home = tempfile.TemporaryDirectory()
        info = os.path.join(self.home.name, "share", "info", "runtime")
        os.makedirs(info)
        with open(os.path.join(info, "version.info"), "w") as f:
            f.write("Version=8.5.0-beta.1\n")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("ASCEND_HOME_PATH", None)
        else:
            os.environ["ASCEND_HOME_PATH"] = self.old
        self.home.cleanup()

    def test_version_str(self):
        os.environ["ASCEND_HOME_PATH"] = self.home.name
        self.assertEqual(acl.get_version_str("runtime"), ("8.5.0-beta.1", 0))
        self.assertEqual(acl.get_version_str("hccl"), ("", ACL_ERROR_INVALID_FILE))
        os.environ.pop("ASCEND_HOME_PATH")
        self.assertEqual(acl.get_version_str("runtime"), ("", ACL_ERROR_INVALID_FILE))

    def test_cann_version(self):
        os.environ["ASCEND_HOME_PATH"] = self.home.name
        empty = dict.fromkeys(("version", "major_version", "minor_version", "release_version",
                               "patch_version", "reserved"), "")
        want = dict(empty, version="8.5.0.beta1", major_version="8", minor_version="5",
                    release_version="0", patch_version="beta1")
        self.assertEqual(acl.get_cann_version(PKG_RUNTIME), (want, 0))
        self.assertEqual(acl.get_cann_version(PKG_CANN), (want, 0))
        self.assertEqual(acl.get_cann_version(9999), (empty, acl.ACL_ERROR_INVALID_PARAM))


@needs_device
class Runtime(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        acl.rt.reset_device_force(0)

    def roundtrip(self, dev, data):
        out = bytearray(len(data))
        self.assertEqual(acl.rt.memcpy(ptr_of(out), len(out), dev, len(data), D2H), 0)
        return bytes(out)

    def test_malloc_for_task_scheduler(self):
        dev, ret = acl.rt.malloc_for_task_scheduler(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST, None)
        self.assertEqual(ret, 0)
        self.assertNotEqual(dev, 0)
        data = bytes(range(256)) * 16
        self.assertEqual(acl.rt.memcpy(dev, 4096, ptr_of(data), 4096, H2D), 0)
        self.assertEqual(self.roundtrip(dev, data), data)
        self.assertEqual(acl.rt.free(dev), 0)
        cfg = {"attrs": [{"attr": acl.ACL_RT_MEM_ATTR_DEVICE_ID, "value": 1}]}   # not current
        self.assertEqual(acl.rt.malloc_for_task_scheduler(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST, cfg),
                         (0, acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.malloc_for_task_scheduler(0, acl.ACL_MEM_MALLOC_HUGE_FIRST, None),
                         (0, acl.ACL_ERROR_INVALID_PARAM))

    def test_malloc_host_with_cfg(self):
        cfg = {"attrs": [{"attr": acl.ACL_RT_MEM_ATTR_MODULE_ID, "value": 1},
                         {"attr": acl.ACL_RT_MEM_ATTR_VA_FLAG, "value": 0}]}
        host, ret = acl.rt.malloc_host_with_cfg(100, cfg)
        self.assertEqual(ret, 0)
        self.assertNotEqual(host, 0)
        self.assertEqual(host % 64, 0)
        self.assertEqual(acl.rt.free_host(host), 0)
        host, ret = acl.rt.malloc_host_with_cfg(4096, None)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.free_host(host), 0)
        self.assertEqual(acl.rt.malloc_host_with_cfg(100, {"attrs": []}),
                         (0, acl.ACL_ERROR_RT_PARAM_INVALID))            # attrs NULL
        bad = {"attrs": [{"attr": acl.ACL_RT_MEM_ATTR_DEVICE_ID, "value": 0}]}
        self.assertEqual(acl.rt.malloc_host_with_cfg(100, bad), (0, acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.malloc_host_with_cfg(0, None), (0, acl.ACL_ERROR_INVALID_PARAM))

    def test_flush_invalidate(self):
        dev, ret = acl.rt.malloc(8192, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, 0)
        data = b"\x5a" * 8192
        self.assertEqual(acl.rt.memcpy(dev, 8192, ptr_of(data), 8192, H2D), 0)
        self.assertEqual(acl.rt.mem_flush(dev, 5000), 0)
        self.assertEqual(acl.rt.mem_invalidate(dev, 8192), 0)
        self.assertEqual(self.roundtrip(dev, data), data)                # unchanged
        self.assertEqual(acl.rt.mem_flush(0, 16), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.mem_invalidate(dev, 0), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.mem_flush((1 << 64) - 16, 32), acl.ACL_ERROR_INVALID_PARAM)  # wraps
        self.assertEqual(acl.rt.free(dev), 0)

    def test_memcpy_async_with_condition(self):
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        dev, ret = acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, 0)
        host, ret = acl.rt.malloc_host(4096)
        self.assertEqual(ret, 0)
        data = bytes(range(256)) * 16
        self.assertEqual(acl.rt.memcpy(host, 4096, ptr_of(data), 4096, acl.ACL_MEMCPY_HOST_TO_HOST), 0)
        self.assertEqual(acl.rt.memcpy_async_with_condition(dev, 4096, host, 4096, H2D, stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        self.assertEqual(self.roundtrip(dev, data), data)
        self.assertEqual(acl.rt.memcpy_async_with_condition(dev, 4096, host, 8192, H2D, stream),
                         acl.ACL_ERROR_RT_PARAM_INVALID)                   # count > dest_max
        self.assertEqual(acl.rt.memcpy_async_with_condition(0, 4096, host, 16, H2D, stream),
                         acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.free_host(host), 0)
        self.assertEqual(acl.rt.free(dev), 0)
        self.assertEqual(acl.rt.destroy_stream(stream), 0)

    def test_cmo_async(self):
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        dev, ret = acl.rt.malloc(8192, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, 0)
        data = b"\xc3" * 8192
        self.assertEqual(acl.rt.memcpy(dev, 8192, ptr_of(data), 8192, H2D), 0)
        for t in range(CMO_PREFETCH, CMO_FLUSH + 1):
            self.assertEqual(acl.rt.cmo_async(dev + 1, 8191, t, stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        self.assertEqual(self.roundtrip(dev, data), data)
        self.assertEqual(acl.rt.cmo_async(0, 64, CMO_FLUSH, stream), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.cmo_async(dev, 0, CMO_FLUSH, stream), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.cmo_async(dev, 64, 4, stream), acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.rt.free(dev), 0)
        self.assertEqual(acl.rt.destroy_stream(stream), 0)

    def test_device_peer_access_status(self):
        self.assertEqual(acl.rt.device_peer_access_status(0, 1), (0, 0))
        self.assertEqual(acl.rt.device_enable_peer_access(1, 0), 0)
        self.assertEqual(acl.rt.device_peer_access_status(0, 1), (1, 0))
        self.assertEqual(acl.rt.device_peer_access_status(0, 0), (0, 0))
        self.assertEqual(acl.rt.device_disable_peer_access(1), 0)
        self.assertEqual(acl.rt.device_peer_access_status(0, 1), (0, 0))
        self.assertEqual(acl.rt.device_peer_access_status(-1, 1), (0, acl.ACL_ERROR_RT_INVALID_DEVICEID))
        self.assertEqual(acl.rt.device_peer_access_status(0, 64), (0, acl.ACL_ERROR_RT_PARAM_INVALID))


if __name__ == "__main__":
    unittest.main()
