"""acl.rt managed (UVM) memory calls: mem_alloc_managed, mem_managed_advise
(location as a dict), mem_managed_prefetch_async, free; host access through
the pointer with ctypes.  Needs /dev/npu_sim0 (see npu_env)."""
import ctypes
import unittest

from npu_env import acl, needs_device

MiB = 1 << 20
DEVICE = {"type": 1, "id": 0}      # ACL_MEM_LOCATIONTYPE_DEVICE
HOST = {"type": 2, "id": 0}        # ACL_MEM_LOCATIONTYPE_HOST
MANAGED = "/sys/kernel/debug/npu_sim/npu_sim0/managed"


def counters(ptr):
    with open(MANAGED) as f:
        head = f.readline().split()
        for line in f:
            cols = line.split()
            if int(cols[2], 16) == ptr:
                return dict(zip(head, cols))
    return None


@needs_device
class Managed(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_alloc_advise_prefetch_free(self):
        self.assertEqual(acl.rt.mem_alloc_managed(MiB, 0)[1], acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.mem_alloc_managed(0, 1)[1], acl.ACL_ERROR_RT_PARAM_INVALID)
        ptr, ret = acl.rt.mem_alloc_managed(3 * MiB, 1)
        self.assertEqual(ret, 0)
        self.assertEqual(ptr % (2 * MiB), 0)
        self.assertEqual(counters(ptr)["size"], str(4 * MiB))

        ctypes.memset(ptr, 0x5A, 4 * MiB)            # host writes, strict mode
        self.assertEqual(counters(ptr)["cpu_faults"], "2")

        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.mem_managed_prefetch_async(ptr, 4 * MiB, DEVICE, 1, stream),
                         acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.mem_managed_prefetch_async(ptr, 4 * MiB, DEVICE, 0, stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        c = counters(ptr)
        self.assertEqual((c["h2d"], c["res_dev"]), ("2", "2"))

        self.assertEqual(acl.rt.mem_managed_advise(ptr, 2 * MiB, 0, HOST), 0)   # SET_READ_MOSTLY
        self.assertEqual(counters(ptr)["read_mostly"], "1")
        self.assertEqual(ctypes.string_at(ptr, 4), b"\x5a" * 4)
        self.assertEqual(acl.rt.mem_managed_advise(ptr, MiB, 0, HOST), acl.ACL_ERROR_RT_PARAM_INVALID)
        with self.assertRaises(TypeError):
            acl.rt.mem_managed_advise(ptr, 2 * MiB, 2, 1)

        self.assertEqual(acl.rt.destroy_stream(stream), 0)
        self.assertEqual(acl.rt.free(ptr), 0)
        self.assertIsNone(counters(ptr))


if __name__ == "__main__":
    unittest.main()
