"""The `acl` module's host callbacks (pyACL spellings): Python callables run
in the subscribed thread (threading.get_ident() is the thread id), a blocking
callback holds its stream, a non-blocking one does not, host functions with
and without a subscribed thread, and the codes of bad calls.  Needs
/dev/npu_sim0 (see npu_env)."""
import threading
import unittest

from npu_env import acl, needs_device

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
D2D = acl.ACL_MEMCPY_DEVICE_TO_DEVICE
SIZE = 1 << 16
TIMEOUT = acl.ACL_ERROR_RT_REPORT_TIMEOUT


class Processor:
    """A thread calling process_report (or process_host_func) until stopped;
    it starts once go() says its streams are subscribed."""

    def __init__(self, host_func=False):
        self.process = acl.rt.process_host_func if host_func else acl.rt.process_report
        self.started = threading.Event()
        self.stopped = False
        self.codes = set()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self):
        self.started.wait()
        while not self.stopped:
            self.codes.add(self.process(50))

    def go(self):
        self.started.set()

    def stop(self):
        self.stopped = True
        self.started.set()
        self.thread.join()


class Recorder:
    """A callback: records (data, thread id), then waits for the gate."""

    def __init__(self, open_gate=True):
        self.calls = []
        self.entered = threading.Event()
        self.gate = threading.Event()
        if open_gate:
            self.gate.set()

    def __call__(self, data):
        self.calls.append((data, threading.get_ident()))
        self.entered.set()
        self.gate.wait()


@needs_device
class Callbacks(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        self.src, ret = acl.rt.malloc(SIZE, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.dst, ret = acl.rt.malloc(SIZE, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.assertEqual(ret, 0)
        self.data = bytes(i % 251 for i in range(SIZE))
        self.assertEqual(acl.rt.memcpy(self.src, SIZE, acl.util.bytes_to_ptr(self.data), SIZE, H2D), 0)
        self.assertEqual(acl.rt.memset(self.dst, SIZE, 0, SIZE), 0)

    def tearDown(self):
        self.assertEqual(acl.rt.destroy_stream(self.stream), 0)
        self.assertEqual(acl.rt.free(self.src), 0)
        self.assertEqual(acl.rt.free(self.dst), 0)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def copied(self):
        out = bytearray(SIZE)
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(out), SIZE, self.dst, SIZE, D2H), 0)
        if bytes(out) == self.data:
            return True
        self.assertEqual(bytes(out), bytes(SIZE))
        return False

    def test_block_and_no_block(self):
        proc = Processor()
        tid = proc.thread.ident
        self.assertEqual(acl.rt.subscribe_report(tid, self.stream), 0)
        proc.go()
        for block in (acl.ACL_CALLBACK_BLOCK, acl.ACL_CALLBACK_NO_BLOCK):
            self.assertEqual(acl.rt.memset(self.dst, SIZE, 0, SIZE), 0)
            rec = Recorder(open_gate=False)
            self.assertEqual(acl.rt.launch_callback(rec, {"n": block}, block, self.stream), 0)
            self.assertEqual(acl.rt.memcpy_async(self.dst, SIZE, self.src, SIZE, D2D, self.stream), 0)
            self.assertTrue(rec.entered.wait(60))
            if block == acl.ACL_CALLBACK_BLOCK:
                # inside the callback: the copy queued after it has not run
                self.assertEqual(acl.rt.stream_query(self.stream),
                                 (acl.ACL_STREAM_STATUS_NOT_READY, 0))
                self.assertFalse(self.copied())
                rec.gate.set()
                self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
            else:
                # the copy completes while the callback still waits
                self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
                self.assertFalse(rec.gate.is_set())
                rec.gate.set()
            self.assertTrue(self.copied())
            self.assertEqual(rec.calls, [({"n": block}, tid)])
        proc.stop()
        self.assertLessEqual(proc.codes, {0, TIMEOUT})
        self.assertEqual(acl.rt.unsubscribe_report(tid, self.stream), 0)
        self.assertEqual(acl.rt.unsubscribe_report(tid, self.stream), acl.ACL_ERROR_RT_STREAM_SUBSCRIBE)

    def test_process_report_in_calling_thread(self):
        me = threading.get_ident()
        rec = Recorder()
        self.assertEqual(acl.rt.process_report(10), acl.ACL_ERROR_RT_THREAD_SUBSCRIBE)
        self.assertEqual(acl.rt.subscribe_report(me, self.stream), 0)
        self.assertEqual(acl.rt.process_report(10), TIMEOUT)
        self.assertEqual(acl.rt.process_report(0), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.launch_callback(rec, 7, acl.ACL_CALLBACK_NO_BLOCK, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(acl.rt.process_report(-1), 0)
        self.assertEqual(rec.calls, [(7, me)])
        self.assertEqual(acl.rt.unsubscribe_report(me, self.stream), 0)

    def test_host_func(self):
        # no subscribed thread: a thread of the library runs it
        rec = Recorder(open_gate=False)
        self.assertEqual(acl.rt.launch_host_func(self.stream, rec, "x"), 0)
        self.assertEqual(acl.rt.memcpy_async(self.dst, SIZE, self.src, SIZE, D2D, self.stream), 0)
        self.assertTrue(rec.entered.wait(60))
        self.assertFalse(self.copied())
        rec.gate.set()
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertTrue(self.copied())
        self.assertNotEqual(rec.calls[0][1], threading.get_ident())
        self.assertEqual(acl.rt.subscribe_report(threading.get_ident(), self.stream),
                         acl.ACL_ERROR_RT_STREAM_SUBSCRIBE)

        # a subscribed host function thread
        other, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        proc = Processor(host_func=True)
        self.assertEqual(acl.rt.subscribe_host_func(proc.thread.ident, other), 0)
        proc.go()
        rec2 = Recorder()
        self.assertEqual(acl.rt.launch_host_func(other, rec2, None), 0)
        self.assertEqual(acl.rt.synchronize_stream(other), 0)
        self.assertEqual(rec2.calls, [(None, proc.thread.ident)])
        proc.stop()
        self.assertLessEqual(proc.codes, {0, TIMEOUT})
        self.assertEqual(acl.rt.unsubscribe_host_func(proc.thread.ident, other), 0)
        self.assertEqual(acl.rt.process_host_func(10), acl.ACL_ERROR_RT_THREAD_SUBSCRIBE)
        self.assertEqual(acl.rt.destroy_stream(other), 0)

    def test_bad_calls(self):
        rec = Recorder()
        with self.assertRaises(TypeError):
            acl.rt.launch_callback(None, 1, acl.ACL_CALLBACK_BLOCK, self.stream)
        with self.assertRaises(TypeError):
            acl.rt.launch_host_func(self.stream, 5, None)
        self.assertEqual(acl.rt.launch_callback(rec, 1, 2, self.stream), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.launch_callback(rec, 1, acl.ACL_CALLBACK_BLOCK, self.stream),
                         acl.ACL_ERROR_RT_STREAM_NO_CB_REG)
        self.assertEqual(acl.rt.subscribe_report(0, self.stream), acl.ACL_ERROR_RT_THREAD_SUBSCRIBE)
        self.assertEqual(acl.rt.subscribe_host_func(threading.get_ident(), 0), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.unsubscribe_host_func(threading.get_ident(), 0), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.process_host_func(-2), acl.ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(rec.calls, [])


if __name__ == "__main__":
    unittest.main()
