"""acl.rt.get_mem_uce_info / mem_uce_repair: an npu_sim device's memory
never has an uncorrectable error, so there are no records and a repair
finds nothing to do; the codes of bad calls (include/acl/acl_rt.h).  The
default product (atlas-a2) has the runtime's fast recovery.  Needs
/dev/npu_sim0 (see npu_env)."""
import unittest

from npu_env import acl, needs_device

INVALID = acl.ACL_ERROR_INVALID_PARAM
NO_DEVICE = acl.ACL_ERROR_RT_INVALID_DEVICEID


@needs_device
class MemUce(unittest.TestCase):
    def test_info(self):
        self.assertEqual(acl.rt.get_mem_uce_info(0, 8), ([], 0))
        self.assertEqual(acl.rt.get_mem_uce_info(0, 0), ([], 0))
        self.assertEqual(acl.rt.get_mem_uce_info(99, 8), ([], NO_DEVICE))
        self.assertEqual(acl.rt.get_mem_uce_info(-1, 8), ([], NO_DEVICE))
        self.assertRaises(OverflowError, acl.rt.get_mem_uce_info, 0, -1)
        self.assertRaises(TypeError, acl.rt.get_mem_uce_info, "0", 8)

    def test_repair(self):
        entry = {"addr": 0x100000, "len": 4096, "reserved": [0] * 14}
        self.assertEqual(acl.rt.mem_uce_repair(0, []), 0)
        self.assertEqual(acl.rt.mem_uce_repair(0, [entry, {"addr": 0, "len": 0}]), 0)
        self.assertEqual(acl.rt.mem_uce_repair(0, [entry] * 128), 0)
        self.assertEqual(acl.rt.mem_uce_repair(0, [entry] * 129), INVALID)
        self.assertEqual(acl.rt.mem_uce_repair(0, [dict(entry, reserved=[1])]), INVALID)
        self.assertEqual(acl.rt.mem_uce_repair(99, [entry]), NO_DEVICE)
        self.assertRaises(TypeError, acl.rt.mem_uce_repair, 0, entry)
        self.assertRaises(TypeError, acl.rt.mem_uce_repair, 0, [1])
        self.assertRaises(KeyError, acl.rt.mem_uce_repair, 0, [{"len": 1}])
        self.assertRaises(ValueError, acl.rt.mem_uce_repair, 0, [dict(entry, reserved=[0] * 15)])


if __name__ == "__main__":
    unittest.main()
