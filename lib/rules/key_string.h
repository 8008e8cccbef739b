/*
 * Key strings of the sharing calls (pure): the library names a driver key
 * (a non-zero 64-bit number) as a prefix and 16 lowercase hex digits, e.g.
 * "npusim-ipc-00000000deadbeef" for IPC memory, "npusim-notify-..." for a
 * notify.
 */
#ifndef NPU_RT_KEY_STRING_H
#define NPU_RT_KEY_STRING_H

#include <stdint.h>

/* 0 and *key when s is prefix followed by exactly 16 lowercase hex digits
 * naming a non-zero key; -1 otherwise (*key untouched). */
int npu_rt_key_parse(const char *s, const char *prefix, uint64_t *key);

#endif /* NPU_RT_KEY_STRING_H */
