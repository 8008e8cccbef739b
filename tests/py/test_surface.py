"""The `acl` calls added for issue 24 against the real module: the
top-level error message, finalize_reference, get_version and data buffers;
acl.rt reset_device_force, destroy_stream_force, device_get_bare_tgid,
value_write / value_wait, host registration and IPC memory keys (imported
by a second process).  Exact codes and bytes, success and bad input."""
import mmap
import os
import subprocess
import sys
import unittest

from npu_env import acl, needs_device, PYTHON_DIR

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
ptr_of = acl.util.bytes_to_ptr


class TopLevel(unittest.TestCase):
    def test_version(self):
        self.assertEqual(acl.get_version(), (1, 17, 0, 0))

    def test_recent_err_msg(self):
        acl.get_recent_err_msg()
        self.assertIsNone(acl.get_recent_err_msg())
        self.assertEqual(acl.destroy_data_buffer(0), acl.ACL_ERROR_INVALID_PARAM)
        msg = acl.get_recent_err_msg()
        self.assertIn("aclDestroyDataBuffer:", msg)
        self.assertIn("(error 100000 ACL_ERROR_INVALID_PARAM)", msg)
        self.assertIsNone(acl.get_recent_err_msg())     # reading cleared it

    def test_data_buffer(self):
        buf = acl.create_data_buffer(0x10000, 4096)
        self.assertNotEqual(buf, 0)
        self.assertEqual(acl.get_data_buffer_addr(buf), 0x10000)
        self.assertEqual(acl.get_data_buffer_size(buf), 4096)
        self.assertEqual(acl.get_data_buffer_size_v2(buf), 4096)
        self.assertEqual(acl.update_data_buffer(buf, 0x20000, (1 << 33) + 5), 0)
        self.assertEqual(acl.get_data_buffer_addr(buf), 0x20000)
        self.assertEqual(acl.get_data_buffer_size_v2(buf), (1 << 33) + 5)
        self.assertEqual(acl.get_data_buffer_size(buf), 5)          # 32 bits
        self.assertEqual(acl.destroy_data_buffer(buf), 0)
        # a dead descriptor: errors and zeros, nothing else
        self.assertEqual(acl.destroy_data_buffer(buf), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.update_data_buffer(buf, 0, 1), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.get_data_buffer_addr(buf), 0)
        self.assertEqual(acl.get_data_buffer_size_v2(buf), 0)
        with self.assertRaises(OverflowError):
            acl.create_data_buffer(-1, 1)
        with self.assertRaises(TypeError):
            acl.get_data_buffer_addr("x")

    def test_finalize_reference(self):
        while acl.finalize() == 0:
            pass
        self.assertEqual(acl.finalize_reference(), (0, acl.ACL_ERROR_REPEAT_FINALIZE))
        self.assertEqual(acl.init(), 0)
        self.assertEqual(acl.init(), acl.ACL_ERROR_REPEAT_INITIALIZE)
        self.assertEqual(acl.finalize_reference(), (1, 0))
        self.assertEqual(acl.finalize_reference(), (0, 0))
        self.assertEqual(acl.finalize_reference(), (0, acl.ACL_ERROR_REPEAT_FINALIZE))


IMPORTER = """
import sys
sys.path.insert(0, sys.argv[1])
import acl
acl.init()
acl.rt.set_device(0)
if len(sys.argv) > 3:
    sys.stdin.readline()    # until the parent has whitelisted this process
ptr, ret = acl.rt.ipc_mem_import_by_key(sys.argv[2], 0)
out = bytearray(8)
r2 = acl.rt.memcpy(acl.util.bytes_to_ptr(out), 8, ptr, 8, acl.ACL_MEMCPY_DEVICE_TO_HOST) if ret == 0 else -1
print(ret, r2, out.hex())
"""


@needs_device
class Runtime(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        acl.rt.reset_device_force(0)

    def test_bare_tgid(self):
        self.assertEqual(acl.rt.device_get_bare_tgid(), (os.getpid(), 0))

    def test_reset_device_force(self):
        self.assertEqual(acl.rt.set_device(0), 0)       # twice
        self.assertEqual(acl.rt.reset_device_force(0), 0)
        self.assertEqual(acl.rt.get_device()[1], acl.ACL_ERROR_RT_CONTEXT_NULL)
        self.assertEqual(acl.rt.reset_device_force(4096), acl.ACL_ERROR_RT_INVALID_DEVICEID)
        self.assertEqual(acl.rt.set_device(0), 0)

    def test_destroy_stream_force_and_values(self):
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        dev, ret = acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.memset(dev, 4096, 0, 4096), 0)
        self.assertEqual(acl.rt.value_write(dev, 0x1122334455667788, 0, stream), 0)
        self.assertEqual(acl.rt.value_wait(dev, 0x1122334455667788, acl.ACL_STREAM_WAIT_VALUE_EQ,
                                           stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        out = bytearray(8)
        self.assertEqual(acl.rt.memcpy(ptr_of(out), 8, dev, 8, D2H), 0)
        self.assertEqual(bytes(out), (0x1122334455667788).to_bytes(8, "little"))
        self.assertEqual(acl.rt.value_write(0, 1, 0, stream), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.value_wait(dev, 1, 99, stream), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.destroy_stream_force(stream), 0)
        self.assertEqual(acl.rt.destroy_stream_force(stream), acl.ACL_ERROR_RT_INVALID_HANDLE)  # dead
        self.assertEqual(acl.rt.destroy_stream_force(0), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.free(dev), 0)

    def test_host_register(self):
        page = mmap.mmap(-1, 8192)
        host = ptr_of(page)
        dev, ret = acl.rt.host_register(host, 8192, acl.ACL_HOST_REGISTER_MAPPED)
        self.assertEqual(ret, 0)
        self.assertNotEqual(dev, 0)
        self.assertEqual(acl.rt.host_get_device_pointer(host + 100, 0), (dev + 100, 0))
        data = bytes(range(64))
        self.assertEqual(acl.rt.memcpy(dev, 64, ptr_of(data), 64, H2D), 0)
        self.assertEqual(page[:64], data)               # written through to the host
        self.assertEqual(acl.rt.host_register(host, 8192, acl.ACL_HOST_REGISTER_MAPPED)[1],
                         acl.ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
        self.assertEqual(acl.rt.host_unregister(host), 0)
        self.assertEqual(acl.rt.host_unregister(host), acl.ACL_ERROR_HOST_MEMORY_NOT_REGISTERED)
        self.assertEqual(acl.rt.host_get_device_pointer(host, 0),
                         (0, acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.host_register_v2(host, 8192, acl.ACL_HOST_REG_MAPPED), 0)
        dev2, ret = acl.rt.host_get_device_pointer(host, 0)
        self.assertEqual(ret, 0)
        self.assertNotEqual(dev2, 0)
        self.assertEqual(acl.rt.host_register_v2(host, 8192, 0x1), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.host_unregister(host), 0)
        self.assertEqual(acl.rt.host_register(0, 8192, acl.ACL_HOST_REGISTER_MAPPED)[1],
                         acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.host_unregister(0), acl.ACL_ERROR_INVALID_PARAM)
        page.close()

    def test_ipc_key_to_another_process(self):
        dev, ret = acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        data = bytes.fromhex("0123456789abcdef")
        self.assertEqual(acl.rt.memcpy(dev, 8, ptr_of(data), 8, H2D), 0)
        key, ret = acl.rt.ipc_mem_get_export_key(dev, 4096, acl.ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT)
        self.assertEqual(ret, 0)
        self.assertTrue(key.startswith("npusim-ipc-"))
        self.assertEqual(len(key), 27)
        # not whitelisted yet: the other process is refused; then it may import
        run = [sys.executable, "-c", IMPORTER, PYTHON_DIR, key]
        refused = subprocess.run(run, stdout=subprocess.PIPE, universal_newlines=True, check=True)
        self.assertEqual(refused.stdout.split()[0], str(acl.ACL_ERROR_RT_NO_PERMISSION))
        child = subprocess.Popen(run + ["wait"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 universal_newlines=True)
        self.assertEqual(acl.rt.ipc_mem_set_import_pid(key, [child.pid]), 0)
        out, _ = child.communicate("go\n")
        self.assertEqual(child.returncode, 0)
        self.assertEqual(out.split(), ["0", "0", "0123456789abcdef"])
        self.assertEqual(acl.rt.ipc_mem_set_import_pid(key, []), acl.ACL_ERROR_RT_PARAM_INVALID)
        with self.assertRaises(TypeError):
            acl.rt.ipc_mem_set_import_pid(key, ["x"])
        self.assertEqual(acl.rt.ipc_mem_get_export_key(0, 4096, 0), ("", acl.ACL_ERROR_INVALID_PARAM))
        self.assertEqual(acl.rt.ipc_mem_get_export_key(dev, 0, 0), ("", acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.ipc_mem_close(key), 0)
        self.assertEqual(acl.rt.ipc_mem_import_by_key(key, 0), (0, acl.ACL_ERROR_RT_INVALID_HANDLE))
        self.assertEqual(acl.rt.free(dev), 0)


if __name__ == "__main__":
    unittest.main()
