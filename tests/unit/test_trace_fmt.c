/*
 * Unit tests of the call trace's JSON formatting (lib/diag/trace_fmt.c): numbers,
 * hex pointers and null, escaped and cut strings, the struct formatters,
 * and lines that overflow: members left out, objects still closed, the
 * line still ending in its tail.
 */
#include <check.h>
#include <string.h>

#include "../../lib/diag/trace.h"
#include "unit_run.h"

/* A line with one object holding what fill() writes; returns the text. */
static const char *obj(struct npu_rt_tr *t, void (*fill)(struct npu_rt_tr *))
{
	npu_rt_tr_init(t);
	npu_rt_tr_open(t, NULL);
	fill(t);
	npu_rt_tr_close(t);
	return t->buf;
}

static void scalars(struct npu_rt_tr *t)
{
	npu_rt_tr_int(t, "i", -5);
	npu_rt_tr_uint(t, "u", 18446744073709551615ULL);
	npu_rt_tr_ptr(t, "p", (const void *)0x7f00dead0000ULL);
	npu_rt_tr_ptr(t, "n", NULL);
	npu_rt_tr_double(t, "d", 1.5);
	npu_rt_tr_str(t, "s", "a\"b\\c\n\x01\xff");
	npu_rt_tr_str(t, "z", NULL);
}

START_TEST(scalar_members)
{
	struct npu_rt_tr t;

	ck_assert_str_eq(obj(&t, scalars),
			 "{\"i\":-5,\"u\":18446744073709551615,\"p\":\"0x7f00dead0000\",\"n\":null,"
			 "\"d\":1.5,\"s\":\"a\\\"b\\\\c\\u000a\\u0001\\u00ff\",\"z\":null}");
	ck_assert_int_eq(t.truncated, 0);
}
END_TEST

static void long_string(struct npu_rt_tr *t)
{
	char s[NPU_RT_TR_STR_MAX + 50];

	memset(s, 'k', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	npu_rt_tr_str(t, "key", s);
}

START_TEST(string_cut)
{
	struct npu_rt_tr t;

	obj(&t, long_string);
	/* {"key":"  +  NPU_RT_TR_STR_MAX k  +  "} */
	ck_assert_uint_eq(t.len, 8 + NPU_RT_TR_STR_MAX + 2);
	ck_assert_int_eq(t.buf[8 + NPU_RT_TR_STR_MAX], '"');
}
END_TEST

static void structs(struct npu_rt_tr *t)
{
	aclrtPhysicalMemProp prop = {
		.handleType = ACL_MEM_HANDLE_TYPE_NONE, .allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED,
		.memAttr = ACL_HBM_MEM_HUGE, .location = { .id = 1, .type = ACL_MEM_LOCATION_TYPE_DEVICE },
		.reserve = 0,
	};
	aclrtMallocAttribute attrs[2] = { { .attr = ACL_RT_MEM_ATTR_MODULE_ID },
					  { .attr = ACL_RT_MEM_ATTR_DEVICE_ID } };
	aclrtMallocConfig cfg = { .attrs = attrs, .numAttrs = 2 }, empty = { .attrs = NULL, .numAttrs = 0 };
	aclrtMemManagedLocation loc = { .type = ACL_MEM_LOCATIONTYPE_HOST, .id = -1 };

	attrs[0].value.moduleId = 7;
	attrs[1].value.deviceId = 3;
	npu_rt_tr_aclrtPhysicalMemProp(t, "prop", &prop);
	npu_rt_tr_aclrtPhysicalMemProp(t, "none", NULL);
	npu_rt_tr_aclrtMallocConfig(t, "cfg", &cfg);
	npu_rt_tr_aclrtMallocConfig(t, "empty", &empty);
	npu_rt_tr_aclrtMemManagedLocation(t, "loc", &loc);
}

START_TEST(struct_members)
{
	struct npu_rt_tr t;

	ck_assert_str_eq(obj(&t, structs),
			 "{\"prop\":{\"handleType\":0,\"allocationType\":0,\"memAttr\":4,"
			 "\"location\":{\"id\":1,\"type\":1},\"reserve\":0},\"none\":null,"
			 "\"cfg\":{\"numAttrs\":2,\"attrs\":[{\"attr\":1,\"value\":7},{\"attr\":2,\"value\":3}]},"
			 "\"empty\":{\"numAttrs\":0,\"attrs\":null},\"loc\":{\"type\":2,\"id\":-1}}");
}
END_TEST

/* Members until the line is full; nested objects on the way. */
static void overflow(struct npu_rt_tr *t)
{
	aclrtPhysicalMemProp prop = { .memAttr = ACL_HBM_MEM };

	for (int i = 0; i < 400; i++) {
		npu_rt_tr_str(t, "s", "0123456789");
		npu_rt_tr_aclrtPhysicalMemProp(t, "prop", &prop);
	}
}

START_TEST(overflow_stays_valid)
{
	struct npu_rt_tr t;
	int depth = 0, in_str = 0;
	size_t i;

	obj(&t, overflow);
	ck_assert_int_eq(t.truncated, 1);
	ck_assert_int_eq(t.skip, 0);
	/* members stop short of the tail room; only closing braces enter it */
	ck_assert_uint_le(t.len, NPU_RT_TR_MAX - NPU_RT_TR_TAIL + 4);
	/* braces balance outside strings and the object is closed last */
	for (i = 0; i < t.len; i++) {
		char c = t.buf[i];

		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '{')
			depth++;
		else if (c == '}')
			depth--;
		ck_assert_int_ge(depth, i + 1 < t.len ? 1 : 0);
	}
	ck_assert_int_eq(depth, 0);
	ck_assert_int_eq(t.buf[t.len - 1], '}');
	/* no member cut in half: the last one before the close is whole */
	ck_assert(t.buf[t.len - 2] == '}' || t.buf[t.len - 2] == '"');
	/* the tail still fits after the overflow */
	npu_rt_tr_raw(&t, ",\"ts\":1,\"dur\":2,\"device\":0,\"truncated\":true}\n", 0);
	ck_assert_int_eq(t.buf[t.len - 1], '\n');
}
END_TEST

static Suite *trace_fmt_suite(void)
{
	Suite *s = suite_create("trace_fmt");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, scalar_members);
	tcase_add_test(tc, string_cut);
	tcase_add_test(tc, struct_members);
	tcase_add_test(tc, overflow_stays_valid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return unit_run(trace_fmt_suite());
}
