"""The `acl` module's notifies and counting notifies (pyACL spellings):
every call once the right way and once the wrong way, and a notify
recorded by another process (a second Python) releasing a wait here.
State is read from debugfs "notifies".  Needs /dev/npu_sim0."""
import os
import subprocess
import sys
import time
import unittest

from npu_env import acl, needs_device, REPO, PYTHON_DIR

NOTIFIES = "/sys/kernel/debug/npu_sim/npu_sim0/notifies"

# The importer: imports the key, records it on its default stream.
IMPORTER = """
import sys
sys.path.insert(0, sys.argv[1])
import acl
assert acl.init() == 0 and acl.rt.set_device(0) == 0
n, ret = acl.rt.notify_import_by_key(sys.argv[2], 0)
print("import", ret)
if ret == 0:
    print("id", acl.rt.get_notify_id(n)[0])
    print("record", acl.rt.record_notify(n, 0))
    print("sync", acl.rt.synchronize_stream(0))
    print("destroy", acl.rt.destroy_notify(n))
"""


def row(nid):
    """(kind, value, waiters) of notify nid in debugfs, None if absent."""
    with open(NOTIFIES) as f:
        next(f)
        for line in f:
            p = line.split()
            if int(p[0]) == nid:
                return p[2], int(p[3]), int(p[7])
    return None


def wait_waiters(nid, n):
    end = time.monotonic() + 60
    while row(nid)[2] != n:
        if time.monotonic() > end:
            raise AssertionError("notify %d never had %d waiters" % (nid, n))
        time.sleep(0)


def importer(key):
    run = subprocess.run([sys.executable, "-c", IMPORTER, PYTHON_DIR, key], cwd=REPO,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=300)
    return run.returncode, dict(l.split() for l in run.stdout.splitlines() if len(l.split()) == 2)


@needs_device
class Notifies(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)

    def tearDown(self):
        self.assertEqual(acl.rt.destroy_stream(self.stream), 0)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_record_wait_reset(self):
        s = self.stream
        n, ret = acl.rt.create_notify(acl.ACL_NOTIFY_DEFAULT)
        self.assertEqual(ret, 0)
        nid, ret = acl.rt.get_notify_id(n)
        self.assertEqual(ret, 0)
        self.assertEqual(row(nid), ("plain", 0, 0))
        self.assertEqual(acl.rt.wait_and_reset_notify(n, s, 0), 0)
        wait_waiters(nid, 1)
        self.assertEqual(acl.rt.record_notify(n, 0), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(row(nid), ("plain", 0, 0))
        self.assertEqual(acl.rt.wait_and_reset_notify(n, s, 10), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), acl.ACL_ERROR_RT_TASK_TIMEOUT)
        self.assertEqual(acl.rt.record_notify(n, s), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(row(nid)[1], 1)
        self.assertEqual(acl.rt.notify_batch_reset([n]), 0)
        self.assertEqual(row(nid)[1], 0)
        self.assertEqual(acl.rt.notify_batch_reset([]), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.notify_batch_reset([n, 0]), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.destroy_notify(n), 0)
        self.assertIsNone(row(nid))
        self.assertEqual(acl.rt.destroy_notify(n), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.record_notify(n, s), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.get_notify_id(n)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.create_notify(2)[1], acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.destroy_notify(0), acl.ACL_ERROR_INVALID_PARAM)

    def test_counting(self):
        s = self.stream
        c, ret = acl.rt.cnt_notify_create(0)
        self.assertEqual(ret, 0)
        cid, ret = acl.rt.cnt_notify_get_id(c)
        self.assertEqual(ret, 0)
        for mode, value, want in ((acl.ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 6, 6),
                                  (acl.ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3, 9),
                                  (acl.ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x10, 0x19),
                                  (acl.ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x11, 0x11)):
            self.assertEqual(acl.rt.cnt_notify_record(c, s, {"mode": mode, "value": value}), 0)
            self.assertEqual(acl.rt.synchronize_stream(s), 0)
            self.assertEqual(row(cid), ("count", want, 0))
        info = {"mode": acl.ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, "value": 0x11, "isClear": 1}
        self.assertEqual(acl.rt.cnt_notify_wait_with_timeout(c, s, info), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(row(cid)[1], 0)
        info = {"mode": acl.ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, "value": 0, "timeout": 10}
        self.assertEqual(acl.rt.cnt_notify_wait_with_timeout(c, s, info), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), acl.ACL_ERROR_RT_TASK_TIMEOUT)
        self.assertEqual(acl.rt.cnt_notify_record(c, s, {"mode": 3}), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.cnt_notify_wait_with_timeout(c, s, {"mode": 5}),
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertRaises(TypeError, acl.rt.cnt_notify_record, c, s, [0, 1])
        self.assertEqual(acl.rt.cnt_notify_record(c, s, {"mode": 1, "value": 5}), 0)
        self.assertEqual(acl.rt.cnt_notify_reset(c, s), 0)
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(row(cid)[1], 0)
        self.assertEqual(acl.rt.cnt_notify_create(1)[1], acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.cnt_notify_destroy(c), 0)
        self.assertEqual(acl.rt.cnt_notify_destroy(c), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.cnt_notify_get_id(c)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)

    def test_other_process_records(self):
        s = self.stream
        n, ret = acl.rt.create_notify(0)
        self.assertEqual(ret, 0)
        nid = acl.rt.get_notify_id(n)[0]
        key, ret = acl.rt.notify_get_export_key(
            n, acl.ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        self.assertEqual(ret, 0)
        self.assertTrue(key.startswith("npusim-notify-"))
        self.assertEqual(acl.rt.wait_and_reset_notify(n, s, 0), 0)
        rc, out = importer(key)
        self.assertEqual(rc, 0, out)
        self.assertEqual(out, {"import": "0", "id": str(nid), "record": "0", "sync": "0",
                               "destroy": "0"})
        self.assertEqual(acl.rt.synchronize_stream(s), 0)
        self.assertEqual(row(nid), ("plain", 0, 0))
        self.assertEqual(acl.rt.destroy_notify(n), 0)

    def test_whitelist(self):
        n, ret = acl.rt.create_notify(0)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.notify_set_import_pid(n, [os.getpid() + 100000]),
                         acl.ACL_ERROR_RT_PARAM_INVALID)    # not exported yet
        key, ret = acl.rt.notify_get_export_key(n, 0)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.notify_set_import_pid(n, [os.getpid() + 100000]), 0)
        self.assertEqual(acl.rt.notify_set_import_pid(n, [0]), acl.ACL_ERROR_RT_PARAM_INVALID)
        rc, out = importer(key)
        self.assertEqual(rc, 0, out)
        self.assertEqual(out, {"import": str(acl.ACL_ERROR_RT_NO_PERMISSION)})
        self.assertEqual(acl.rt.notify_import_by_key(key, 0)[1], acl.ACL_ERROR_RT_NO_PERMISSION)
        self.assertEqual(acl.rt.notify_import_by_key(key, 4)[1], acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.notify_import_by_key("nokey", 0)[1], acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.notify_get_export_key(n, 1), ("", acl.ACL_ERROR_RT_PARAM_INVALID))
        self.assertEqual(acl.rt.destroy_notify(n), 0)


if __name__ == "__main__":
    unittest.main()
