#!/usr/bin/python3
"""Device memory round trip, in the style of the pyACL memory samples.

Allocates host and device memory, copies a buffer to the device and back,
sets device memory, watches acl.rt.get_mem_info, frees everything.  Runs
against npu_sim (PYTHONPATH=build/python from a checkout) or a real Ascend NPU.
Exit status 0 on success.
"""
import sys

import acl

DEVICE_ID = 0
SIZE = 1024 * 1024

# Values from the AscendCL headers; pyACL samples define them like this.
ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_HBM_MEM = 1


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError("{} failed ret={}".format(message, ret))


def main():
    ret = acl.init()
    check_ret("acl.init", ret)
    ret = acl.rt.set_device(DEVICE_ID)
    check_ret("acl.rt.set_device", ret)

    free_before, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    print("device {}: {} bytes free of {}".format(DEVICE_ID, free_before, total))

    host_ptr, ret = acl.rt.malloc_host(SIZE)
    check_ret("acl.rt.malloc_host", ret)
    dev_ptr, ret = acl.rt.malloc(SIZE, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)

    free_now, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    print("after malloc: {} bytes free ({} in use by this buffer)".format(
        free_now, free_before - free_now))
    if free_before - free_now < SIZE:
        raise RuntimeError("free memory did not drop by the allocation")

    # host -> device straight from a Python bytes object
    data = bytes(i % 251 for i in range(SIZE))
    ret = acl.rt.memcpy(dev_ptr, SIZE, acl.util.bytes_to_ptr(data), SIZE,
                        ACL_MEMCPY_HOST_TO_DEVICE)
    check_ret("acl.rt.memcpy (host to device)", ret)

    # device -> pinned host memory, read back into Python
    ret = acl.rt.memcpy(host_ptr, SIZE, dev_ptr, SIZE,
                        ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy (device to host)", ret)
    if acl.util.ptr_to_bytes(host_ptr, SIZE) != data:
        raise RuntimeError("data came back different")
    print("copied {} bytes to the device and back: identical".format(SIZE))

    # set on the device, read into a bytearray
    ret = acl.rt.memset(dev_ptr, SIZE, 0x5A, SIZE)
    check_ret("acl.rt.memset", ret)
    out = bytearray(SIZE)
    ret = acl.rt.memcpy(acl.util.bytes_to_ptr(out), SIZE, dev_ptr, SIZE,
                        ACL_MEMCPY_DEVICE_TO_HOST)
    check_ret("acl.rt.memcpy (device to host)", ret)
    if out != b"\x5a" * SIZE:
        raise RuntimeError("memset result wrong")
    print("memset 0x5a over {} bytes: ok".format(SIZE))

    check_ret("acl.rt.free", acl.rt.free(dev_ptr))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
    free_after, _, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    check_ret("acl.rt.get_mem_info", ret)
    print("after free: {} bytes free".format(free_after))

    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())
    print("memory sample: ok")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as err:
        print("memory sample: FAILED: {}".format(err))
        sys.exit(1)
