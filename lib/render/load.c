/* load.c - what every runtime's loader shares: absolute container-or-host
 * paths, reads and listings through the one resolver (fs/view.c) within a
 * load's bounds, and text decoded as the runtimes decode it (load.h). */
#include "render/load.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the filesystem view ------------------------------------------------ */

/*
 * Every read goes through view.c's resolver: a container path walked
 * through the mount table with directory fds (the identity on the host).
 * The loader is bounded: a file over CLAWMD_LOAD_FILE_MAX is skipped unread (as Claude
 * Code skips it), and one load reads at most CLAWMD_LOAD_BYTES_MAX bytes, tries
 * at most LOAD_FILES_MAX paths and lists at most CLAWMD_LOAD_ENTRIES_MAX rules
 * entries (CLAWMD_LOAD_DIR_MAX per directory); past a bound, the rest is skipped
 * as missing.
 */
char *clawmd_load_realpath(struct clawmd_load_view *v, const char *p)
{
	return clawmd_view_realpath(&v->v, p);
}

char clawmd_load_kind(struct clawmd_load_view *v, const char *p)
{
	return clawmd_view_kind(&v->v, p);
}

/* Read the regular file `nd` resolved to; -errno otherwise (EISDIR for
 * directories, EFBIG over 4 MiB or past the load's bytes). */
int clawmd_load_read(struct clawmd_load_view *v, const struct clawmd_view_node *nd, struct clawmd_buf *out)
{
	if (v->bytes >= CLAWMD_LOAD_BYTES_MAX)
		return -EFBIG;
	size_t max = CLAWMD_LOAD_BYTES_MAX - v->bytes < CLAWMD_LOAD_FILE_MAX ? CLAWMD_LOAD_BYTES_MAX - v->bytes : CLAWMD_LOAD_FILE_MAX;
	size_t before = out->len;
	int rc = clawmd_view_read_node(nd, out, max);
	v->bytes += out->len - before;
	return rc;
}

int clawmd_load_read_head(struct clawmd_load_view *v, const struct clawmd_view_node *nd,
			  struct clawmd_buf *out, size_t max)
{
	if (v->bytes >= CLAWMD_LOAD_BYTES_MAX)
		return -EFBIG;
	if (max > CLAWMD_LOAD_BYTES_MAX - v->bytes)
		max = CLAWMD_LOAD_BYTES_MAX - v->bytes;
	size_t before = out->len;
	int rc = clawmd_view_read_head(nd, out, max);
	v->bytes += out->len - before;
	return rc;
}

bool clawmd_load_lexists(struct clawmd_load_view *v, const char *p, bool *is_dir)
{
	struct stat st;
	if (!clawmd_view_lexists(&v->v, p, &st))
		return false;
	if (is_dir)
		*is_dir = S_ISDIR(st.st_mode);
	return true;
}

/* Names in a directory in readdir(3) order, sorted bytewise for the
 * JavaScript releases (§5.1.4, §15); NULL if unreadable or over a bound. */
char **clawmd_load_list(struct clawmd_load_view *v, const char *p, bool sorted, size_t *n, dev_t *dev,
			ino_t *ino)
{
	char **names;
	bool truncated;
	if (v->entries >= CLAWMD_LOAD_ENTRIES_MAX)
		return NULL;
	size_t max = CLAWMD_LOAD_ENTRIES_MAX - v->entries < CLAWMD_LOAD_DIR_MAX ? CLAWMD_LOAD_ENTRIES_MAX - v->entries
								  : CLAWMD_LOAD_DIR_MAX;
	if (clawmd_view_list(&v->v, p, max, &names, n, &truncated, dev, ino) < 0)
		return NULL;
	v->entries += *n;
	if (sorted && *n)
		qsort(names, *n, sizeof(char *), clawmd_strcmp_ptr);
	return names;
}


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

char *clawmd_load_find_up(struct clawmd_load_view *v, const char *dir, const char *const *names,
			  size_t n, bool follow, bool counted)
{
	char *d = clawmd_xstrdup(dir);
	for (;;) {
		for (size_t i = 0; i < n; i++) {
			if (counted && ++v->files > CLAWMD_LOAD_FILES_MAX)
				break;
			char *p = clawmd_path_resolve(d, names[i]);
			bool there = follow ? clawmd_load_kind(v, p) != 0 : clawmd_load_lexists(v, p, NULL);
			free(p);
			if (there)
				return d;
		}
		char *up = clawmd_path_dir(d);
		bool top = !strcmp(up, d);
		free(d);
		d = up;
		if (top)
			break;
	}
	free(d);
	return NULL;
}

char **clawmd_load_walk_down(const char *top, const char *dir, size_t *n)
{
	char **v = NULL;
	size_t k = 0, cap = 0;
	for (char *d = clawmd_xstrdup(dir);;) {
		clawmd_xgrow(&v, &cap, k + 1, sizeof(char *));
		v[k++] = d;
		if (!strcmp(d, top) || !strcmp(d, "/"))
			break;
		d = clawmd_path_dir(d);
	}
	for (size_t i = 0; i < k / 2; i++) {
		char *t = v[i];
		v[i] = v[k - 1 - i];
		v[k - 1 - i] = t;
	}
	*n = k;
	return v;
}

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
