/*
 * gemini.c - what Gemini CLI loads as instructions at startup, as measured
 * by real runs of @google/gemini-cli 0.61.0 (doc/runtime-gemini.md; the
 * section numbers below are that page's).
 *
 * 1. The names: context.fileName's names in order, then GEMINI.md unless
 *    listed (§2.1).
 * 2. The global files: HOME/.gemini/NAME for each name, in name order (§2.2).
 * 3. The project files: from the working directory up to the nearest
 *    ancestor holding a `.git` (of any kind), or the working directory
 *    alone when there is none; every name in each directory; one file per
 *    inode; sorted by path string (§2.3).
 * 4. Each file's text, its @-imports expanded inline (§3), then trimmed;
 *    an empty result loads nothing.
 * The text is "--- Context from: PATH ---" blocks joined by a blank line,
 * the global ones first (§4).  Every path is read through the load's view:
 * only regular files are opened, within the load's bounds.
 */
#include "render/runtimes.h"
#include "runtime/imports.h" /* its import syntax (§3.1, §3.2) */
#include "base/util.h"
#include "claude/mdscan.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GEMINI_DEFAULT_NAME "GEMINI.md"
#define GEMINI_DIR ".gemini"
#define GEMINI_MAX_DEPTH 5 /* the file a 5th import in a chain reaches stays as written (§3.7) */
#define GEMINI_LINKS 40	   /* symlinks the import gate follows by hand */

struct gload {
	struct clawmd_memory *out;
	struct clawmd_load_view *v;
	size_t capfiles, capimports;
	size_t attempts;      /* imports tried in this load (bounded: §5) */
};

/* ---- names and paths ---------------------------------------------------- */

/* The names loaded, in order (§2.1): the configured ones, then GEMINI.md. */
static char **names_list(const struct clawmd_memory_opts *o, size_t *n)
{
	char **v = clawmd_xcalloc(o->ngemini_names + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i <= o->ngemini_names; i++) {
		const char *name = i < o->ngemini_names ? o->gemini_names[i] : GEMINI_DEFAULT_NAME;
		bool dup = false;
		for (size_t j = 0; j < k; j++)
			dup |= !strcmp(v[j], name);
		if (!dup)
			v[k++] = clawmd_xstrdup(name);
	}
	*n = k;
	return v;
}

/* Something is at p, links followed (fs.access). */
static bool exists(struct gload *L, const char *p)
{
	return clawmd_view_kind(&L->v->v, p) != 0;
}

/*
 * The import gate's realpath (§3.3): the realpath when the path resolves;
 * else a dangling link is followed by hand, and a missing name is joined
 * to its parent's realpath.  NULL when it cannot be resolved (a loop, or
 * an existing name that does not resolve).  Iterative: an import path of a
 * million components costs no stack.
 */
static char *gate_realpath(struct gload *L, const char *p)
{
	char *cur = clawmd_xstrdup(p), *rest = NULL, *r = NULL;
	int links = 0;
	for (;;) {
		r = clawmd_load_realpath(L->v, cur);
		if (r)
			break;
		struct stat st;
		if (clawmd_view_lexists(&L->v->v, cur, &st)) {
			char *target;
			if (!S_ISLNK(st.st_mode) || ++links > GEMINI_LINKS ||
			    clawmd_view_readlink(&L->v->v, cur, &target) < 0)
				break;
			char *dir = clawmd_path_dir(cur);
			free(cur);
			cur = clawmd_path_resolve(dir, target);
			free(dir);
			free(target);
			continue;
		}
		char *parent = clawmd_path_dir(cur);
		if (!strcmp(parent, cur)) {
			free(parent);
			r = clawmd_xstrdup(cur);
			break;
		}
		const char *base = strrchr(cur, '/') + 1;
		char *more = rest ? clawmd_xasprintf("%s/%s", base, rest) : clawmd_xstrdup(base);
		free(rest);
		rest = more;
		free(cur);
		cur = parent;
	}
	if (r && rest) {
		char *j = clawmd_path_resolve(r, rest);
		free(r);
		r = j;
	}
	free(rest);
	free(cur);
	return r;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* decodeURIComponent, or a copy of s when it would throw (a malformed
 * escape, or escapes that are not UTF-8); NULL when it decodes to a NUL
 * (the gate refuses such a path). */
static char *uri_decode(const char *s)
{
	if (!strchr(s, '%'))
		return clawmd_xstrdup(s);
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	for (size_t i = 0; s[i];) {
		if (s[i] != '%') {
			clawmd_buf_putc(&b, s[i++]);
			continue;
		}
		int h = hexval(s[i + 1]), l = h >= 0 ? hexval(s[i + 2]) : -1;
		if (h < 0 || l < 0)
			goto bad;
		if (h == 0 && l == 0) {
			clawmd_buf_release(&b);
			return NULL;
		}
		clawmd_buf_putc(&b, (char)(h * 16 + l));
		i += 3;
	}
	struct clawmd_buf chk = CLAWMD_BUF_INIT;
	clawmd_buf_put(&chk, b.ptr, b.len);
	clawmd_utf8_sanitize(&chk);
	bool valid = chk.len == b.len && !memcmp(chk.ptr, b.ptr, b.len);
	clawmd_buf_release(&chk);
	if (valid)
		return clawmd_buf_detach(&b);
bad:
	clawmd_buf_release(&b);
	return clawmd_xstrdup(s);
}

/* ---- import processing (§3) --------------------------------------------- */

struct chain {
	const char *path;
	const struct chain *up;
};

static void note_import(struct gload *L, const char *from, const char *raw, const char *path,
			enum clawmd_import_status st)
{
	struct clawmd_memory *m = L->out;
	if (m->nimports >= 2 * CLAWMD_LOAD_FILES_MAX)
		return; /* bounded, as the imports tried */
	clawmd_xgrow(&m->imports, &L->capimports, m->nimports + 1, sizeof(*m->imports));
	m->imports[m->nimports++] = (struct clawmd_mem_import){
		clawmd_xstrdup(from), clawmd_xstrdup(raw), clawmd_xstrdup(path), st};
}

/*
 * Read the regular file at `path` (links followed) into `out` as Node
 * decodes it; -errno: -ENOENT/-ENOTDIR nothing there, -EISDIR a directory,
 * -ENODEV not a regular file (never opened), -EFBIG past a bound.
 */
static int read_text(struct gload *L, const char *path, struct clawmd_buf *out)
{
	if (++L->v->files > CLAWMD_LOAD_FILES_MAX)
		return -EFBIG;
	struct clawmd_view_node nd;
	int rc = clawmd_view_resolve(&nd, &L->v->v, path, true);
	if (rc < 0)
		return rc == -ENOTDIR || rc == -ENAMETOOLONG ? rc : -ENOENT;
	clawmd_buf_put(out, "", 0);
	rc = clawmd_load_read(L->v, &nd, out);
	clawmd_view_node_release(&nd);
	if (rc < 0)
		return rc == -EISDIR || rc == -EFBIG ? rc : -ENODEV;
	clawmd_utf8_sanitize(out);
	return 0;
}

static void process(struct gload *L, struct clawmd_buf *out, const char *text, size_t len,
		    const char *from, const char *base, const char *root_real,
		    const struct chain *chain, int depth);

/* One import `raw` of file `from` (in directory `base`), its replacement
 * appended to `out`. */
static void import_one(struct gload *L, struct clawmd_buf *out, const char *raw, const char *from,
		       const char *base, const char *root_real, const struct chain *chain,
		       int depth)
{
	char *full = clawmd_path_resolve(base, raw);
	if (strlen(full) >= PATH_MAX) {
		/* too long to resolve (§3.4, case gemini-long): the gate is
		 * judged on the path as written, then the CLI's access() fails */
		if (root_real && clawmd_path_under(full, root_real))
			clawmd_buf_printf(out, "<!-- Import failed: %s - ENAMETOOLONG: name too long, "
					       "access '%s' -->", raw, full);
		else
			clawmd_buf_printf(out, "<!-- Import failed: %s - Path traversal attempt -->", raw);
		note_import(L, from, raw, full, CLAWMD_IMPORT_MISSING);
		free(full);
		return;
	}
	/* §3.3: the gate, on realpaths; URLs never pass */
	bool pass = false;
	if (strncmp(raw, "file://", 7) && strncmp(raw, "http://", 7) && strncmp(raw, "https://", 8) &&
	    root_real) {
		char *dec = uri_decode(full);
		char *norm = dec ? clawmd_path_norm(dec) : NULL;
		char *real = norm ? gate_realpath(L, norm) : NULL;
		pass = real && clawmd_path_under(real, root_real);
		free(real);
		free(norm);
		free(dec);
	}
	if (!pass) {
		clawmd_buf_printf(out, "<!-- Import failed: %s - Path traversal attempt -->", raw);
		note_import(L, from, raw, full, CLAWMD_IMPORT_EXTERNAL);
		free(full);
		return;
	}
	for (const struct chain *c = chain; c; c = c->up)
		if (!strcmp(c->path, full)) {
			clawmd_buf_printf(out, "<!-- File already processed: %s -->", raw);
			note_import(L, from, raw, full, CLAWMD_IMPORT_CYCLE);
			free(full);
			return;
		}
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	int rc = read_text(L, full, &text);
	if (rc < 0) {
		/* §3.4: Node's messages; what render cannot read says so */
		clawmd_buf_printf(out, "<!-- Import failed: %s - ", raw);
		if (rc == -ENOENT)
			clawmd_buf_printf(out, "ENOENT: no such file or directory, access '%s'", full);
		else if (rc == -ENOTDIR)
			clawmd_buf_printf(out, "ENOTDIR: not a directory, access '%s'", full);
		else if (rc == -ENAMETOOLONG)
			clawmd_buf_printf(out, "ENAMETOOLONG: name too long, access '%s'", full);
		else if (rc == -EISDIR)
			clawmd_buf_puts(out, "EISDIR: illegal operation on a directory, read");
		else if (rc == -EFBIG)
			clawmd_buf_puts(out, "clawmd render: over its read bounds, not read");
		else
			clawmd_buf_puts(out, "clawmd render: not a regular file, not read");
		clawmd_buf_puts(out, " -->");
		note_import(L, from, raw, full, CLAWMD_IMPORT_MISSING);
		clawmd_buf_release(&text);
		free(full);
		return;
	}
	note_import(L, from, raw, full, CLAWMD_IMPORT_LOADED);
	struct chain link = {full, chain};
	char *dir = clawmd_path_dir(full);
	clawmd_buf_printf(out, "<!-- Imported from: %s -->\n", raw);
	process(L, out, text.ptr, text.len, full, dir, root_real, &link, depth + 1);
	clawmd_buf_printf(out, "\n<!-- End of import from: %s -->", raw);
	free(dir);
	clawmd_buf_release(&text);
	free(full);
}

/* Append `text` with its imports expanded (§3): `base` is the directory
 * its relative imports start from, `root_real` the realpath they must stay
 * under (NULL: none passes), `chain` the files being expanded above it. */
static void process(struct gload *L, struct clawmd_buf *out, const char *text, size_t len,
		    const char *from, const char *base, const char *root_real,
		    const struct chain *chain, int depth)
{
	struct clawmd_gemini_regions rg;
	clawmd_gemini_code_regions(&rg, text, len);
	size_t pos = 0, last = 0, cur = 0, a, e;
	while (clawmd_gemini_next_import(text, len, &pos, &a, &e)) {
		char *raw = clawmd_xstrndup(text + a + 1, e - a - 1);
		if (clawmd_gemini_in_code(&rg, &cur, a)) {
			char *full = clawmd_path_resolve(base, raw);
			note_import(L, from, raw, full, CLAWMD_IMPORT_INSIDE_CODE);
			free(full);
		} else if (depth >= GEMINI_MAX_DEPTH) {
			/* §3.7: left as written, never read */
			char *full = clawmd_path_resolve(base, raw);
			note_import(L, from, raw, full, CLAWMD_IMPORT_TOO_DEEP);
			free(full);
		} else if (L->attempts >= CLAWMD_LOAD_FILES_MAX) {
			/* render's bound, not the CLI's: the rest stay as written
			 * and unlisted, so a file of a million "@a" costs a
			 * bounded time, memory and output (§5) */
		} else {
			L->attempts++;
			clawmd_buf_put(out, text + last, a - last);
			last = e;
			import_one(L, out, raw, from, base, root_real, chain, depth);
		}
		free(raw);
	}
	clawmd_buf_put(out, text + last, len - last);
	free(rg.r);
}

/* ---- files (§2) --------------------------------------------------------- */

static void add_file(struct gload *L, const char *path, enum clawmd_mem_type type)
{
	struct clawmd_buf raw = CLAWMD_BUF_INIT;
	if (read_text(L, path, &raw) < 0) {
		clawmd_buf_release(&raw);
		return;
	}
	char *dir = clawmd_path_dir(path);
	char *root = clawmd_load_find_up(L->v, dir, (const char *const[]){".git"}, 1, true, false);
	char *root_real = gate_realpath(L, root ? root : dir);
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	clawmd_buf_put(&t, "", 0);
	process(L, &t, raw.ptr, raw.len, path, dir, root_real, NULL, 0);
	size_t a, b;
	clawmd_js_trim(t.ptr, t.len, &a, &b);
	if (a < b) {
		struct clawmd_memory *m = L->out;
		clawmd_xgrow(&m->files, &L->capfiles, m->nfiles + 1, sizeof(*m->files));
		struct clawmd_mem_file *f = &m->files[m->nfiles++];
		memset(f, 0, sizeof(*f));
		f->type = type;
		f->path = clawmd_xstrdup(path);
		f->size = raw.len;
		f->len = t.len;
		f->content = clawmd_buf_detach(&t);
	}
	clawmd_buf_release(&t);
	clawmd_buf_release(&raw);
	free(root_real);
	free(root);
	free(dir);
}

/* The device and inode of what p leads to (links followed); false: none. */
static bool identity(struct gload *L, const char *p, dev_t *dev, ino_t *ino)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, &L->v->v, p, true) < 0)
		return false;
	*dev = nd.st.st_dev;
	*ino = nd.st.st_ino;
	clawmd_view_node_release(&nd);
	return true;
}

struct idset {
	dev_t *dev;
	ino_t *ino;
	size_t n, capd, capi;
};

/* Whether the inode at p was seen; it is added when not. */
static bool seen(struct gload *L, struct idset *s, const char *p)
{
	dev_t d;
	ino_t i;
	if (!identity(L, p, &d, &i))
		return false;
	for (size_t k = 0; k < s->n; k++)
		if (s->dev[k] == d && s->ino[k] == i)
			return true;
	clawmd_xgrow(&s->dev, &s->capd, s->n + 1, sizeof(dev_t));
	clawmd_xgrow(&s->ino, &s->capi, s->n + 1, sizeof(ino_t));
	s->dev[s->n] = d;
	s->ino[s->n] = i;
	s->n++;
	return false;
}

int clawmd_gemini_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		       struct clawmd_load_view *v, struct clawmd_err *err)
{
	for (size_t i = 0; i < o->ngemini_names; i++) {
		const char *nm = o->gemini_names[i];
		if (!nm[0] || strchr(nm, '/') || !strcmp(nm, ".") || !strcmp(nm, ".."))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "gemini context file name '%s': a file name, without '/'",
					      nm);
	}
	struct gload L = {out, v, 0, 0, 0};
	v->v.budget = &v->steps;
	size_t nnames;
	char **names = names_list(o, &nnames);
	char *gdir = o->home ? clawmd_path_resolve(o->home, GEMINI_DIR) : NULL;
	struct idset ids = {0};

	/* §2.2: the global files, in name order */
	for (size_t i = 0; gdir && i < nnames; i++) {
		char *p = clawmd_path_resolve(gdir, names[i]);
		if (exists(&L, p) && !seen(&L, &ids, p))
			add_file(&L, p, CLAWMD_MEM_USER);
		free(p);
	}

	/* §2.3: the project files, from the ceiling down, sorted by path */
	char *ceiling = clawmd_load_find_up(L.v, out->cwd, (const char *const[]){".git"}, 1, true, false);
	size_t np = 0, cap = 0;
	char **paths = NULL;
	char *d = clawmd_xstrdup(out->cwd);
	for (;;) {
		if (gdir && !strcmp(d, gdir))
			break; /* the walk never enters HOME/.gemini */
		{
			/* each directory's names go before the deeper ones */
			for (size_t i = nnames; i-- > 0;) {
				char *p = clawmd_path_resolve(d, names[i]);
				if (exists(&L, p)) {
					clawmd_xgrow(&paths, &cap, np + 1, sizeof(char *));
					memmove(paths + 1, paths, np * sizeof(char *));
					paths[0] = p;
					np++;
				} else {
					free(p);
				}
			}
		}
		char *up = clawmd_path_dir(d);
		bool stop = !strcmp(d, ceiling ? ceiling : out->cwd) || !strcmp(up, d);
		free(d);
		d = up;
		if (stop)
			break;
	}
	free(d);
	/* one file per inode, the first met (global files first) */
	size_t keep = 0;
	for (size_t i = 0; i < np; i++) {
		if (seen(&L, &ids, paths[i]))
			free(paths[i]);
		else
			paths[keep++] = paths[i];
	}
	np = keep;
	if (np)
		qsort(paths, np, sizeof(char *), clawmd_strcmp_ptr);
	for (size_t i = 0; i < np; i++)
		add_file(&L, paths[i], CLAWMD_MEM_PROJECT);

	clawmd_strv_free(paths, np);
	free(ids.dev);
	free(ids.ino);
	free(ceiling);
	free(gdir);
	clawmd_strv_free(names, nnames);
	return 0;
}

void clawmd_gemini_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			const struct clawmd_memory_opts *o)
{
	(void)o;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		size_t a, b;
		clawmd_js_trim(f->content, f->len, &a, &b);
		if (a >= b)
			continue;
		clawmd_buf_printf(out, "%s--- Context from: %s ---\n", out->len ? "\n\n" : "", f->path);
		clawmd_buf_put(out, f->content + a, b - a);
		clawmd_buf_printf(out, "\n--- End of Context from: %s ---", f->path);
	}
}
