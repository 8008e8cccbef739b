"""acl.util: Python buffers as host pointers, host memory back into bytes."""
import unittest

from npu_env import acl, HAVE_NUMPY

if HAVE_NUMPY:
    import numpy


class Util(unittest.TestCase):
    def test_bytes_round_trip(self):
        data = b"npu_sim \x00\xff" * 100
        ptr = acl.util.bytes_to_ptr(data)
        self.assertIsInstance(ptr, int)
        self.assertEqual(acl.util.ptr_to_bytes(ptr, len(data)), data)

    def test_bytearray_address_sees_changes(self):
        buf = bytearray(64)
        ptr = acl.util.bytes_to_ptr(buf)
        buf[10:13] = b"abc"
        self.assertEqual(acl.util.ptr_to_bytes(ptr + 10, 3), b"abc")

    def test_ptr_to_bytes_empty_and_bad(self):
        self.assertEqual(acl.util.ptr_to_bytes(0, 0), b"")
        with self.assertRaises(ValueError):
            acl.util.ptr_to_bytes(0, 1)
        # unmapped addresses raise instead of crashing the interpreter
        for bad in (8, 0x1000, (1 << 47) - 4096, (1 << 64) - 4096):
            with self.assertRaises(ValueError):
                acl.util.ptr_to_bytes(bad, 16)

    def test_non_contiguous_buffer_refused(self):
        with self.assertRaises(BufferError):
            acl.util.bytes_to_ptr(memoryview(b"abcdefgh")[::2])

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_numpy_to_ptr(self):
        arr = numpy.arange(1000, dtype=numpy.int32)
        ptr = acl.util.numpy_to_ptr(arr)
        self.assertEqual(ptr, arr.ctypes.data)
        back = numpy.frombuffer(acl.util.ptr_to_bytes(ptr, arr.nbytes),
                                dtype=numpy.int32)
        self.assertTrue((back == arr).all())

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_numpy_to_ptr_needs_ndarray(self):
        # as in pyACL: a numpy.ndarray only (a wrong type: TypeError)
        for obj in (b"abcd", bytearray(4), memoryview(b"abcd")):
            with self.assertRaises(TypeError):
                acl.util.numpy_to_ptr(obj)

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_ptr_to_numpy_views_memory(self):
        arr = numpy.arange(12, dtype=numpy.int32)
        ptr = acl.util.numpy_to_ptr(arr)
        # pyACL's type numbers: 5 = NPY_INT32
        view = acl.util.ptr_to_numpy(ptr, (3, 4), 5)
        self.assertEqual((view.shape, view.dtype), ((3, 4), numpy.int32))
        self.assertTrue((view.ravel() == arr).all())
        # no copy: a write through the view is seen by the array
        view[2, 3] = -7
        self.assertEqual(arr[11], -7)
        # a numpy dtype works too; a single int is a 1-d shape
        self.assertEqual(acl.util.ptr_to_numpy(ptr, 2, numpy.int64).tolist(),
                         [(1 << 32), (3 << 32) | 2])
        for num, dtype in ((0, numpy.bool_), (1, numpy.int8), (2, numpy.uint8),
                           (3, numpy.int16), (4, numpy.uint16), (6, numpy.uint32),
                           (7, numpy.int64), (8, numpy.uint64), (11, numpy.float32),
                           (12, numpy.float64), (23, numpy.float16)):
            self.assertEqual(acl.util.ptr_to_numpy(ptr, (2,), num).dtype, dtype)
        self.assertEqual(acl.util.ptr_to_numpy(0, (0,), 5).shape, (0,))

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_ptr_to_numpy_bad_input(self):
        arr = numpy.zeros(4, dtype=numpy.float32)
        ptr = acl.util.numpy_to_ptr(arr)
        with self.assertRaises(ValueError):
            acl.util.ptr_to_numpy(ptr, (4,), 99)        # no such type number
        with self.assertRaises(ValueError):
            acl.util.ptr_to_numpy(ptr, (-1,), 11)       # negative dimension
        with self.assertRaises(TypeError):
            acl.util.ptr_to_numpy(ptr, ("x",), 11)
        # unreadable memory raises instead of crashing the interpreter
        for bad in (0, 8, (1 << 47) - 4096):
            with self.assertRaises(ValueError):
                acl.util.ptr_to_numpy(bad, (1024,), 11)

    @unittest.skipUnless(HAVE_NUMPY, "numpy not installed")
    def test_numpy_non_contiguous_refused(self):
        arr = numpy.zeros((4, 4), dtype=numpy.uint8)[:, ::2]
        with self.assertRaises((BufferError, ValueError)):
            acl.util.numpy_to_ptr(arr)


if __name__ == "__main__":
    unittest.main()
