/*
 * Unit tests of kernel/npu_managed_state.c, the per-block state machine of
 * managed memory, built as plain C with tests/unit/shim.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "npu_managed_state.h"

#define H NPU_MANAGED_HOST
#define D NPU_MANAGED_DEV

static struct npu_managed_block b;

static void setup(void)
{
	memset(&b, 0, sizeof(b));
}

START_TEST(first_touch_populates)
{
	ck_assert_uint_eq(npu_managed_host_access(&b, false), 0);
	ck_assert_uint_eq(b.valid, H);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_RW);
	ck_assert_uint_eq(b.cpu_faults, 1);
	ck_assert_uint_eq(b.h2d + b.d2h, 0);

	setup();
	ck_assert_uint_eq(npu_managed_dev_access(&b, false), NPU_MANAGED_ACT_ALLOC_DEV);
	ck_assert_uint_eq(b.valid, D);
	ck_assert_uint_eq(b.dev_faults, 1);
	ck_assert_uint_eq(b.h2d, 0);
}
END_TEST

START_TEST(migrate_back_and_forth)
{
	npu_managed_host_access(&b, true);
	ck_assert_uint_eq(npu_managed_dev_access(&b, false),
			  NPU_MANAGED_ACT_ALLOC_DEV | NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.valid, D);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_NONE);
	ck_assert_uint_eq(b.h2d, 1);
	/* mapped on the device now: no second device fault */
	ck_assert_uint_eq(npu_managed_dev_access(&b, true), 0);
	ck_assert_uint_eq(b.dev_faults, 1);
	ck_assert_uint_eq(npu_managed_host_access(&b, false), NPU_MANAGED_ACT_FREE_DEV);
	ck_assert_uint_eq(b.valid, H);
	ck_assert_uint_eq(b.d2h, 1);
	ck_assert_uint_eq(b.dev_map, NPU_MANAGED_MAP_NONE);
	ck_assert_uint_eq(b.cpu_faults, 2);
}
END_TEST

START_TEST(read_mostly_duplicates)
{
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	npu_managed_host_access(&b, false);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_RO);
	ck_assert_uint_eq(b.dup_creates, 0);	/* first accessor */
	ck_assert_uint_eq(npu_managed_dev_access(&b, false), NPU_MANAGED_ACT_ALLOC_DEV);
	ck_assert_uint_eq(b.valid, H | D);
	ck_assert_uint_eq(b.dup_creates, 1);
	ck_assert_uint_eq(b.h2d, 0);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_RO);	/* no zap */
	npu_managed_dev_access(&b, false);
	ck_assert_uint_eq(b.dev_faults, 1);
	/* host write: device copy invalid, attribute cleared */
	ck_assert_uint_eq(npu_managed_host_access(&b, true), NPU_MANAGED_ACT_FREE_DEV);
	ck_assert_uint_eq(b.valid, H);
	ck_assert_uint_eq(b.dup_invalidations, 1);
	ck_assert_uint_eq(b.attr & NPU_MANAGED_READ_MOSTLY, 0);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_RW);
}
END_TEST

START_TEST(read_mostly_device_write)
{
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	npu_managed_host_access(&b, false);
	npu_managed_dev_access(&b, false);
	ck_assert_uint_eq(npu_managed_dev_access(&b, true), NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.dev_faults, 2);	/* write to a read-only copy */
	ck_assert_uint_eq(b.valid, D);
	ck_assert_uint_eq(b.dup_invalidations, 1);
	ck_assert_uint_eq(b.attr & NPU_MANAGED_READ_MOSTLY, 0);
}
END_TEST

START_TEST(set_read_mostly_write_protects_host)
{
	npu_managed_host_access(&b, true);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE),
			  NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_NONE);
	/* data only on the device: a read-only host copy is made */
	setup();
	npu_managed_dev_access(&b, true);
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	ck_assert_uint_eq(b.valid, H | D);
	ck_assert_uint_eq(b.dup_creates, 1);
	ck_assert_uint_eq(b.dev_map, NPU_MANAGED_MAP_RO);
}
END_TEST

START_TEST(unset_read_mostly_keeps_one)
{
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	npu_managed_host_access(&b, false);
	npu_managed_dev_access(&b, false);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_UNSET_READ_MOSTLY, NPU_MANAGED_LOC_DEV),
			  NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.valid, D);
	ck_assert_uint_eq(b.dup_invalidations, 1);

	setup();
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	npu_managed_host_access(&b, false);
	npu_managed_dev_access(&b, false);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_UNSET_READ_MOSTLY, NPU_MANAGED_LOC_NONE),
			  NPU_MANAGED_ACT_FREE_DEV);
	ck_assert_uint_eq(b.valid, H);

	/* no copy at the location: one is created */
	setup();
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	npu_managed_host_access(&b, false);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_UNSET_READ_MOSTLY, NPU_MANAGED_LOC_DEV),
			  NPU_MANAGED_ACT_ALLOC_DEV | NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.valid, D);
	ck_assert_uint_eq(b.h2d, 1);
}
END_TEST

START_TEST(preferred_conflicts)
{
	npu_managed_dev_access(&b, false);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_HOST), -EBUSY);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_DEV), 0);
	setup();
	npu_managed_host_access(&b, false);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_DEV), -EBUSY);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_HOST), 0);
	/* already mapped on the host: success, nothing to do */
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_HOST), 0);
	/* read-mostly: no conflict; device gets a read-only copy */
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_DEV), 0);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_DEV),
			  NPU_MANAGED_ACT_ALLOC_DEV);
	ck_assert_uint_eq(b.valid, H | D);
	ck_assert_uint_eq(b.dev_map, NPU_MANAGED_MAP_RO);
	ck_assert_int_eq(npu_managed_advise_check(&b, NPU_MANAGED_SET_PREFERRED, 0), -EINVAL);
}
END_TEST

START_TEST(preferred_and_accessed_by_populate)
{
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_DEV),
			  NPU_MANAGED_ACT_ALLOC_DEV);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_ACCESSED_BY, NPU_MANAGED_LOC_DEV), 0);
	ck_assert_uint_eq(b.attr, NPU_MANAGED_PREF_DEV | NPU_MANAGED_ACC_DEV);
	npu_managed_dev_access(&b, true);
	ck_assert_uint_eq(b.dev_faults, 0);

	setup();
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_ACCESSED_BY, NPU_MANAGED_LOC_HOST), 0);
	ck_assert_uint_eq(npu_managed_advise(&b, NPU_MANAGED_SET_PREFERRED, NPU_MANAGED_LOC_HOST),
			  NPU_MANAGED_ACT_MAP_HOST);
	ck_assert_uint_eq(b.host_map, NPU_MANAGED_MAP_RW);
	ck_assert_uint_eq(b.cpu_faults, 0);
	npu_managed_advise(&b, NPU_MANAGED_UNSET_PREFERRED, NPU_MANAGED_LOC_NONE);
	npu_managed_advise(&b, NPU_MANAGED_UNSET_ACCESSED_BY, NPU_MANAGED_LOC_HOST);
	ck_assert_uint_eq(b.attr, 0);
}
END_TEST

START_TEST(prefetch)
{
	npu_managed_host_access(&b, true);
	ck_assert_uint_eq(npu_managed_prefetch(&b, NPU_MANAGED_LOC_DEV),
			  NPU_MANAGED_ACT_ALLOC_DEV | NPU_MANAGED_ACT_ZAP_HOST);
	ck_assert_uint_eq(b.h2d, 1);
	ck_assert_uint_eq(b.last_prefetch, NPU_MANAGED_LOC_DEV);
	npu_managed_dev_access(&b, false);
	ck_assert_uint_eq(b.dev_faults, 0);
	ck_assert_uint_eq(npu_managed_prefetch(&b, NPU_MANAGED_LOC_HOST), NPU_MANAGED_ACT_FREE_DEV);
	ck_assert_uint_eq(b.d2h, 1);
	ck_assert_uint_eq(b.valid, H);
	/* read-mostly: a copy, not a move */
	npu_managed_advise(&b, NPU_MANAGED_SET_READ_MOSTLY, NPU_MANAGED_LOC_NONE);
	ck_assert_uint_eq(npu_managed_prefetch(&b, NPU_MANAGED_LOC_DEV), NPU_MANAGED_ACT_ALLOC_DEV);
	ck_assert_uint_eq(b.valid, H | D);
	ck_assert_uint_eq(b.dup_creates, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("uvm_state");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, first_touch_populates);
	tcase_add_test(tc, migrate_back_and_forth);
	tcase_add_test(tc, read_mostly_duplicates);
	tcase_add_test(tc, read_mostly_device_write);
	tcase_add_test(tc, set_read_mostly_write_protects_host);
	tcase_add_test(tc, unset_read_mostly_keeps_one);
	tcase_add_test(tc, preferred_conflicts);
	tcase_add_test(tc, preferred_and_accessed_by_populate);
	tcase_add_test(tc, prefetch);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
