/*
 * flatsrc.c - what the flat document reads of the host's install tree
 * (compose/flatsrc.h): the base, the modules and the skills, as nanoclaw's
 * composer reads them (readFileSync, readdirSync sorted as JavaScript
 * sorts), each read noted for the no-op record and kept for the pass.
 */
#include "compose/flatsrc.h"
#include "compose/pass.h"
#include "compose/words.h"
#include "fs/inputs.h"
#include "group/group.h"
#include "runtime/text.h" /* Node's decoding, JavaScript's sort */
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOURCE_MAX (64u * 1024 * 1024) /* one install-tree file: past it, the host's mistake */

static int read_file(struct clawmd_buf *out, struct clawmd_inputs *in, const char *path,
		     size_t base, struct clawmd_err *err);

/* A file of the host's install tree, symlinks followed (as readFileSync),
 * decoded as Node decodes UTF-8; read once a pass (compose/pass.h).  1:
 * absent.  path[0, base) is the source directory it lies in (the skills;
 * 0: none), which the record's check opens once for all its files
 * (struct clawmd_input's base): fifty skills are then fifty short
 * lookups, not fifty walks of the whole path. */
int clawmd_flat_source_read(struct clawmd_buf *out, struct clawmd_group *g, const char *path,
			    size_t base, struct clawmd_err *err)
{
	struct clawmd_buf key = CLAWMD_BUF_INIT;
	const char *got;
	size_t len, from = g->inputs.n;
	clawmd_buf_put(&key, (char[]){CLAWMD_PASS_FLAT}, 1);
	clawmd_buf_puts(&key, path);
	int rc = 0;
	if (clawmd_pass_recall(g->pass, key.ptr, key.len, &got, &len, &g->inputs)) {
		clawmd_buf_clear(out);
		clawmd_buf_put(out, got, len);
	} else if ((rc = read_file(out, &g->inputs, path, base, err)) == 0) {
		clawmd_pass_remember(g->pass, key.ptr, key.len, out->ptr, out->len, &g->inputs, from);
	}
	clawmd_buf_release(&key);
	return rc;
}

/* Note what a look at host path `path` found, below its source directory
 * path[0, base) when base is not 0. */
static void note_source(struct clawmd_inputs *in, enum clawmd_input_kind kind, const char *path,
			size_t base, const struct stat *st)
{
	size_t n = in->n;
	clawmd_inputs_note(in, kind, CLAWMD_AT_HOST, path, st);
	if (in->n > n && base && base < UINT16_MAX && path[base] == '/')
		in->v[in->n - 1].base = (uint16_t)base;
}

static int read_file(struct clawmd_buf *out, struct clawmd_inputs *in, const char *path,
		     size_t base, struct clawmd_err *err)
{
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		note_source(in, CLAWMD_INPUT_TYPE, path, base, NULL);
		return 1;
	}
	if (fd < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
	struct stat st;
	int rc = 0;
	/* noted as opened, before it is read: a change from now on is seen */
	if (fstat(fd, &st) < 0) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
		goto out;
	}
	note_source(in, CLAWMD_INPUT_CONTENT, path, base, &st);
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s' (not a regular file)", path);
		goto out;
	}
	/* Sized from fstat, one byte over: a read that falls short of what
	 * it asked for met the end, so a file that did not change is read
	 * in one call. */
	size_t want = st.st_size < SOURCE_MAX ? (size_t)st.st_size + 1 : (size_t)SOURCE_MAX + 1;
	for (;;) {
		clawmd_buf_grow(out, want);
		size_t room = out->cap - out->len - 1;
		ssize_t k = read(fd, out->ptr + out->len, room);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
			goto out;
		}
		out->len += (size_t)k;
		out->ptr[out->len] = '\0';
		if (out->len > SOURCE_MAX) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "'%s': larger than %u bytes", path,
					    SOURCE_MAX);
			goto out;
		}
		if (k == 0 || (size_t)k < room)
			break;
		want = 65536;
	}
	clawmd_utf8_sanitize(out);
out:
	close(fd);
	return rc;
}

/* The names of a directory of the install tree, in JavaScript's order;
 * NULL when it does not exist.  A name that is not UTF-8 would be a
 * different name once Node decoded it: left out, with a warning. */
static char **list_dir(struct clawmd_plan *plan, struct clawmd_group *g, const char *dir, size_t *n,
		       bool *warned)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cap = 0;
	struct stat st;
	*n = 0;
	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			clawmd_inputs_note(&g->inputs, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, dir, NULL);
		else
			clawmd_inputs_lose(&g->inputs);
		return NULL;
	}
	/* a directory's identity vouches for its names */
	if (fstat(dirfd(d), &st) == 0)
		clawmd_inputs_note(&g->inputs, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, dir, &st);
	else
		clawmd_inputs_lose(&g->inputs);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!clawmd_utf8_valid(e->d_name)) {
			clawmd_plan_warn(plan, "%s: a name that is not UTF-8 is left out", dir);
			*warned = true;
			continue;
		}
		clawmd_xgrow(&v, &cap, *n + 1, sizeof(char *));
		v[(*n)++] = clawmd_xstrdup(e->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(char *), clawmd_js_cmp);
	return v;
}

/* list_dir(), once a pass: the sorted names, NUL after each, remembered
 * with the directory's identity (a listing that warned is not). */
char **clawmd_flat_source_list(struct clawmd_plan *plan, struct clawmd_group *g, const char *dir,
			       size_t *n)
{
	struct clawmd_inputs *in = &g->inputs;
	struct clawmd_buf key = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	const char *got;
	size_t len, from = in->n, cap = 0;
	char **v = NULL;
	bool warned = false;
	clawmd_buf_put(&key, (char[]){CLAWMD_PASS_FLAT_NAMES}, 1);
	clawmd_buf_puts(&key, dir);
	*n = 0;
	if (clawmd_pass_recall(g->pass, key.ptr, key.len, &got, &len, in)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1) {
			clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = clawmd_xstrdup(p);
		}
	} else if ((v = list_dir(plan, g, dir, n, &warned)) && !warned) {
		for (size_t i = 0; i < *n; i++)
			clawmd_buf_put(&all, v[i], strlen(v[i]) + 1);
		clawmd_pass_remember(g->pass, key.ptr, key.len, all.ptr ? all.ptr : "", all.len,
				     in, from);
	}
	clawmd_buf_release(&all);
	clawmd_buf_release(&key);
	return v;
}
