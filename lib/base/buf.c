/* buf.c - the growable, always NUL-terminated byte buffer. */
#include "clawmd.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>

void clawmd_buf_grow(struct clawmd_buf *buf, size_t extra)
{
	if (extra >= SIZE_MAX - buf->len - 1)
		abort();
	clawmd_xgrow(&buf->ptr, &buf->cap, buf->len + extra + 1, 1);
}

void clawmd_buf_put(struct clawmd_buf *buf, const void *data, size_t len)
{
	clawmd_buf_grow(buf, len);
	if (len)
		memcpy(buf->ptr + buf->len, data, len);
	buf->len += len;
	buf->ptr[buf->len] = '\0';
}

void clawmd_buf_puts(struct clawmd_buf *buf, const char *s)
{
	clawmd_buf_put(buf, s, strlen(s));
}

void clawmd_buf_putc(struct clawmd_buf *buf, char c)
{
	clawmd_buf_put(buf, &c, 1);
}

void clawmd_buf_printf(struct clawmd_buf *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	clawmd_buf_grow(buf, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(buf->ptr + buf->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf->len += (size_t)n;
}

void clawmd_buf_clear(struct clawmd_buf *buf)
{
	buf->len = 0;
	if (buf->ptr)
		buf->ptr[0] = '\0';
}

char *clawmd_buf_detach(struct clawmd_buf *buf)
{
	char *s = buf->ptr ? buf->ptr : clawmd_xstrdup("");
	buf->ptr = NULL;
	buf->len = buf->cap = 0;
	return s;
}

void clawmd_buf_release(struct clawmd_buf *buf)
{
	if (!buf)
		return;
	free(buf->ptr);
	buf->ptr = NULL;
	buf->len = buf->cap = 0;
}
