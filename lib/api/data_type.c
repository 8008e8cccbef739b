/*
 * Data types (acl_base_rt.h): element sizes (aclDataTypeSize) and half
 * float conversion (aclFloat16ToFloat, aclFloatToFloat16), with the
 * answers of the CANN runtime (its saturation, its sizes).  Pure; not
 * aclError calls, so kept out of the wrappers (LIB_UNWRAPPED_SRCS in
 * lib/lib.mk).
 */
#include <string.h>

#include "acl/acl.h"

ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
	switch (dataType) {
	case ACL_STRING:
	case ACL_DT_UNDEFINED:
		return 0;
	case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_UINT1: case ACL_INT4:
	case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
		return 1;
	case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16:
		return 2;
	case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32:
		return 4;
	case ACL_COMPLEX128:
		return 16;
	default:
		return 8;	/* the CANN runtime's answer for everything else */
	}
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value)
{
	uint32_t sign = (uint32_t)(value >> 15) << 31;
	int32_t exp = (value >> 10) & 0x1f;
	uint32_t man = value & 0x3ff;
	uint32_t bits;
	float f;

	if (exp == 0 && man == 0) {
		bits = sign;
	} else {
		if (exp == 0) {		/* subnormal: normalise */
			exp = 1;
			while (!(man & 0x400)) {
				man <<= 1;
				exp--;
			}
			man &= 0x3ff;
		}
		/* exponent 31 (Inf, NaN) is rebiased like any other */
		bits = sign | (uint32_t)(exp + 112) << 23 | man << 13;
	}
	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* x >> n rounded to nearest, ties to even (n >= 1). */
static uint64_t shift_round_even(uint64_t x, unsigned int n)
{
	uint64_t r = x >> n, rem = x & ((1ULL << n) - 1), half = 1ULL << (n - 1);

	return r + (rem > half || (rem == half && (r & 1)));
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value)
{
	uint32_t u = float_bits(value);
	uint16_t sign = (uint16_t)((u >> 31) << 15);
	uint32_t exp = (u >> 23) & 0xff, man = u & 0x7fffff;
	uint64_t m;

	if (exp > 142)		/* beyond 65504, Inf, NaN: saturate */
		return sign | 0x7bff;
	if (exp <= 112) {	/* half subnormal or zero */
		if (exp >= 103)
			m = shift_round_even((uint64_t)(man | 0x800000) << (exp - 103), 23);
		else
			m = exp == 102 && man != 0;	/* just above half the least subnormal */
		return sign | (uint16_t)m;	/* 0x400 is the least normal */
	}
	m = shift_round_even(man, 13);
	exp -= 112;
	if (m == 0x400) {	/* rounded up into the next binade */
		m = 0;
		exp++;
	}
	if (exp >= 31)
		return sign | 0x7bff;
	return sign | (uint16_t)(exp << 10 | m);
}
