// SPDX-License-Identifier: GPL-2.0
/*
 * The one definition of the npu_sim tracepoints (npu_trace.h).  Lowest
 * layer: the events only record their arguments.
 */
#include "npu_sim.h"

#define CREATE_TRACE_POINTS
#include "npu_trace.h"
