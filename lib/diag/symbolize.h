/*
 * Code addresses to words for the check reports (check.c): "function
 * (file.c:12)" from the DWARF line tables through libdw (elfutils) where
 * the module has debug information, else "function+0x1a (module)" or
 * "module+0x1234".  libdw is loaded with dlopen() on the first report, so
 * programs that never report do not depend on it.
 */
#ifndef NPU_RT_SYMBOLIZE_H
#define NPU_RT_SYMBOLIZE_H

#include <stddef.h>

/* A return address pc (the instruction after a call) into out. */
void npu_rt_symbolize(void *pc, char *out, size_t len);

#endif /* NPU_RT_SYMBOLIZE_H */
