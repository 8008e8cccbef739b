/*
 * JSON formatting of the call trace's lines (trace.h).  Pure: no I/O, so
 * the unit tests check it directly.  A member that does not fit in the
 * line (keeping NPU_RT_TR_TAIL bytes for the fields every line ends with)
 * is left out and marks the line truncated, so a line is always valid JSON.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

void npu_rt_tr_init(struct npu_rt_tr *t)
{
	t->len = 0;
	t->buf[0] = '\0';
	t->first = 1;
	t->truncated = 0;
	t->skip = 0;
	t->t0 = t->t1 = 0;
}

/* Append n bytes if they fit below limit. */
static int put(struct npu_rt_tr *t, const char *s, size_t n, size_t limit)
{
	if (t->len + n + 1 > limit)
		return -1;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
	return 0;
}

void npu_rt_tr_raw(struct npu_rt_tr *t, const char *s, int reserve)
{
	if (put(t, s, strlen(s), reserve ? NPU_RT_TR_MAX - NPU_RT_TR_TAIL : NPU_RT_TR_MAX) != 0)
		t->truncated = 1;
}

/* Escape s (at most max bytes of it) into out as a JSON string with quotes. */
static size_t quote(char *out, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i;

	out[n++] = '"';
	for (i = 0; s[i] != '\0' && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c < 0x20 || c >= 0x7f) {
			/* bytes, not UTF-8 decoding: keep the line valid JSON */
			memcpy(out + n, "\\u00", 4);
			out[n + 4] = hex[c >> 4];
			out[n + 5] = hex[c & 15];
			n += 6;
		} else {
			out[n++] = (char)c;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
	return n;
}

/* One member: ,"name":value (no comma first in an object); 0 if written. */
static int member(struct npu_rt_tr *t, const char *name, const char *value)
{
	char key[96];
	size_t save = t->len;
	int n;

	if (t->skip)
		return -1;
	n = snprintf(key, sizeof(key), "%s\"%s\":", t->first ? "" : ",", name);
	if (n < 0 || (size_t)n >= sizeof(key) ||
	    put(t, key, (size_t)n, NPU_RT_TR_MAX - NPU_RT_TR_TAIL) != 0 ||
	    put(t, value, strlen(value), NPU_RT_TR_MAX - NPU_RT_TR_TAIL) != 0) {
		t->len = save;
		t->buf[save] = '\0';
		t->truncated = 1;
		return -1;
	}
	t->first = 0;
	return 0;
}

static void memberf(struct npu_rt_tr *t, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void memberf(struct npu_rt_tr *t, const char *name, const char *fmt, ...)
{
	char v[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	member(t, name, v);
}

void npu_rt_tr_open(struct npu_rt_tr *t, const char *name)
{
	int rc;

	if (name == NULL) {
		rc = t->skip ? -1 : put(t, "{", 1, NPU_RT_TR_MAX - NPU_RT_TR_TAIL);
		if (rc != 0)
			t->truncated = 1;
	} else {
		rc = member(t, name, "{");
	}
	if (rc != 0)
		t->skip++;	/* its members and its close are left out too */
	t->first = 1;
}

void npu_rt_tr_close(struct npu_rt_tr *t)
{
	t->first = 0;
	if (t->skip) {
		t->skip--;
		return;
	}
	/* closing never fails: NPU_RT_TR_TAIL is kept for it */
	put(t, "}", 1, NPU_RT_TR_MAX);
}

void npu_rt_tr_int(struct npu_rt_tr *t, const char *name, long long v)
{
	memberf(t, name, "%lld", v);
}

void npu_rt_tr_uint(struct npu_rt_tr *t, const char *name, unsigned long long v)
{
	memberf(t, name, "%llu", v);
}

void npu_rt_tr_double(struct npu_rt_tr *t, const char *name, double v)
{
	/* JSON has no NaN or infinity */
	if (v != v || v > 1e308 || v < -1e308)
		member(t, name, "null");
	else
		memberf(t, name, "%.17g", v);
}

void npu_rt_tr_ptr(struct npu_rt_tr *t, const char *name, const void *p)
{
	if (p == NULL)
		member(t, name, "null");
	else
		memberf(t, name, "\"0x%llx\"", (unsigned long long)(uintptr_t)p);
}

void npu_rt_tr_str(struct npu_rt_tr *t, const char *name, const char *s)
{
	char v[NPU_RT_TR_STR_MAX * 6 + 3];

	if (s == NULL) {
		member(t, name, "null");
		return;
	}
	quote(v, s, NPU_RT_TR_STR_MAX);
	member(t, name, v);
}

/* A nested object member that may be NULL: 1 when opened. */
static int open_or_null(struct npu_rt_tr *t, const char *name, const void *p)
{
	if (p == NULL) {
		member(t, name, "null");
		return 0;
	}
	npu_rt_tr_open(t, name);
	return 1;
}

void npu_rt_tr_aclrtMemLocation(struct npu_rt_tr *t, const char *name, const aclrtMemLocation *p)
{
	if (!open_or_null(t, name, p))
		return;
	npu_rt_tr_uint(t, "id", p->id);
	npu_rt_tr_int(t, "type", p->type);
	npu_rt_tr_close(t);
}

void npu_rt_tr_aclrtPhysicalMemProp(struct npu_rt_tr *t, const char *name,
				    const aclrtPhysicalMemProp *p)
{
	if (!open_or_null(t, name, p))
		return;
	npu_rt_tr_int(t, "handleType", p->handleType);
	npu_rt_tr_int(t, "allocationType", p->allocationType);
	npu_rt_tr_int(t, "memAttr", p->memAttr);
	npu_rt_tr_aclrtMemLocation(t, "location", &p->location);
	npu_rt_tr_uint(t, "reserve", p->reserve);
	npu_rt_tr_close(t);
}

/* An IPC event handle: the key its first 8 bytes hold (the rest is 0). */
void npu_rt_tr_aclrtIpcEventHandle(struct npu_rt_tr *t, const char *name, const aclrtIpcEventHandle *p)
{
	uint64_t key;

	if (!open_or_null(t, name, p))
		return;
	memcpy(&key, p->reserved, sizeof(key));
	npu_rt_tr_uint(t, "key", key);
	npu_rt_tr_close(t);
}

/* A condition task's parameters (aclmdlRIAddCondTask, by value). */
void npu_rt_tr_aclmdlRICondTaskParams(struct npu_rt_tr *t, const char *name, const aclmdlRICondTaskParams *p)
{
	if (!open_or_null(t, name, p))
		return;
	npu_rt_tr_ptr(t, "handle", p->handle);
	npu_rt_tr_int(t, "type", p->type);
	npu_rt_tr_uint(t, "size", p->size);
	npu_rt_tr_ptr(t, "modelRIArray", p->modelRIArray);
	npu_rt_tr_close(t);
}

/* At most this many attributes of a config are written. */
#define CFG_ATTRS_MAX 8

void npu_rt_tr_aclrtMallocConfig(struct npu_rt_tr *t, const char *name, const aclrtMallocConfig *p)
{
	size_t i;

	if (!open_or_null(t, name, p))
		return;
	npu_rt_tr_uint(t, "numAttrs", p->numAttrs);
	if (p->attrs == NULL) {
		member(t, "attrs", "null");
	} else if (member(t, "attrs", "[") == 0) {
		for (i = 0; i < p->numAttrs && i < CFG_ATTRS_MAX; i++) {
			uint64_t v = 0;
			char item[80];
			int n;

			/* the value union's 8 bytes as one number */
			memcpy(&v, p->attrs[i].value.rsv, sizeof(v));
			n = snprintf(item, sizeof(item), "%s{\"attr\":%d,\"value\":%llu}", i ? "," : "",
				     (int)p->attrs[i].attr, (unsigned long long)v);
			if (put(t, item, (size_t)n, NPU_RT_TR_MAX - NPU_RT_TR_TAIL) != 0) {
				t->truncated = 1;
				break;
			}
		}
		put(t, "]", 1, NPU_RT_TR_MAX);
		t->first = 0;
	}
	npu_rt_tr_close(t);
}

void npu_rt_tr_aclrtMemManagedLocation(struct npu_rt_tr *t, const char *name,
				       const aclrtMemManagedLocation *p)
{
	if (!open_or_null(t, name, p))
		return;
	npu_rt_tr_int(t, "type", p->type);
	npu_rt_tr_int(t, "id", p->id);
	npu_rt_tr_close(t);
}
