"""The `acl` spellings of the device information and settings calls, host
buffers and CANN attributes against the real module (default profile:
atlas-a2, SoC Ascend910B1, 2 devices of 2048 MiB): values and codes as
tests/vm/test_device_info.c checks them in C."""
import os
import tempfile
import unittest

from npu_env import acl, needs_device

PARAM_INVALID = 107000
INVALID_DEVICEID = 107001
INVALID_PARAM = 100000
FEATURE_NOT_SUPPORT = 207000


@needs_device
class DeviceInfo(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_info_and_capability(self):
        self.assertEqual(acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_AICORE_CORE_NUM), (24, 0))
        self.assertEqual(acl.rt.get_device_info(1, acl.ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE), (2048 << 20, 0))
        self.assertEqual(acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_NPU_ARCH), (2201, 0))
        self.assertEqual(acl.rt.get_device_info(2, acl.ACL_DEV_ATTR_NPU_ARCH)[1], PARAM_INVALID)
        self.assertEqual(acl.rt.get_device_info(0, 202)[1], FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.get_device_capability(0, acl.ACL_DEVICE_INFO_VECTOR_CORE_NUM), (48, 0))
        self.assertEqual(acl.get_device_capability(2, acl.ACL_DEVICE_INFO_L2_SIZE)[1], INVALID_PARAM)
        self.assertEqual(acl.rt.get_device_capability(0, 21), (0, 0))
        self.assertEqual(acl.rt.get_device_capability(0, 2)[1], PARAM_INVALID)
        self.assertEqual(acl.rt.check_arch_compatibility("Ascend910_9391"), (1, 0))
        self.assertEqual(acl.rt.check_arch_compatibility("Ascend310P3"), (0, 0))
        self.assertEqual(acl.rt.check_arch_compatibility("nope")[1], PARAM_INVALID)
        self.assertEqual(acl.rt.check_arch_compatibility(None)[1], PARAM_INVALID)
        with self.assertRaises(OverflowError):
            acl.rt.get_device_info(-1, 101)

    def test_status_uuid_ids_topo(self):
        self.assertEqual(acl.rt.query_device_status(1), (acl.ACL_RT_DEVICE_STATUS_NORMAL, 0))
        self.assertEqual(acl.rt.query_device_status(2)[1], INVALID_DEVICEID)
        info, ret = acl.rt.get_device_utilization_rate(0)
        self.assertEqual(ret, 0)
        self.assertEqual((info["cube_utilization"], info["vector_utilization"], info["aicpu_utilization"]),
                         (0, 0, 0))
        self.assertEqual(acl.rt.get_device_utilization_rate(1)[0]["memory_utilization"], -1)
        u0, ret = acl.rt.device_get_uuid(0)
        self.assertEqual((len(u0), ret), (16, 0))
        self.assertEqual(acl.rt.device_get_uuid(0), (u0, 0))
        self.assertNotEqual(acl.rt.device_get_uuid(1)[0], u0)
        self.assertEqual(acl.rt.device_get_uuid(2)[1], INVALID_DEVICEID)
        for fn in (acl.rt.get_logic_dev_id_by_phy_dev_id, acl.rt.get_phy_dev_id_by_logic_dev_id,
                   acl.rt.get_logic_dev_id_by_user_dev_id, acl.rt.get_user_dev_id_by_logic_dev_id,
                   acl.rt.get_phy_dev_id_by_user_dev_id, acl.rt.get_user_dev_id_by_phy_dev_id):
            self.assertEqual(fn(1), (1, 0))
            self.assertEqual(fn(-1)[1], PARAM_INVALID)
            self.assertEqual(fn(2)[1], INVALID_DEVICEID)
        self.assertEqual(acl.rt.get_devices_topo(0, 1), (0x10, 0))
        self.assertEqual(acl.rt.get_devices_topo(0, 2)[1], INVALID_DEVICEID)
        self.assertEqual(acl.rt.get_primary_ctx_state(0), (1, 0))
        self.assertEqual(acl.rt.get_primary_ctx_state(1), (0, 0))
        self.assertEqual(acl.rt.get_primary_ctx_state(2)[1], INVALID_DEVICEID)

    def test_settings(self):
        self.assertEqual(acl.rt.get_device_res_limit(0, acl.ACL_RT_DEV_RES_CUBE_CORE), (24, 0))
        self.assertEqual(acl.rt.set_device_res_limit(0, acl.ACL_RT_DEV_RES_CUBE_CORE, 4), 0)
        self.assertEqual(acl.rt.get_device_res_limit(0, acl.ACL_RT_DEV_RES_CUBE_CORE), (4, 0))
        self.assertEqual(acl.rt.set_device_res_limit(0, acl.ACL_RT_DEV_RES_CUBE_CORE, 25), PARAM_INVALID)
        self.assertEqual(acl.rt.set_device_res_limit(1, acl.ACL_RT_DEV_RES_CUBE_CORE, 1), 507033)
        self.assertEqual(acl.rt.reset_device_res_limit(0), 0)
        self.assertEqual(acl.rt.get_device_res_limit(0, acl.ACL_RT_DEV_RES_CUBE_CORE), (24, 0))
        self.assertEqual(acl.rt.device_set_limit(acl.ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000), 0)
        self.assertEqual(acl.rt.device_get_limit(acl.ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE), (49152, 0))
        self.assertEqual(acl.rt.device_set_limit(0, 1024), FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.rt.device_get_limit(5)[1], INVALID_PARAM)
        self.assertEqual(acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 1), 0)
        self.assertEqual(acl.rt.get_sys_param_opt(acl.ACL_OPT_DETERMINISTIC), (1, 0))
        self.assertEqual(acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 4), PARAM_INVALID)
        self.assertEqual(acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 0), 0)
        self.assertEqual(acl.rt.ctx_get_sys_param_opt(acl.ACL_OPT_ENABLE_DEBUG_KERNEL)[1], 107021)
        self.assertEqual(acl.rt.ctx_set_sys_param_opt(acl.ACL_OPT_ENABLE_DEBUG_KERNEL, 1), 0)
        self.assertEqual(acl.rt.ctx_get_sys_param_opt(acl.ACL_OPT_ENABLE_DEBUG_KERNEL), (1, 0))
        self.assertEqual(acl.rt.ctx_set_sys_param_opt(acl.ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), INVALID_PARAM)
        self.assertEqual(acl.rt.set_ts_device(acl.ACL_TS_ID_AIVECTOR), 0)
        self.assertEqual(acl.rt.set_ts_device(2), INVALID_PARAM)

    def test_buffers(self):
        head, ret = acl.rt.alloc_buf(100)
        self.assertEqual(ret, 0)
        other, ret = acl.rt.alloc_buf(8)
        self.assertEqual(ret, 0)
        data, size, ret = acl.rt.get_buf_data(head)
        self.assertEqual((size, ret), (100, 0))
        self.assertNotEqual(data, 0)
        self.assertEqual(acl.rt.get_buf_data_len(head), (0, 0))
        self.assertEqual(acl.rt.set_buf_data_len(head, 100), 0)
        self.assertEqual(acl.rt.set_buf_data_len(head, 101), PARAM_INVALID)
        ref, ret = acl.rt.copy_buf_ref(head)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.get_buf_data(ref)[:2], (data, 100))
        self.assertEqual(acl.rt.append_buf_chain(head, other), 0)
        self.assertEqual(acl.rt.get_buf_chain_num(head), (2, 0))
        self.assertEqual(acl.rt.get_buf_from_chain(head, 1), (other, 0))
        self.assertEqual(acl.rt.get_buf_from_chain(head, 2)[1], PARAM_INVALID)
        for b in (other, head, ref):
            self.assertEqual(acl.rt.free_buf(b), 0)
        self.assertEqual(acl.rt.free_buf(head), PARAM_INVALID)
        self.assertEqual(acl.rt.free_buf(0), INVALID_PARAM)
        self.assertEqual(acl.rt.alloc_buf(0)[1], INVALID_PARAM)


class Attributes(unittest.TestCase):
    def test_cann_attributes(self):
        home = tempfile.mkdtemp()
        info = os.path.join(home, "share", "info", "runtime")
        os.makedirs(info)
        with open(os.path.join(info, "version.info"), "w") as f:
            f.write("Version=7.0.0\n")
        old = os.environ.get("ASCEND_HOME_PATH")
        os.environ["ASCEND_HOME_PATH"] = home
        try:
            self.assertEqual(acl.get_cann_attribute_list(), ([acl.ACL_CANN_ATTR_JIT_COMPILE], 0))
            self.assertEqual(acl.get_cann_attribute(acl.ACL_CANN_ATTR_BF16), (0, 0))
            self.assertEqual(acl.get_cann_attribute(3)[1], INVALID_PARAM)
        finally:
            if old is None:
                del os.environ["ASCEND_HOME_PATH"]
            else:
                os.environ["ASCEND_HOME_PATH"] = old

    def test_app_log(self):
        d = tempfile.mkdtemp()
        os.environ["ASCEND_PROCESS_LOG_PATH"] = d
        os.environ["ASCEND_GLOBAL_LOG_LEVEL"] = "3"
        os.environ.pop("ASCEND_SLOG_PRINT_TO_STDOUT", None)
        self.assertIsNone(acl.app_log(acl.ACL_INFO, "not written"))
        acl.app_log(acl.ACL_ERROR, "from python")
        with open(os.path.join(d, "plog", "plog-%d.log" % os.getpid())) as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("[ERROR] APP("))
        self.assertTrue(lines[0].endswith(' python:python:0: "from python"'))


if __name__ == "__main__":
    unittest.main()
