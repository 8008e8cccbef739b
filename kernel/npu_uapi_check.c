// SPDX-License-Identifier: GPL-2.0
/* Build-time check that the module agrees with the pinned UAPI layout. */
#include <misc/npu_sim_layout.h>
