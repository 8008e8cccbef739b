/* Build-time check that the library agrees with the pinned UAPI layout. */
#include <misc/npu_sim_layout.h>
