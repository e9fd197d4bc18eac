/*
 * caliban.c - what caliban puts before its system prompt: the memory prefix
 * of its crate caliban-memory (caliban-ai/caliban f33a2d05), as measured
 * on its real code (doc/runtimes.md, "caliban and chimera"; the rules side
 * by side in seed-loaders.md beside DESIGN.md):
 *
 *   1. the global file, XDG_CONFIG_HOME/caliban/CLAUDE.md (HOME/.config
 *      here), first 256 KiB, comments stripped, its @ lines not followed;
 *   2. the walk: from the working directory as given up to the first
 *      directory holding .git (that one included) or /, in each
 *      .caliban.md, CLAUDE.md, AGENTS.md that are regular files after
 *      links (one inode once, the narrowest kept), sent broad to narrow under
 *      the path walked; each read up to 256 KiB, decoded lossily, its
 *      @ lines spliced (splice() below), then its comments stripped;
 *   3. the startup rules: HOME/.config/caliban/rules/NAME.md and the working
 *      directory's .caliban/rules/NAME.md without paths:, sorted by name
 *      (README.md skipped), frontmatter removed, @ lines spliced;
 *   4. the prefix: <global-claude-md>, then one <project-claude-md> block
 *      holding a nested block per walked file and rule, cut to 32,000
 *      tokens (characters / 4) with its own marker (splice_budget()).
 *
 * Its comment stripper copies each byte as a character, so every byte
 * past ASCII comes out as two (U+0080..U+00FF): walked text once, an
 * import at depth d d+1 times.  Imports outside the directory of the
 * broadest walked file (and outside HOME/.config/caliban) are denied:
 * the binary never asks (CALIBAN_APPROVE_IMPORTS=1, --approve-external,
 * allows them all).  Every file is read through the load's view (load.h).
 */
#include "render/runtimes.h"
#include "runtime/imports.h" /* its @ lines */
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define CALIBAN_FILE_MAX (256u * 1024)	   /* MAX_FILE_BYTES: walked, global */
#define CALIBAN_IMPORT_MAX (64u * 1024)	   /* IMPORT_MAX_BYTES: one import */
#define CALIBAN_IMPORT_BUDGET (256u * 1024) /* IMPORT_TOTAL_BUDGET: all imports */
#define CALIBAN_DEPTH 5			   /* MAX_IMPORT_DEPTH */
#define CALIBAN_TOKENS 32000		   /* DEFAULT_BUDGET_TOKENS */
#define CALIBAN_MARKER_RESERVE 128	   /* MARKER_RESERVE_BYTES */

static const char *const caliban_names[] = {".caliban.md", "CLAUDE.md", "AGENTS.md"};

struct cal {
	struct clawmd_memory *m;
	struct clawmd_load_view *v;
	const char *home;	 /* NULL: ~ cannot be expanded */
	char *root, *root_real;	 /* the approval root, as walked and real */
	char *cfg, *cfg_real;	 /* HOME/.config/caliban */
	bool approve;		 /* CALIBAN_APPROVE_IMPORTS=1 */
	char **loaded;		 /* real paths, the whole project tier */
	size_t nloaded, caploaded;
	char **stack;		 /* the chain of importers */
	size_t nstack, capstack;
	int depth;
	size_t emitted;		 /* bytes of imports spliced so far */
};

/* ---- text --------------------------------------------------------------- */

/*
 * strip_html_comments: every <!-- ... --> removed, an unterminated one
 * and the rest of the text with it; every other byte pushed as the
 * character of its value, so a byte past ASCII becomes two.
 */
static void strip_comments(struct clawmd_buf *out, const char *s, size_t n)
{
	clawmd_buf_put(out, "", 0);
	for (size_t i = 0; i < n;) {
		if (i + 3 < n && !memcmp(s + i, "<!--", 4)) {
			const char *end = NULL;
			for (size_t k = i + 4; k + 3 <= n && !end; k++)
				if (!memcmp(s + k, "-->", 3))
					end = s + k;
			if (!end)
				break;
			i = (size_t)(end - s) + 3;
			continue;
		}
		unsigned char b = (unsigned char)s[i++];
		if (b < 0x80) {
			clawmd_buf_putc(out, (char)b);
		} else {
			clawmd_buf_putc(out, (char)(0xc0 | (b >> 6)));
			clawmd_buf_putc(out, (char)(0x80 | (b & 0x3f)));
		}
	}
}

/* Characters of valid UTF-8 (estimate_tokens counts chars / 4). */
static size_t chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* ---- files -------------------------------------------------------------- */

static struct clawmd_mem_file *push(struct clawmd_memory *out, enum clawmd_mem_type type,
				    const char *path, const char *parent, const char *source,
				    const char *text, size_t len, size_t size, int depth)
{
	clawmd_xgrow(&out->files, &out->capfiles, out->nfiles + 1, sizeof(out->files[0]));
	struct clawmd_mem_file *f = &out->files[out->nfiles++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->path = clawmd_xstrdup(path);
	f->parent = parent ? clawmd_xstrdup(parent) : NULL;
	f->source = source;
	f->content = clawmd_xmalloc(len + 1);
	memcpy(f->content, text, len);
	f->content[len] = '\0';
	f->len = len;
	f->size = size;
	f->depth = depth;
	return f;
}

static void note_import(struct clawmd_memory *out, const char *from, const char *raw,
			const char *path, enum clawmd_import_status st)
{
	clawmd_xgrow(&out->imports, &out->capimports, out->nimports + 1, sizeof(out->imports[0]));
	out->imports[out->nimports++] = (struct clawmd_mem_import){
		clawmd_xstrdup(from), clawmd_xstrdup(raw), clawmd_xstrdup(path), st};
}

/* The regular file at `p` (links followed): its size in *size and, when
 * it is at most `max` bytes or `head`, its first `max` bytes decoded as
 * Rust's from_utf8_lossy does (*utf8, when asked: they were valid UTF-8).
 * 0, 1 when it is larger (not read, unless `head`), -1 when there is no
 * regular file. */
static int read_text(struct clawmd_load_view *v, const char *p, size_t max, bool head,
		     struct clawmd_buf *out, size_t *size, bool *utf8)
{
	struct clawmd_view_node nd;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (++v->files > CLAWMD_LOAD_FILES_MAX || clawmd_view_resolve(&nd, &v->v, p, true) < 0)
		return -1;
	int rc = -1;
	if (S_ISREG(nd.st.st_mode)) {
		*size = (size_t)nd.st.st_size;
		if (*size > max && !head)
			rc = 1;
		else
			rc = clawmd_load_read_head(v, &nd, out, max) == 0 ? 0 : -1;
	}
	clawmd_view_node_release(&nd);
	if (rc == 0 && utf8) {
		char *copy = clawmd_xstrndup(out->ptr, out->len);
		size_t len = out->len;
		clawmd_utf8_sanitize(out);
		*utf8 = out->len == len && !memcmp(copy, out->ptr, len);
		free(copy);
	} else if (rc == 0) {
		clawmd_utf8_sanitize(out);
	}
	return rc;
}

/* canonical_or: the real path, else the path with . and .. taken lexically. */
static char *canonical(struct cal *c, const char *p)
{
	char *r = clawmd_load_realpath(c->v, p);
	return r ? r : clawmd_path_norm(p);
}

static bool has(char *const *v, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], p))
			return true;
	return false;
}

static void add(char ***v, size_t *n, size_t *cap, const char *p)
{
	clawmd_xgrow(v, cap, *n + 1, sizeof(char *));
	(*v)[(*n)++] = clawmd_xstrdup(p);
}

/* needs_approval: outside the walk's root and caliban's config directory,
 * by real path or by the path as resolved. */
static bool external(const struct cal *c, const char *real)
{
	if (clawmd_path_under(real, c->root_real) || clawmd_path_under(real, c->root))
		return false;
	if (c->cfg && (clawmd_path_under(real, c->cfg_real) || clawmd_path_under(real, c->cfg)))
		return false;
	return true;
}

/* resolve_relative: ~/ and ~ from HOME, absolute as is, else beside the
 * importer's path; NULL when ~ has no HOME. */
static char *resolve(const struct cal *c, const char *tok, const char *importer)
{
	if (!strncmp(tok, "~/", 2) || !strcmp(tok, "~"))
		return c->home ? clawmd_path_resolve(c->home, tok[1] ? tok + 2 : ".") : NULL;
	if (tok[0] == '/')
		return clawmd_path_norm(tok);
	char *dir = clawmd_path_dir(importer);
	char *p = clawmd_path_resolve(dir, tok);
	free(dir);
	return p;
}

/* ---- the splice --------------------------------------------------------- */

static void splice(struct cal *c, struct clawmd_buf *out, const char *body, size_t len,
		   const char *importer);

static void failure(struct clawmd_buf *out, const char *ln, size_t l, const char *tok,
		    const char *why, bool keep)
{
	clawmd_buf_printf(out, "[@-import skipped (%s): %s]\n", why, tok);
	if (keep) {
		clawmd_buf_put(out, ln, l);
		clawmd_buf_putc(out, '\n');
	}
}

/* One @ line of `importer`: the file spliced in, or caliban's marker. */
static void import_line(struct cal *c, struct clawmd_buf *out, const char *ln, size_t l,
			const char *tok, const char *importer)
{
	if (!strncmp(tok, "http://", 7) || !strncmp(tok, "https://", 8)) {
		failure(out, ln, l, tok, "unsupported-scheme", true);
		note_import(c->m, importer, tok, tok, CLAWMD_IMPORT_NOT_FOLLOWED);
		return;
	}
	char *p = resolve(c, tok, importer);
	if (!p) {
		failure(out, ln, l, tok, "invalid-path", true);
		note_import(c->m, importer, tok, tok, CLAWMD_IMPORT_MISSING);
		return;
	}
	char *real = canonical(c, p);
	free(p);
	struct clawmd_buf raw = CLAWMD_BUF_INIT;
	size_t size = 0;
	int rc;
	enum clawmd_import_status st = CLAWMD_IMPORT_LOADED;
	if (c->depth >= CALIBAN_DEPTH) {
		failure(out, ln, l, tok, "depth-cap", false);
		st = CLAWMD_IMPORT_TOO_DEEP;
	} else if (has(c->stack, c->nstack, real)) {
		failure(out, ln, l, tok, "cycle", false);
		st = CLAWMD_IMPORT_CYCLE;
	} else if (has(c->loaded, c->nloaded, real)) {
		clawmd_buf_printf(out, "[@-import already loaded: %s]\n", tok);
		st = CLAWMD_IMPORT_DUPLICATE;
	} else if (external(c, real) && !c->approve) {
		failure(out, ln, l, tok, "denied", false);
		st = CLAWMD_IMPORT_EXTERNAL;
	} else if ((rc = read_text(c->v, real, CALIBAN_IMPORT_MAX, false, &raw, &size, NULL)) < 0) {
		failure(out, ln, l, tok, "not-found", false);
		st = CLAWMD_IMPORT_MISSING;
	} else if (rc > 0) {
		clawmd_buf_printf(out, "[@-import skipped (too-large (%zu bytes)): %s]\n", size, tok);
		st = CLAWMD_IMPORT_TOO_LARGE;
	} else if (c->emitted + raw.len > CALIBAN_IMPORT_BUDGET) {
		failure(out, ln, l, tok, "tier-budget-exceeded", false);
		st = CLAWMD_IMPORT_TOO_LARGE;
	}
	note_import(c->m, importer, tok, real, st);
	if (st == CLAWMD_IMPORT_LOADED) {
		c->emitted += raw.len;
		add(&c->loaded, &c->nloaded, &c->caploaded, real);
		add(&c->stack, &c->nstack, &c->capstack, real);
		c->depth++;
		size_t at = c->m->nfiles; /* the file before its own imports */
		push(c->m, CLAWMD_MEM_PROJECT, real, importer, "import", "", 0, size, c->depth);
		struct clawmd_buf sub = CLAWMD_BUF_INIT, stripped = CLAWMD_BUF_INIT;
		clawmd_buf_put(&sub, "", 0);
		splice(c, &sub, raw.ptr, raw.len, real);
		strip_comments(&stripped, sub.ptr, sub.len);
		c->depth--;
		free(c->stack[--c->nstack]);
		struct clawmd_mem_file *f = &c->m->files[at];
		free(f->content);
		f->len = stripped.len;
		f->content = clawmd_xstrndup(stripped.ptr, stripped.len);
		clawmd_buf_printf(out, "<!-- imported from %s (depth=%d) -->\n", real, c->depth + 1);
		clawmd_buf_put(out, stripped.ptr, stripped.len);
		if (!stripped.len || stripped.ptr[stripped.len - 1] != '\n')
			clawmd_buf_putc(out, '\n');
		clawmd_buf_printf(out, "<!-- end %s -->\n", real);
		clawmd_buf_release(&sub);
		clawmd_buf_release(&stripped);
	}
	clawmd_buf_release(&raw);
	free(real);
}

/* resolve_imports_inner: line by line (Rust's lines(): a \r before each
 * \n dropped), each line kept with a \n, each @ line replaced. */
static void splice(struct cal *c, struct clawmd_buf *out, const char *body, size_t len,
		   const char *importer)
{
	for (size_t i = 0; i < len;) {
		const char *ln = body + i, *nl = memchr(ln, '\n', len - i);
		size_t l = nl ? (size_t)(nl - ln) : len - i;
		i += l + (nl != NULL);
		if (nl && l && ln[l - 1] == '\r')
			l--;
		size_t a, b;
		if (!clawmd_caliban_directive(ln, l, &a, &b)) {
			clawmd_buf_put(out, ln, l);
			clawmd_buf_putc(out, '\n');
			continue;
		}
		char *tok = clawmd_xstrndup(ln + a, b - a);
		import_line(c, out, ln, l, tok, importer);
		free(tok);
	}
}

/* resolve_imports for a walked file or a rule, then its comments stripped:
 * its own real path is on the chain and loaded while it is spliced. */
static void body_of(struct cal *c, struct clawmd_buf *out, const char *text, size_t len,
		    const char *path)
{
	char *real = canonical(c, path);
	bool pushed = !has(c->stack, c->nstack, real);
	if (pushed) {
		add(&c->stack, &c->nstack, &c->capstack, real);
		if (!has(c->loaded, c->nloaded, real))
			add(&c->loaded, &c->nloaded, &c->caploaded, real);
	}
	struct clawmd_buf spliced = CLAWMD_BUF_INIT;
	clawmd_buf_put(&spliced, "", 0);
	splice(c, &spliced, text, len, path);
	if (pushed)
		free(c->stack[--c->nstack]);
	strip_comments(out, spliced.ptr, spliced.len);
	clawmd_buf_release(&spliced);
	free(real);
}

/* ---- the walk and the rules --------------------------------------------- */

/* A top-level part: pushed first, its imports after it. */
static void take(struct cal *c, const char *path, const char *source, const char *text,
		 size_t len, size_t size)
{
	size_t at = c->m->nfiles;
	push(c->m, CLAWMD_MEM_PROJECT, path, NULL, source, "", 0, size, 0);
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	body_of(c, &b, text, len, path);
	struct clawmd_mem_file *f = &c->m->files[at];
	free(f->content);
	f->len = b.len;
	f->content = clawmd_buf_detach(&b);
}

/* walk_ancestors: the directories from `cwd` up to the first holding .git
 * or /, each one's files; broad to narrow, an inode once (the narrowest). */
static char **walk(struct cal *c, const char *cwd, size_t *n)
{
	char **found = NULL; /* narrow to broad, each directory's in name order */
	size_t nfound = 0, capfound = 0, ndirs = 0;
	size_t *start = NULL, capstart = 0; /* where each directory's begin */
	struct {
		dev_t dev;
		ino_t ino;
	} *seen = NULL;
	size_t nseen = 0, capseen = 0;
	for (char *dir = clawmd_xstrdup(cwd);;) {
		clawmd_xgrow(&start, &capstart, ndirs + 2, sizeof(size_t));
		start[ndirs++] = nfound;
		for (size_t k = 0; k < CLAWMD_ARRAY_SIZE(caliban_names); k++) {
			char *p = clawmd_path_resolve(dir, caliban_names[k]);
			struct clawmd_view_node nd;
			if (++c->v->files > CLAWMD_LOAD_FILES_MAX ||
			    clawmd_view_resolve(&nd, &c->v->v, p, true) < 0) {
				free(p);
				continue;
			}
			bool reg = S_ISREG(nd.st.st_mode), dup = false;
			for (size_t s = 0; reg && s < nseen && !dup; s++)
				dup = seen[s].dev == nd.st.st_dev && seen[s].ino == nd.st.st_ino;
			if (reg && !dup) {
				clawmd_xgrow(&seen, &capseen, nseen + 1, sizeof(seen[0]));
				seen[nseen].dev = nd.st.st_dev;
				seen[nseen++].ino = nd.st.st_ino;
				clawmd_xgrow(&found, &capfound, nfound + 1, sizeof(char *));
				found[nfound++] = p;
				p = NULL;
			}
			clawmd_view_node_release(&nd);
			free(p);
		}
		char *git = clawmd_path_resolve(dir, ".git");
		bool stop = !strcmp(dir, "/") || (++c->v->files <= CLAWMD_LOAD_FILES_MAX &&
						  clawmd_load_kind(c->v, git) != 0);
		free(git);
		if (stop) {
			free(dir);
			break;
		}
		char *up = clawmd_path_dir(dir);
		free(dir);
		dir = up;
	}
	start[ndirs] = nfound;
	/* broad to narrow, each directory's own order kept */
	char **out = clawmd_xcalloc(nfound + 1, sizeof(char *));
	size_t o = 0;
	for (size_t d = ndirs; d-- > 0;)
		for (size_t k = start[d]; k < start[d + 1]; k++)
			out[o++] = found[k];
	free(found);
	free(start);
	free(seen);
	*n = o;
	return out;
}

struct rule {
	char *name, *path, *body;
	size_t len, size, order;
};

static int rule_cmp(const void *x, const void *y)
{
	const struct rule *a = x, *b = y;
	int r = strcmp(a->name, b->name);
	return r ? r : (a->order > b->order) - (a->order < b->order);
}

/* A YAML scalar as written: quotes of a plain one-line scalar removed. */
static char *scalar(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (e - s >= 2 && (*s == '"' || *s == '\'') && e[-1] == *s)
		s++, e--;
	return clawmd_xstrndup(s, (size_t)(e - s));
}

/*
 * The rule's frontmatter, of the keys caliban reads: name (a scalar) and
 * paths (a list).  false: the rule is skipped as malformed (no closing
 * ---, or paths given as anything but a list); *scoped: it has paths and
 * waits for a matching file, so it is not loaded at startup.
 */
static bool frontmatter(const char *yaml, size_t n, char **name, bool *scoped)
{
	*scoped = false;
	for (size_t i = 0; i < n;) {
		const char *ln = yaml + i, *nl = memchr(ln, '\n', n - i);
		size_t l = nl ? (size_t)(nl - ln) : n - i;
		i += l + (nl != NULL);
		const char *colon = memchr(ln, ':', l);
		if (!colon || ln[0] == ' ' || ln[0] == '\t' || ln[0] == '-' || ln[0] == '#')
			continue;
		size_t kl = (size_t)(colon - ln);
		char *val = scalar(colon + 1, ln + l);
		if (kl == 4 && !memcmp(ln, "name", 4) && val[0]) {
			free(*name);
			*name = val;
			continue;
		}
		if (kl == 5 && !memcmp(ln, "paths", 5)) {
			if (val[0] == '[') {
				/* a flow list: scoped unless empty */
				const char *q = val + 1;
				while (*q == ' ')
					q++;
				*scoped = *q != ']';
			} else if (val[0] && strcmp(val, "null") && strcmp(val, "~")) {
				free(val);
				return false; /* a string where a list is wanted */
			} else {
				/* a block list follows when the next line is "- ..." */
				const char *nx = yaml + i;
				while (nx < yaml + n && (*nx == ' ' || *nx == '\t'))
					nx++;
				*scoped = nx < yaml + n && *nx == '-';
			}
		}
		free(val);
	}
	return true;
}

/* scan_dir: DIR's *.md regular files (links followed) but README.md,
 * in readdir order; each read as UTF-8 (else skipped) and split. */
static void scan_rules(struct cal *c, const char *dir, struct rule **rv, size_t *n, size_t *cap)
{
	size_t nn;
	dev_t dev;
	ino_t ino;
	char **names = clawmd_load_list(c->v, dir, false, &nn, &dev, &ino);
	for (size_t i = 0; names && i < nn; i++) {
		const char *nm = names[i], *dot = strrchr(nm, '.');
		if (!dot || dot == nm || strcmp(dot, ".md") || (dot - nm == 6 && !strncasecmp(nm, "README", 6)))
			continue;
		char *p = clawmd_path_resolve(dir, nm);
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		size_t size = 0;
		bool utf8 = false;
		/* read_to_string: a file not UTF-8 is an error, the rule skipped */
		if (read_text(c->v, p, CLAWMD_LOAD_FILE_MAX, false, &t, &size, &utf8) != 0 || !utf8) {
			clawmd_buf_release(&t);
			free(p);
			continue;
		}
		const char *s = t.ptr, *e = t.ptr + t.len;
		char *name = clawmd_xstrndup(nm, (size_t)(dot - nm));
		bool ok = true, scoped = false;
		while (e - s >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
			s += 3;
		if ((size_t)(e - s) >= 4 && !memcmp(s, "---\n", 4)) {
			const char *y = s + 4, *close = NULL, *body = e;
			for (const char *q = y; q + 5 <= e && !close; q++)
				if (!memcmp(q, "\n---\n", 5))
					close = q, body = q + 5;
			if (!close) {
				/* a last "\n---" followed by white space only */
				for (const char *q = e - 4; q >= y && !close; q--)
					if (!memcmp(q, "\n---", 4)) {
						const char *w = q + 4;
						while (w < e && (*w == ' ' || (*w >= '\t' && *w <= '\r')))
							w++;
						if (w == e)
							close = q, body = e;
						else
							break;
					}
			}
			ok = close && frontmatter(y, (size_t)(close - y), &name, &scoped);
			s = body;
		}
		if (ok && !scoped) {
			clawmd_xgrow(rv, cap, *n + 1, sizeof(**rv));
			(*rv)[*n] = (struct rule){name, p, clawmd_xstrndup(s, (size_t)(e - s)),
						  (size_t)(e - s), size, *n};
			(*n)++;
			name = NULL;
			p = NULL;
		}
		free(name);
		free(p);
		clawmd_buf_release(&t);
	}
	clawmd_strv_free(names, names ? nn : 0);
}

/* scan_caliban_rules: the user's rules and the working directory's,
 * sorted by name (ties in the order read); only those without paths:. */
static void load_rules(struct cal *c, const char *cwd)
{
	struct rule *rv = NULL;
	size_t n = 0, cap = 0;
	if (c->cfg) {
		char *d = clawmd_path_resolve(c->cfg, "rules");
		scan_rules(c, d, &rv, &n, &cap);
		free(d);
	}
	char *d = clawmd_path_resolve(cwd, ".caliban/rules");
	scan_rules(c, d, &rv, &n, &cap);
	free(d);
	if (n)
		qsort(rv, n, sizeof(rv[0]), rule_cmp);
	for (size_t i = 0; i < n; i++) {
		take(c, rv[i].path, "rule", rv[i].body, rv[i].len, rv[i].size);
		free(rv[i].name);
		free(rv[i].path);
		free(rv[i].body);
	}
	free(rv);
}

/* read_optional: the global file, its first 256 KiB, comments stripped. */
static void load_global(struct cal *c)
{
	char *p = clawmd_path_resolve(c->cfg, "CLAUDE.md");
	struct clawmd_buf t = CLAWMD_BUF_INIT, b = CLAWMD_BUF_INIT;
	size_t size = 0;
	if (read_text(c->v, p, CALIBAN_FILE_MAX, true, &t, &size, NULL) == 0) {
		strip_comments(&b, t.ptr, t.len);
		push(c->m, CLAWMD_MEM_USER, p, NULL, "global", b.ptr, b.len, size, 0);
	}
	clawmd_buf_release(&t);
	clawmd_buf_release(&b);
	free(p);
}

int clawmd_caliban_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	struct cal c = {.m = out, .v = v, .home = o->home, .approve = o->approve_external};
	if (o->home) {
		c.cfg = clawmd_path_resolve(o->home, ".config/caliban");
		c.cfg_real = canonical(&c, c.cfg);
		load_global(&c);
	}
	/* the working directory as given (std::env::current_dir: on the
	 * host, the kernel's, which is the real path) */
	char *cwd = o->cwd && o->cwd[0] == '/' ? clawmd_path_norm(o->cwd) : clawmd_xstrdup(out->cwd);
	size_t n;
	char **walked = walk(&c, cwd, &n);
	/* the approval root: the directory of the broadest file walked */
	c.root = n ? clawmd_path_dir(walked[0]) : clawmd_xstrdup(cwd);
	c.root_real = canonical(&c, c.root);
	for (size_t i = 0; i < n; i++) {
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		size_t size = 0;
		if (read_text(v, walked[i], CALIBAN_FILE_MAX, true, &t, &size, NULL) == 0)
			take(&c, walked[i], "walk", t.ptr, t.len, size);
		clawmd_buf_release(&t);
	}
	clawmd_strv_free(walked, n);
	load_rules(&c, cwd);
	free(cwd);
	struct clawmd_buf s = CLAWMD_BUF_INIT;
	if (!clawmd_caliban_prefix(&s, out))
		out->failed = clawmd_xstrdup("caliban panics cutting its memory to its budget: the cut "
					     "falls inside a character");
	clawmd_buf_release(&s);
	clawmd_strv_free(c.loaded, c.nloaded);
	clawmd_strv_free(c.stack, c.nstack);
	free(c.root);
	free(c.root_real);
	free(c.cfg);
	free(c.cfg_real);
	return 0;
}

/* ---- the prefix --------------------------------------------------------- */

struct tier {
	const char *path; /* NULL: none */
	struct clawmd_buf body;
	size_t tokens;
};

/*
 * truncate_tier: a tier over `allowance` tokens is cut at the last newline
 * before allowance * 4 - 128 bytes, and its marker added; false where
 * caliban panics (the byte it slices at is inside a character).
 */
static bool cut(struct tier *t, size_t allowance)
{
	if (!t->path || t->tokens <= allowance)
		return true;
	size_t target = allowance > SIZE_MAX / 4 ? SIZE_MAX : allowance * 4;
	target = target > CALIBAN_MARKER_RESERVE ? target - CALIBAN_MARKER_RESERVE : 0;
	if (target >= t->body.len)
		return true;
	if (((unsigned char)t->body.ptr[target] & 0xc0) == 0x80)
		return false;
	size_t at = target;
	while (at > 0 && t->body.ptr[at - 1] != '\n')
		at--;
	if (!at)
		at = target; /* no newline before it: cut right there */
	size_t shed = t->body.len - at;
	t->body.len = at;
	clawmd_buf_printf(&t->body,
			  "\n[truncated: %zu bytes over budget; raise CALIBAN_MEMORY_BUDGET_TOKENS or "
			  "trim]\n", shed);
	t->tokens = chars(t->body.ptr, t->body.len) / 4;
	return true;
}

static void put_block(struct clawmd_buf *out, const char *tag, const struct tier *t)
{
	if (!t->path)
		return;
	clawmd_buf_printf(out, "<%s path=\"%s\">\n", tag, t->path);
	clawmd_buf_put(out, t->body.ptr, t->body.len);
	if (!t->body.len || t->body.ptr[t->body.len - 1] != '\n')
		clawmd_buf_putc(out, '\n');
	clawmd_buf_printf(out, "</%s>\n\n", tag);
}

bool clawmd_caliban_prefix(struct clawmd_buf *out, const struct clawmd_memory *m)
{
	struct tier global = {NULL, CLAWMD_BUF_INIT, 0}, p = {NULL, CLAWMD_BUF_INIT, 0};
	clawmd_buf_put(&global.body, "", 0);
	clawmd_buf_put(&p.body, "", 0);
	/* to_legacy_tier: each walked file, then each rule, in a block of
	 * its own; the tier's tokens are the sum of each file's */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < m->nfiles; i++) {
			const struct clawmd_mem_file *f = &m->files[i];
			if (f->type == CLAWMD_MEM_USER && !pass) {
				global.path = f->path;
				clawmd_buf_put(&global.body, f->content, f->len);
				global.tokens = chars(f->content, f->len) / 4;
				continue;
			}
			bool rule = f->source && !strcmp(f->source, "rule");
			if (f->type == CLAWMD_MEM_USER || f->depth || rule != (pass == 1))
				continue;
			if (!p.path)
				p.path = f->path;
			clawmd_buf_printf(&p.body, "<project-%s path=\"%s\" source=\"%s\">\n",
					  rule ? "rule" : "claude-md", f->path, rule ? "rule" : "walk");
			clawmd_buf_put(&p.body, f->content, f->len);
			if (p.body.ptr[p.body.len - 1] != '\n')
				clawmd_buf_putc(&p.body, '\n');
			clawmd_buf_printf(&p.body, "</project-%s>\n\n", rule ? "rule" : "claude-md");
			p.tokens += chars(f->content, f->len) / 4;
		}
	/* enforce_budget: the project tier cut first, then the global one */
	bool ok = true;
	if (global.tokens + p.tokens > CALIBAN_TOKENS)
		ok = cut(&p, CALIBAN_TOKENS - (global.tokens < CALIBAN_TOKENS ? global.tokens : CALIBAN_TOKENS));
	if (ok && global.tokens + p.tokens > CALIBAN_TOKENS)
		ok = cut(&global, CALIBAN_TOKENS - (p.tokens < CALIBAN_TOKENS ? p.tokens : CALIBAN_TOKENS));
	if (ok) {
		put_block(out, "global-claude-md", &global);
		put_block(out, "project-claude-md", &p);
	}
	clawmd_buf_release(&global.body);
	clawmd_buf_release(&p.body);
	return ok;
}

void clawmd_caliban_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o)
{
	(void)o;
	if (!m->failed)
		clawmd_caliban_prefix(out, m);
}
