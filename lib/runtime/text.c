/* text.c - text as the runtimes read it (runtime/text.h): decoded as
 * Node decodes UTF-8, white space as Rust and Python have it, trimmed and
 * sorted as JavaScript does.  It sits below both compose, which writes
 * what the runtimes read, and render, which reads it as they do. */
#include "runtime/text.h"
#include "base/util.h"

#include <string.h>

/* ---- UTF-8 ------------------------------------------------------------------ */

/*
 * Claude Code reads memory files as UTF-8 strings (readFile(p, 'utf-8')):
 * every maximal ill-formed subsequence becomes U+FFFD, as the WHATWG
 * decoder that Node uses does.  `in` is replaced when it is not valid.
 */
void clawmd_utf8_sanitize(struct clawmd_buf *in)
{
	const unsigned char *s = (const unsigned char *)in->ptr;
	size_t n = in->len, i = 0;
	while (i < n && s[i] < 0x80)
		i++;
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	bool bad = false;
	clawmd_buf_put(&out, "", 0);
	while (i < n) {
		unsigned char b = s[i];
		size_t need;
		unsigned char lo = 0x80, hi = 0xbf;
		if (b < 0x80)
			need = 0;
		else if (b >= 0xc2 && b <= 0xdf)
			need = 1;
		else if (b >= 0xe0 && b <= 0xef) {
			need = 2;
			if (b == 0xe0)
				lo = 0xa0;
			else if (b == 0xed)
				hi = 0x9f;
		} else if (b >= 0xf0 && b <= 0xf4) {
			need = 3;
			if (b == 0xf0)
				lo = 0x90;
			else if (b == 0xf4)
				hi = 0x8f;
		} else {
			bad = true;
			clawmd_buf_put(&out, "\xef\xbf\xbd", 3);
			i++;
			continue;
		}
		size_t j = i + 1;
		bool ok = true;
		for (size_t k = 0; k < need; k++, j++) {
			unsigned char l = k ? 0x80 : lo, h = k ? 0xbf : hi;
			if (j >= n || s[j] < l || s[j] > h) {
				ok = false;
				break;
			}
		}
		if (ok) {
			clawmd_buf_put(&out, s + i, j - i);
		} else {
			/* the offending byte is not consumed: it starts anew */
			bad = true;
			clawmd_buf_put(&out, "\xef\xbf\xbd", 3);
		}
		i = j;
	}
	if (bad) {
		size_t ascii = 0;
		while (ascii < n && s[ascii] < 0x80)
			ascii++;
		struct clawmd_buf all = CLAWMD_BUF_INIT;
		clawmd_buf_put(&all, s, ascii);
		clawmd_buf_put(&all, out.ptr, out.len);
		clawmd_buf_release(in);
		*in = all;
	}
	clawmd_buf_release(&out);
}

bool clawmd_utf8_valid(const char *s)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_puts(&b, s);
	size_t len = b.len;
	clawmd_utf8_sanitize(&b);
	bool ok = b.len == len && !memcmp(b.ptr, s, len);
	clawmd_buf_release(&b);
	return ok;
}

/* ---- white space ---------------------------------------------------------- */

size_t clawmd_space_at(const char *str, size_t i, size_t n, bool python)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[i];
	if (c == ' ' || (c >= '\t' && c <= '\r') || (python && c >= 0x1c && c <= 0x1f))
		return 1;
	if (c == 0xc2 && i + 1 < n && (s[i + 1] == 0x85 || s[i + 1] == 0xa0))
		return 2;
	if (i + 2 >= n)
		return 0;
	unsigned char b = s[i + 1], d = s[i + 2];
	if (c == 0xe1 && b == 0x9a && d == 0x80) /* U+1680 */
		return 3;
	if (c == 0xe2 && b == 0x80 && (d <= 0x8a || d == 0xa8 || d == 0xa9 || d == 0xaf))
		return 3; /* U+2000..U+200A, U+2028, U+2029, U+202F */
	if (c == 0xe2 && b == 0x81 && d == 0x9f) /* U+205F */
		return 3;
	if (c == 0xe3 && b == 0x80 && d == 0x80) /* U+3000 */
		return 3;
	return 0;
}

/* ---- JavaScript's string semantics over UTF-8 ------------------------------ */

/* The length of the code point at s[i] when String.prototype.trim strips
 * it (WhiteSpace and LineTerminator: ASCII space and \t-\r, U+00A0,
 * U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF),
 * else 0. */
static size_t js_space(const unsigned char *s, size_t i, size_t n)
{
	unsigned char c = s[i];
	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 1;
	if (c == 0xc2 && i + 1 < n && s[i + 1] == 0xa0)
		return 2;
	if (i + 2 >= n)
		return 0;
	unsigned char b = s[i + 1], d = s[i + 2];
	if ((c == 0xe1 && b == 0x9a && d == 0x80) || (c == 0xe3 && b == 0x80 && d == 0x80) ||
	    (c == 0xef && b == 0xbb && d == 0xbf) || (c == 0xe2 && b == 0x81 && d == 0x9f) ||
	    (c == 0xe2 && b == 0x80 && (d <= 0x8a || d == 0xa8 || d == 0xa9 || d == 0xaf)))
		return 3;
	return 0;
}

void clawmd_js_trim_valid(const char *str, size_t n, size_t *a, size_t *b)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, e = n;
	while (i < n && (k = js_space(s, i, n)))
		i += k;
	while (e > i) {
		size_t st = e - 1;
		while (st > i && (s[st] & 0xc0) == 0x80)
			st--;
		if (js_space(s, st, e) != e - st)
			break;
		e = st;
	}
	*a = i;
	*b = e;
}

/* The next UTF-16 code unit of a valid UTF-8 string (a supplementary
 * character gives its two surrogates in turn). */
static unsigned next_unit(const unsigned char **p, unsigned *low)
{
	if (*low) {
		unsigned u = *low;
		*low = 0;
		return u;
	}
	const unsigned char *s = *p;
	unsigned cp;
	if (s[0] < 0x80)
		cp = s[0], *p += 1;
	else if (s[0] < 0xe0)
		cp = (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu), *p += 2;
	else if (s[0] < 0xf0)
		cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu), *p += 3;
	else
		cp = (s[0] & 0x07u) << 18 | (s[1] & 0x3fu) << 12 | (s[2] & 0x3fu) << 6 |
		     (s[3] & 0x3fu), *p += 4;
	if (cp < 0x10000)
		return cp;
	cp -= 0x10000;
	*low = 0xdc00 + (cp & 0x3ff);
	return 0xd800 + (cp >> 10);
}

int clawmd_js_cmp(const void *x, const void *y)
{
	const unsigned char *a = *(const unsigned char *const *)x, *b = *(const unsigned char *const *)y;
	unsigned la = 0, lb = 0;
	while ((*a || la) && (*b || lb)) {
		unsigned ua = next_unit(&a, &la), ub = next_unit(&b, &lb);
		if (ua != ub)
			return ua < ub ? -1 : 1;
	}
	return (*a || la) ? 1 : (*b || lb) ? -1 : 0;
}
