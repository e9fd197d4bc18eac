/*
 * measured.c - what pi, Copilot CLI, Cursor and Qwen Code load as
 * instructions, modelled on runs of their real packages against loopback
 * mocks of their model APIs (doc/runtimes.md, "pi, Copilot CLI, Cursor and
 * Qwen Code": @earendil-works/pi-coding-agent 1.5.2 and 1.6.0, @github/copilot
 * 1.0.102, @cursor/sdk 1.0.32, @qwen-code/qwen-code 0.24.4); nanoclaw's
 * test provider "mock" loads nothing.
 *
 *  - pi: its agent directory (HOME/.pi/agent), then every directory from /
 *    down to the working directory, in each the first of
 *    AGENTS.override.md, AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD that
 *    is a regular file and reads, a leading byte order mark dropped; no
 *    import followed, no cap; a path already taken (the agent directory's
 *    file, met again on the walk) not taken twice, and in a nested linked
 *    worktree the main checkout's file of the worktree file's name
 *    skipped (pi_shadowed).
 *  - Copilot CLI: HOME/.copilot/copilot-instructions.md; from the git root
 *    (none: the working directory alone) the directories' own
 *    .github/copilot-instructions.md, then in the root, the working
 *    directory and the directories between, AGENTS.md and CLAUDE.md (each
 *    with its imports) and GEMINI.md (without), .claude/CLAUDE.md only
 *    strictly between; .github/instructions/NAME.instructions.md last.  An
 *    import is followed only when relative and its real path stays in the
 *    root; its text comes right after the kept @ line.
 *  - Cursor: from the git root (none: the working directory alone) down to
 *    the working directory: .cursorrules in the first only, then in each
 *    .cursor/rules/NAME.mdc (frontmatter stripped, trimmed), AGENTS.md, CLAUDE.md,
 *    CLAUDE.local.md, .claude/CLAUDE.md; as plain text.  What reaches the
 *    model is assembled on Cursor's servers: the text is the files' content
 *    joined by blank lines, not a prompt.  Nothing when the project
 *    setting source is off (the SDK's default).
 *  - Qwen Code: HOME/.qwen/QWEN.md and AGENTS.md, then from the directory
 *    above the git root (none: /) down to the working directory every
 *    QWEN.md, then every AGENTS.md.  ROOT/.qwen/QWEN.local.md and
 *    ROOT/.qwen/rules are read only with its security.folderTrust.enabled
 *    setting, off by default (its source; make e2e's qwen-walk): render
 *    models the default.  Imports are expanded in place (qwen_expand),
 *    confined to the root by path (symlinks not resolved), five deep.
 * Copilot's imports are found as each line's first word starting with
 * '@', outside ``` and ~~~ fences: the runs pinned no finer rule.  The
 * text each sends was checked against the real CLIs in make e2e
 * (tests/e2e/pi-*, copilot-*, qwen-*).  Every path is read through the
 * load's view (load.h).
 */
#include "render/runtimes.h"
#include "runtime/imports.h" /* Gemini CLI's, which Qwen Code shares */
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IMPORT_DEPTH 5

struct ml {
	struct clawmd_memory *m;
	struct clawmd_load_view *v;
	const char *root; /* imports stay beneath it */
	bool copilot;	  /* else Qwen's import rules */
	const char *cwd;
};

static struct clawmd_mem_file *push(struct clawmd_memory *out, enum clawmd_mem_type type,
				    const char *path, const char *parent, const char *text,
				    size_t len, size_t size)
{
	clawmd_xgrow(&out->files, &out->capfiles, out->nfiles + 1, sizeof(out->files[0]));
	struct clawmd_mem_file *f = &out->files[out->nfiles++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->path = clawmd_xstrdup(path);
	f->parent = parent ? clawmd_xstrdup(parent) : NULL;
	f->content = clawmd_xmalloc(len + 1);
	memcpy(f->content, text, len);
	f->content[len] = '\0';
	f->len = len;
	f->size = size;
	return f;
}

static void note_import(struct clawmd_memory *out, const char *from, const char *raw,
			const char *path, enum clawmd_import_status st)
{
	clawmd_xgrow(&out->imports, &out->capimports, out->nimports + 1, sizeof(out->imports[0]));
	out->imports[out->nimports++] = (struct clawmd_mem_import){
		clawmd_xstrdup(from), clawmd_xstrdup(raw), clawmd_xstrdup(path), st};
}

/* The regular file at `p` (links followed), read whole; false otherwise. */
static bool read_file(struct clawmd_load_view *v, const char *p, struct clawmd_buf *out)
{
	struct clawmd_view_node nd;
	if (++v->files > CLAWMD_LOAD_FILES_MAX || clawmd_view_resolve(&nd, &v->v, p, true) < 0)
		return false;
	bool ok = S_ISREG(nd.st.st_mode);
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (ok)
		ok = clawmd_load_read(v, &nd, out) == 0;
	clawmd_view_node_release(&nd);
	if (ok)
		clawmd_utf8_sanitize(out);
	return ok;
}

/* `p` is `dir` or beneath it. */
static bool beneath(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	if (!strcmp(dir, "/"))
		return p[0] == '/';
	return !strncmp(p, dir, n) && (p[n] == '\0' || p[n] == '/');
}

/* ---- imports (Copilot, Qwen) -------------------------------------------- */

static void expand(struct ml *ml, struct clawmd_buf *out, const char *path, const char *text,
		   size_t len, int depth);

/* [*a, *b) without ASCII white space at either end (JavaScript's trim
 * also strips Unicode spaces: a file starting with one is rare enough). */
static void js_trim(const char *s, size_t n, size_t *a, size_t *b)
{
	size_t i = 0, e = n;
	while (i < e && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	while (e > i && (s[e - 1] == ' ' || (s[e - 1] >= '\t' && s[e - 1] <= '\r')))
		e--;
	*a = i;
	*b = e;
}

/*
 * One Copilot import's target: followed (its block appended to `out`,
 * after the kept line's text: "\n\n<imported_custom_instruction
 * source=\"ABS\">\n" TEXT (white space trimmed at its end)
 * "\n</imported_custom_instruction>",
 * as the runs recorded it), or noted with why not.
 */
static void import_one(struct ml *ml, struct clawmd_buf *out, const char *from, const char *raw,
		       int depth)
{
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	char *dir = clawmd_path_dir(from);
	char *p = clawmd_path_resolve(dir, raw);
	free(dir);
	enum clawmd_import_status st = CLAWMD_IMPORT_LOADED;
	if (raw[0] == '/' || !beneath(p, ml->root)) {
		st = CLAWMD_IMPORT_EXTERNAL; /* absolute: never, even inside */
	} else {
		/* its real path must stay in the root too */
		char *real = clawmd_load_realpath(ml->v, p);
		char *rroot = clawmd_load_realpath(ml->v, ml->root);
		if (real && rroot && !beneath(real, rroot))
			st = CLAWMD_IMPORT_EXTERNAL;
		free(real);
		free(rroot);
	}
	if (st == CLAWMD_IMPORT_LOADED && depth >= IMPORT_DEPTH)
		st = CLAWMD_IMPORT_TOO_DEEP;
	if (st == CLAWMD_IMPORT_LOADED && !read_file(ml->v, p, &t))
		st = CLAWMD_IMPORT_MISSING;
	note_import(ml->m, from, raw, p, st);
	if (st == CLAWMD_IMPORT_LOADED) {
		struct clawmd_buf sub = CLAWMD_BUF_INIT;
		clawmd_buf_put(&sub, "", 0);
		expand(ml, &sub, p, t.ptr, t.len, depth + 1);
		push(ml->m, CLAWMD_MEM_PROJECT, p, from, sub.ptr, sub.len, t.len);
		size_t a, b; /* trimmed at its end only */
		js_trim(sub.ptr, sub.len, &a, &b);
		clawmd_buf_printf(out, "\n\n<imported_custom_instruction source=\"%s\">\n", p);
		clawmd_buf_put(out, sub.ptr, b);
		clawmd_buf_puts(out, "\n</imported_custom_instruction>");
		clawmd_buf_release(&sub);
	}
	clawmd_buf_release(&t);
	free(p);
}

/*
 * `text` with Copilot's import lines expanded: the line is kept and the
 * import's block comes at its end, before its newline.  An import is a
 * line whose first word starts with '@', outside ``` and ~~~ fences (the
 * runs pinned no finer rule).  A failed import leaves the line alone.
 */
static void expand(struct ml *ml, struct clawmd_buf *out, const char *path, const char *text,
		   size_t len, int depth)
{
	char fence = 0;
	for (size_t i = 0; i < len;) {
		const char *ln = text + i, *nl = memchr(ln, '\n', len - i);
		size_t l = nl ? (size_t)(nl - ln) + 1 : len - i;
		i += l;
		size_t a = 0;
		while (a < l && (ln[a] == ' ' || ln[a] == '\t'))
			a++;
		if (l - a >= 3 && (ln[a] == '`' || ln[a] == '~') && ln[a + 1] == ln[a] &&
		    ln[a + 2] == ln[a]) {
			fence = fence == ln[a] ? 0 : fence ? fence : ln[a];
			clawmd_buf_put(out, ln, l);
			continue;
		}
		size_t b = a + 1;
		while (b < l && ln[b] != ' ' && ln[b] != '\t' && ln[b] != '\n' && ln[b] != '\r')
			b++;
		if (fence || a >= l || ln[a] != '@' || b == a + 1 || ml->v->files > CLAWMD_LOAD_FILES_MAX) {
			clawmd_buf_put(out, ln, l);
			continue;
		}
		char *raw = clawmd_xstrndup(ln + a + 1, b - a - 1);
		size_t eol = nl ? l - 1 : l; /* the line without its newline */
		clawmd_buf_put(out, ln, eol);
		import_one(ml, out, path, raw, depth);
		clawmd_buf_put(out, ln + eol, l - eol);
		free(raw);
	}
}

/*
 * Qwen Code's imports (its processImports, "tree" format): each import
 * Gemini CLI's rule finds (Qwen Code forked it: '@' at the start or after
 * white space, a path starting with '.', '/' or a letter, outside backtick
 * code) is replaced in place by
 *   "<!-- Imported from: RAW -->\n" TEXT "\n<!-- End of import from: RAW -->"
 * TEXT being the file as it is, its own imports expanded unless it is
 * IMPORT_DEPTH deep; a path leaving the root (by path, links not
 * resolved) or a URL by "<!-- Import failed: RAW - Path traversal attempt
 * -->"; a file already on the chain of imports by "<!-- File already
 * processed: RAW -->"; a missing file stays "@RAW" (make e2e's qwen-walk).
 */
struct qwen_chain {
	const char *path;
	const struct qwen_chain *up;
};

struct qwen_at {
	size_t *at; /* offset, length pairs */
	size_t n, cap;
};

static int qwen_found(size_t off, size_t len, const char *path, void *payload)
{
	(void)path;
	struct qwen_at *q = payload;
	clawmd_xgrow(&q->at, &q->cap, q->n + 2, sizeof(size_t));
	q->at[q->n++] = off;
	q->at[q->n++] = len;
	return 0;
}

static void qwen_expand(struct ml *ml, struct clawmd_buf *out, const char *path, const char *text,
			size_t len, int depth, const struct qwen_chain *chain)
{
	if (depth >= IMPORT_DEPTH) {
		clawmd_buf_put(out, text, len);
		return;
	}
	struct qwen_at q = {0};
	clawmd_gemini_imports(text, len, qwen_found, &q);
	size_t last = 0;
	char *dir = clawmd_path_dir(path);
	for (size_t k = 0; k < q.n; k += 2) {
		size_t a = q.at[k], e = a + q.at[k + 1];
		clawmd_buf_put(out, text + last, a - last);
		last = e;
		char *raw = clawmd_xstrndup(text + a + 1, e - a - 1);
		char *p = clawmd_path_resolve(dir, raw);
		bool seen = false;
		for (const struct qwen_chain *c = chain; c && !seen; c = c->up)
			seen = !strcmp(c->path, p);
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		enum clawmd_import_status st = CLAWMD_IMPORT_LOADED;
		if (!strncmp(raw, "file://", 7) || !strncmp(raw, "http://", 7) ||
		    !strncmp(raw, "https://", 8) || !beneath(p, ml->root)) {
			st = CLAWMD_IMPORT_EXTERNAL;
			clawmd_buf_printf(out, "<!-- Import failed: %s - Path traversal attempt -->", raw);
		} else if (seen) {
			st = CLAWMD_IMPORT_CYCLE;
			clawmd_buf_printf(out, "<!-- File already processed: %s -->", raw);
		} else if (ml->v->files > CLAWMD_LOAD_FILES_MAX || !read_file(ml->v, p, &t)) {
			st = CLAWMD_IMPORT_MISSING;
			clawmd_buf_put(out, text + a, e - a);
		}
		note_import(ml->m, path, raw, p, st);
		if (st == CLAWMD_IMPORT_LOADED) {
			struct clawmd_buf sub = CLAWMD_BUF_INIT;
			clawmd_buf_put(&sub, "", 0);
			struct qwen_chain link = {p, chain};
			qwen_expand(ml, &sub, p, t.ptr, t.len, depth + 1, &link);
			push(ml->m, CLAWMD_MEM_PROJECT, p, path, sub.ptr, sub.len, t.len);
			clawmd_buf_printf(out, "<!-- Imported from: %s -->\n", raw);
			clawmd_buf_put(out, sub.ptr, sub.len);
			clawmd_buf_printf(out, "\n<!-- End of import from: %s -->", raw);
			clawmd_buf_release(&sub);
		}
		clawmd_buf_release(&t);
		free(p);
		free(raw);
	}
	clawmd_buf_put(out, text + last, len - last);
	free(dir);
	free(q.at);
}

/* Push the file at dir/name when it is a regular file (imports expanded
 * when `imports`); true when it was. */
static bool take(struct ml *ml, enum clawmd_mem_type type, const char *dir, const char *name,
		 bool imports)
{
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	char *p = clawmd_path_resolve(dir, name);
	bool ok = read_file(ml->v, p, &t);
	if (ok && imports) {
		struct clawmd_buf x = CLAWMD_BUF_INIT;
		clawmd_buf_put(&x, "", 0);
		size_t at = ml->m->nfiles;
		/* the file first, its imports after it in the list */
		push(ml->m, type, p, NULL, "", 0, t.len);
		if (ml->copilot)
			expand(ml, &x, p, t.ptr, t.len, 0);
		else
			qwen_expand(ml, &x, p, t.ptr, t.len, 0, NULL);
		struct clawmd_mem_file *f = &ml->m->files[at];
		free(f->content);
		f->content = clawmd_buf_detach(&x);
		f->len = strlen(f->content);
	} else if (ok) {
		push(ml->m, type, p, NULL, t.ptr, t.len, t.len);
	}
	clawmd_buf_release(&t);
	free(p);
	return ok;
}

/* The *.SUFFIX files of dir/sub, sorted bytewise. */
static void take_dir(struct ml *ml, const char *dir, const char *sub, const char *suffix,
		     bool strip_frontmatter)
{
	char *d = clawmd_path_resolve(dir, sub);
	size_t n = 0, sl = strlen(suffix);
	dev_t dev; /* the list always stores them (make e2e's qwen-walk: a crash) */
	ino_t ino;
	char **names = clawmd_load_list(ml->v, d, true, &n, &dev, &ino);
	for (size_t i = 0; names && i < n; i++) {
		size_t l = strlen(names[i]);
		if (l <= sl || strcmp(names[i] + l - sl, suffix))
			continue;
		size_t at = ml->m->nfiles;
		if (!take(ml, CLAWMD_MEM_PROJECT, d, names[i], false) || !strip_frontmatter)
			continue;
		/* .mdc: the frontmatter is not sent, and the body goes trimmed
		 * (make e2e's cursor-walk: "BODY\n" went as "BODY") */
		struct clawmd_mem_file *f = &ml->m->files[at];
		size_t from = 0;
		if (f->len >= 4 && !strncmp(f->content, "---\n", 4)) {
			char *end = strstr(f->content + 4, "\n---");
			if (end) {
				end += 4;
				end += *end == '\n';
				from = (size_t)(end - f->content);
			}
		}
		size_t a, b;
		js_trim(f->content + from, f->len - from, &a, &b);
		f->len = b - a;
		memmove(f->content, f->content + from + a, f->len);
		f->content[f->len] = '\0';
	}
	clawmd_strv_free(names, n);
	free(d);
}

/* ---- pi ----------------------------------------------------------------- */

static const char *const pi_names[] = {"AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md",
				       "CLAUDE.MD"};

/*
 * The regular file at `p` (links followed), read whole: pi has no cap, so
 * not Claude Code's 4 MiB skip of read_file (make e2e's pi-big), only the
 * load's bound on the bytes it reads; false otherwise.
 */
static bool pi_read(struct clawmd_load_view *v, const char *p, struct clawmd_buf *out)
{
	struct clawmd_view_node nd;
	if (++v->files > CLAWMD_LOAD_FILES_MAX || clawmd_view_resolve(&nd, &v->v, p, true) < 0)
		return false;
	bool ok = S_ISREG(nd.st.st_mode) && v->bytes < CLAWMD_LOAD_BYTES_MAX;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (ok) {
		ok = clawmd_view_read_node(&nd, out, CLAWMD_LOAD_BYTES_MAX - v->bytes) == 0;
		v->bytes += out->len;
	}
	clawmd_view_node_release(&nd);
	if (ok)
		clawmd_utf8_sanitize(out);
	return ok;
}

/*
 * pi's file in `dir`: the first of pi_names that is a regular file (links
 * followed) and reads, its index, its text in `t` decoded as UTF-8 with a
 * leading byte order mark dropped (pi's stripBom); -1: none.  A name there
 * as anything else, or unreadable, gives way to the next.
 */
static int pi_find(struct ml *ml, const char *dir, struct clawmd_buf *t)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(pi_names); i++) {
		char *p = clawmd_path_resolve(dir, pi_names[i]);
		bool ok = pi_read(ml->v, p, t);
		free(p);
		if (!ok)
			continue;
		if (t->len >= 3 && !memcmp(t->ptr, "\xef\xbb\xbf", 3)) {
			memmove(t->ptr, t->ptr + 3, t->len - 3 + 1);
			t->len -= 3;
		}
		return (int)i;
	}
	return -1;
}

/* p's real path, or p where it has none (pi's canonicalizePath) */
static char *pi_real(struct ml *ml, const char *p)
{
	char *r = clawmd_load_realpath(ml->v, p);
	return r ? r : clawmd_xstrdup(p);
}

/* The text of the file at p, white space trimmed at both ends (JavaScript's
 * trim); NULL when it does not read. */
static char *pi_read_trimmed(struct ml *ml, const char *p)
{
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	char *s = NULL;
	if (read_file(ml->v, p, &t)) {
		size_t a, b;
		js_trim(t.ptr, t.len, &a, &b);
		s = clawmd_xstrndup(t.ptr + a, b - a);
	}
	clawmd_buf_release(&t);
	return s;
}

/*
 * The git checkout the working directory is in, as pi finds it
 * (findGitPaths): from `cwd` up, the first .git that is a directory with
 * a HEAD (the common directory is that .git), or a file reading
 * "gitdir: DIR" whose DIR (relative to the file's directory) has a HEAD
 * (the common directory is DIR/commondir's text, relative to DIR, when
 * that file is there, else DIR).  A .git of any other kind, or a file
 * without "gitdir: ", is passed by; a HEAD missing or a .git or commondir
 * that does not read ends the search with none.  False: none.
 */
static bool pi_git(struct ml *ml, const char *cwd, char **repo, char **common)
{
	bool found = false;
	for (char *d = clawmd_xstrdup(cwd);;) {
		char *dotgit = clawmd_path_resolve(d, ".git"), *gd = NULL, *head = NULL;
		char k = clawmd_load_kind(ml->v, dotgit);
		bool stop = false;
		if (k == 'd') {
			gd = clawmd_xstrdup(dotgit);
		} else if (k == 'f') {
			char *s = pi_read_trimmed(ml, dotgit);
			stop = !s;
			if (s && !strncmp(s, "gitdir: ", 8)) {
				size_t a, b;
				js_trim(s + 8, strlen(s + 8), &a, &b);
				char *rel = clawmd_xstrndup(s + 8 + a, b - a);
				gd = clawmd_path_resolve(d, rel);
				free(rel);
			}
			free(s);
		}
		if (gd) {
			stop = true;
			head = clawmd_path_resolve(gd, "HEAD");
			if (clawmd_load_kind(ml->v, head)) {
				char *cf = clawmd_path_resolve(gd, "commondir");
				char *c = NULL;
				found = true;
				if (k == 'f' && clawmd_load_kind(ml->v, cf)) {
					char *s = pi_read_trimmed(ml, cf);
					found = s != NULL;
					if (s)
						c = clawmd_path_resolve(gd, s);
					free(s);
				}
				if (found) {
					*repo = clawmd_xstrdup(d);
					*common = c ? c : clawmd_xstrdup(gd);
				}
				free(cf);
			}
		}
		free(head);
		free(gd);
		free(dotgit);
		char *up = clawmd_path_dir(d);
		bool top = stop || !strcmp(up, d);
		free(d);
		d = up;
		if (top) {
			free(d);
			return found;
		}
	}
}

/*
 * The main checkout's file that a nested linked worktree's own shadows
 * (pi's findShadowedContextFile), or NULL: when the checkout the working
 * directory is in has its root (real path) strictly beneath MAIN, the
 * directory holding its common git directory (real path), and MAIN/.git
 * is that directory, MAIN/NAME, NAME the name of the worktree root's own
 * file.  pi then reads nothing in MAIN when the file it finds there has
 * that path: not even the next of its names.
 */
static char *pi_shadowed(struct ml *ml, const char *cwd)
{
	char *repo, *common, *shadow = NULL;
	if (!pi_git(ml, cwd, &repo, &common))
		return NULL;
	char *rc = pi_real(ml, common), *rw = pi_real(ml, repo);
	char *mainroot = clawmd_path_dir(rc);
	if (clawmd_path_under(rw, mainroot) && strcmp(rw, mainroot)) {
		char *mg = clawmd_path_resolve(mainroot, ".git");
		char *rmg = pi_real(ml, mg);
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		int i = -1;
		if (!strcmp(rmg, rc))
			i = pi_find(ml, rw, &t);
		if (i >= 0)
			shadow = clawmd_path_resolve(mainroot, pi_names[i]);
		clawmd_buf_release(&t);
		free(rmg);
		free(mg);
	}
	free(mainroot);
	free(rw);
	free(rc);
	free(repo);
	free(common);
	return shadow;
}

int clawmd_pi_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		   struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	struct ml ml = {out, v, "/", false, out->cwd};
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	char *global = NULL; /* its path: read once (pi's seenPaths) */
	if (!v->v.budget)
		v->v.budget = &v->steps;
	if (!o->no_user && o->home) {
		char *agent = clawmd_path_resolve(o->home, ".pi/agent");
		int i = pi_find(&ml, agent, &t);
		if (i >= 0) {
			global = clawmd_path_resolve(agent, pi_names[i]);
			push(out, CLAWMD_MEM_USER, global, NULL, t.ptr, t.len, t.len);
		}
		free(agent);
	}
	if (!o->no_project) {
		char *shadow = pi_shadowed(&ml, out->cwd);
		size_t n;
		char **dirs = clawmd_load_walk_down("/", out->cwd, &n);
		for (size_t k = 0; k < n; k++) {
			int i = pi_find(&ml, dirs[k], &t);
			if (i < 0)
				continue;
			char *p = clawmd_path_resolve(dirs[k], pi_names[i]);
			bool skip = global && !strcmp(p, global);
			if (!skip && shadow) {
				char *rd = pi_real(&ml, dirs[k]);
				char *rp = clawmd_path_resolve(rd, pi_names[i]);
				skip = !strcmp(rp, shadow);
				free(rp);
				free(rd);
			}
			if (!skip)
				push(out, CLAWMD_MEM_PROJECT, p, NULL, t.ptr, t.len, t.len);
			free(p);
		}
		clawmd_strv_free(dirs, n);
		free(shadow);
	}
	free(global);
	clawmd_buf_release(&t);
	return 0;
}

void clawmd_pi_text(struct clawmd_buf *out, const struct clawmd_memory *m,
		    const struct clawmd_memory_opts *o)
{
	(void)o;
	if (!m->nfiles)
		return;
	/* blocks joined by a blank line, none after the last (pi 1.5.2 and
	 * 1.6.0 in make e2e: pi-walk, pi-nanoclaw-copy) */
	clawmd_buf_puts(out, "<project_context>\nProject-specific instructions and guidelines:\n");
	for (size_t i = 0; i < m->nfiles; i++) {
		clawmd_buf_printf(out, "\n<project_instructions path=\"%s\">\n", m->files[i].path);
		clawmd_buf_put(out, m->files[i].content, m->files[i].len);
		clawmd_buf_puts(out, "\n</project_instructions>\n");
	}
	clawmd_buf_puts(out, "</project_context>");
}

/* ---- Copilot CLI -------------------------------------------------------- */

int clawmd_copilot_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	char *root = clawmd_load_find_up(v, out->cwd, (const char *const[]){".git"}, 1, true, true);
	struct ml ml = {out, v, root ? root : out->cwd, true, out->cwd};
	if (!o->no_user && o->home) {
		char *home = clawmd_path_resolve(o->home, ".copilot");
		take(&ml, CLAWMD_MEM_USER, home, "copilot-instructions.md", false);
		free(home);
	}
	if (!o->no_project) {
		size_t n;
		char **dirs = clawmd_load_walk_down(ml.root, out->cwd, &n);
		/* the root, the working directory, then those between */
		size_t order[2] = {0, n - 1};
		for (size_t k = 0; k < (n > 1 ? 2u : 1u); k++)
			take(&ml, CLAWMD_MEM_PROJECT, dirs[order[k]], ".github/copilot-instructions.md",
			     false);
		for (size_t j = 0; j < n; j++) {
			size_t k = j == 0 ? 0 : j == 1 ? n - 1 : j - 1;
			bool between = k != 0 && k != n - 1;
			take(&ml, CLAWMD_MEM_PROJECT, dirs[k], "AGENTS.md", true);
			take(&ml, CLAWMD_MEM_PROJECT, dirs[k], "CLAUDE.md", true);
			if (between)
				take(&ml, CLAWMD_MEM_PROJECT, dirs[k], ".claude/CLAUDE.md", true);
			take(&ml, CLAWMD_MEM_PROJECT, dirs[k], "GEMINI.md", false);
		}
		for (size_t k = 0; k < (n > 1 ? 2u : 1u); k++)
			take_dir(&ml, dirs[order[k]], ".github/instructions", ".instructions.md", false);
		clawmd_strv_free(dirs, n);
	}
	free(root);
	return 0;
}

void clawmd_copilot_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o)
{
	(void)o;
	bool first = true, bare = false;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (f->parent)
			continue;
		if (!first)
			clawmd_buf_puts(out, "\n\n");
		first = false;
		bare = strstr(f->path, "/.github/instructions/") != NULL;
		if (!bare)
			clawmd_buf_puts(out, "<custom_instruction>\n");
		clawmd_buf_put(out, f->content, f->len);
		if (!bare)
			clawmd_buf_puts(out, "\n</custom_instruction>");
	}
	/* the .github/instructions files, which come last, end in one more
	 * newline (make e2e's copilot-imports; one without a final newline
	 * and one ending in blank lines, by hand, the same) */
	if (bare)
		clawmd_buf_putc(out, '\n');
}

/* ---- Cursor ------------------------------------------------------------- */

int clawmd_cursor_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		       struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	/* nothing unless the project setting source is on */
	if (o->no_project)
		return 0;
	char *root = clawmd_load_find_up(v, out->cwd, (const char *const[]){".git"}, 1, true, true);
	struct ml ml = {out, v, root ? root : out->cwd, false, out->cwd};
	size_t n;
	char **dirs = clawmd_load_walk_down(ml.root, out->cwd, &n);
	take(&ml, CLAWMD_MEM_PROJECT, dirs[0], ".cursorrules", false);
	static const char *const names[] = {"AGENTS.md", "CLAUDE.md", "CLAUDE.local.md",
					    ".claude/CLAUDE.md"};
	for (size_t k = 0; k < n; k++) {
		take_dir(&ml, dirs[k], ".cursor/rules", ".mdc", true);
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(names); i++)
			take(&ml, CLAWMD_MEM_PROJECT, dirs[k], names[i], false);
	}
	clawmd_strv_free(dirs, n);
	free(root);
	return 0;
}

void clawmd_cursor_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			const struct clawmd_memory_opts *o)
{
	(void)o;
	for (size_t i = 0; i < m->nfiles; i++) {
		if (i)
			clawmd_buf_puts(out, "\n\n");
		clawmd_buf_put(out, m->files[i].content, m->files[i].len);
	}
}

/* ---- Qwen Code ---------------------------------------------------------- */

int clawmd_qwen_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		     struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	char *root = clawmd_load_find_up(v, out->cwd, (const char *const[]){".git"}, 1, true, true);
	struct ml ml = {out, v, root ? root : out->cwd, false, out->cwd};
	static const char *const names[] = {"QWEN.md", "AGENTS.md"};
	if (!o->no_user && o->home) {
		char *home = clawmd_path_resolve(o->home, ".qwen");
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(names); i++)
			take(&ml, CLAWMD_MEM_USER, home, names[i], true);
		free(home);
	}
	if (!o->no_project) {
		char *top = root ? clawmd_path_dir(root) : clawmd_xstrdup("/");
		size_t n;
		char **dirs = clawmd_load_walk_down(top, out->cwd, &n);
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(names); i++)
			for (size_t k = 0; k < n; k++)
				take(&ml, CLAWMD_MEM_PROJECT, dirs[k], names[i], true);
		clawmd_strv_free(dirs, n);
		free(top);
	}
	free(root);
	return 0;
}

/* `path` relative to the directory `from`, as Node's path.relative gives
 * it (both absolute and normal): "../" for each of from's components past
 * the common ones (Qwen names every file so, the ones above the cwd too). */
static char *relative(const char *from, const char *path)
{
	size_t c = 0; /* the common prefix, at a component boundary */
	for (size_t i = 0;; i++) {
		bool fe = from[i] == '\0' || from[i] == '/', pe = path[i] == '\0' || path[i] == '/';
		if (fe && pe)
			c = i;
		if (from[i] != path[i] || !from[i])
			break;
	}
	struct clawmd_buf r = CLAWMD_BUF_INIT;
	clawmd_buf_put(&r, "", 0);
	for (const char *q = from + c; *q; q++)
		if (*q == '/' && q[1])
			clawmd_buf_puts(&r, r.len ? "/.." : "..");
	const char *rest = path + c + (path[c] == '/');
	if (*rest) {
		if (r.len)
			clawmd_buf_putc(&r, '/');
		clawmd_buf_puts(&r, rest);
	}
	return clawmd_buf_detach(&r);
}

void clawmd_qwen_text(struct clawmd_buf *out, const struct clawmd_memory *m,
		      const struct clawmd_memory_opts *o)
{
	(void)o;
	bool first = true;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		size_t a, b;
		if (f->parent)
			continue;
		js_trim(f->content, f->len, &a, &b);
		if (a == b)
			continue;
		char *rel = relative(m->cwd, f->path);
		if (!first)
			clawmd_buf_puts(out, "\n\n");
		first = false;
		clawmd_buf_printf(out, "--- Context from: %s ---\n", rel);
		clawmd_buf_put(out, f->content + a, b - a);
		clawmd_buf_printf(out, "\n--- End of Context from: %s ---", rel);
		free(rel);
	}
}

/* ---- mock --------------------------------------------------------------- */

int clawmd_mock_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		     struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)out, (void)o, (void)v, (void)err;
	return 0;
}

void clawmd_mock_text(struct clawmd_buf *out, const struct clawmd_memory *m,
		      const struct clawmd_memory_opts *o)
{
	(void)out, (void)m, (void)o;
}
