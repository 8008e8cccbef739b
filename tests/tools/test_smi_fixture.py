"""npu-sim-smi against fabricated sysfs/debugfs/proc trees (--root): the
table and JSON formats, and the messages for a module that is not loaded or
a debugfs that is not mounted.  Runs anywhere (host or guest)."""
import json
import os
import shutil
import tempfile
import unittest

from tools_env import SMI, run

GiB = 1 << 30
MiB = 1 << 20

INFO0 = """device 0
capacity_bytes 2147483648
used_bytes 2105344
used_normal_bytes 8192
used_huge_2m_bytes 2097152
used_huge_1g_bytes 0
used_p2p_bytes 4096
allocations 3
contexts 2
hugetlb_2m_pages 1
hugetlb_1g_pages 0
host_access 0
"""
CONTEXTS0 = """pid allocations used_bytes window_start window_size
245 2 2101248 0x7f4c00000000 1099511627776
245 0 0 0x0 1099511627776
300 1 4096 0x7f5000000000 1099511627776
"""
STATS0 = """calls_alloc 3
calls_free 0
fail_invalid 0
host_access_faults 7
"""
INFO1 = """device 1
capacity_bytes 1073741824
used_bytes 0
used_normal_bytes 0
used_huge_2m_bytes 0
used_huge_1g_bytes 0
used_p2p_bytes 0
allocations 0
contexts 0
"""
PEER_COPIES = """src dst copies bytes
0 1 3 12288
1 0 1 4097
"""


class Tree:
    """A fake root with /sys, /proc and debugfs files of a loaded module."""

    def __init__(self, loaded=True, debugfs=True):
        self.root = tempfile.mkdtemp(prefix="smi-")
        self.write("proc/mounts", "proc /proc proc rw 0 0\n" +
                   ("debugfs /sys/kernel/debug debugfs rw 0 0\n" if debugfs else ""))
        self.write("proc/245/comm", "python3\n")
        self.write("proc/300/comm", "a.out\n")
        hp = "sys/kernel/mm/hugepages/"
        self.write(hp + "hugepages-2048kB/nr_hugepages", "16\n")
        self.write(hp + "hugepages-2048kB/free_hugepages", "15\n")
        self.write(hp + "hugepages-1048576kB/nr_hugepages", "2\n")
        self.write(hp + "hugepages-1048576kB/free_hugepages", "2\n")
        if not loaded:
            return
        # host_access is a bool parameter: the kernel shows N or Y
        for name, value in (("num_devices", "2"), ("hbm_mib", "2048"),
                            ("host_access", "N"), ("va_window_gib", "1024")):
            self.write("sys/module/npu_sim/parameters/" + name, value + "\n")
        self.write("sys/module/npu_sim/refcnt", "2\n")
        for dev, cap, used, mode in ((0, 2 * GiB, 2105344, 0), (1, GiB, 0, 1)):
            base = "sys/class/npu_sim/npu_sim%d/" % dev
            self.write(base + "capacity_bytes", "%d\n" % cap)
            self.write(base + "used_bytes", "%d\n" % used)
            self.write(base + "host_access", "%d\n" % mode)
        if debugfs:
            dbg = "sys/kernel/debug/npu_sim/"
            self.write(dbg + "version", "api 1.0\n")
            self.write(dbg + "npu_sim0/info", INFO0)
            self.write(dbg + "npu_sim0/contexts", CONTEXTS0)
            self.write(dbg + "npu_sim0/stats", STATS0)
            self.write(dbg + "npu_sim1/info", INFO1)
            self.write(dbg + "npu_sim1/contexts", CONTEXTS0.splitlines()[0] + "\n")
            self.write(dbg + "npu_sim1/stats", "host_access_faults 0\n")
            # process 245 and 300 gave device 0 access to device 1
            self.write(dbg + "npu_sim0/peers", "pid peer\n245 1\n300 1\n")
            self.write(dbg + "npu_sim1/peers", "pid peer\n")
            self.write(dbg + "peer_copies", PEER_COPIES)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def smi(self, *args):
        return run(SMI, "--root", self.root, *args)

    def cleanup(self):
        shutil.rmtree(self.root)


class SmiFixture(unittest.TestCase):
    def tree(self, **kwargs):
        tree = Tree(**kwargs)
        self.addCleanup(tree.cleanup)
        return tree

    def test_table(self):
        rc, out, err = self.tree().smi("info")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        lines = out.splitlines()
        self.assertIn("api 1.0", lines[0])
        self.assertIn("hugetlb 2M free 15/16", lines[0])
        # device 0: capacity, totals, P2P, allocations, peer access, faults
        row = [l for l in lines if l.startswith("| 0   | 2 GiB")][0]
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells, ["0", "2 GiB", "total", "2056 KiB",
                                 "%d KiB" % ((2 * GiB - 2105344) // 1024),
                                 "4 KiB", "3", "1", "7"])
        row1 = [l for l in lines if l.startswith("| 1   | 1 GiB")][0]
        self.assertEqual([c.strip() for c in row1.strip("|").split("|")][7], "-")
        kinds = {}
        for l in lines:
            cells = [c.strip() for c in l.strip("|").split("|")]
            if len(cells) == 9 and cells[2] in ("normal", "2M", "1G"):
                kinds.setdefault(cells[2], []).append(cells[3:5])
        # device 0 then device 1; free of huge kinds limited by the pools
        self.assertEqual(kinds["normal"][0][0], "8 KiB")
        self.assertEqual(kinds["2M"][0], ["2 MiB", "30 MiB"])
        self.assertEqual(kinds["1G"][0], ["0 B", "1 GiB"])
        self.assertEqual(kinds["1G"][1], ["0 B", "1 GiB"])
        self.assertIn("strict", out)
        self.assertIn("host-access", out)
        # processes: contexts of one pid are added up
        procs = [l for l in lines if l.startswith("| 0   | ")
                 and ("python3" in l or "a.out" in l)]
        self.assertEqual(len(procs), 2)
        self.assertRegex(out, r"\| 0   \| 245     \| python3 +\|      2 \|   2052 KiB \|")
        self.assertRegex(out, r"\| 0   \| 300     \| a.out +\|      1 \|      4 KiB \|")
        self.assertRegex(out, r"\| 1   \| no processes are using this device")
        # copies between devices, one row per (src, dst) pair
        self.assertIn("| Src | Dst |       Copies |        Bytes |", out)
        self.assertIn("| 0   | 1   |            3 |       12 KiB |", out)
        self.assertIn("| 1   | 0   |            1 |       4097 B |", out)

    def test_json(self):
        rc, out, err = self.tree().smi("--json")
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc["module"]["loaded"], True)
        self.assertEqual(doc["module"]["api"], "1.0")
        self.assertIsNone(doc["module"]["debugfs"])
        self.assertEqual(doc["module"]["parameters"],
                         {"num_devices": 2, "hbm_mib": 2048, "host_access": 0,
                          "va_window_gib": 1024})
        self.assertEqual(doc["hugetlb"]["2M"], {"total_pages": 16, "free_pages": 15})
        d0, d1 = doc["devices"]
        self.assertEqual(d0["id"], 0)
        self.assertEqual(d0["path"], "/dev/npu_sim0")
        self.assertEqual(d0["capacity_bytes"], 2 * GiB)
        self.assertEqual(d0["used_bytes"], 2105344)
        self.assertEqual(d0["free_bytes"], 2 * GiB - 2105344)
        self.assertEqual(d0["host_access"], 0)
        self.assertEqual(d0["pages"]["normal"]["used_bytes"], 8192)
        self.assertEqual(d0["pages"]["huge_2m"], {"used_bytes": 2 * MiB,
                                                  "free_bytes": 30 * MiB})
        self.assertEqual(d0["pages"]["huge_1g"], {"used_bytes": 0, "free_bytes": GiB})
        self.assertEqual(d0["p2p_used_bytes"], 4096)
        self.assertEqual(d0["allocations"], 3)
        self.assertEqual(d0["peer_access"], "1")
        self.assertEqual(d1["peer_access"], "-")
        self.assertEqual(doc["peer_copies"], [
            {"src": 0, "dst": 1, "copies": 3, "bytes": 12288},
            {"src": 1, "dst": 0, "copies": 1, "bytes": 4097}])
        self.assertEqual(d0["host_access_faults"], 7)
        self.assertEqual(d0["processes"], [
            {"pid": 245, "name": "python3", "allocations": 2, "used_bytes": 2101248},
            {"pid": 300, "name": "a.out", "allocations": 1, "used_bytes": 4096}])
        self.assertEqual(d1["capacity_bytes"], GiB)
        self.assertEqual(d1["host_access"], 1)
        self.assertEqual(d1["processes"], [])

    def test_one_device(self):
        tree = self.tree()
        rc, out, _ = tree.smi("--json", "-i", "1")
        self.assertEqual(rc, 0)
        self.assertEqual([d["id"] for d in json.loads(out)["devices"]], [1])
        tree.write("sys/kernel/debug/npu_sim/peer_copies", PEER_COPIES + "2 3 5 10\n")
        rc, out, _ = tree.smi("--json", "-i", "1")
        self.assertEqual([(p["src"], p["dst"]) for p in json.loads(out)["peer_copies"]],
                         [(0, 1), (1, 0)])
        rc, out, _ = tree.smi("-i", "1")
        self.assertNotRegex(out, r"\| 0   \| (2 GiB|245 |300 )")
        self.assertIn("| 0   | 1   |            3 |", out)   # a pair with device 1
        rc, _, err = tree.smi("-i", "5")
        self.assertEqual(rc, 1)
        self.assertIn("no device 5", err)

    def test_module_not_loaded(self):
        tree = self.tree(loaded=False)
        rc, out, err = tree.smi()
        self.assertEqual(rc, 1)
        self.assertEqual(out, "")
        self.assertIn("npu_sim module is not loaded", err)
        rc, out, err = tree.smi("--json")
        self.assertEqual(rc, 1)
        doc = json.loads(out)
        self.assertFalse(doc["module"]["loaded"])
        self.assertEqual(doc["devices"], [])
        self.assertIsNone(doc["peer_copies"])

    def test_debugfs_not_mounted(self):
        tree = self.tree(debugfs=False)
        rc, out, err = tree.smi()
        self.assertEqual(rc, 0)
        self.assertIn("debugfs is not mounted at /sys/kernel/debug", err)
        self.assertIn("mount -t debugfs", err)
        self.assertIn("processes unknown", out)
        rc, out, err = tree.smi("--json")
        doc = json.loads(out)
        d0 = doc["devices"][0]
        self.assertEqual(d0["capacity_bytes"], 2 * GiB)   # from sysfs
        self.assertEqual(d0["used_bytes"], 2105344)
        self.assertIsNone(d0["allocations"])
        self.assertIsNone(d0["processes"])
        self.assertIsNone(d0["pages"]["normal"]["used_bytes"])
        self.assertIn("not mounted", doc["module"]["debugfs"])
        self.assertIsNone(doc["peer_copies"])
        self.assertIsNone(d0["peer_access"])

    def test_usage_errors(self):
        for args in (["bogus"], ["--nope"], ["-i", "x"], ["-i", "-1"]):
            rc, _, err = run(SMI, *args)
            self.assertEqual(rc, 2, args)
            self.assertIn("npu-sim-smi", err)
        rc, out, _ = run(SMI, "--help")
        self.assertEqual(rc, 0)
        self.assertIn("usage: npu-sim-smi", out)


if __name__ == "__main__":
    unittest.main()
