"""The `acl.rt` stream failure mode, query and control spellings (issue 23)
against the real module: a copy that fails for real under
ACL_STOP_ON_FAILURE stops the context's work, and it keeps the error until
the device is reset; queries, V2 create, attributes, abort and stop, resource
limits, state callbacks.  Exact values and codes.  Needs /dev/npu_sim0."""
import os
import threading
import time
import unittest

from npu_env import acl, needs_device

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
HOLD = "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"
N = 1 << 20


def hold(on):
    with open(HOLD, "w") as f:
        f.write("1" if on else "0")


def ok(pair):
    """The value of a (value, ret) pair whose ret must be 0."""
    value, ret = pair
    assert ret == 0, ret
    return value


@needs_device
class StreamCtl(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        if os.path.exists(HOLD):
            hold(False)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def dev_u64(self, dev):
        host = bytearray(8)
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(host), 8, dev, 8, D2H), 0)
        return int.from_bytes(host, "little")

    def await_complete(self, stream):
        end = time.monotonic() + 60
        while acl.rt.stream_query(stream) != (acl.ACL_STREAM_STATUS_COMPLETE, 0):
            self.assertLess(time.monotonic(), end)
            time.sleep(0.001)

    def fail_then_write(self, stream, dev, flag):
        """A D2H copy into host memory freed before it runs, then a value
        write of 1 to flag, queued on stream."""
        hold(True)
        host = ok(acl.rt.malloc_host(N))
        self.assertEqual(acl.rt.memcpy_async(host, N, dev, N, D2H, stream), 0)
        self.assertEqual(acl.rt.free_host(host), 0)
        self.assertEqual(acl.rt.value_write(flag, 1, 0, stream), 0)
        hold(False)

    def test_failure_modes(self):
        dev = ok(acl.rt.malloc(N, acl.ACL_MEM_MALLOC_HUGE_FIRST))
        vals = ok(acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST))
        self.assertEqual(acl.rt.memset(vals, 4096, 0, 4096), 0)
        stop = ok(acl.rt.create_stream())
        cont = ok(acl.rt.create_stream())
        self.assertEqual(acl.rt.set_stream_failure_mode(stop, acl.ACL_STOP_ON_FAILURE), 0)
        self.assertEqual(acl.rt.get_stream_attribute(stop, acl.ACL_STREAM_ATTR_FAILURE_MODE),
                         (acl.ACL_STOP_ON_FAILURE, 0))
        self.assertEqual(acl.rt.get_stream_attribute(cont, acl.ACL_STREAM_ATTR_FAILURE_MODE),
                         (acl.ACL_CONTINUE_ON_FAILURE, 0))

        self.fail_then_write(stop, dev, vals)
        self.assertEqual(acl.rt.synchronize_stream(stop), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(self.dev_u64(vals), 0)          # skipped
        # The context keeps the failure until the device is reset: every
        # synchronize and query answers it, every submit is refused with it.
        self.assertEqual(acl.rt.synchronize_stream(stop), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(acl.rt.stream_query(stop)[1], acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(acl.rt.value_write(vals, 2, 0, stop), acl.ACL_ERROR_RT_COPY_DATA)

        # STOP on one stream made the context STOP (the runtime's mode is
        # the context's): the other stream has the failure too.
        self.assertEqual(acl.rt.value_write(vals + 8, 3, 0, cont), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(acl.rt.synchronize_stream(cont), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(acl.rt.synchronize_device(), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(self.dev_u64(vals), 0)
        self.assertEqual(self.dev_u64(vals + 8), 0)

        self.assertEqual(acl.rt.set_stream_failure_mode(stop, acl.ACL_CONTINUE_ON_FAILURE),
                         acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.rt.set_stream_attribute(cont, acl.ACL_STREAM_ATTR_FAILURE_MODE,
                                                     acl.ACL_STOP_ON_FAILURE), 0)
        for s in (stop, cont):
            self.assertEqual(acl.rt.destroy_stream(s), 0)
        self.assertEqual(acl.rt.set_stream_failure_mode(stop, 1), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.free(dev), 0)
        self.assertEqual(acl.rt.free(vals), 0)

        # The device reset ends it: the next primary context runs.
        self.assertEqual(acl.rt.reset_device(0), 0)
        self.assertEqual(acl.rt.set_device(0), 0)
        vals = ok(acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST))
        s = ok(acl.rt.create_stream())
        self.assertEqual(acl.rt.value_write(vals, 4, 0, s), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(self.dev_u64(vals), 4)
        self.assertEqual(acl.rt.destroy_stream(s), 0)
        self.assertEqual(acl.rt.free(vals), 0)

    def test_queries_and_v2(self):
        s = ok(acl.rt.create_stream_with_config(4, acl.ACL_STREAM_FAST_LAUNCH))
        self.assertEqual(acl.rt.stream_get_priority(s), (4, 0))
        self.assertEqual(acl.rt.stream_get_flags(s), (acl.ACL_STREAM_FAST_LAUNCH, 0))
        sid = ok(acl.rt.stream_get_id(s))
        self.assertGreater(sid, 0)
        default = ok(acl.rt.ctx_get_current_default_stream())
        self.assertNotEqual(default, 0)
        self.assertEqual(acl.rt.ctx_get_current_default_stream(), (default, 0))
        self.assertEqual(acl.rt.stream_get_id(default), acl.rt.stream_get_id(0))
        self.assertNotEqual(ok(acl.rt.stream_get_id(0)), sid)
        self.assertEqual(acl.rt.device_get_stream_priority_range(), (7, 0, 0))
        self.assertEqual(acl.rt.get_stream_available_num(), (1024 - 2, 0))

        cfg = acl.rt.create_stream_config_handle()
        self.assertNotEqual(cfg, 0)
        self.assertEqual(acl.rt.set_stream_config_opt(cfg, acl.ACL_RT_STREAM_PRIORITY, 6), 0)
        self.assertEqual(acl.rt.set_stream_config_opt(cfg, acl.ACL_RT_STREAM_FLAG,
                                                      acl.ACL_STREAM_HUGE), 0)
        self.assertEqual(acl.rt.set_stream_config_opt(cfg, acl.ACL_RT_STREAM_PRIORITY, 8),
                         acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.set_stream_config_opt(cfg, 4, 0), acl.ACL_ERROR_INVALID_PARAM)
        v2 = ok(acl.rt.create_stream_v2(cfg))
        self.assertEqual(acl.rt.stream_get_priority(v2), (6, 0))
        self.assertEqual(acl.rt.stream_get_flags(v2), (acl.ACL_STREAM_HUGE, 0))
        self.assertEqual(acl.rt.destroy_stream_config_handle(cfg), 0)
        self.assertEqual(acl.rt.destroy_stream_config_handle(0), acl.ACL_ERROR_INVALID_PARAM)
        plain = ok(acl.rt.create_stream_v2(0))
        self.assertEqual(acl.rt.stream_get_priority(plain), (0, 0))

        self.assertEqual(acl.rt.set_stream_attribute(s, acl.ACL_STREAM_ATTR_USER_CUSTOM_TAG, 99), 0)
        self.assertEqual(acl.rt.get_stream_attribute(s, acl.ACL_STREAM_ATTR_USER_CUSTOM_TAG), (99, 0))
        self.assertEqual(acl.rt.set_stream_attribute(s, acl.ACL_STREAM_ATTR_PRIORITY, 2), 0)
        self.assertEqual(acl.rt.get_stream_attribute(s, acl.ACL_STREAM_ATTR_PRIORITY), (2, 0))
        self.assertEqual(acl.rt.set_stream_attribute(s, acl.ACL_STREAM_ATTR_CACHE_OP_INFO, 2),
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.get_stream_attribute(s, 9)[1], acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.active_stream(s, v2), acl.ACL_ERROR_RT_STREAM_MODEL)
        self.assertEqual(acl.rt.active_stream(0, v2), acl.ACL_ERROR_INVALID_PARAM)
        for x in (s, v2, plain):
            self.assertEqual(acl.rt.destroy_stream(x), 0)
        self.assertEqual(acl.rt.stream_get_priority(s)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.destroy_stream(default), acl.ACL_ERROR_RT_PARAM_INVALID)

    def test_abort_stop_and_device_sync(self):
        vals = ok(acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST))
        self.assertEqual(acl.rt.memset(vals, 4096, 0, 4096), 0)
        s = ok(acl.rt.create_stream())
        hold(True)
        self.assertEqual(acl.rt.value_write(vals, 1, 0, s), 0)
        self.assertEqual(acl.rt.synchronize_device_with_timeout(50), acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        self.assertEqual(acl.rt.stream_abort(s), 0)
        hold(False)
        self.assertEqual(acl.rt.synchronize_device_with_timeout(-1), 0)
        self.assertEqual(self.dev_u64(vals), 0)          # dropped
        self.assertEqual(acl.rt.synchronize_device_with_timeout(0), acl.ACL_ERROR_RT_PARAM_INVALID)

        self.assertEqual(acl.rt.stream_stop(s), 0)
        self.assertEqual(acl.rt.value_write(vals, 2, 0, s), 0)
        self.assertEqual(acl.rt.synchronize_stream_with_timeout(s, 50), acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        self.assertEqual(acl.rt.stream_abort(s), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(self.dev_u64(vals), 0)
        self.assertEqual(acl.rt.value_write(vals, 3, 0, s), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(self.dev_u64(vals), 3)
        self.assertEqual(acl.rt.stream_stop(0), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.destroy_stream(s), 0)
        self.assertEqual(acl.rt.free(vals), 0)

    def test_resource_limits(self):
        cube, vec = acl.ACL_RT_DEV_RES_CUBE_CORE, acl.ACL_RT_DEV_RES_VECTOR_CORE
        s = ok(acl.rt.create_stream())
        self.assertEqual(acl.rt.get_stream_res_limit(s, cube), (24, 0))
        self.assertEqual(acl.rt.get_stream_res_limit(s, vec), (48, 0))
        self.assertEqual(acl.rt.set_stream_res_limit(s, cube, 8), 0)
        self.assertEqual(acl.rt.set_stream_res_limit(s, cube, 25), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.set_stream_res_limit(s, 2, 1), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.get_stream_res_limit(s, cube), (8, 0))
        self.assertEqual(acl.rt.use_stream_res_in_current_thread(s), 0)
        self.assertEqual(acl.rt.get_res_in_current_thread(cube), (8, 0))
        seen = []

        def other():        # another thread has no resource stream
            acl.rt.set_device(0)
            seen.append(acl.rt.get_res_in_current_thread(cube))
            acl.rt.reset_device(0)
        t = threading.Thread(target=other)
        t.start()
        t.join()
        self.assertEqual(seen, [(24, 0)])
        self.assertEqual(acl.rt.unuse_stream_res_in_current_thread(s), 0)
        self.assertEqual(acl.rt.get_res_in_current_thread(cube), (24, 0))
        self.assertEqual(acl.rt.reset_stream_res_limit(s), 0)
        self.assertEqual(acl.rt.get_stream_res_limit(s, cube), (24, 0))
        self.assertEqual(acl.rt.destroy_stream(s), 0)
        self.assertEqual(acl.rt.reset_stream_res_limit(s), acl.ACL_ERROR_RT_INVALID_HANDLE)

    def test_state_callback(self):
        calls = []
        token = object()

        def cb(stream, state, args):
            calls.append((stream, state, args))
        self.assertEqual(acl.rt.reg_stream_state_callback("py", cb, token), 0)
        self.assertEqual(acl.rt.reg_stream_state_callback("py", cb, None), acl.ACL_ERROR_RT_PARAM_INVALID)
        s = ok(acl.rt.create_stream())
        self.assertEqual(acl.rt.destroy_stream(s), 0)
        self.assertEqual(acl.rt.reg_stream_state_callback("py", None, None), 0)
        s2 = ok(acl.rt.create_stream())
        self.assertEqual(acl.rt.destroy_stream(s2), 0)
        self.assertEqual(calls, [(s, acl.ACL_RT_STREAM_STATE_CREATE_POST, token),
                                 (s, acl.ACL_RT_STREAM_STATE_DESTROY_PRE, token)])


if __name__ == "__main__":
    unittest.main()
