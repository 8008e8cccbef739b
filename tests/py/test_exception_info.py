"""acl.rt.set_exception_info_callback and the exception info readers: a
copy to host memory freed before it runs fails on the device; the
synchronize that reports it calls the Python callback in its own thread
(the GIL released by the synchronize, taken by the callback), whose readers
give the device, the stream's id, the thread id and the code.  Needs
/dev/npu_sim0 (see npu_env)."""
import sys
import threading
import unittest

from npu_env import acl, needs_device

HOLD = "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
SIZE = 64 << 10
NONE = 0xFFFFFFFF


def hold(on):
    with open(HOLD, "w") as f:
        f.write("1" if on else "0")


class Recorder:
    """The callback: reads the info with the four readers, in the callback."""

    def __init__(self, raise_after=False):
        self.seen = []
        self.raise_after = raise_after

    def __call__(self, info):
        self.seen.append({
            "info": info,
            "device": acl.rt.get_device_id_from_exception_info(info),
            "stream": acl.rt.get_stream_id_from_exception_info(info),
            "tid": acl.rt.get_thread_id_from_exception_info(info),
            "code": acl.rt.get_error_code_from_exception_info(info),
            "thread": threading.get_ident(),
        })
        if self.raise_after:
            raise RuntimeError("raised by the callback")


@needs_device
class ExceptionInfo(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        self.dev, ret = acl.rt.malloc(SIZE, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)

    def tearDown(self):
        hold(False)
        self.assertEqual(acl.rt.set_exception_info_callback(None), 0)
        self.assertEqual(acl.rt.destroy_stream(self.stream), 0)
        self.assertEqual(acl.rt.free(self.dev), 0)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def failing_copy(self):
        host, ret = acl.rt.malloc_host(SIZE)
        self.assertEqual(ret, 0)
        hold(True)
        self.assertEqual(acl.rt.memcpy_async(host, SIZE, self.dev, SIZE, D2H, self.stream), 0)
        self.assertEqual(acl.rt.free_host(host), 0)
        hold(False)

    def test_failed_task_calls_back(self):
        rec = Recorder()
        self.assertEqual(acl.rt.set_exception_info_callback(rec), 0)
        sid, ret = acl.rt.stream_get_id(self.stream)
        self.assertEqual(ret, 0)
        self.failing_copy()
        self.assertEqual(rec.seen, [])          # learned at the synchronize
        self.assertEqual(acl.rt.synchronize_stream(self.stream), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(len(rec.seen), 1)
        s = rec.seen[0]
        self.assertNotEqual(s["info"], 0)
        self.assertEqual(s["device"], 0)
        self.assertEqual(s["stream"], sid)
        self.assertEqual(s["tid"], threading.get_native_id())
        self.assertEqual(s["code"], acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(s["thread"], threading.get_ident())
        # reported once; a device-wide synchronize names no stream
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(len(rec.seen), 1)
        self.failing_copy()
        self.assertEqual(acl.rt.synchronize_device(), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual(len(rec.seen), 2)
        self.assertEqual((rec.seen[1]["device"], rec.seen[1]["stream"]), (0, NONE))

    def test_replace_and_remove(self):
        first, second = Recorder(), Recorder()
        self.assertEqual(acl.rt.set_exception_info_callback(first), 0)
        self.assertEqual(acl.rt.set_exception_info_callback(second), 0)   # replaces
        self.failing_copy()
        self.assertEqual(acl.rt.synchronize_stream(self.stream), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual((len(first.seen), len(second.seen)), (0, 1))
        self.assertEqual(acl.rt.set_exception_info_callback(), 0)         # no argument: removed
        self.failing_copy()
        self.assertEqual(acl.rt.synchronize_stream(self.stream), acl.ACL_ERROR_RT_COPY_DATA)
        self.assertEqual((len(first.seen), len(second.seen)), (0, 1))

    def test_raising_callback_stays_set(self):
        rec = Recorder(raise_after=True)
        raised = []
        old = sys.unraisablehook
        sys.unraisablehook = lambda u: raised.append(type(u.exc_value))
        try:
            self.assertEqual(acl.rt.set_exception_info_callback(rec), 0)
            for n in (1, 2):
                self.failing_copy()
                self.assertEqual(acl.rt.synchronize_stream(self.stream), acl.ACL_ERROR_RT_COPY_DATA)
                self.assertEqual(len(rec.seen), n)
        finally:
            sys.unraisablehook = old
        self.assertEqual(raised, [RuntimeError, RuntimeError])

    def test_other_failures_do_not_call_back(self):
        rec = Recorder()
        self.assertEqual(acl.rt.set_exception_info_callback(rec), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(12345), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(rec.seen, [])

    def test_bad_input(self):
        for reader in (acl.rt.get_device_id_from_exception_info, acl.rt.get_stream_id_from_exception_info,
                       acl.rt.get_thread_id_from_exception_info,
                       acl.rt.get_error_code_from_exception_info):
            self.assertEqual(reader(0), NONE)
            self.assertRaises(TypeError, reader, "info")
            self.assertRaises(OverflowError, reader, -1)
        self.assertRaises(TypeError, acl.rt.set_exception_info_callback, 42)
        self.assertRaises(TypeError, acl.rt.set_exception_info_callback, None, None)


if __name__ == "__main__":
    unittest.main()
