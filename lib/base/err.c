/* err.c - the first-error-wins error value every action fills. */
#include "clawmd.h"

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

int clawmd_err_exit_status(int code)
{
	if (code >= 0)
		return 0;
	if (code < CLAWMD_ELOCK)
		return 4;
	return -code;
}
