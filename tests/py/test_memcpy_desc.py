"""acl.rt.get_memcpy_desc_size, set_memcpy_desc and memcpy_async_with_desc
(the pyACL spellings of the memcpy descriptor calls) against the real
module: the descriptor's size and bytes, the bytes copied, the codes."""
import struct
import unittest

from npu_env import acl, needs_device

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
INNER = acl.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
ptr_of = acl.util.bytes_to_ptr


@needs_device
class MemcpyDesc(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        self.assertEqual(acl.rt.reset_device(0), 0)

    def malloc(self, n):
        p, ret = acl.rt.malloc(n, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.memset(p, n, 0, n), 0)
        return p

    def test_desc_copy(self):
        self.assertEqual(acl.rt.get_memcpy_desc_size(INNER), (32, 0))
        self.assertEqual(acl.rt.get_memcpy_desc_size(acl.ACL_MEMCPY_DEVICE_TO_DEVICE)[1],
                         acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.rt.get_memcpy_desc_size(8)[1], acl.ACL_ERROR_INVALID_PARAM)
        desc, src, dst = self.malloc(4096), self.malloc(4096), self.malloc(4096)
        data = bytes(range(256)) * 4
        self.assertEqual(acl.rt.memcpy(src, 1024, ptr_of(data), 1024, H2D), 0)
        self.assertEqual(acl.rt.set_memcpy_desc(desc, INNER, src + 8, dst + 16, 1000, 0), (desc, 0))
        raw = bytearray(32)
        self.assertEqual(acl.rt.memcpy(ptr_of(raw), 32, desc, 32, D2H), 0)
        self.assertEqual(struct.unpack("<4IQQ", bytes(raw)), (0, 0, 0, 1000, src + 8, dst + 16))
        self.assertEqual(acl.rt.set_memcpy_desc(desc, INNER, src, dst, 0, 0)[1], acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.set_memcpy_desc(desc + 8, INNER, src, dst, 8, 0)[1],
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.memcpy_async_with_desc(0, INNER, stream), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.memcpy_async_with_desc(desc, INNER, stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        out = bytearray(1100)
        self.assertEqual(acl.rt.memcpy(ptr_of(out), 1100, dst, 1100, D2H), 0)
        self.assertEqual(bytes(out), bytes(16) + data[8:1008] + bytes(84))
        self.assertEqual(acl.rt.destroy_stream(stream), 0)
        for p in (desc, src, dst):
            self.assertEqual(acl.rt.free(p), 0)


if __name__ == "__main__":
    unittest.main()
