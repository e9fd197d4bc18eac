/*
 * codex.c - what the Codex CLI loads as instructions (its "project docs"),
 * as measured on the real CLI (doc/runtime-codex.md, release 0.169.0):
 *
 *   1. the global file: in CODEX_HOME (default HOME/.codex)
 *      AGENTS.override.md, else AGENTS.md: the first regular file whose text
 *      is not blank, trimmed;
 *   2. the project files: from the project root (the nearest directory, the
 *      cwd or above, holding a root marker, `.git` by default; none: the cwd
 *      alone) down to the cwd, in each directory the first of
 *      AGENTS.override.md, AGENTS.md and the fallback names that is a
 *      regular file (after symlinks); its text is dropped when blank and
 *      sent untrimmed otherwise; all of them share one budget of bytes
 *      (project_doc_max_bytes, 32768): a file is cut at the byte where the
 *      budget ends and the walk stops there;
 *   3. the string: the global text, "\n\n--- project-doc ---\n\n" when both
 *      are there, the project texts joined with "\n\n".
 *
 * Every file is decoded as UTF-8 with each ill-formed sequence replaced by
 * U+FFFD (Rust's from_utf8_lossy: the same maximal subparts as Node's
 * decoder); "blank" and "trimmed" use Unicode's White_Space, as Rust's
 * str::trim does.  No @ import is followed: @ lines are text.
 *
 * Every file is reached through the one resolver (load.h, fs/view.c): in
 * group mode as the container sees it.  Only regular files are opened; a
 * project file is never read past the budget, whatever its size.
 */
#include "render/runtimes.h"
#include "base/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CODEX_MAX_BYTES_DEFAULT 32768u
#define CODEX_SEPARATOR "\n\n--- project-doc ---\n\n"

static const char *const codex_names[] = {"AGENTS.override.md", "AGENTS.md"};
static const char *const codex_markers_default[] = {".git"};

/* ---- text: Rust's char::is_whitespace over valid UTF-8 ------------------- */

/* [*a, *b) of s[0..n) without leading and trailing White_Space. */
static void rust_trim(const char *str, size_t n, size_t *a, size_t *b)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;
	while (i < n && (k = clawmd_space_at(str, i, n, false)))
		i += k;
	size_t e = n;
	while (e > i) {
		size_t st = e - 1;
		while (st > i && (s[st] & 0xc0) == 0x80)
			st--;
		if (clawmd_space_at(str, st, e, false) != e - st)
			break;
		e = st;
	}
	*a = i;
	*b = e;
}

/* ---- files -------------------------------------------------------------- */

static void push_file(struct clawmd_memory *out, enum clawmd_mem_type type, const char *path,
		      const char *text, size_t len, size_t size)
{
	clawmd_xgrow(&out->files, &out->capfiles, out->nfiles + 1, sizeof(out->files[0]));
	struct clawmd_mem_file *f = &out->files[out->nfiles++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->path = clawmd_xstrdup(path);
	f->content = clawmd_xmalloc(len + 1);
	memcpy(f->content, text, len);
	f->content[len] = '\0';
	f->len = len;
	f->size = size;
}

/*
 * Resolve `dir`/`name` (symlinks followed, in the view); true with *nd set
 * when it is a regular file.  A directory, a FIFO, a dangling link or a
 * missing name is false: Codex goes on to the next name.
 */
static bool regular_at(struct clawmd_load_view *v, const char *dir, const char *name,
		       struct clawmd_view_node *nd, char **path)
{
	if (++v->files > CLAWMD_LOAD_FILES_MAX)
		return false; /* past the bound: skipped as missing */
	char *p = clawmd_path_resolve(dir, name);
	if (clawmd_view_resolve(nd, &v->v, p, true) < 0) {
		free(p);
		return false;
	}
	if (!S_ISREG(nd->st.st_mode)) {
		clawmd_view_node_release(nd);
		free(p);
		return false;
	}
	*path = p;
	return true;
}

/* The global file: the first of AGENTS.override.md, AGENTS.md in `dir`
 * that is a regular file whose text is not blank; pushed trimmed. */
static void load_global(struct clawmd_memory *out, struct clawmd_load_view *v, const char *dir)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(codex_names); i++) {
		struct clawmd_view_node nd;
		char *path;
		if (!regular_at(v, dir, codex_names[i], &nd, &path))
			continue;
		struct clawmd_buf raw = CLAWMD_BUF_INIT;
		clawmd_buf_put(&raw, "", 0);
		/* a file over the loader's bound is skipped unread */
		int rc = clawmd_load_read(v, &nd, &raw);
		clawmd_view_node_release(&nd);
		size_t size = raw.len, a, b;
		if (rc == 0) {
			clawmd_utf8_sanitize(&raw);
			rust_trim(raw.ptr, raw.len, &a, &b);
			if (a < b) {
				push_file(out, CLAWMD_MEM_USER, path, raw.ptr + a, b - a, size);
				clawmd_buf_release(&raw);
				free(path);
				return;
			}
		}
		clawmd_buf_release(&raw);
		free(path);
	}
}

/* The user's AGENTS.md: in --codex-home, else in HOME/.codex. */
static void codex_user(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		       struct clawmd_load_view *v)
{
	char *dir;
	if (o->codex_home && o->codex_home[0] != '/' && !v->v.m) {
		/* on the host, relative to the process, as --home */
		char *here = getcwd(NULL, 0);
		dir = clawmd_path_resolve(here ? here : "/", o->codex_home);
		free(here);
	} else if (o->codex_home) {
		dir = clawmd_path_norm(o->codex_home);
	} else {
		dir = clawmd_path_resolve(o->home, ".codex");
	}
	load_global(out, v, dir);
	free(dir);
}

/* The directories from the cwd up to the project root (the cwd alone when
 * no marker is found), the cwd first. */
static char **codex_dirs(size_t *n, const struct clawmd_memory_opts *o,
			 struct clawmd_load_view *v, const char *cwd)
{
	const char *const *markers = codex_markers_default;
	size_t nmarkers = CLAWMD_ARRAY_SIZE(codex_markers_default);
	if (o->codex_markers_set) {
		markers = o->codex_markers;
		nmarkers = o->ncodex_markers;
	}
	char *root = clawmd_load_find_up(v, cwd, markers, nmarkers, true, true);
	if (!root)
		root = clawmd_xstrdup(cwd);
	char **dirs = NULL;
	size_t ndirs = 0, capdirs = 0;
	for (char *d = clawmd_xstrdup(cwd);;) {
		clawmd_xgrow(&dirs, &capdirs, ndirs + 1, sizeof(char *));
		dirs[ndirs++] = d;
		if (!strcmp(d, root) || !strcmp(d, "/"))
			break;
		d = clawmd_path_dir(d);
	}
	free(root);
	*n = ndirs;
	return dirs;
}

/* The project file of one directory, the first name found, as much of it
 * as `*budget` leaves; what is sent spends the budget. */
static void codex_project_file(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			       struct clawmd_load_view *v, const char *dir, size_t *budget)
{
	struct clawmd_view_node nd;
	char *path = NULL;
	bool found = false;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(codex_names) && !found; i++)
		found = regular_at(v, dir, codex_names[i], &nd, &path);
	for (size_t i = 0; i < o->ncodex_fallback && !found; i++)
		found = regular_at(v, dir, o->codex_fallback[i], &nd, &path);
	if (!found)
		return;
	/* Only the chosen file counts: a blank one leaves the directory
	 * out, it does not fall back to the next name. */
	struct clawmd_buf raw = CLAWMD_BUF_INIT;
	clawmd_buf_put(&raw, "", 0);
	int rc = clawmd_load_read_head(v, &nd, &raw, *budget);
	clawmd_view_node_release(&nd);
	size_t size = raw.len, a, b;
	if (rc == 0) {
		clawmd_utf8_sanitize(&raw);
		rust_trim(raw.ptr, raw.len, &a, &b);
		if (a < b) {
			/* sent untrimmed; only what is sent spends the budget */
			push_file(out, CLAWMD_MEM_PROJECT, path, raw.ptr, raw.len, size);
			*budget -= size;
		}
	}
	clawmd_buf_release(&raw);
	free(path);
}

int clawmd_codex_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		      struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	if (!o->no_user && (o->codex_home || o->home))
		codex_user(out, o, v);
	size_t budget = o->codex_max_bytes_set ? o->codex_max_bytes : CODEX_MAX_BYTES_DEFAULT;
	if (o->no_project || budget == 0)
		return 0;
	/* From the root down to the cwd. */
	size_t ndirs;
	char **dirs = codex_dirs(&ndirs, o, v, out->cwd);
	for (size_t k = ndirs; k-- > 0 && budget > 0;)
		codex_project_file(out, o, v, dirs[k], &budget);
	clawmd_strv_free(dirs, ndirs);
	return 0;
}

void clawmd_codex_text(struct clawmd_buf *out, const struct clawmd_memory *m,
		       const struct clawmd_memory_opts *o)
{
	(void)o;
	bool global = false, project = false;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (f->type == CLAWMD_MEM_USER) {
			global = true;
		} else {
			if (project)
				clawmd_buf_put(out, "\n\n", 2);
			else if (global)
				clawmd_buf_put(out, CODEX_SEPARATOR, strlen(CODEX_SEPARATOR));
			project = true;
		}
		/* the content may hold NUL bytes: put it by length */
		clawmd_buf_put(out, f->content, f->len);
	}
}
