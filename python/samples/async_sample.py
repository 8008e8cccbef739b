#!/usr/bin/python3
"""Asynchronous copies on a stream, in the style of the pyACL memory samples.

context -> stream -> pinned host and device memory -> async host-to-device
copy, async memset, async device-to-host copy -> synchronize -> verify ->
free and destroy.  Runs against npu_sim (PYTHONPATH=build/python from a
checkout) or a real Ascend NPU.  Exit status 0 on success.
"""
import sys

import acl

DEVICE_ID = 0
SIZE = 4 * 1024 * 1024

# Values from the AscendCL headers; pyACL samples define them like this.
ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError("{} failed ret={}".format(message, ret))


def main():
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(DEVICE_ID))
    context, ret = acl.rt.create_context(DEVICE_ID)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    start, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)
    end, ret = acl.rt.create_event()
    check_ret("acl.rt.create_event", ret)

    host_in, ret = acl.rt.malloc_host(SIZE)
    check_ret("acl.rt.malloc_host", ret)
    host_out, ret = acl.rt.malloc_host(SIZE)
    check_ret("acl.rt.malloc_host", ret)
    dev_ptr, ret = acl.rt.malloc(SIZE, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)

    data = bytes(i % 251 for i in range(SIZE))
    check_ret("acl.rt.memcpy (fill pinned buffer)",
              acl.rt.memcpy(host_in, SIZE, acl.util.bytes_to_ptr(data), SIZE, 0))

    check_ret("acl.rt.record_event", acl.rt.record_event(start, stream))
    check_ret("acl.rt.memcpy_async (host to device)",
              acl.rt.memcpy_async(dev_ptr, SIZE, host_in, SIZE,
                                  ACL_MEMCPY_HOST_TO_DEVICE, stream))
    check_ret("acl.rt.memset_async",
              acl.rt.memset_async(dev_ptr + SIZE // 2, SIZE // 2, 0x5A,
                                  SIZE // 2, stream))
    check_ret("acl.rt.memcpy_async (device to host)",
              acl.rt.memcpy_async(host_out, SIZE, dev_ptr, SIZE,
                                  ACL_MEMCPY_DEVICE_TO_HOST, stream))
    check_ret("acl.rt.record_event", acl.rt.record_event(end, stream))
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))

    out = acl.util.ptr_to_bytes(host_out, SIZE)
    if out != data[:SIZE // 2] + b"\x5a" * (SIZE // 2):
        raise RuntimeError("data came back different")
    ms, ret = acl.rt.event_elapsed_time(start, end)
    check_ret("acl.rt.event_elapsed_time", ret)
    print("async H2D, memset, D2H of {} bytes verified; {:.3f} ms on the "
          "stream".format(SIZE, ms))

    check_ret("acl.rt.free", acl.rt.free(dev_ptr))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_in))
    check_ret("acl.rt.free_host", acl.rt.free_host(host_out))
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(start))
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(end))
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
    check_ret("acl.finalize", acl.finalize())
    print("async sample: ok")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as err:
        print("async sample: FAILED: {}".format(err))
        sys.exit(1)
