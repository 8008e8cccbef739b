/* Key strings of the sharing calls: see key_string.h. */
#include <string.h>

#include "key_string.h"

int npu_rt_key_parse(const char *s, const char *prefix, uint64_t *key)
{
	size_t n = strlen(prefix);
	uint64_t v = 0;

	if (strncmp(s, prefix, n) != 0)
		return -1;
	s += n;
	for (int i = 0; i < 16; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint64_t)(c - 'a' + 10);
		else
			return -1;
	}
	if (s[16] != '\0' || v == 0)
		return -1;
	*key = v;
	return 0;
}
