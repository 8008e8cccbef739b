"""npu-sim-smi against fabricated sysfs/debugfs/proc trees
(NPU_SIM_SMI_ROOT): the table, JSON and CSV formats, -i, -l, and the
messages for a module that is not loaded.  Formatting only; the live
tests check the figures against the real module.  Runs anywhere."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

from tools_env import SMI, run

GiB = 1 << 30
MiB = 1 << 20

# device 0: 2 MiB on a 2M page + 8 KiB normal (4 KiB of it P2P), 3 allocs
DEV0 = {
    "capacity_bytes": 2 * GiB, "used_bytes": 2 * MiB + 8192,
    "used_normal_bytes": 8192, "used_huge_2m_bytes": 2 * MiB,
    "used_huge_1g_bytes": 0, "used_p2p_bytes": 4096, "allocations": 3,
    "contexts": 3, "host_access": 0, "health": "OK", "peers": "1,3",
    "api_version": "1.6",
    "processes": "pid used_bytes allocations\n245 %d 2\n300 4096 1\n"
                 % (2 * MiB + 4096),
}
DEV1 = {
    "capacity_bytes": GiB, "used_bytes": 0, "used_normal_bytes": 0,
    "used_huge_2m_bytes": 0, "used_huge_1g_bytes": 0, "used_p2p_bytes": 0,
    "allocations": 0, "contexts": 0, "host_access": 1, "health": "Warning",
    "peers": "", "api_version": "1.6", "proc_mem_limit_bytes": 64 * MiB,
    "processes": "pid used_bytes allocations\n",
}
CALLBACKS = """pid stream report_channel hostfunc_channel runtime queued posted running
245 1 7f3a2c5ff6c0 0 0 2 1 0
245 3 0 7f3a2bdfe6c0 1 0 0 1
"""
PEER_COPIES = """src dst copies bytes
0 1 3 12288
1 0 1 4097
"""

GRAPHS0 = """id pid device tasks bytes replays
3 245 0 5 12288 7
"""
MEMPOOLS1 = """pool owner_pid device size reserved reserved_high used used_high threshold reuse_eoi blocks_free blocks_pending blocks_used
2 300 1 0 4194304 6291456 2097152 4194304 1048576 111 1 0 1
5 245 1 8388608 0 2097152 0 2097152 0 100 0 0 0
"""
NOTIFIES0 = """notify owner_pid kind value holders export state waiters streams
7 245 plain 1 2 3 live 0 -
9 300 count 42 1 - live 2 300:1,245:4
"""


class Tree:
    """A fake root with /sys, /proc (and debugfs) of a loaded module."""

    def __init__(self, loaded=True, debugfs=False, profile=False, callbacks=False, graphs=False):
        self.root = tempfile.mkdtemp(prefix="smi-")
        self.write("proc/mounts", "proc /proc proc rw 0 0\n" +
                   ("debugfs /sys/kernel/debug debugfs rw 0 0\n" if debugfs else ""))
        self.write("proc/245/comm", "python3\n")
        # a name that is not UTF-8 and holds a quote, a comma and a blank
        os.makedirs(os.path.join(self.root, "proc/300"))
        with open(os.path.join(self.root, "proc/300/comm"), "wb") as f:
            f.write(b'a"b,c d\xff\n')
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
        for dev, attrs in ((0, DEV0), (1, DEV1)):
            for name, value in attrs.items():
                text = value if name == "processes" else "%s\n" % value
                self.write("sys/class/npu_sim/npu_sim%d/%s" % (dev, name), text)
        if profile:
            base = "sys/class/npu_sim/npu_sim0/"
            self.write(base + "profile", "910b\n")
            self.write(base + "soc_name", "Ascend910B3\n")
            self.write(base + "product_name", "Atlas 800T A2\n")
        if debugfs:
            dbg = "sys/kernel/debug/npu_sim/"
            self.write(dbg + "npu_sim0/stats", "calls_alloc 3\nhost_access_faults 7\n")
            self.write(dbg + "npu_sim1/stats", "host_access_faults 0\n")
            self.write(dbg + "peer_copies", PEER_COPIES)
            self.write(dbg + "npu_sim0/notifies", NOTIFIES0)
            if callbacks:
                self.write(dbg + "npu_sim0/callbacks", CALLBACKS)
                self.write(dbg + "npu_sim1/callbacks", CALLBACKS.splitlines()[0] + "\n")
            if graphs:
                self.write(dbg + "npu_sim0/graphs", GRAPHS0)
                self.write(dbg + "npu_sim1/graphs", GRAPHS0.splitlines()[0] + "\n")
                self.write(dbg + "npu_sim0/mempools", MEMPOOLS1.splitlines()[0] + "\n")
                self.write(dbg + "npu_sim1/mempools", MEMPOOLS1)

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def env(self):
        return dict(os.environ, NPU_SIM_SMI_ROOT=self.root)

    def smi(self, *args):
        return run(SMI, *args, env=self.env())

    def cleanup(self):
        shutil.rmtree(self.root)


def rows(text):
    """Non-empty lines of a libsmartcols table, split on runs of 2 blanks."""
    return [[c.strip() for c in line.split("  ") if c.strip()]
            for line in text.splitlines() if line.strip()]


class SmiFixture(unittest.TestCase):
    def tree(self, **kwargs):
        tree = Tree(**kwargs)
        self.addCleanup(tree.cleanup)
        return tree

    def test_table(self):
        rc, out, err = self.tree().smi("info")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        head, procs = out.split("\n\n")   # no debugfs: no copies table
        lines = head.splitlines()
        self.assertEqual(lines[0], "npu-sim-smi  module npu_sim  api 1.6  devices 2  "
                         "hugetlb 2M free 15/16  1G free 2/2")
        self.assertEqual(rows("\n".join(lines[1:])), [
            ["NPU", "Name", "Health", "Mode", "Memory-Usage(MiB)", "Normal(MiB)",
             "Huge-2M(MiB)", "Huge-1G(MiB)", "P2P(MiB)", "Allocs", "Procs", "Peers"],
            # used is rounded up to whole MiB: 2 MiB + 8 KiB -> 3
            ["0", "npu_sim", "OK", "strict", "3 / 2048", "1", "2", "0", "1",
             "3", "2", "1,3"],
            ["1", "npu_sim", "Warning", "host-access", "0 / 1024", "0", "0", "0",
             "0", "0", "0", "-"]])
        self.assertEqual(procs.splitlines()[0].split(), [
            "NPU", "PID", "Process-Name", "Allocs", "Device-Memory(MiB)"])
        # used rounded up: 2 MiB + 4 KiB -> 3; the name made printable
        self.assertEqual(rows(procs)[1:], [["0", "245", "python3", "2", "3"],
                                           ["0", "300", 'a"b,c d?', "1", "1"]])

    def test_table_root(self):
        rc, out, err = self.tree(debugfs=True).smi()
        self.assertEqual(rc, 0, err)
        t = rows(out)
        self.assertEqual(t[1][-1], "Host-Faults")
        self.assertEqual(t[2][-1], "7")
        self.assertEqual(t[-6:-3], [["Src", "Dst", "Copies", "Bytes"],
                                    ["0", "1", "3", "12288"], ["1", "0", "1", "4097"]])
        # the notifies of every device, last
        self.assertEqual(t[-3:], [
            ["NPU", "Notify", "Owner", "Kind", "Value", "Holders", "Export", "State",
             "Waiters", "Streams"],
            ["0", "7", "245", "plain", "1", "2", "3", "live", "0", "-"],
            ["0", "9", "300", "count", "42", "1", "-", "live", "2", "300:1,245:4"]])
        # -i of a device without notifies: no table
        self.assertNotIn("Notify", self.tree(debugfs=True).smi("-i", "1")[1])

    def test_callbacks_root(self):
        # streams with host callbacks (debugfs npu_simN/callbacks, API 1.9)
        tree = self.tree(debugfs=True, callbacks=True)
        rc, out, err = tree.smi()
        self.assertEqual(rc, 0, err)
        self.assertEqual(rows(out)[-3:], [
            ["NPU", "PID", "Stream", "Report-Thread", "HostFunc-Thread", "Queued",
             "Posted", "Running"],
            ["0", "245", "1", "7f3a2c5ff6c0", "-", "2", "1", "0"],
            ["0", "245", "3", "-", "7f3a2bdfe6c0 (runtime)", "0", "0", "1"]])
        doc = json.loads(tree.smi("--json")[1])
        self.assertEqual(doc["callbacks"][1], {
            "id": 0, "pid": 245, "stream": 3, "report_thread": "0",
            "hostfunc_thread": "7f3a2bdfe6c0", "hostfunc_runtime": True,
            "queued": 0, "posted": 0, "running": 1})
        self.assertEqual(json.loads(tree.smi("--json", "-i", "1")[1])["callbacks"], [])
        # no callbacks file (an older module, or no debugfs): null, no table
        doc = json.loads(self.tree(debugfs=True).smi("--json")[1])
        self.assertIsNone(doc["callbacks"])

    def test_graphs_and_mempools_root(self):
        # captured graphs and memory pools (debugfs npu_simN/graphs, mempools)
        tree = self.tree(debugfs=True, graphs=True)
        rc, out, err = tree.smi()
        self.assertEqual(rc, 0, err)
        t = rows(out)
        g = t.index(["NPU", "Graph", "PID", "Tasks", "Bytes", "Replays"])
        self.assertEqual(t[g + 1], ["0", "3", "245", "5", "12288", "7"])
        self.assertEqual(t[g + 2:g + 5], [
            ["NPU", "Pool", "PID", "Max-Size", "Reserved", "Used", "Reserved-High", "Used-High",
             "Threshold", "Blocks-Free", "Blocks-Pending", "Blocks-Used"],
            ["1", "2", "300", "-", "4194304", "2097152", "6291456", "4194304", "1048576", "1", "0",
             "1"],
            ["1", "5", "245", "8388608", "0", "0", "2097152", "2097152", "0", "0", "0", "0"]])
        doc = json.loads(tree.smi("--json")[1])
        self.assertEqual(doc["graphs"], [{"device": 0, "id": 3, "pid": 245, "tasks": 5,
                                          "bytes": 12288, "replays": 7}])
        self.assertEqual(doc["mempools"][0], {
            "device": 1, "id": 2, "owner_pid": 300, "max_size": None,
            "reserved_bytes": 4194304, "used_bytes": 2097152, "reserved_high_bytes": 6291456,
            "used_high_bytes": 4194304, "release_threshold": 1048576, "reuse": "111",
            "blocks_free": 1, "blocks_pending": 0, "blocks_used": 1})
        self.assertEqual(doc["mempools"][1]["max_size"], 8388608)
        # -i picks a device's rows; none: no table, an empty list
        rc, out, _ = tree.smi("-i", "1")
        self.assertNotIn("Graph", out)
        self.assertIn("Pool", out)
        doc = json.loads(tree.smi("--json", "-i", "0")[1])
        self.assertEqual((len(doc["graphs"]), doc["mempools"]), (1, []))
        # no such files (an older module, or no debugfs): null, no table
        doc = json.loads(self.tree(debugfs=True).smi("--json")[1])
        self.assertEqual((doc["graphs"], doc["mempools"]), (None, None))
        doc = json.loads(self.tree().smi("--json")[1])
        self.assertEqual((doc["graphs"], doc["mempools"]), (None, None))

    def test_profile_name(self):
        tree = self.tree(profile=True)
        rc, out, _ = tree.smi("--query=index,name,profile,soc_name",
                              "--format=csv,noheader")
        self.assertEqual(rc, 0)
        self.assertEqual(out, "0, Atlas 800T A2, 910b, Ascend910B3\n"
                              "1, npu_sim, , \n")
        rc, out, _ = tree.smi("-i", "0")
        self.assertIn("Atlas 800T A2", out)

    def test_json(self):
        rc, out, err = self.tree().smi("--json")
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc["module"], {
            "name": "npu_sim", "loaded": True, "api": "1.6",
            "debugfs": "debugfs is not mounted at /sys/kernel/debug "
                       "(mount -t debugfs none /sys/kernel/debug)",
            "parameters": {"num_devices": 2, "hbm_mib": 2048, "host_access": 0,
                           "va_window_gib": 1024}})
        self.assertEqual(doc["hugetlb"]["2M"], {"total_pages": 16, "free_pages": 15})
        d0, d1 = doc["devices"]
        self.assertEqual(d0, {
            "id": 0, "path": "/dev/npu_sim0", "name": "npu_sim", "profile": None,
            "soc_name": None, "health": "OK", "capacity_bytes": 2 * GiB,
            "used_bytes": 2 * MiB + 8192, "free_bytes": 2 * GiB - 2 * MiB - 8192,
            "proc_mem_limit_bytes": None, "host_access": 0,
            "pages": {"normal": {"used_bytes": 8192,
                                 "free_bytes": 2 * GiB - 2 * MiB - 8192},
                      "huge_2m": {"used_bytes": 2 * MiB, "free_bytes": 30 * MiB},
                      "huge_1g": {"used_bytes": 0, "free_bytes": GiB}},
            "p2p_used_bytes": 4096, "allocations": 3, "contexts": 3,
            "peers": [1, 3], "host_access_faults": None,
            "processes": [
                {"pid": 245, "name": "python3", "allocations": 2,
                 "used_bytes": 2 * MiB + 4096},
                {"pid": 300, "name": 'a"b,c d?', "allocations": 1,
                 "used_bytes": 4096}]})
        self.assertEqual((d1["health"], d1["host_access"], d1["peers"],
                          d1["processes"], d1["proc_mem_limit_bytes"]),
                         ("Warning", 1, [], [], 64 * MiB))
        self.assertIsNone(doc["peer_copies"])
        self.assertIsNone(doc["notifies"])

    def test_json_root(self):
        doc = json.loads(self.tree(debugfs=True).smi("--json", "-i", "1")[1])
        self.assertIsNone(doc["module"]["debugfs"])
        self.assertEqual([d["id"] for d in doc["devices"]], [1])
        self.assertEqual(doc["devices"][0]["host_access_faults"], 0)
        # with -i, the pairs that involve the device
        self.assertEqual(doc["peer_copies"], [
            {"src": 0, "dst": 1, "copies": 3, "bytes": 12288},
            {"src": 1, "dst": 0, "copies": 1, "bytes": 4097}])
        self.assertEqual(doc["notifies"], [])
        doc = json.loads(self.tree(debugfs=True).smi("--json")[1])
        self.assertEqual(doc["notifies"], [
            {"device": 0, "id": 7, "owner_pid": 245, "kind": "plain", "value": 1,
             "holders": 2, "export": 3, "state": "live", "waiters": 0, "streams": []},
            {"device": 0, "id": 9, "owner_pid": 300, "kind": "count", "value": 42,
             "holders": 1, "export": None, "state": "live", "waiters": 2,
             "streams": ["300:1", "245:4"]}])

    def test_query_limit(self):
        # device 0 has no limit file (an older module), device 1 a limit
        rc, out, err = self.tree().smi("--query=index,memory.limit.process.bytes",
                                       "--format=csv,noheader,nounits")
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[1], "1, %d" % (64 * MiB))
        self.assertNotIn(str(64 * MiB), lines[0])

    def test_query_csv(self):
        tree = self.tree()
        q = ("--query=index,health,mode,memory.used,memory.total,memory.free,"
             "memory.used.bytes,memory.used.huge_2m,allocations,processes,peers,"
             "api_version")
        rc, out, err = tree.smi(q, "--format=csv")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "index, health, mode, memory.used [MiB], memory.total [MiB], "
            "memory.free [MiB], memory.used.bytes [B], memory.used.huge_2m [MiB], "
            "allocations, processes, peers, api_version",
            '0, OK, strict, 3 MiB, 2048 MiB, 2045 MiB, 2105344 B, 2 MiB, 3, 2, "1,3", 1.6',
            "1, Warning, host-access, 0 MiB, 1024 MiB, 1024 MiB, 0 B, 0 MiB, 0, 0, , 1.6"])
        rc, out, _ = tree.smi(q, "--format=csv,noheader,nounits", "-i", "1")
        self.assertEqual(out, "1, Warning, host-access, 0, 1024, 1024, 0, 0, 0, 0, , 1.6\n")
        rc, out, _ = tree.smi("--query=memory.used", "--format=csv,nounits")
        self.assertEqual(out, "memory.used\n3\n0\n")

    def test_query_processes(self):
        tree = self.tree()
        rc, out, err = tree.smi("--query-processes=index,pid,name,used_memory,"
                                "used_memory.bytes,allocations", "--format=csv")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [
            "index, pid, name, used_memory [MiB], used_memory.bytes [B], allocations",
            "0, 245, python3, 3 MiB, %d B, 2" % (2 * MiB + 4096),
            '0, 300, "a""b,c d?", 1 MiB, 4096 B, 1'])
        rc, out, _ = tree.smi("--query-processes=pid", "--format=csv,noheader",
                              "-i", "1")
        self.assertEqual((rc, out), (0, ""))

    def test_unknown_device(self):
        tree = self.tree()
        for args in (["-i", "5"], ["-i", "5", "--json"],
                     ["-i", "5", "--query=index", "--format=csv,noheader"]):
            rc, out, err = tree.smi(*args)
            self.assertEqual(rc, 1, args)
            self.assertEqual(out, "", args)
            self.assertEqual(err, "npu-sim-smi: no device 5 (the module has 2: 0-1)\n")
        rc, out, _ = tree.smi("-i", "1")
        self.assertEqual(rc, 0)
        devices, procs = out.split("\n\n")
        self.assertEqual([r[0] for r in rows(devices)[1:]], ["NPU", "1"])
        self.assertEqual(procs, "Processes: no running processes found\n")

    def test_loop(self):
        """-l prints one snapshot per interval until it is stopped."""
        tree = self.tree()
        proc = subprocess.Popen([SMI, "-l", "1", "--query=index,memory.used",
                                 "--format=csv,noheader,nounits", "-i", "0"],
                                stdout=subprocess.PIPE, universal_newlines=True,
                                env=tree.env())
        try:
            self.assertEqual(proc.stdout.readline(), "0, 3\n")
            tree.write("sys/class/npu_sim/npu_sim0/used_bytes", "%d\n" % (5 * MiB))
            # the next snapshots see the new value
            while True:
                line = proc.stdout.readline()
                self.assertIn(line, ("0, 3\n", "0, 5\n"))
                if line == "0, 5\n":
                    break
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait()
        proc.stdout.close()
        # --json in loop mode: one document per line
        proc = subprocess.Popen([SMI, "-l", "1", "--json", "-i", "1"],
                                stdout=subprocess.PIPE, universal_newlines=True,
                                env=tree.env())
        try:
            for _ in range(2):
                doc = json.loads(proc.stdout.readline())
                self.assertEqual([d["id"] for d in doc["devices"]], [1])
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait()
        proc.stdout.close()

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
        self.assertIsNone(doc["module"]["parameters"])
        self.assertEqual(doc["devices"], [])
        self.assertIsNone(doc["peer_copies"])

    def test_older_module(self):
        """A module before API 1.6: capacity and used only, the rest unknown."""
        tree = self.tree()
        for name in ("used_normal_bytes", "processes", "api_version", "health"):
            os.unlink(os.path.join(tree.root, "sys/class/npu_sim/npu_sim0", name))
        doc = json.loads(tree.smi("--json", "-i", "0")[1])
        self.assertIsNone(doc["module"]["api"])
        d0 = doc["devices"][0]
        self.assertEqual(d0["used_bytes"], 2 * MiB + 8192)
        self.assertIsNone(d0["allocations"])
        self.assertIsNone(d0["processes"])
        self.assertIsNone(d0["health"])
        rc, out, _ = tree.smi("--query=memory.used,allocations,processes",
                              "--format=csv,noheader", "-i", "0")
        self.assertEqual(out, "3 MiB, [N/A], [N/A]\n")
        rc, out, _ = tree.smi("-i", "0")
        self.assertIn("api ?", out)
        self.assertIn("Processes: unknown", out)

    def test_usage_errors(self):
        for args in (["bogus"], ["--nope"], ["-i", "x"], ["-i", "-1"], ["-i", "16"],
                     ["-l", "0"], ["-l", "x"], ["--query=nope"], ["--query="],
                     ["--query=index", "--format=tsv"],
                     ["--query=index", "--format=csv,bogus"],
                     ["--format=csv"], ["--json", "--query=index"],
                     ["--query-processes=memory.used"],
                     ["--query=index", "--query-processes=pid"]):
            rc, out, err = run(SMI, *args)
            self.assertEqual(rc, 2, args)
            self.assertEqual(out, "", args)
            self.assertIn("npu-sim-smi", err)
        rc, out, _ = run(SMI, "--help")
        self.assertEqual(rc, 0)
        self.assertIn("usage: npu-sim-smi", out)
        rc, out, _ = run(SMI, "--help-query")
        self.assertEqual(rc, 0)
        self.assertIn("memory.used.bytes", out)


if __name__ == "__main__":
    unittest.main()
