"""The event calls of issue 23 (pyACL spellings): flags, reset, query and
wait status, synchronize with timeout, timestamps, ids, the available count
and IPC events with a forked process.  Needs /dev/npu_sim0 (see npu_env)."""
import os
import time
import unittest

from npu_env import acl, needs_device

HOLD = "/sys/kernel/debug/npu_sim/npu_sim0/stream_hold"


def hold(on):
    with open(HOLD, "w") as f:
        f.write("1" if on else "0")


@needs_device
class Events(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)

    def tearDown(self):
        if os.path.exists(HOLD):
            hold(False)
        self.assertEqual(acl.rt.destroy_stream(self.stream), 0)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_create_flags(self):
        ev, ret = acl.rt.create_event_with_flag(acl.ACL_EVENT_SYNC | acl.ACL_EVENT_TIME_LINE)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.destroy_event(ev), 0)
        self.assertEqual(acl.rt.create_event_with_flag(acl.ACL_EVENT_IPC),
                         (0, acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.create_event_ex_with_flag(acl.ACL_EVENT_EXTERNAL),
                         (0, acl.ACL_ERROR_RT_PARAM_INVALID))
        ev, ret = acl.rt.create_event_ex_with_flag(acl.ACL_EVENT_IPC)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.destroy_event(ev), 0)

    def test_timestamps_and_elapsed(self):
        a, _ = acl.rt.create_event_with_flag(acl.ACL_EVENT_TIME_LINE)
        b, _ = acl.rt.create_event_with_flag(acl.ACL_EVENT_TIME_LINE)
        self.assertEqual(acl.rt.event_get_timestamp(a), (0, acl.ACL_ERROR_RT_INTERNAL_ERROR))
        self.assertEqual(acl.rt.record_event_with_flag(a, self.stream, acl.ACL_EVENT_RECORD_DEFAULT), 0)
        self.assertEqual(acl.rt.synchronize_event_with_timeout(a, -1), 0)
        time.sleep(0.002)   # time passing between the records
        self.assertEqual(acl.rt.record_event(b, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_event_with_timeout(b, 60000), 0)
        ta, ret = acl.rt.event_get_timestamp(a)
        self.assertEqual(ret, 0)
        tb, ret = acl.rt.event_get_timestamp(b)
        self.assertEqual(ret, 0)
        self.assertGreaterEqual(tb - ta, 2000)
        ms, ret = acl.rt.event_elapsed_time(a, b)
        self.assertEqual(ret, 0)
        self.assertLess(abs(ms * 1000 - (tb - ta)), 1.01)
        self.assertEqual(acl.rt.synchronize_event_with_timeout(a, 0), acl.ACL_ERROR_RT_PARAM_INVALID)
        for e in (a, b):
            self.assertEqual(acl.rt.destroy_event(e), 0)

    def test_query_reset_wait_status(self):
        ev, _ = acl.rt.create_event_with_flag(acl.ACL_EVENT_SYNC)
        s2, _ = acl.rt.create_stream()
        self.assertEqual(acl.rt.query_event(ev), (acl.ACL_EVENT_STATUS_COMPLETE, 0))
        hold(True)
        self.assertEqual(acl.rt.record_event(ev, self.stream), 0)
        self.assertEqual(acl.rt.stream_wait_event_with_flag(s2, ev, 0, acl.ACL_EVENT_WAIT_DEFAULT), 0)
        self.assertEqual(acl.rt.query_event(ev), (acl.ACL_EVENT_STATUS_NOT_READY, 0))
        self.assertEqual(acl.rt.query_event_wait_status(ev), (acl.ACL_EVENT_WAIT_STATUS_NOT_READY, 0))
        self.assertEqual(acl.rt.synchronize_event_with_timeout(ev, 20), acl.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT)
        hold(False)
        self.assertEqual(acl.rt.synchronize_stream(s2), 0)
        self.assertEqual(acl.rt.query_event_wait_status(ev), (acl.ACL_EVENT_WAIT_STATUS_COMPLETE, 0))
        self.assertEqual(acl.rt.reset_event(ev, self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(acl.rt.query_event_status(ev), (acl.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0))
        # after the reset a wait is for the next record: it times out
        self.assertEqual(acl.rt.stream_wait_event_with_timeout(s2, ev, 20), 0)
        self.assertEqual(acl.rt.synchronize_stream(s2), acl.ACL_ERROR_RT_WAIT_TIMEOUT)
        self.assertEqual(acl.rt.destroy_event(ev), 0)
        self.assertEqual(acl.rt.query_event(ev)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.destroy_stream(s2), 0)

    def test_id_and_avail(self):
        n0, ret = acl.rt.get_event_avail_num()
        self.assertEqual(ret, 0)
        ev, _ = acl.rt.create_event_with_flag(acl.ACL_EVENT_SYNC)
        self.assertEqual(acl.rt.get_event_avail_num(), (n0 - 1, 0))
        eid, ret = acl.rt.get_event_id(ev)
        self.assertEqual(ret, 0)
        self.assertGreater(eid, 0)
        self.assertEqual(acl.rt.destroy_event(ev), 0)
        self.assertEqual(acl.rt.get_event_id(ev), (0, acl.ACL_ERROR_RT_INVALID_HANDLE))

    def test_ipc_event_with_another_process(self):
        ev, ret = acl.rt.create_event_ex_with_flag(acl.ACL_EVENT_IPC)
        self.assertEqual(ret, 0)
        handle, ret = acl.rt.ipc_get_event_handle(ev)
        self.assertEqual(ret, 0)
        self.assertEqual(len(handle), acl.ACL_IPC_EVENT_HANDLE_SIZE)
        self.assertEqual(acl.rt.ipc_open_event_handle(handle), (0, acl.ACL_ERROR_RT_NO_PERMISSION))
        self.assertEqual(acl.rt.ipc_open_event_handle(bytes(64)), (0, acl.ACL_ERROR_RT_INVALID_HANDLE))
        with self.assertRaises(ValueError):
            acl.rt.ipc_open_event_handle(b"short")
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                acl.init()
                acl.rt.set_device(0)
                mine, ret = acl.rt.ipc_open_event_handle(handle)
                if ret == 0 and acl.rt.record_event(mine, 0) == 0 and \
                        acl.rt.synchronize_event(mine) == 0 and acl.rt.destroy_event(mine) == 0:
                    code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        # the other process's record counts here
        self.assertEqual(acl.rt.query_event_status(ev), (acl.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0))
        self.assertEqual(acl.rt.destroy_event(ev), 0)


if __name__ == "__main__":
    unittest.main()
