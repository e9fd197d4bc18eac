/*
 * opencode.c - what OpenCode sends as instructions, as measured against its
 * real CLI (doc/runtime-opencode.md; opencode-ai 1.18.33).
 *
 * The files, in the order of the string:
 *  1. one global file: the first of ~/.config/opencode/AGENTS.md and
 *     ~/.claude/CLAUDE.md that exists (the second unless the Claude Code
 *     fallback is off);
 *  2. the project files: the walk from the working directory up to the git
 *     root (the nearest ancestor holding .git), or up to / without one,
 *     looks for AGENTS.md, then CLAUDE.md (unless off), then CONTEXT.md: the
 *     first name found in any directory of the walk is the one loaded, from
 *     every directory that has it, nearest first;
 *  3. the `instructions` patterns of its config, in order: an absolute one
 *     (or ~/...) globbed in its directory, a relative one in every
 *     directory of the same walk, nearest first (glob order: below).
 * A path already in the list is not added again.  Each file is sent whole,
 * decoded as UTF-8, as "Instructions from: PATH\n" CONTENT; an empty file
 * sends nothing; the parts are joined with "\n".  No @ import is followed,
 * and no size limit applies (a 5 MiB file is sent whole): render's bound
 * is the load's (CLAWMD_LOAD_BYTES_MAX).
 *
 * Every path is reached through the one resolver (load.h): with a mount
 * table, as the container sees it.  Only regular files are read; a file
 * over the load's bounds is skipped.
 */
#include "render/runtimes.h"
#include "base/util.h"
#include "base/strset.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define GLOB_DEPTH_MAX 32 /* directory levels a "**" descends */

struct oc {
	struct clawmd_memory *m;
	const struct clawmd_memory_opts *o;
	struct clawmd_load_view *v;
	const char *stop; /* the walk's last directory: the git root, or "/" */
	struct clawmd_strset seen; /* the paths of m->files */
};

/*
 * OpenCode's test for a name on the walk and in the global directory: it
 * exists, links followed (a dangling symlink does not count; a directory
 * or a FIFO does, and then sends nothing).
 */
static bool exists(struct oc *L, const char *path)
{
	if (++L->v->files > CLAWMD_LOAD_FILES_MAX)
		return false;
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, &L->v->v, path, true) < 0)
		return false;
	clawmd_view_node_release(&nd);
	return true;
}

/* Add `path` (shown as is) with its content; a non-regular file, an
 * unreadable one or one past the bounds is listed with no content (it
 * sends nothing, as an empty file). */
static void add(struct oc *L, const char *path, enum clawmd_mem_type type)
{
	if (clawmd_strset_has(&L->seen, path))
		return;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	struct clawmd_view_node nd;
	size_t size = 0;
	clawmd_buf_put(&b, "", 0);
	if (clawmd_view_resolve(&nd, &L->v->v, path, true) == 0) {
		if (S_ISREG(nd.st.st_mode) && L->v->bytes < CLAWMD_LOAD_BYTES_MAX) {
			size_t max = CLAWMD_LOAD_BYTES_MAX - L->v->bytes;
			int rc = clawmd_view_read_node(&nd, &b, max);
			L->v->bytes += b.len;
			size = b.len;
			if (rc < 0)
				clawmd_buf_clear(&b);
		}
		clawmd_view_node_release(&nd);
	}
	/* decoded as UTF-8 (each ill-formed sequence a U+FFFD), one leading
	 * byte order mark dropped */
	clawmd_utf8_sanitize(&b);
	if (b.len >= 3 && !memcmp(b.ptr, "\xef\xbb\xbf", 3)) {
		memmove(b.ptr, b.ptr + 3, b.len - 3);
		b.len -= 3;
		b.ptr[b.len] = '\0';
	}
	struct clawmd_memory *m = L->m;
	clawmd_xgrow(&m->files, &m->capfiles, m->nfiles + 1, sizeof(*m->files));
	struct clawmd_mem_file *f = &m->files[m->nfiles++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->path = clawmd_xstrdup(path);
	f->len = b.len;
	f->size = size;
	f->content = clawmd_buf_detach(&b);
	clawmd_strset_add(&L->seen, f->path);
}

/* The directories of the walk, the working directory first. */
static char **walk(const struct oc *L, size_t *n)
{
	char **dirs = NULL;
	size_t cap = 0;
	*n = 0;
	char *d = clawmd_xstrdup(L->m->cwd);
	for (;;) {
		clawmd_xgrow(&dirs, &cap, *n + 1, sizeof(*dirs));
		dirs[(*n)++] = d;
		if (!strcmp(d, L->stop) || !strcmp(d, "/"))
			break;
		d = clawmd_path_dir(d);
	}
	return dirs;
}

static void global(struct oc *L)
{
	if (!L->o->home)
		return;
	char *p = clawmd_path_resolve(L->o->home, ".config/opencode/AGENTS.md");
	if (!exists(L, p) && !L->o->opencode_no_claude) {
		free(p);
		p = clawmd_path_resolve(L->o->home, ".claude/CLAUDE.md");
		if (!exists(L, p)) {
			free(p);
			return;
		}
	} else if (!exists(L, p)) {
		free(p);
		return;
	}
	add(L, p, CLAWMD_MEM_USER);
	free(p);
}

static void project(struct oc *L, char **dirs, size_t ndirs)
{
	static const char *const names[] = {"AGENTS.md", "CLAUDE.md", "CONTEXT.md"};
	for (size_t k = 0; k < CLAWMD_ARRAY_SIZE(names); k++) {
		if (k == 1 && L->o->opencode_no_claude)
			continue;
		bool any = false;
		for (size_t i = 0; i < ndirs; i++) {
			char *p = clawmd_path_resolve(dirs[i], names[k]);
			if (exists(L, p)) {
				any = true;
				add(L, p, CLAWMD_MEM_PROJECT);
			}
			free(p);
		}
		if (any)
			return;
	}
}

/* ---- instructions globs ------------------------------------------------- */

static bool has_magic(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '{')
			return true;
	return false;
}

/*
 * OpenCode globs with the npm glob package (nodir; dot files matched for a
 * relative pattern, not for an absolute one), whose walk gives the matches
 * of one directory in the reverse of readdir(3) order, and goes on level by
 * level: the files of a directory first, then its subdirectories, each in
 * reverse readdir order, queued.  Measured: doc/runtime-opencode.md.  A
 * pattern with a wildcard above its last component has no stable order in
 * OpenCode (it varies from run to run); render's is that walk's.
 */
struct gitem {
	char *dir;
	const char *pat; /* into the caller's pattern */
	int depth;
};

struct gwalk {
	struct oc *L;
	bool dot;
	struct gitem *q;
	size_t head, n, cap;
	char **out;
	size_t nout, capout;
};

static void gpush(struct gwalk *w, const char *dir, const char *pat, int depth)
{
	if (depth > GLOB_DEPTH_MAX)
		return;
	clawmd_xgrow(&w->q, &w->cap, w->n + 1, sizeof(*w->q));
	w->q[w->n++] = (struct gitem){clawmd_xstrdup(dir), pat, depth};
}

static bool seg_match(const struct gwalk *w, const char *seg, const char *name)
{
	if (name[0] == '.' && !w->dot && seg[0] != '.')
		return false;
	return fnmatch(seg, name, 0) == 0;
}

/* One queued directory: files matching a last segment are emitted now,
 * directories matching an inner segment are queued. */
static void gstep(struct gwalk *w, const char *dir, const char *pat, int depth)
{
	while (*pat == '/')
		pat++;
	if (!*pat)
		return;
	size_t sl = strcspn(pat, "/");
	const char *rest = pat + sl;
	while (*rest == '/')
		rest++;
	if (sl == 2 && !strncmp(pat, "**", 2)) {
		gstep(w, dir, rest, depth);
		size_t n;
		dev_t dev;
		ino_t ino;
		char **names = clawmd_load_list(w->L->v, dir, false, &n, &dev, &ino);
		for (size_t i = names ? n : 0; i-- > 0;) {
			if (names[i][0] == '.' && !w->dot)
				continue;
			char *sub = clawmd_path_resolve(dir, names[i]);
			bool isdir = false;
			/* a symlinked directory is not followed (follow: false) */
			if (clawmd_load_lexists(w->L->v, sub, &isdir) && isdir)
				gpush(w, sub, pat, depth + 1);
			free(sub);
		}
		clawmd_strv_free(names, names ? n : 0);
		return;
	}
	char *seg = clawmd_xstrndup(pat, sl);
	size_t n = 1;
	char **names = NULL;
	if (has_magic(seg, sl)) {
		dev_t dev;
		ino_t ino;
		names = clawmd_load_list(w->L->v, dir, false, &n, &dev, &ino);
		if (!names)
			n = 0;
	}
	for (size_t i = n; i-- > 0;) {
		const char *name = names ? names[i] : seg;
		if (names && !seg_match(w, seg, name))
			continue;
		char *sub = clawmd_path_resolve(dir, name);
		char kind = clawmd_load_kind(w->L->v, sub);
		if (!*rest && kind == 'f') {
			clawmd_xgrow(&w->out, &w->capout, w->nout + 1, sizeof(*w->out));
			w->out[w->nout++] = sub;
			continue;
		}
		if (*rest && kind == 'd')
			gpush(w, sub, rest, depth + 1);
		free(sub);
	}
	clawmd_strv_free(names, names ? n : 0);
	free(seg);
}

/* The matches of `pat` below `dir`, in the walk's order, added. */
static void glob_in(struct oc *L, const char *dir, const char *pat, bool dot)
{
	struct gwalk w = {.L = L, .dot = dot};
	gpush(&w, dir, pat, 0);
	while (w.head < w.n) {
		struct gitem it = w.q[w.head++];
		gstep(&w, it.dir, it.pat, it.depth);
		free(it.dir);
	}
	free(w.q);
	for (size_t i = 0; i < w.nout; i++) {
		add(L, w.out[i], CLAWMD_MEM_PROJECT);
		free(w.out[i]);
	}
	free(w.out);
}

static void instructions(struct oc *L, char **dirs, size_t ndirs)
{
	for (size_t k = 0; k < L->o->nopencode_instructions; k++) {
		const char *raw = L->o->opencode_instructions[k];
		if (!strncmp(raw, "https://", 8) || !strncmp(raw, "http://", 7) || !*raw)
			continue; /* fetched by OpenCode: not a file render can read */
		char *abs = NULL;
		if (!strncmp(raw, "~/", 2) && L->o->home)
			abs = clawmd_path_resolve(L->o->home, raw + 2);
		else if (raw[0] == '/')
			abs = clawmd_path_norm(raw);
		if (abs) {
			/* only the last component is a pattern */
			char *dir = clawmd_path_dir(abs);
			const char *base = strrchr(abs, '/') + 1;
			glob_in(L, dir, base, false);
			free(dir);
			free(abs);
			continue;
		}
		for (size_t i = 0; i < ndirs; i++)
			glob_in(L, dirs[i], raw, true);
	}
}

int clawmd_opencode_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			 struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	struct oc L = {out, o, v, NULL, {0}};
	/* the git root: the nearest directory holding a .git (a directory or
	 * a file, not followed); "/" when none does */
	char *stop = clawmd_load_find_up(v, out->cwd, (const char *const[]){".git"}, 1, false, false);
	if (!stop)
		stop = clawmd_xstrdup("/");
	L.stop = stop;
	size_t ndirs;
	char **dirs = walk(&L, &ndirs);
	global(&L);
	project(&L, dirs, ndirs);
	instructions(&L, dirs, ndirs);
	clawmd_strv_free(dirs, ndirs);
	free(stop);
	clawmd_strset_release(&L.seen);
	return 0;
}

void clawmd_opencode_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			  const struct clawmd_memory_opts *o)
{
	(void)o;
	bool first = true;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (!f->len)
			continue;
		clawmd_buf_printf(out, "%sInstructions from: %s\n", first ? "" : "\n", f->path);
		/* the content may hold NUL bytes: put it by length */
		clawmd_buf_put(out, f->content, f->len);
		first = false;
	}
}
