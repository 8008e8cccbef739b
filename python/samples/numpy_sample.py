#!/usr/bin/python3
"""A numpy array to the device and back, in the style of the pyACL samples.

Host numpy array -> device memory (acl.rt.memcpy from acl.util.numpy_to_ptr)
-> pinned host memory -> numpy again (acl.util.ptr_to_numpy), compared
element by element.  Runs against npu_sim (an installed module, or
PYTHONPATH=build/python from a checkout) or a real Ascend NPU.
Exit status 0 on success.
"""
import sys

import numpy as np

import acl

DEVICE_ID = 0
SHAPE = (256, 1024)

# Values from the AscendCL headers; pyACL samples define them like this.
ACL_SUCCESS = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
NPY_FLOAT32 = 11


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError("{} failed ret={}".format(message, ret))


def main():
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))

    np_in = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE) / 7
    size = np_in.nbytes
    dev_ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
    check_ret("acl.rt.malloc", ret)
    host_ptr, ret = acl.rt.malloc_host(size)
    check_ret("acl.rt.malloc_host", ret)

    ret = acl.rt.memcpy(dev_ptr, size, acl.util.numpy_to_ptr(np_in), size,
                        ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("acl.rt.memcpy (host to device)", ret)
    ret = acl.rt.memcpy(host_ptr, size, dev_ptr, size,
                        ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy (device to host)", ret)

    np_out = acl.util.ptr_to_numpy(host_ptr, np_in.shape, NPY_FLOAT32)
    if np_out.shape != np_in.shape or np_out.dtype != np_in.dtype:
        raise RuntimeError("got {} {}".format(np_out.shape, np_out.dtype))
    if not np.array_equal(np_out, np_in):
        raise RuntimeError("data came back different")
    # the pyACL replacement spelling gives the same array
    same = np.frombuffer(acl.util.ptr_to_bytes(host_ptr, size),
                         dtype=np.float32).reshape(SHAPE)
    if not np.array_equal(same, np_in):
        raise RuntimeError("ptr_to_bytes copy differs")
    print("copied a {} {} array to the device and back: identical".format(
        np_in.shape, np_in.dtype))

    del np_out   # the array views host_ptr: drop it before freeing
    check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
    check_ret("acl.rt.free", acl.rt.free(dev_ptr))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())
    print("numpy sample: ok")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as err:
        print("numpy sample: FAILED: {}".format(err))
        sys.exit(1)
