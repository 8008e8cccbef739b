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
    def test_numpy_non_contiguous_refused(self):
        arr = numpy.zeros((4, 4), dtype=numpy.uint8)[:, ::2]
        with self.assertRaises((BufferError, ValueError)):
            acl.util.numpy_to_ptr(arr)


if __name__ == "__main__":
    unittest.main()
