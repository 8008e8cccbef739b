"""Bad input: C argument errors come back as `ret` exactly as from C; wrong
Python types raise TypeError and out-of-range ints OverflowError, never a
crash.  None of these calls needs a device."""
import unittest

from npu_env import acl

INVALID_PARAM = 100000


class Index:
    """An int-like object (as numpy integers are)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class CErrors(unittest.TestCase):
    def test_malloc_size_zero(self):
        self.assertEqual(acl.rt.malloc(0, 0), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.malloc_align32(0, 0), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.malloc_cached(0, 0), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.malloc_with_cfg(0, 0, {}), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.malloc_host(0), (0, INVALID_PARAM))

    def test_free_null(self):
        self.assertEqual(acl.rt.free(0), INVALID_PARAM)
        self.assertEqual(acl.rt.free_with_dev_sync(0), INVALID_PARAM)
        self.assertEqual(acl.rt.free_host(0), INVALID_PARAM)

    def test_zero_count_copy_and_set_succeed(self):
        self.assertEqual(acl.rt.memcpy(0, 0, 0, 0, 1), 0)
        self.assertEqual(acl.rt.memset(0, 0, 0, 0), 0)

    def test_null_copy(self):
        self.assertEqual(acl.rt.memcpy(0, 16, 0, 16, 1), INVALID_PARAM)
        self.assertEqual(acl.rt.memset(0, 16, 0, 16), INVALID_PARAM)

    def test_index_objects_are_ints(self):
        self.assertEqual(acl.rt.malloc(Index(0), Index(0)), (0, INVALID_PARAM))
        self.assertEqual(acl.rt.malloc(False, 0), (0, INVALID_PARAM))


class TypeErrors(unittest.TestCase):
    def test_wrong_types(self):
        calls = [
            (acl.rt.malloc, ("1", 0)), (acl.rt.malloc, (1.0, 0)),
            (acl.rt.malloc, (None, 0)), (acl.rt.malloc, (1, "0")),
            (acl.rt.malloc_host, (b"1",)), (acl.rt.free, ("x",)),
            (acl.rt.free_host, ([],)), (acl.rt.set_device, ("0",)),
            (acl.rt.reset_device, (0.0,)), (acl.rt.get_mem_info, (None,)),
            (acl.rt.memcpy, ([], 1, 0, 1, 1)),
            (acl.rt.memcpy, (0, 1, 0, 1, "kind")),
            (acl.rt.memset, (0, 1, 1.5, 1)),
            (acl.rt.memcpy2d, (0, 1, 0, 1, 1, 1, None)),
            (acl.util.bytes_to_ptr, (1,)), (acl.util.bytes_to_ptr, ("str",)),
            (acl.util.numpy_to_ptr, (None,)),
            (acl.util.ptr_to_bytes, ("x", 1)), (acl.util.ptr_to_bytes, (0, "1")),
            (acl.init, (1,)),
        ]
        for fn, args in calls:
            with self.assertRaises(TypeError, msg="%s%r" % (fn.__name__, args)):
                fn(*args)

    def test_wrong_argument_counts(self):
        calls = [(acl.rt.malloc, (1,)), (acl.rt.malloc, (1, 0, 0)),
                 (acl.rt.get_device, (1,)), (acl.rt.free, ()),
                 (acl.rt.memcpy, (0, 0, 0, 0)), (acl.finalize, (1,)),
                 (acl.util.ptr_to_bytes, (0,))]
        for fn, args in calls:
            with self.assertRaises(TypeError, msg="%s%r" % (fn.__name__, args)):
                fn(*args)

    def test_bad_cfg(self):
        with self.assertRaises(TypeError):
            acl.rt.malloc_with_cfg(16, 0, [])
        with self.assertRaises(TypeError):
            acl.rt.malloc_with_cfg(16, 0, {"attrs": [{"attr": "x", "value": 1}]})
        with self.assertRaises(TypeError):
            acl.rt.malloc_with_cfg(16, 0, {"attrs": [5]})
        with self.assertRaises(KeyError):
            acl.rt.malloc_with_cfg(16, 0, {"bogus": 1})
        with self.assertRaises(KeyError):
            acl.rt.malloc_with_cfg(16, 0, {"attrs": [{"attr": 1}]})
        with self.assertRaises(ValueError):
            acl.rt.malloc_with_cfg(16, 0, {"attrs": [{"attr": 0, "value": 0}] * 17})
        with self.assertRaises(OverflowError):
            acl.rt.malloc_with_cfg(16, 0, {"attrs": [{"attr": 1, "value": 1 << 16}]})

    def test_junk_of_every_type_never_crashes(self):
        junk = [None, "s", b"b", 1.5, [], {}, (), object(), 1j, Index("no")]
        functions = [getattr(acl.rt, n) for n in dir(acl.rt)
                     if callable(getattr(acl.rt, n)) and not n.startswith("_")]
        functions += [acl.util.ptr_to_bytes, acl.init]
        for fn in functions:
            for bad in junk:
                for nargs in range(0, 8):
                    # one junk value among ints that are harmless if reached
                    args = [0] * nargs
                    if nargs:
                        args[nargs // 2] = bad
                    try:
                        fn(*args)
                    except (TypeError, OverflowError, ValueError, KeyError):
                        pass


class Overflow(unittest.TestCase):
    def test_out_of_range(self):
        calls = [
            (acl.rt.malloc, (-1, 0)), (acl.rt.malloc, (1 << 64, 0)),
            (acl.rt.malloc, (1, 1 << 32)), (acl.rt.malloc, (1, -(1 << 31) - 1)),
            (acl.rt.free, (-1,)), (acl.rt.free, (1 << 64,)),
            (acl.rt.set_device, (1 << 31,)), (acl.rt.set_device, (-(1 << 31) - 1,)),
            (acl.rt.memset, (0, 1, 1 << 32, 0)),
            (acl.rt.memcpy, (0, -1, 0, 0, 1)),
            (acl.rt.get_mem_info, (1 << 40,)),
            (acl.util.ptr_to_bytes, (-5, 1)),
        ]
        for fn, args in calls:
            with self.assertRaises(OverflowError, msg="%s%r" % (fn.__name__, args)):
                fn(*args)

    def test_32_bit_values_either_signedness(self):
        # memset's value is int32_t: -1 and 0xffffffff are the same bits
        self.assertEqual(acl.rt.memset(0, 0, -1, 0), 0)
        self.assertEqual(acl.rt.memset(0, 0, 0xFFFFFFFF, 0), 0)


if __name__ == "__main__":
    unittest.main()
