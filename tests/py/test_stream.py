"""The `acl` module's contexts, streams, events and asynchronous copies
(pyACL spellings) against the real module, plus the async sample (Python
and C).  Needs /dev/npu_sim0 (see npu_env)."""
import os
import subprocess
import sys
import unittest

from npu_env import acl, needs_device, REPO, PYTHON_DIR

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
HOLD = "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"
MiB = 1 << 20


def hold(on):
    with open(HOLD, "w") as f:
        f.write("1" if on else "0")


@needs_device
class Streams(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        if os.path.exists(HOLD):
            hold(False)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_context_calls(self):
        default, ret = acl.rt.get_context()
        self.assertEqual(ret, 0)
        self.assertNotEqual(default, 0)
        ctx, ret = acl.rt.create_context(0)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.get_context(), (ctx, 0))
        self.assertEqual(acl.rt.set_context(default), 0)
        self.assertEqual(acl.rt.get_context(), (default, 0))
        self.assertEqual(acl.rt.destroy_context(ctx), 0)
        self.assertEqual(acl.rt.destroy_context(ctx), acl.ACL_ERROR_RT_CONTEXT_NULL)
        self.assertEqual(acl.rt.destroy_context(0), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.create_context(99)[1], acl.ACL_ERROR_RT_INVALID_DEVICEID)

    def test_async_round_trip_and_status(self):
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        event, ret = acl.rt.create_event()
        self.assertEqual(ret, 0)
        host, ret = acl.rt.malloc_host(MiB)
        self.assertEqual(ret, 0)
        dev, ret = acl.rt.malloc(MiB, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, 0)
        data = bytes(i % 253 for i in range(MiB))
        self.assertEqual(acl.rt.memcpy(host, MiB, acl.util.bytes_to_ptr(data), MiB, 0), 0)

        hold(True)
        self.assertEqual(acl.rt.memcpy_async(dev, MiB, host, MiB, H2D, stream), 0)
        self.assertEqual(acl.rt.record_event(event, stream), 0)
        self.assertEqual(acl.rt.stream_query(stream),
                         (acl.ACL_STREAM_STATUS_NOT_READY, 0))
        self.assertEqual(acl.rt.query_event_status(event),
                         (acl.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0))
        self.assertEqual(acl.rt.synchronize_stream_with_timeout(stream, 20),
                         acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        hold(False)
        self.assertEqual(acl.rt.synchronize_event(event), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        self.assertEqual(acl.rt.stream_query(stream),
                         (acl.ACL_STREAM_STATUS_COMPLETE, 0))
        self.assertEqual(acl.rt.query_event_status(event),
                         (acl.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0))
        self.assertEqual(acl.rt.event_elapsed_time(event, event), (0.0, 0))

        out = bytearray(MiB)
        self.assertEqual(acl.rt.memset_async(dev, MiB, 0x11, 16, 0), 0)
        self.assertEqual(acl.rt.memcpy2d_async(acl.util.bytes_to_ptr(out), 64, dev, 64,
                                               32, 4, D2H, 0), 0)   # pageable: done on return
        self.assertEqual(acl.rt.synchronize_device(), 0)
        self.assertEqual(bytes(out[:16]), b"\x11" * 16)
        self.assertEqual(bytes(out[16:32]), data[16:32])
        self.assertEqual(bytes(out[64:96]), data[64:96])

        # SDMA reduce: out[0:16] (0x11 bytes) += the 0x11 bytes at dev, as int8
        self.assertEqual(acl.rt.memcpy(dev + 4096, 16, acl.util.bytes_to_ptr(out), 16, H2D), 0)
        self.assertEqual(acl.rt.reduce_async(dev + 4096, dev, 16,
                                             acl.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 2, 0, 0), 0)
        self.assertEqual(acl.rt.reduce_async(dev + 4096, dev, 16,
                                             acl.ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, 9, 0, 0),
                         acl.ACL_ERROR_INVALID_PARAM)    # ACL_INT64: not a reduce type
        self.assertEqual(acl.rt.reduce_async(dev + 4096, dev, 16,
                                             acl.ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, 2, 0, 0),
                         acl.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        self.assertEqual(acl.rt.synchronize_stream(0), 0)
        got = bytearray(16)
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(got), 16, dev + 4096, 16, D2H), 0)
        self.assertEqual(bytes(got), b"\x22" * 16)

        other, ret = acl.rt.create_stream_with_config(1, acl.ACL_STREAM_FAST_SYNC)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.stream_wait_event(other, event), 0)
        self.assertEqual(acl.rt.synchronize_stream(other), 0)
        self.assertEqual(acl.rt.destroy_stream(other), 0)
        self.assertEqual(acl.rt.free(dev), 0)
        self.assertEqual(acl.rt.free_host(host), 0)
        self.assertEqual(acl.rt.destroy_event(event), 0)
        self.assertEqual(acl.rt.destroy_stream(stream), 0)
        self.assertEqual(acl.rt.destroy_stream(stream), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.synchronize_event(event), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.stream_query(stream)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)


@needs_device
class AsyncSample(unittest.TestCase):
    def test_python_sample_runs(self):
        sample = os.path.join(REPO, "python", "samples", "async_sample.py")
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        run = subprocess.run([sys.executable, sample], cwd=REPO, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertIn("async sample: ok", run.stdout)

    def test_c_sample_runs(self):
        binary = os.path.join(REPO, "build", "examples", "async_sample")
        run = subprocess.run([binary], cwd=REPO, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True,
                             timeout=300)
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertIn("0 bad bytes", run.stdout)
        self.assertIn("async sample: ok", run.stdout)


if __name__ == "__main__":
    unittest.main()
