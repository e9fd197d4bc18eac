/* util.c - allocation, strings and paths shared by the library. */
#include "clawmd.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

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

char *clawmd_xasprintf(const char *fmt, ...)
{
	char *s;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
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
	size_t ncap = *cap ? *cap * 2 : 8;
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

static inline uint64_t hash_step(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

uint64_t clawmd_hash64(const void *data, size_t len)
{
	const char *p = data;
	uint64_t w, h = 0x9e3779b97f4a7c15ULL ^ len;
	/* Four chains side by side: a step's multiply waits for the one
	 * before it only within its own lane. */
	uint64_t l[4] = {h, h ^ 1, h ^ 2, h ^ 3};
	for (; len >= 32; p += 32, len -= 32)
		for (int k = 0; k < 4; k++) {
			memcpy(&w, p + 8 * k, 8);
			l[k] = hash_step(l[k], w);
		}
	h = hash_step(hash_step(hash_step(hash_step(h, l[0]), l[1]), l[2]), l[3]);
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = hash_step(h, w);
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
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
