"""npu-sim-smi against the real module: known allocations made by this
process show up exactly in the JSON and in the table.  Needs the module."""
import json
import os
import re
import subprocess
import sys
import unittest

from tools_env import SMI, PYTHON_DIR, acl, needs_device, run

MiB = 1 << 20
PAGE = 4096


def snapshot():
    rc, out, err = run(SMI, "--json", "-i", "0")
    if rc != 0:
        raise AssertionError("npu-sim-smi failed: %s" % err)
    doc = json.loads(out)
    return doc, doc["devices"][0]


def mine(dev):
    procs = [p for p in dev["processes"] if p["pid"] == os.getpid()]
    return procs[0] if procs else {"allocations": 0, "used_bytes": 0}


@needs_device
class SmiLive(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.ptrs = []

    def tearDown(self):
        for ptr in self.ptrs:
            acl.rt.free(ptr)
        acl.rt.reset_device(0)

    def malloc(self, size, policy):
        ptr, ret = acl.rt.malloc(size, policy)
        self.assertEqual(ret, 0)
        self.ptrs.append(ptr)

    def test_known_allocations(self):
        doc0, before = snapshot()
        self.assertTrue(doc0["module"]["loaded"])
        with open("/sys/class/npu_sim/npu_sim0/capacity_bytes") as f:
            self.assertEqual(before["capacity_bytes"], int(f.read()))

        # 100 bytes of normal pages, 100 bytes of P2P normal pages: a page each
        self.malloc(100, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.malloc(100, acl.ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
        normal, huge, count = 2 * PAGE, 0, 2
        # 1 MiB + padding on 2 MiB pages, when the pool has one
        if doc0["hugetlb"]["2M"]["free_pages"] >= 1:
            self.malloc(MiB, acl.ACL_MEM_MALLOC_HUGE_ONLY)
            huge, count = 2 * MiB, 3

        doc1, after = snapshot()
        self.assertEqual(after["used_bytes"] - before["used_bytes"], normal + huge)
        self.assertEqual(after["free_bytes"], after["capacity_bytes"] - after["used_bytes"])
        self.assertEqual(after["pages"]["normal"]["used_bytes"]
                         - before["pages"]["normal"]["used_bytes"], normal)
        self.assertEqual(after["pages"]["huge_2m"]["used_bytes"]
                         - before["pages"]["huge_2m"]["used_bytes"], huge)
        self.assertEqual(after["p2p_used_bytes"] - before["p2p_used_bytes"], PAGE)
        self.assertEqual(after["allocations"] - before["allocations"], count)
        self.assertEqual(mine(after), {"pid": os.getpid(), "name": mine(after)["name"],
                                       "allocations": count,
                                       "used_bytes": normal + huge})
        if huge:
            self.assertEqual(doc0["hugetlb"]["2M"]["free_pages"]
                             - doc1["hugetlb"]["2M"]["free_pages"], 1)

        rc, table, err = run(SMI)
        self.assertEqual(rc, 0, err)
        used = "%d KiB" % ((normal + huge) // 1024)
        self.assertRegex(table, r"\| 0   \| %-7d \| [^|]+\| +%d \| +%s \|"
                         % (os.getpid(), count, re.escape(used)))

        for ptr in self.ptrs:
            self.assertEqual(acl.rt.free(ptr), 0)
        self.ptrs = []
        _, freed = snapshot()
        self.assertEqual(freed["used_bytes"], before["used_bytes"])
        self.assertEqual(mine(freed)["used_bytes"], 0)

    def test_host_access_fault_is_counted(self):
        with open("/sys/class/npu_sim/npu_sim0/host_access") as f:
            if f.read().strip() != "0":
                self.skipTest("device 0 is in host-access mode")
        _, before = snapshot()
        # a child dereferences device memory from the host and dies of it
        code = ("import ctypes, sys, acl\n"
                "if acl.rt.set_device(0): sys.exit('set_device failed')\n"
                "p, r = acl.rt.malloc(4096, 2)\n"
                "if r: sys.exit('malloc failed %d' % r)\n"
                "ctypes.string_at(p, 1)\n")
        child = subprocess.run([sys.executable, "-c", code],
                               env=dict(os.environ, PYTHONPATH=PYTHON_DIR),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
        self.assertLess(child.returncode, 0, child.stdout)   # killed by a signal
        _, after = snapshot()
        self.assertGreaterEqual(after["host_access_faults"]
                                - before["host_access_faults"], 1)
        rc, table, _ = run(SMI, "-i", "0")
        self.assertRegex(table, r"\| 0   \| [^|]+\| total .*\| +%d \|\n"
                         % after["host_access_faults"])


if __name__ == "__main__":
    unittest.main()
