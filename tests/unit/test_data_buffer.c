/*
 * Unit tests of the data-buffer API (acl_base.h): create, update, read back,
 * destroy, and the refusal of NULL, destroyed and made-up descriptors.
 * Pure library: no npu_sim module needed.  Linked against libacl_rt.a.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "unit_run.h"

/* aclGetDataBufferSize is deprecated; its behaviour is still checked. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

START_TEST(create_read_destroy)
{
	char mem[100];
	aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_eq(aclGetDataBufferAddr(b), mem);
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 100);
	ck_assert_uint_eq(aclGetDataBufferSize(b), 100);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
	ck_assert_ptr_null(aclGetRecentErrMsg());	/* nothing failed */
}
END_TEST

/* NULL data and size 0 are legal descriptors (filled in later). */
START_TEST(empty_buffer)
{
	aclDataBuffer *b = aclCreateDataBuffer(NULL, 0);

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(aclGetDataBufferAddr(b));
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 0);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
}
END_TEST

/* One descriptor reused for buffers of odd sizes; the memory is never touched. */
START_TEST(update_with_odd_sizes)
{
	static const size_t sizes[] = { 1, 3, 7, 4095, 4097, 65537, (size_t)5 << 32 };
	aclDataBuffer *b = aclCreateDataBuffer(NULL, 0);

	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *p = (void *)(uintptr_t)(0x1000 * (i + 1) + 1);	/* never dereferenced */

		ck_assert_int_eq(aclUpdateDataBuffer(b, p, sizes[i]), ACL_SUCCESS);
		ck_assert_ptr_eq(aclGetDataBufferAddr(b), p);
		ck_assert_uint_eq(aclGetDataBufferSizeV2(b), sizes[i]);
	}
	/* the 32-bit form truncates 5 << 32 to 0, as in CANN */
	ck_assert_uint_eq(aclGetDataBufferSize(b), 0);
	ck_assert_int_eq(aclUpdateDataBuffer(b, NULL, 0), ACL_SUCCESS);
	ck_assert_ptr_null(aclGetDataBufferAddr(b));
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
}
END_TEST

START_TEST(null_descriptor)
{
	char mem[8];

	ck_assert_int_eq(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclUpdateDataBuffer(NULL, mem, 8), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(aclGetDataBufferAddr(NULL));
	ck_assert_uint_eq(aclGetDataBufferSizeV2(NULL), 0);
	ck_assert_uint_eq(aclGetDataBufferSize(NULL), 0);
	ck_assert_str_eq(aclGetRecentErrMsg(),
			 "aclUpdateDataBuffer: dataBuffer is NULL (error 100000 ACL_ERROR_INVALID_PARAM)\n"
			 "aclDestroyDataBuffer: dataBuffer is NULL (error 100000 ACL_ERROR_INVALID_PARAM)");
}
END_TEST

/* Destroyed and made-up descriptors are refused and never dereferenced. */
START_TEST(dead_descriptor)
{
	char mem[16];
	aclDataBuffer *keep = aclCreateDataBuffer(mem, 16);
	aclDataBuffer *b = aclCreateDataBuffer(mem, 8);
	const char *msg;

	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM);
	msg = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(msg);
	ck_assert_ptr_nonnull(strstr(msg, "aclDestroyDataBuffer: dataBuffer is not a live data buffer"));
	ck_assert_int_eq(aclUpdateDataBuffer(b, mem, 4), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(aclGetDataBufferAddr(b));
	ck_assert_uint_eq(aclGetDataBufferSizeV2(b), 0);
	ck_assert_int_eq(aclDestroyDataBuffer((aclDataBuffer *)mem), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(aclGetDataBufferAddr((aclDataBuffer *)mem));
	/* the other descriptor is unaffected */
	ck_assert_ptr_eq(aclGetDataBufferAddr(keep), mem);
	ck_assert_uint_eq(aclGetDataBufferSizeV2(keep), 16);
	ck_assert_int_eq(aclDestroyDataBuffer(keep), ACL_SUCCESS);
	(void)aclGetRecentErrMsg();
}
END_TEST

START_TEST(many_buffers)
{
	enum { N = 1000 };
	aclDataBuffer **b = calloc(N, sizeof(*b));

	ck_assert_ptr_nonnull(b);
	for (size_t i = 0; i < N; i++) {
		b[i] = aclCreateDataBuffer((void *)(uintptr_t)(i + 1), i * 3 + 1);
		ck_assert_ptr_nonnull(b[i]);
	}
	for (size_t i = 0; i < N; i += 2)
		ck_assert_int_eq(aclDestroyDataBuffer(b[i]), ACL_SUCCESS);
	for (size_t i = 1; i < N; i += 2) {
		ck_assert_uint_eq(aclGetDataBufferSizeV2(b[i]), i * 3 + 1);
		ck_assert_int_eq(aclDestroyDataBuffer(b[i]), ACL_SUCCESS);
	}
	free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("data_buffer");
	TCase *t = tcase_create("core");

	tcase_add_test(t, create_read_destroy);
	tcase_add_test(t, empty_buffer);
	tcase_add_test(t, update_with_odd_sizes);
	tcase_add_test(t, null_descriptor);
	tcase_add_test(t, dead_descriptor);
	tcase_add_test(t, many_buffers);
	suite_add_tcase(s, t);
	return unit_run(s);
}
