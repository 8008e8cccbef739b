"""npu-sim-smi against the real module: known allocations show up exactly
in the JSON, the table and the CSV queries, also for an ordinary user (not
root) looking at another process's allocation.  Needs the module."""
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import unittest

from tools_env import SMI, PYTHON_DIR, acl, needs_device, run

MiB = 1 << 20
PAGE = 4096
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
DEBUGFS = "/sys/kernel/debug/npu_sim/npu_sim0/"


def uapi_version():
    with open(os.path.join(os.path.dirname(PYTHON_DIR), "..", "include", "uapi",
                           "misc", "npu_sim.h")) as f:
        text = f.read()
    return "%s.%s" % tuple(re.search(r"NPU_SIM_API_VERSION_%s\s+(\d+)" % part,
                                     text).group(1) for part in ("MAJOR", "MINOR"))


UAPI_VERSION = uapi_version()

# A process holding one allocation of argv[1] bytes until stdin closes.
HOLDER = """import sys, acl
if acl.rt.set_device(0): sys.exit('set_device failed')
p, r = acl.rt.malloc(int(sys.argv[1]), acl.ACL_MEM_MALLOC_NORMAL_ONLY)
if r: sys.exit('malloc failed %d' % r)
print('ready', flush=True)
sys.stdin.read()
"""


# libacl_rt itself, for the calls pyACL has no wrapper for (graphs, pools)
LIB = ctypes.CDLL(os.path.join(os.path.dirname(PYTHON_DIR), "lib", "libacl_rt.so"))
VP = ctypes.c_void_p
CAPTURE_MODE_GLOBAL = 0     # ACL_MODEL_RI_CAPTURE_MODE_GLOBAL


class MemLocation(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("type", ctypes.c_int)]


class MemPoolProps(ctypes.Structure):
    """aclrtMemPoolProps (include/acl/acl_rt_memory_soma.h)."""
    _fields_ = [("allocType", ctypes.c_int), ("handleType", ctypes.c_int),
                ("location", MemLocation), ("maxSize", ctypes.c_size_t),
                ("reserved", ctypes.c_ubyte * 32)]


def smi(*args, user=None):
    rc, out, err = run(*((user or []) + [SMI] + list(args)))
    if rc != 0:
        raise AssertionError("npu-sim-smi %s failed (%d): %s" % (args, rc, err))
    return out


def snapshot(user=None):
    doc = json.loads(smi("--json", "-i", "0", user=user))
    return doc, doc["devices"][0]


def proc_of(dev, pid):
    procs = [p for p in dev["processes"] if p["pid"] == pid]
    return procs[0] if procs else {"allocations": 0, "used_bytes": 0}


def table_rows(text):
    return [[c.strip() for c in line.split("  ") if c.strip()]
            for line in text.splitlines() if line.strip()]


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
        # the UAPI version of the module (include/uapi/misc/npu_sim.h)
        self.assertEqual(doc0["module"]["api"], UAPI_VERSION)
        self.assertIn("  api %s  " % UAPI_VERSION, smi().splitlines()[0])
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
        me = proc_of(after, os.getpid())
        self.assertEqual(me, {"pid": os.getpid(), "name": "python3",
                              "allocations": count, "used_bytes": normal + huge})
        if huge:
            self.assertEqual(doc0["hugetlb"]["2M"]["free_pages"]
                             - doc1["hugetlb"]["2M"]["free_pages"], 1)

        # the table: this process with its allocations, used rounded up to MiB
        rows = table_rows(smi())
        mine = [r for r in rows if r[:2] == ["0", str(os.getpid())]]
        self.assertEqual(mine, [["0", str(os.getpid()), "python3", str(count),
                                 str(-(-(normal + huge) // MiB))]])
        out = smi("--query=memory.used.bytes,memory.used.normal,allocations",
                  "--format=csv,noheader,nounits", "-i", "0")
        self.assertEqual(out, "%d, %d, %d\n" % (
            after["used_bytes"], -(-after["pages"]["normal"]["used_bytes"] // MiB),
            after["allocations"]))

        for ptr in self.ptrs:
            self.assertEqual(acl.rt.free(ptr), 0)
        self.ptrs = []
        _, freed = snapshot()
        self.assertEqual(freed["used_bytes"], before["used_bytes"])
        self.assertEqual(proc_of(freed, os.getpid())["used_bytes"], 0)

    def test_ordinary_user_sees_other_process(self):
        """As nobody: another (root) process's 5 MiB allocation, exactly."""
        _, before = snapshot()
        size = 5 * MiB
        # aclrtMalloc appends 32 bytes and aligns to 32 (as CANN does): asking
        # for 64 bytes less than 5 MiB takes exactly 5 MiB of pages
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(size - 64)],
                                  env=dict(os.environ, PYTHONPATH=PYTHON_DIR),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  universal_newlines=True)
        try:
            self.assertEqual(holder.stdout.readline(), "ready\n")
            pid = holder.pid
            # really unprivileged: debugfs is closed to this user
            self.assertNotEqual(run(*(NOBODY + ["cat", DEBUGFS + "info"]))[0], 0)
            doc, dev = snapshot(user=NOBODY)
            self.assertEqual(doc["module"]["debugfs"],
                             "cannot read /sys/kernel/debug/npu_sim (run as root)")
            self.assertIsNone(dev["host_access_faults"])
            self.assertEqual(proc_of(dev, pid), {"pid": pid, "name": "python3",
                                                 "allocations": 1,
                                                 "used_bytes": size})
            self.assertEqual(dev["used_bytes"] - before["used_bytes"], size)
            self.assertEqual(dev["pages"]["normal"]["used_bytes"]
                             - before["pages"]["normal"]["used_bytes"], size)
            self.assertEqual(dev["allocations"] - before["allocations"], 1)

            rows = table_rows(smi("-i", "0", user=NOBODY))
            self.assertIn(["0", str(pid), "python3", "1", "5"], rows)
            out = smi("--query-processes=index,pid,used_memory,used_memory.bytes",
                      "--format=csv,noheader", "-i", "0", user=NOBODY)
            self.assertIn("0, %d, 5 MiB, %d B\n" % (pid, size), out)
            out = smi("--query=index,memory.used.bytes,processes",
                      "--format=csv,noheader,nounits", "-i", "0", user=NOBODY)
            self.assertEqual(out, "0, %d, %d\n" % (before["used_bytes"] + size,
                                                   len(dev["processes"])))
        finally:
            holder.stdin.close()
            holder.wait()
            holder.stdout.close()
        self.assertEqual(holder.returncode, 0)
        _, gone = snapshot(user=NOBODY)
        self.assertEqual(proc_of(gone, pid)["used_bytes"], 0)
        self.assertEqual(gone["used_bytes"], before["used_bytes"])

    def test_health_and_peers(self):
        _, dev = snapshot()
        self.assertEqual(dev["health"], "OK")
        # an injected failure makes allocations fail until it is used up
        with open(DEBUGFS + "fail_alloc", "w") as f:
            f.write("1\n")
        try:
            _, dev = snapshot(user=NOBODY)
            self.assertEqual(dev["health"], "Warning")
            _, ret = acl.rt.malloc(PAGE, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
            self.assertEqual(ret, acl.ACL_ERROR_RT_MEMORY_ALLOCATION)
        finally:
            with open(DEBUGFS + "fail_alloc", "w") as f:
                f.write("0\n")
        self.assertEqual(snapshot()[1]["health"], "OK")

        # the guest's module has its default 2 devices: the peer part runs
        self.assertEqual(acl.rt.get_device_count(), (2, 0))
        self.assertEqual(snapshot()[1]["peers"], [])
        self.assertEqual(acl.rt.device_enable_peer_access(1, 0), 0)
        self.assertEqual(snapshot(user=NOBODY)[1]["peers"], [1])
        self.assertEqual(smi("--query=peers", "--format=csv,noheader", "-i", "0"),
                         "1\n")
        self.assertEqual(acl.rt.device_disable_peer_access(1), 0)
        self.assertEqual(snapshot()[1]["peers"], [])

    def test_graph_and_mempool(self):
        """A live graph with its tasks, bytes and replays, and a memory pool
        with its bytes, in the table and the JSON (debugfs graphs, mempools)."""
        pid = os.getpid()
        stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)
        self.addCleanup(acl.rt.destroy_stream, stream)
        self.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        self.malloc(4096, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        src, dst = self.ptrs[-2:]
        # captured: a device-to-device copy (4096 bytes read, 4096 written)
        # and a memset of 4096 bytes; replayed once
        graph = VP()
        self.assertEqual(LIB.aclmdlRICaptureBegin(VP(stream), CAPTURE_MODE_GLOBAL), 0)
        self.assertEqual(acl.rt.memcpy_async(dst, 4096, src, 4096, acl.ACL_MEMCPY_DEVICE_TO_DEVICE,
                                             stream), 0)
        self.assertEqual(acl.rt.memset_async(src, 4096, 7, 4096, stream), 0)
        self.assertEqual(LIB.aclmdlRICaptureEnd(VP(stream), ctypes.byref(graph)), 0)
        self.addCleanup(LIB.aclmdlRIDestroy, graph)
        self.assertEqual(LIB.aclmdlRIExecuteAsync(graph, VP(stream)), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        # a pool of at most 8 MiB with one 1 MiB allocation: one 2 MiB block
        props = MemPoolProps(allocType=0, location=MemLocation(id=0, type=1), maxSize=8 << 20)
        pool, block = VP(), VP()
        self.assertEqual(LIB.aclrtMemPoolCreate(ctypes.byref(pool), ctypes.byref(props)), 0)
        self.addCleanup(LIB.aclrtMemPoolDestroy, pool)
        self.assertEqual(LIB.aclrtMemPoolMallocAsync(ctypes.byref(block), ctypes.c_size_t(MiB), pool,
                                                     VP(stream)), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)

        doc = json.loads(smi("--json"))
        graphs = [g for g in doc["graphs"] if g["pid"] == pid]
        self.assertEqual(len(graphs), 1)
        g = graphs[0]
        self.assertEqual((g["device"], g["tasks"], g["bytes"], g["replays"]), (0, 2, 3 * 4096, 1))
        pools = [p for p in doc["mempools"] if p["owner_pid"] == pid]
        self.assertEqual(len(pools), 1)
        p = pools[0]
        self.assertEqual(p, {"device": 0, "id": p["id"], "owner_pid": pid, "max_size": 8 << 20,
                             "reserved_bytes": 2 * MiB, "used_bytes": 2 * MiB,
                             "reserved_high_bytes": 2 * MiB, "used_high_bytes": 2 * MiB,
                             "release_threshold": 0, "reuse": "000", "blocks_free": 0,
                             "blocks_pending": 0, "blocks_used": 1})
        rows = table_rows(smi("-i", "0"))
        self.assertIn(["0", str(g["id"]), str(pid), "2", "12288", "1"], rows)
        self.assertIn(["0", str(p["id"]), str(pid), str(8 << 20), str(2 * MiB), str(2 * MiB),
                       str(2 * MiB), str(2 * MiB), "0", "0", "0", "1"], rows)
        # freed and destroyed: gone from both
        self.assertEqual(LIB.aclrtMemPoolFreeAsync(block, VP(stream)), 0)
        self.assertEqual(acl.rt.synchronize_stream(stream), 0)
        self.assertEqual(LIB.aclrtMemPoolDestroy(pool), 0)
        self.assertEqual(LIB.aclmdlRIDestroy(graph), 0)
        doc = json.loads(smi("--json"))
        self.assertEqual([g for g in doc["graphs"] if g["pid"] == pid], [])
        self.assertEqual([p for p in doc["mempools"] if p["owner_pid"] == pid], [])

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
        # the window's fault handler answers VM_FAULT_SIGSEGV
        self.assertEqual(child.returncode, -signal.SIGSEGV, child.stdout)
        _, after = snapshot()
        self.assertEqual(after["host_access_faults"]
                         - before["host_access_faults"], 1)
        rows = table_rows(smi("-i", "0"))
        self.assertEqual(rows[1][-1], "Host-Faults")
        self.assertEqual(rows[2][-1], str(after["host_access_faults"]))


if __name__ == "__main__":
    unittest.main()
