/* util.c - allocation, strings and paths shared by the library. */
#include "clawmd.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static void *check(void *p)
{
	if (!p)
		abort(); /* out of memory: see the policy in clawmd.h */
	return p;
}

void *clawmd_xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *clawmd_xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *clawmd_xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

char *clawmd_xstrdup(const char *s)
{
	return s ? check(strdup(s)) : NULL;
}

char *clawmd_xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}

/* Formatted once on the stack, then copied: glibc's vasprintf grows its
 * own buffer as it goes, and costs twice as much for a line or a path
 * (a no-op compose's warnings, at every spawn). */
char *clawmd_xasprintf(const char *fmt, ...)
{
	char line[256], *s;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if ((size_t)n < sizeof(line))
		return memcpy(clawmd_xmalloc((size_t)n + 1), line, (size_t)n + 1);
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	return s;
}

void clawmd_xgrow(void *v, size_t *cap, size_t need, size_t size)
{
	void **pv = v;
	if (need <= *cap)
		return;
	/* bytes start at 64: a path or a line is seldom less, and each
	 * doubling below that is a realloc */
	size_t ncap = *cap ? *cap * 2 : size == 1 ? 64 : 8;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / size)
		abort();
	*pv = clawmd_xrealloc(*pv, ncap * size);
	*cap = ncap;
}

char *clawmd_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	if (la == 1 && a[0] == '/')
		la = 0;
	/* By hand, not with asprintf: joins run on every compose, and the
	 * formatter costs more than the copy. */
	size_t lb = strlen(b);
	char *out = clawmd_xmalloc(la + 1 + lb + 1);
	memcpy(out, a, la);
	out[la] = '/';
	memcpy(out + la + 1, b, lb + 1);
	return out;
}

int clawmd_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

uint64_t clawmd_fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Two words into one: the 128-bit product of their mixes, folded.  One
 * multiply takes sixteen bytes, where a 64-bit step takes eight. */
static inline uint64_t hash_mix(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)(a ^ 0xa0761d6478bd642fULL) * (b ^ 0xe7037ed1a0b428dbULL);
	return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
	uint64_t h = (a ^ 0xa0761d6478bd642fULL) * 0xff51afd7ed558ccdULL;
	h = (h ^ (h >> 32) ^ b) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
#endif
}

static inline uint64_t word(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

uint64_t clawmd_hash64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t a, b, h = 0x9e3779b97f4a7c15ULL ^ len;
	/* Four lanes side by side, sixteen bytes each a step: a lane's
	 * multiply waits only on its own previous one. */
	uint64_t l0 = h, l1 = h ^ 0x8ebc6af09c88c6e3ULL, l2 = h ^ 0x589965cc75374cc3ULL,
		 l3 = h ^ 0x1d8e4e27c47d124fULL;
	for (; len >= 64; p += 64, len -= 64) {
		l0 = hash_mix(word(p) ^ l0, word(p + 8));
		l1 = hash_mix(word(p + 16) ^ l1, word(p + 24));
		l2 = hash_mix(word(p + 32) ^ l2, word(p + 40));
		l3 = hash_mix(word(p + 48) ^ l3, word(p + 56));
	}
	h = hash_mix(hash_mix(l0, l1) ^ h, hash_mix(l2, l3));
	for (; len >= 16; p += 16, len -= 16)
		h = hash_mix(word(p) ^ h, word(p + 8));
	a = b = 0;
	memcpy(&a, p, len < 8 ? len : 8);
	if (len > 8)
		memcpy(&b, p + 8, len - 8);
	return hash_mix(hash_mix(a ^ h, b ^ len), h);
}

size_t clawmd_utf16_len(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xc0) != 0x80)
			n += c >= 0xf0 ? 2 : 1;
	}
	return n;
}

size_t clawmd_utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	if (n == 0)
		return 0;
	unsigned char c = p[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

void clawmd_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool clawmd_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void clawmd_trim(const char **s, const char **e)
{
	while (*s < *e && clawmd_is_blank(**s))
		(*s)++;
	while (*e > *s && clawmd_is_blank((*e)[-1]))
		(*e)--;
}

/* ---- paths -------------------------------------------------------------- */

/* POSIX path.normalize for absolute paths: no ".", "..", "//" or trailing /. */
char *clawmd_path_norm(const char *p)
{
	size_t len = strlen(p);
	char *out = clawmd_xmalloc(len + 2);
	size_t n = 0;
	out[n++] = '/';
	for (const char *a = p; *a;) {
		while (*a == '/')
			a++;
		const char *e = a;
		while (*e && *e != '/')
			e++;
		size_t sl = (size_t)(e - a);
		if (sl == 0)
			break;
		if (sl == 1 && a[0] == '.') {
			/* nothing */
		} else if (sl == 2 && a[0] == '.' && a[1] == '.') {
			while (n > 1 && out[n - 1] != '/')
				n--;
			if (n > 1)
				n--;
		} else {
			if (n > 1)
				out[n++] = '/';
			memcpy(out + n, a, sl);
			n += sl;
		}
		a = e;
	}
	out[n] = '\0';
	return out;
}

char *clawmd_path_resolve(const char *base, const char *rel)
{
	if (rel[0] == '/')
		return clawmd_path_norm(rel);
	char *j = clawmd_xasprintf("%s/%s", base, rel);
	char *r = clawmd_path_norm(j);
	free(j);
	return r;
}

char *clawmd_path_dir(const char *p)
{
	const char *sl = strrchr(p, '/');
	if (!sl || sl == p)
		return clawmd_xstrdup("/");
	return clawmd_xstrndup(p, (size_t)(sl - p));
}

bool clawmd_path_dotted(const char *p)
{
	for (const char *a = p; *a;) {
		size_t n = strcspn(a, "/");
		if ((n == 1 && a[0] == '.') || (n == 2 && a[0] == '.' && a[1] == '.'))
			return true;
		a += n + (a[n] == '/');
	}
	return false;
}

bool clawmd_path_under(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(p, dir, n) && (p[n] == '\0' || p[n] == '/');
}

bool clawmd_path_below(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(p, dir, n) && p[n] == '/' && p[n + 1];
}

char *clawmd_path_lexical(const char *dir)
{
	if (dir[0] == '/')
		return clawmd_path_norm(dir);
	char *cwd = getcwd(NULL, 0);
	char *p = cwd ? clawmd_path_resolve(cwd, dir) : NULL;
	free(cwd);
	return p;
}
