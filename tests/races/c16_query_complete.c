/* expect: none. aclrtStreamQuery that returned complete orders the host after the stream's work. */
#include <unistd.h>

#include "race_prog.h"

int main(void)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
	char out[N];

	setup();
	CK(aclrtMemsetAsync(dev_a, N, 8, N, s1));
	while (st != ACL_STREAM_STATUS_COMPLETE) {
		CK(aclrtStreamQuery(s1, &st));
		if (st != ACL_STREAM_STATUS_COMPLETE)
			usleep(1000);
	}
	CK(aclrtMemcpy(out, N, dev_a, N, ACL_MEMCPY_DEVICE_TO_HOST));
	teardown();
	return out[0] == 8 ? 0 : 3;
}
