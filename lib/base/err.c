/* err.c - the first-error-wins error value every action fills. */
#include "clawmd.h"
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int err_vset(struct clawmd_err *err, int code, int sys_errno, const char *fmt, va_list ap)
{
	if (!err || err->code)
		return code;
	err->code = code;
	err->sys_errno = sys_errno;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	if (sys_errno) {
		size_t n = strlen(err->msg);
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(sys_errno));
	}
	return code;
}

int clawmd_err_set(struct clawmd_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int clawmd_err_sys(struct clawmd_err *err, int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	err_vset(err, code, saved, fmt, ap);
	va_end(ap);
	errno = saved;
	return code;
}

void clawmd_err_clear(struct clawmd_err *err)
{
	err->code = 0;
	err->sys_errno = 0;
	err->msg[0] = '\0';
}

int clawmd_opts_version(unsigned int got, unsigned int want, const char *type,
			struct clawmd_err *err)
{
	if (got == want)
		return 0;
	return clawmd_err_set(err, CLAWMD_EUSAGE,
			      "struct %s: version %u, this library knows %u (start it from its _INIT)",
			      type, got, want);
}

const char *clawmd_code_name(int code)
{
	switch (code) {
	case CLAWMD_OK: return "OK";
	case CLAWMD_EUSAGE: return "EUSAGE";
	case CLAWMD_EINPUT: return "EINPUT";
	case CLAWMD_EFS: return "EFS";
	case CLAWMD_ELOCK: return "ELOCK";
	default: return code > 0 ? "OK" : "EFS";
	}
}
