"""acl.rt VMM and sharing calls against the real module: granularity,
reserve / malloc_physical / map_mem / memcpy / unmap / remap, access,
retain, properties, pointer attributes, export argument checks.  Uses
normal pages (ACL_MEM_NORMAL) so no hugetlb pool is needed."""
import unittest

from npu_env import acl, needs_device

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
MiB = 1 << 20


def prop(attr=acl.ACL_MEM_NORMAL, loc_type=acl.ACL_MEM_LOCATION_TYPE_DEVICE):
    return {"handleType": acl.ACL_MEM_HANDLE_TYPE_NONE,
            "allocationType": acl.ACL_MEM_ALLOCATION_TYPE_PINNED,
            "memAttr": attr, "location": {"id": 0, "type": loc_type},
            "reserve": 0}


class Arguments(unittest.TestCase):
    def test_granularity(self):
        self.assertEqual(acl.rt.mem_get_allocation_granularity(prop(), 0), (2 * MiB, 0))
        self.assertEqual(acl.rt.mem_get_allocation_granularity(
            prop(acl.ACL_MEM_HUGE1G), 1), (1 << 30, 0))
        self.assertEqual(acl.rt.mem_get_allocation_granularity(prop(0), 0),
                         (0, acl.ACL_ERROR_INVALID_PARAM))
        with self.assertRaises(TypeError):
            acl.rt.mem_get_allocation_granularity([], 0)


@needs_device
class Vmm(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)

    def tearDown(self):
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_round_trip(self):
        va, ret = acl.rt.reserve_mem_address(64 * MiB, 0, 0, 0)
        self.assertEqual(ret, 0)
        h1, ret = acl.rt.malloc_physical(2 * MiB, prop(), 0)
        self.assertEqual(ret, 0)
        h2, ret = acl.rt.malloc_physical(2 * MiB, prop(), 0)
        self.assertEqual(ret, 0)
        self.assertEqual(acl.rt.map_mem(va, 2 * MiB, 0, h1, 0), 0)
        self.assertEqual(acl.rt.map_mem(va + 2 * MiB, 2 * MiB, 0, h2, 0), 0)
        self.assertEqual(acl.rt.map_mem(va, 2 * MiB, 0, h2, 0), acl.ACL_ERROR_RT_PARAM_INVALID)
        data = bytes(range(256)) * 64
        src = acl.util.bytes_to_ptr(data)
        # across the seam of the two mappings
        self.assertEqual(acl.rt.memcpy(va + 2 * MiB - 8192, len(data), src, len(data), H2D), 0)
        out = bytearray(len(data))
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(out), len(out),
                                       va + 2 * MiB - 8192, len(out), D2H), 0)
        self.assertEqual(bytes(out), data)

        attrs, ret = acl.rt.pointer_get_attributes(va + 100)
        self.assertEqual(ret, 0)
        self.assertEqual(attrs["location"], {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_DEVICE})
        self.assertEqual(attrs["pageSize"], 4096)
        self.assertEqual(acl.rt.mem_get_address_range(va + 3 * MiB), (va + 2 * MiB, 2 * MiB, 0))
        loc, flag, ret = acl.rt.mem_get_access(va)
        self.assertEqual((loc["type"], flag, ret),
                         (acl.ACL_MEM_LOCATION_TYPE_DEVICE, acl.ACL_RT_MEM_ACCESS_FLAGS_READWRITE, 0))
        self.assertEqual(acl.rt.mem_set_access(va, 2 * MiB, [
            {"flags": acl.ACL_RT_MEM_ACCESS_FLAGS_READWRITE,
             "location": {"id": 0, "type": acl.ACL_MEM_LOCATION_TYPE_HOST}}]), 0)
        self.assertEqual(acl.rt.mem_get_access(va)[0]["type"], acl.ACL_MEM_LOCATION_TYPE_HOST)
        hr, ret = acl.rt.mem_retain_allocation_handle(va)
        self.assertEqual((hr, ret), (h1, 0))
        self.assertEqual(acl.rt.free_physical(hr), 0)
        p, ret = acl.rt.mem_get_allocation_properties_from_handle(h2)
        self.assertEqual((p["memAttr"], ret), (acl.ACL_MEM_NORMAL, 0))
        key, ret = acl.rt.mem_export_to_shareable_handle(h2, acl.ACL_MEM_HANDLE_TYPE_NONE, 0)
        self.assertEqual(ret, 0)
        self.assertNotEqual(key, 0)
        self.assertEqual(acl.rt.mem_export_to_shareable_handle(h2, 0, 0)[1],
                         acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.mem_import_from_shareable_handle(key, 0)[1],
                         acl.ACL_ERROR_RT_NO_PERMISSION)
        self.assertEqual(acl.rt.mem_set_pid_to_shareable_handle(key, [1]), 0)
        self.assertEqual(acl.rt.mem_set_pid_to_shareable_handle(key, []),
                         acl.ACL_ERROR_INVALID_PARAM)

        # unmap, remap elsewhere: data intact
        self.assertEqual(acl.rt.unmap_mem(va + 2 * MiB), 0)
        self.assertEqual(acl.rt.map_mem(va + 32 * MiB, 2 * MiB, 0, h2, 0), 0)
        out2 = bytearray(8192)
        self.assertEqual(acl.rt.memcpy(acl.util.bytes_to_ptr(out2), 8192, va + 32 * MiB,
                                       8192, D2H), 0)
        self.assertEqual(bytes(out2), data[8192:16384])
        self.assertEqual(acl.rt.release_mem_address(va), acl.ACL_ERROR_RT_PARAM_INVALID)
        self.assertEqual(acl.rt.unmap_mem(va), 0)
        self.assertEqual(acl.rt.unmap_mem(va + 32 * MiB), 0)
        self.assertEqual(acl.rt.free_physical(h1), 0)
        self.assertEqual(acl.rt.free_physical(h2), 0)
        self.assertEqual(acl.rt.free_physical(h2), acl.ACL_ERROR_RT_INVALID_HANDLE)
        self.assertEqual(acl.rt.release_mem_address(va), 0)


if __name__ == "__main__":
    unittest.main()
