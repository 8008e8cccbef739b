"""The shape of the `acl` module: submodules, names and constants (no device
needed)."""
import unittest

from npu_env import acl


class ModuleShape(unittest.TestCase):
    def test_submodules_import_like_pyacl(self):
        import acl.rt
        import acl.util
        from acl import rt, util
        self.assertIs(rt, acl.rt)
        self.assertIs(util, acl.util)

    def test_pyacl_function_names(self):
        for name in ("init", "finalize", "get_soc_name"):
            self.assertTrue(callable(getattr(acl, name)), name)
        for name in ("set_device", "reset_device", "get_device",
                     "get_device_count", "get_run_mode", "malloc",
                     "malloc_align32", "malloc_cached", "malloc_with_cfg",
                     "free", "free_with_dev_sync", "malloc_host", "free_host",
                     "memcpy", "memcpy2d", "memset", "get_mem_info"):
            self.assertTrue(callable(getattr(acl.rt, name)), name)
        for name in ("bytes_to_ptr", "ptr_to_bytes", "numpy_to_ptr"):
            self.assertTrue(callable(getattr(acl.util, name)), name)

    def test_policy_constants(self):
        self.assertEqual(acl.ACL_MEM_MALLOC_HUGE_FIRST, 0)
        self.assertEqual(acl.ACL_MEM_MALLOC_HUGE_ONLY, 1)
        self.assertEqual(acl.ACL_MEM_MALLOC_NORMAL_ONLY, 2)
        self.assertEqual(acl.ACL_MEM_MALLOC_HUGE1G_ONLY, 6)
        self.assertEqual(acl.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7)
        self.assertEqual(acl.ACL_MEM_TYPE_LOW_BAND_WIDTH, 0x100)
        self.assertEqual(acl.ACL_MEM_TYPE_HIGH_BAND_WIDTH, 0x1000)
        self.assertEqual(acl.ACL_MEM_ACCESS_USER_SPACE_READONLY, 0x100000)

    def test_copy_kind_constants(self):
        kinds = ["HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST",
                 "DEVICE_TO_DEVICE", "DEFAULT", "HOST_TO_BUF_TO_DEVICE",
                 "INNER_DEVICE_TO_DEVICE", "INTER_DEVICE_TO_DEVICE"]
        for value, kind in enumerate(kinds):
            self.assertEqual(getattr(acl, "ACL_MEMCPY_" + kind), value)

    def test_error_and_attr_constants(self):
        self.assertEqual(acl.ACL_SUCCESS, 0)
        self.assertEqual(acl.ACL_ERROR_INVALID_PARAM, 100000)
        self.assertEqual(acl.ACL_ERROR_REPEAT_INITIALIZE, 100002)
        self.assertEqual(acl.ACL_ERROR_RT_PARAM_INVALID, 107000)
        self.assertEqual(acl.ACL_ERROR_RT_MEMORY_ALLOCATION, 207001)
        self.assertEqual(acl.ACL_ERROR_FEATURE_UNSUPPORTED, 200006)
        self.assertEqual(acl.ACL_DDR_MEM, 0)
        self.assertEqual(acl.ACL_HBM_MEM, 1)
        self.assertEqual(acl.ACL_HBM_MEM_HUGE1G, 10)
        self.assertEqual(acl.ACL_MEM_P2P_HUGE1G, 17)
        self.assertEqual(acl.ACL_HOST, 1)


if __name__ == "__main__":
    unittest.main()
