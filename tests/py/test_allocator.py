"""acl.rt.allocator_*: a user allocator written in Python, registered for a
stream.  libacl_rt never calls an allocator itself: the layers above the
runtime (graph and operator libraries) take the stream's allocator with
aclrtAllocatorGetByStream and call its C functions to get workspace.  The
test plays that layer with ctypes: the functions it gets back call the
Python alloc / free / alloc_advise / get_addr_from_block, from the calling
thread and from a thread of the library (a host function of the stream),
and the workspace they hand out is device memory a copy on the stream
uses.  Needs /dev/npu_sim0 (see npu_env)."""
import ctypes
import os
import sys
import threading
import unittest

from npu_env import acl, needs_device, REPO

LIB = ctypes.CDLL(os.path.join(REPO, "build", "lib", "libacl_rt.so"))
VP = ctypes.c_void_p
ALLOC = ctypes.CFUNCTYPE(VP, VP, ctypes.c_size_t)
FREE = ctypes.CFUNCTYPE(None, VP, VP)
ADVISE = ctypes.CFUNCTYPE(VP, VP, ctypes.c_size_t, VP)
ADDR = ctypes.CFUNCTYPE(VP, VP)
LIB.aclrtAllocatorGetByStream.argtypes = [VP] + [ctypes.POINTER(VP)] * 6
LIB.aclrtLaunchHostFunc.argtypes = [VP, VP, VP]
H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
INVALID = acl.ACL_ERROR_INVALID_PARAM
OBJ = 0x5A5A0000


def by_stream(stream):
    """(ret, desc, allocator, alloc, free, advise, get_addr) of the stream,
    as a layer above the runtime gets them."""
    out = [VP() for _ in range(6)]
    ret = LIB.aclrtAllocatorGetByStream(stream, *[ctypes.byref(o) for o in out])
    desc, obj, fa, ff, fv, fg = (o.value for o in out)
    return (ret, desc or 0, obj or 0, fa and ALLOC(fa), ff and FREE(ff), fv and ADVISE(fv),
            fg and ADDR(fg))


class DeviceAllocator:
    """Blocks are numbers standing for device memory from acl.rt.malloc."""

    def __init__(self):
        self.blocks = {}
        self.calls = []
        self.next = 1

    def alloc(self, allocator, size):
        self.calls.append(("alloc", allocator, size))
        addr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_NORMAL_ONLY)
        if ret != 0:
            return None
        block, self.next = self.next, self.next + 1
        self.blocks[block] = addr
        return block

    def advise(self, allocator, size, addr):
        self.calls.append(("advise", allocator, size, addr))
        return self.alloc(allocator, size)

    def free(self, allocator, block):
        self.calls.append(("free", allocator, block))
        self.free_ret = acl.rt.free(self.blocks.pop(block))

    def get_addr(self, block):
        self.calls.append(("addr", block, threading.get_ident()))
        return self.blocks[block]


def describe(a, advise=True):
    desc = acl.rt.allocator_create_desc()
    assert desc != 0
    assert acl.rt.allocator_set_obj_to_desc(desc, OBJ) == 0
    assert acl.rt.allocator_set_alloc_func_to_desc(desc, a.alloc) == 0
    assert acl.rt.allocator_set_free_func_to_desc(desc, a.free) == 0
    assert acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, a.get_addr) == 0
    if advise:
        assert acl.rt.allocator_set_alloc_advise_func_to_desc(desc, a.advise) == 0
    return desc


@needs_device
class Allocator(unittest.TestCase):
    def setUp(self):
        self.assertIn(acl.init(), (0, acl.ACL_ERROR_REPEAT_INITIALIZE))
        self.assertEqual(acl.rt.set_device(0), 0)
        self.stream, ret = acl.rt.create_stream()
        self.assertEqual(ret, 0)

    def tearDown(self):
        self.assertEqual(acl.rt.allocator_unregister(self.stream), 0)
        self.assertEqual(acl.rt.destroy_stream(self.stream), 0)
        self.assertEqual(acl.rt.reset_device(0), 0)

    def test_workspace_from_python(self):
        a = DeviceAllocator()
        desc = describe(a)
        self.assertEqual(by_stream(self.stream)[0], INVALID)     # not registered yet
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), 0)
        ret, got_desc, obj, alloc, free, advise, get_addr = by_stream(self.stream)
        self.assertEqual((ret, got_desc), (0, desc))
        self.assertNotEqual(obj, 0)     # the module's object: its calls pass OBJ on
        # the layer above asks for 64 KiB of workspace
        block = alloc(obj, 65536)
        self.assertIsNotNone(block)
        self.assertEqual(a.calls, [("alloc", OBJ, 65536)])
        addr = get_addr(block)
        self.assertEqual(a.calls[-1], ("addr", 1, threading.get_ident()))
        self.assertEqual(addr, a.blocks[1])
        # it is device memory the stream can use
        data = bytes(i % 253 for i in range(65536))
        host = acl.util.bytes_to_ptr(data)
        back = bytearray(65536)
        self.assertEqual(acl.rt.memcpy_async(addr, 65536, host, 65536, H2D, self.stream), 0)
        self.assertEqual(acl.rt.memcpy_async(acl.util.bytes_to_ptr(back), 65536, addr, 65536, D2H,
                                             self.stream), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(bytes(back), data)
        # advise passes the wanted address on
        block2 = advise(obj, 4096, 0x1000)
        self.assertIsNotNone(block2)
        self.assertEqual(a.calls[-2], ("advise", OBJ, 4096, 0x1000))
        free(obj, block2)
        free(obj, block)
        self.assertEqual(a.calls[-1], ("free", OBJ, 1))
        self.assertEqual((a.blocks, a.free_ret), ({}, 0))
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), 0)

    def test_called_from_a_library_thread(self):
        """get_addr_from_block from a thread Python did not start (the
        library's host function thread): the trampoline takes the GIL."""
        a = DeviceAllocator()
        desc = describe(a)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), 0)
        _, _, obj, alloc, free, _, get_addr = by_stream(self.stream)
        block = alloc(obj, 4096)
        fn = ctypes.cast(get_addr, VP)       # void fn(void *): as an aclrtCallback
        self.assertEqual(LIB.aclrtLaunchHostFunc(self.stream, fn, block), 0)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), 0)
        self.assertEqual(a.calls[-1][:2], ("addr", 1))
        self.assertNotEqual(a.calls[-1][2], threading.get_ident())
        free(obj, block)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), 0)

    def test_registration_keeps_what_was_registered(self):
        a, b = DeviceAllocator(), DeviceAllocator()
        desc = describe(a, advise=False)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), 0)
        _, _, _, _, _, advise, _ = by_stream(self.stream)
        self.assertIsNone(advise)                                 # optional, not set
        # changed and destroyed after: the registration still calls a
        self.assertEqual(acl.rt.allocator_set_alloc_func_to_desc(desc, b.alloc), 0)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), 0)
        _, _, obj, alloc, free, _, _ = by_stream(self.stream)
        block = alloc(obj, 512)
        self.assertEqual((len(a.calls), len(b.calls)), (1, 0))
        free(obj, block)
        # the Python callbacks' errors: reported, NULL to the C caller
        raised = []
        old, sys.unraisablehook = sys.unraisablehook, lambda u: raised.append(type(u.exc_value))
        try:
            desc2 = describe(a)
            self.assertEqual(acl.rt.allocator_set_alloc_func_to_desc(desc2, lambda o, s: 1 // 0), 0)
            self.assertEqual(acl.rt.allocator_register(self.stream, desc2), 0)
            _, _, obj, alloc, _, _, _ = by_stream(self.stream)
            self.assertIsNone(alloc(obj, 512))
            self.assertEqual(acl.rt.allocator_set_alloc_func_to_desc(desc2, lambda o, s: None), 0)
            self.assertEqual(acl.rt.allocator_register(self.stream, desc2), 0)
            _, _, obj, alloc, _, _, _ = by_stream(self.stream)
            self.assertIsNone(alloc(obj, 512))                    # None: no memory
        finally:
            sys.unraisablehook = old
        self.assertEqual(raised, [ZeroDivisionError])
        self.assertEqual(acl.rt.allocator_destroy_desc(desc2), 0)

    def test_bad_input(self):
        a = DeviceAllocator()
        desc = acl.rt.allocator_create_desc()
        self.assertNotEqual(desc, 0)
        # incomplete descriptions, in the order of the checks
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), INVALID)   # no object
        self.assertEqual(acl.rt.allocator_set_obj_to_desc(desc, OBJ), 0)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), INVALID)   # no alloc
        self.assertEqual(acl.rt.allocator_set_alloc_func_to_desc(desc, a.alloc), 0)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), INVALID)   # no free
        self.assertEqual(acl.rt.allocator_set_free_func_to_desc(desc, a.free), 0)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), INVALID)   # no get_addr
        self.assertEqual(by_stream(self.stream)[0], INVALID)                      # nothing registered
        self.assertEqual(acl.rt.allocator_set_get_addr_from_block_func_to_desc(desc, a.get_addr), 0)
        self.assertEqual(acl.rt.allocator_register(0, desc), INVALID)
        self.assertEqual(acl.rt.allocator_register(self.stream, 0), INVALID)
        # NULL description, object or function
        for setter in (acl.rt.allocator_set_alloc_func_to_desc, acl.rt.allocator_set_free_func_to_desc,
                       acl.rt.allocator_set_alloc_advise_func_to_desc,
                       acl.rt.allocator_set_get_addr_from_block_func_to_desc):
            self.assertEqual(setter(0, a.alloc), INVALID)
            self.assertEqual(setter(desc, None), INVALID)
            self.assertRaises(TypeError, setter, desc, 42)
        self.assertEqual(acl.rt.allocator_set_obj_to_desc(0, OBJ), INVALID)
        self.assertEqual(acl.rt.allocator_set_obj_to_desc(desc, 0), INVALID)
        self.assertRaises(TypeError, acl.rt.allocator_set_obj_to_desc, desc, "obj")
        self.assertEqual(acl.rt.allocator_unregister(0), INVALID)
        self.assertEqual(acl.rt.allocator_unregister(self.stream), 0)            # none: no effect
        # destroyed: every call on it is refused, and nothing is registered
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), 0)
        self.assertEqual(acl.rt.allocator_destroy_desc(desc), INVALID)
        self.assertEqual(acl.rt.allocator_destroy_desc(0), INVALID)
        self.assertEqual(acl.rt.allocator_set_obj_to_desc(desc, OBJ), INVALID)
        self.assertEqual(acl.rt.allocator_set_alloc_func_to_desc(desc, a.alloc), INVALID)
        self.assertEqual(acl.rt.allocator_register(self.stream, desc), INVALID)
        self.assertEqual(by_stream(self.stream)[0], INVALID)
        self.assertEqual(a.calls, [])


if __name__ == "__main__":
    unittest.main()
