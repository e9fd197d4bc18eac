/* load.c - what every runtime's loader shares: absolute container-or-host
 * paths, reads and listings through the one resolver (fs/view.c) within a
 * load's bounds (load.h); text as the runtimes decode it is a layer below,
 * runtime/text.c, which compose uses too. */
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
