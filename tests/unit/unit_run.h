/*
 * Runner shared by the unit tests of the public API: runs one suite and
 * turns its result into main()'s exit status.
 */
#ifndef NPU_SIM_UNIT_RUN_H
#define NPU_SIM_UNIT_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int unit_run(Suite *s)
{
	SRunner *r = srunner_create(s);
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* NPU_SIM_UNIT_RUN_H */
