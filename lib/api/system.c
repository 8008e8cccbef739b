/*
 * The system chapter: the versions of the installed CANN packages
 * (aclsysGetVersionStr, aclsysGetVersionNum, aclsysGetCANNVersion), read from the version files
 * a CANN install leaves, where and as the CANN runtime reads them.  No
 * device is involved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl_internal.h"
#include "err_msg.h"

/* The value after key on the first line of path that holds key, trimmed of
 * blanks; 0, or -1 when path cannot be read or has no such line. */
static int read_key(const char *path, const char *key, char *out, size_t outsz)
{
	char line[1024];
	int found = -1;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f) != NULL) {
		char *v = strstr(line, key), *end;

		if (v == NULL)
			continue;
		v += strlen(key);
		v += strspn(v, " \t\r\n");
		end = v + strlen(v);
		while (end > v && strchr(" \t\r\n", end[-1]) != NULL)
			*--end = '\0';
		snprintf(out, outsz, "%s", v);
		found = 0;
	}
	fclose(f);
	return found;
}

/* The Version= value of package pkg (no '-'/'_' swapping here). */
static aclError version_of(const char *pkg, char *ver, size_t versz)
{
	char path[4096 + 64], base[4096];
	const char *home;
	struct stat st;

	if (strcmp(pkg, "driver") == 0 || strcmp(pkg, "firmware") == 0) {
		const char *key = pkg[0] == 'd' ? "Driver_Install_Path_Param=" :
						  "Firmware_Install_Path_Param=";

		if (read_key("/etc/ascend_install.info", key, base, sizeof(base)) != 0) {
			npu_rt_msg_detail("no %s line in /etc/ascend_install.info", key);
			return ACL_ERROR_INVALID_FILE;
		}
	} else {
		home = getenv("ASCEND_HOME_PATH");
		if (home == NULL || stat(home, &st) != 0 || !S_ISDIR(st.st_mode)) {
			npu_rt_msg_detail("ASCEND_HOME_PATH is %s%s", home ? home : "unset",
					  home ? ", not a directory" : "");
			return ACL_ERROR_INVALID_FILE;
		}
		snprintf(base, sizeof(base), "%s/share/info", home);
	}
	snprintf(path, sizeof(path), "%s/%s/version.info", base, pkg);
	if (read_key(path, "Version=", ver, versz) != 0 || ver[0] == '\0') {
		npu_rt_msg_detail("no \"Version=\" line in %s", path);
		return ACL_ERROR_INVALID_FILE;
	}
	return ACL_SUCCESS;
}

/* The version string of pkgName, trying it with '-' and '_' swapped too. */
static aclError package_version(const char *pkg, char *ver, size_t versz)
{
	char alt[256];
	const char *from = strchr(pkg, '-') ? "-" : "_", *to = from[0] == '-' ? "_" : "-";
	char *c;

	if (version_of(pkg, ver, versz) == ACL_SUCCESS)
		return ACL_SUCCESS;
	if (strchr(pkg, from[0]) == NULL || strlen(pkg) >= sizeof(alt))
		return ACL_ERROR_INVALID_FILE;
	strcpy(alt, pkg);
	for (c = alt; (c = strchr(c, from[0])) != NULL; c++)
		*c = to[0];
	npu_rt_msg_begin();	/* the first name's detail no longer applies */
	return version_of(alt, ver, versz);
}

/* The version string of pkgName into ver (ACL_PKG_VERSION_MAX_SIZE bytes). */
static aclError get_version_str(const char *pkg, char *ver)
{
	char buf[1024];
	aclError err;

	if (pkg == NULL) {
		npu_rt_msg_detail("pkgName is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = package_version(pkg, buf, sizeof(buf));
	if (err != ACL_SUCCESS)
		return err;
	if (strlen(buf) >= ACL_PKG_VERSION_MAX_SIZE) {
		npu_rt_msg_detail("version \"%.32s...\" is %zu bytes, versionStr holds %d", buf, strlen(buf),
				  ACL_PKG_VERSION_MAX_SIZE);
		return ACL_ERROR_INTERNAL_ERROR;
	}
	strcpy(ver, buf);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
	if (versionStr == NULL) {
		npu_rt_msg_detail("versionStr is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	return get_version_str(pkgName, versionStr);
}

/* The leading integer of s[0, len) as strtol reads it (blanks, a sign);
 * -1 when there is none or it leaves int32_t. */
static int leading_int(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;
	long long n;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	n = strtoll(buf, &end, 10);
	if (end == buf || n < INT32_MIN || n > INT32_MAX)
		return -1;
	*v = n;
	return 0;
}

/* The number after a pre-release keyword: empty is 0; else at most one
 * '.' or '-' and then digits only. */
static int prerelease_num(const char *s, int64_t *n)
{
	size_t skip = strspn(s, ".-");

	if (*s == '\0') {
		*n = 0;
		return 0;
	}
	if (skip > 1 || s[skip] < '0' || s[skip] > '9' || strspn(s + skip, "0123456789") != strlen(s + skip))
		return -1;
	return leading_int(s + skip, strlen(s + skip), n);
}

/* "major.minor.patch[suffix]" as aclsysGetVersionNum counts it. */
static aclError version_number(const char *v, int32_t *out)
{
	static const struct { const char *word; int weight; } pre[] = {
		{ "alpha", 300 }, { "beta", 200 }, { "rc", 100 },
	};
	const char *dot1 = strchr(v, '.'), *dot2, *end, *word = NULL;
	int64_t major, minor, patch, num = 0, total;
	char suffix[ACL_PKG_VERSION_MAX_SIZE];
	size_t i, k;

	if (dot1 == NULL || dot1 == v || (dot2 = strchr(dot1 + 1, '.')) == NULL || dot2 == dot1 + 1)
		goto bad;
	end = dot2 + 1 + strspn(dot2 + 1, "0123456789");
	if (end == dot2 + 1 || leading_int(v, dot1 - v, &major) || leading_int(dot1 + 1, dot2 - dot1 - 1, &minor) ||
	    leading_int(dot2 + 1, end - dot2 - 1, &patch))
		goto bad;
	total = major * 10000000 + minor * 100000 + patch * 1000;
	if (*end != '\0') {
		for (k = 0; end[k] && k + 1 < sizeof(suffix); k++)
			suffix[k] = (char)(end[k] >= 'A' && end[k] <= 'Z' ? end[k] - 'A' + 'a' : end[k]);
		suffix[k] = '\0';
		for (i = 0; i < sizeof(pre) / sizeof(pre[0]) && word == NULL; i++) {
			word = strstr(suffix, pre[i].word);
			if (word != NULL && (word - suffix > 1 ||
					     prerelease_num(end + (word - suffix) + strlen(pre[i].word), &num)))
				goto bad;
			if (word != NULL)
				total += num - pre[i].weight;
		}
		if (word == NULL)
			goto bad;
	}
	if (total < INT32_MIN || total > INT32_MAX)
		goto bad;
	*out = (int32_t)total;
	return ACL_SUCCESS;
bad:
	npu_rt_msg_detail("version \"%s\" is not major.minor.patch[-alpha|beta|rcN]", v);
	return ACL_ERROR_INTERNAL_ERROR;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
	char ver[ACL_PKG_VERSION_MAX_SIZE];
	aclError err;

	if (versionNum == NULL) {
		npu_rt_msg_detail("versionNum is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	err = get_version_str(pkgName, ver);
	return err != ACL_SUCCESS ? err : version_number(ver, versionNum);
}

/* The package each aclCANNPackageName reads, as the CANN runtime maps them. */
static const char *const cann_packages[] = {
	[ACL_PKG_NAME_CANN] = "runtime",		[ACL_PKG_NAME_RUNTIME] = "runtime",
	[ACL_PKG_NAME_COMPILER] = "bisheng-compiler",	[ACL_PKG_NAME_HCCL] = "hccl",
	[ACL_PKG_NAME_TOOLKIT] = "oam-tools",		[ACL_PKG_NAME_OPP] = "ops-legacy",
	[ACL_PKG_NAME_OPP_KERNEL] = "ops-legacy",	[ACL_PKG_NAME_DRIVER] = "driver",
};

/* Copy the next '.'-separated part of *s into out (truncated to outsz - 1);
 * "0" when none is left.  0, or -1 for an empty part. */
static int next_part(const char **s, char *out, size_t outsz)
{
	size_t len;

	if (*s == NULL) {
		snprintf(out, outsz, "0");
		return 0;
	}
	len = strcspn(*s, ".");
	if (len == 0)
		return -1;
	snprintf(out, outsz, "%.*s", (int)len, *s);
	*s = (*s)[len] == '.' ? *s + len + 1 : NULL;
	return 0;
}

ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version)
{
	aclCANNPackageVersion v;
	char raw[1024], *dash;
	const char *rest;
	size_t k, n;
	aclError err;

	if (version == NULL) {
		npu_rt_msg_detail("version is NULL");
		return ACL_ERROR_INVALID_PARAM;
	}
	if ((unsigned int)name >= sizeof(cann_packages) / sizeof(cann_packages[0])) {
		npu_rt_msg_detail("package name %d is not an aclCANNPackageName", (int)name);
		return ACL_ERROR_INVALID_PARAM;
	}
	err = package_version(cann_packages[name], raw, sizeof(raw));
	if (err != ACL_SUCCESS)
		return err;
	/* "8.5.0-beta.1" counts as "8.5.0.beta1" */
	dash = strchr(raw, '-');
	if (dash != NULL) {
		*dash = '.';
		for (k = n = (size_t)(dash - raw) + 1; raw[k]; k++)
			if (raw[k] != '.')
				raw[n++] = raw[k];
		raw[n] = '\0';
	}
	memset(&v, 0, sizeof(v));
	/* truncated to the field, as the CANN runtime copies it */
	memcpy(v.version, raw, strnlen(raw, sizeof(v.version) - 1));
	rest = raw;
	if (strchr(raw, '.') == NULL || next_part(&rest, v.majorVersion, sizeof(v.majorVersion)) ||
	    next_part(&rest, v.minorVersion, sizeof(v.minorVersion)) ||
	    next_part(&rest, v.releaseVersion, sizeof(v.releaseVersion)) ||
	    next_part(&rest, v.patchVersion, sizeof(v.patchVersion))) {
		npu_rt_msg_detail("version \"%s\" of %s is not at least major.minor", raw, cann_packages[name]);
		return ACL_ERROR_INVALID_FILE;
	}
	*version = v;
	return ACL_SUCCESS;
}
