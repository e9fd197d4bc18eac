/*
 * chimera.c - what chimera's "mink" loader sends as memory: load_memory()
 * of chimera/context/agent_memory.py (0bserver07/chimera 040a307f), as
 * measured on its real code under python3 3.11 (doc/runtimes.md, "caliban
 * and chimera"; seed-loaders.md beside DESIGN.md):
 *
 *   1. the files: from / down to the working directory's real path, in each
 *      CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md that are regular files
 *      after links, by real path, each real path once; then
 *      HOME/.claude/CLAUDE.md; then the rules of the nearest .claude/rules
 *      upward (*.md, not recursive, sorted by name), a rule with paths:
 *      only when a glob matches the working directory or a path under it;
 *   2. each file read as UTF-8 with Python's universal newlines, its
 *      <!-- ... --> comments removed (an unterminated one kept), its
 *      imports expanded (expand() below), white space trimmed at its end;
 *   3. the text: per file "<!-- source: REALPATH -->\n" TEXT "\n", joined
 *      by "\n", sent as a user message after the system messages:
 *      "<memory source=\"CLAUDE.md\">\n" TEXT "</memory>".
 *
 * A file that is not UTF-8 anywhere in that (a walked file, a rule, an
 * import) raises in Python and nothing is sent: out->failed.  Every path
 * is read through the load's view (load.h).
 */
#include "render/runtimes.h"
#include "runtime/imports.h" /* its import pattern */
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHIMERA_HOPS 5		/* resolve_imports' hops */
#define CHIMERA_RGLOB_MAX 5000	/* _rule_matches_cwd's rglob scan: entries 0..5000 */

static const char *const chimera_names[] = {"CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"};

struct chim {
	struct clawmd_memory *m;
	struct clawmd_load_view *v;
	const char *home;
	char **seen; /* one walked file's imports (resolve_imports' _seen) */
	size_t nseen, capseen;
};

static void fail(struct chim *c, const char *path)
{
	if (!c->m->failed)
		c->m->failed = clawmd_xasprintf("chimera raises UnicodeDecodeError reading '%s' (not "
						"UTF-8) and sends no memory at all", path);
}

static struct clawmd_mem_file *push(struct clawmd_memory *out, enum clawmd_mem_type type,
				    const char *path, const char *parent, const char *source,
				    int depth, size_t size)
{
	clawmd_xgrow(&out->files, &out->capfiles, out->nfiles + 1, sizeof(out->files[0]));
	struct clawmd_mem_file *f = &out->files[out->nfiles++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->path = clawmd_xstrdup(path);
	f->parent = parent ? clawmd_xstrdup(parent) : NULL;
	f->source = source;
	f->content = clawmd_xstrdup("");
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

/*
 * Path.read_text(encoding="utf-8"): the regular file at `p` (links
 * followed), with "\r\n" and "\r" as "\n".  0; -1 when it cannot be read
 * (OSError: the caller goes on); 1 when it is not UTF-8 (the load fails).
 */
static int read_py(struct chim *c, const char *p, struct clawmd_buf *out, size_t *size)
{
	struct clawmd_view_node nd;
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	if (++c->v->files > CLAWMD_LOAD_FILES_MAX || clawmd_view_resolve(&nd, &c->v->v, p, true) < 0)
		return -1;
	int rc = S_ISREG(nd.st.st_mode) && clawmd_load_read(c->v, &nd, out) == 0 ? 0 : -1;
	clawmd_view_node_release(&nd);
	if (rc < 0)
		return -1;
	*size = out->len;
	char *copy = clawmd_xstrndup(out->ptr, out->len);
	size_t len = out->len;
	clawmd_utf8_sanitize(out);
	bool utf8 = out->len == len && !memcmp(copy, out->ptr, len);
	free(copy);
	if (!utf8)
		return 1;
	size_t o = 0;
	for (size_t i = 0; i < out->len; i++) {
		if (out->ptr[i] == '\r') {
			out->ptr[o++] = '\n';
			i += i + 1 < out->len && out->ptr[i + 1] == '\n';
		} else {
			out->ptr[o++] = out->ptr[i];
		}
	}
	out->len = o;
	out->ptr[o] = '\0';
	return 0;
}

/* _HTML_COMMENT_RE.sub("", text): "<!--" to the next "-->"; unterminated
 * ones stay. */
static void strip_comments(struct clawmd_buf *out, const char *s, size_t n)
{
	clawmd_buf_put(out, "", 0);
	size_t i = 0;
	for (;;) {
		const char *a = memmem(s + i, n - i, "<!--", 4);
		const char *e = a ? memmem(a + 4, n - (size_t)(a + 4 - s), "-->", 3) : NULL;
		if (!e) {
			clawmd_buf_put(out, s + i, n - i);
			return;
		}
		clawmd_buf_put(out, s + i, (size_t)(a - s) - i);
		i = (size_t)(e - s) + 3;
	}
}

/*
 * expanduser: "~" and "~/..." from HOME; "~root..." from /root; any
 * other "~name" raises RuntimeError in Python 3.11 (no such user in the
 * container's passwd is assumed): NULL with *raises.
 */
static char *expand_user(const struct chim *c, const char *raw, bool *raises)
{
	const char *slash = strchr(raw, '/');
	size_t ul = slash ? (size_t)(slash - raw) - 1 : strlen(raw) - 1;
	const char *home = NULL;
	if (!ul)
		home = c->home;
	else if (ul == 4 && !strncmp(raw + 1, "root", 4))
		home = "/root";
	if (!home) {
		*raises = ul != 0;
		return NULL;
	}
	return slash ? clawmd_path_resolve(home, slash + 1) : clawmd_xstrdup(home);
}

static void expand(struct chim *c, struct clawmd_buf *out, const char *text, size_t len,
		   const char *file, int hops);

/* One @token's replacement, into `out`: the file expanded, "" on a second
 * visit, or the token as written. */
static void import_one(struct chim *c, struct clawmd_buf *out, const char *tok, size_t tl,
		       const char *file, int hops)
{
	/* raw.rstrip(".,;:)]}") */
	size_t rl = tl - 1;
	while (rl && strchr(".,;:)]}", tok[rl]))
		rl--;
	char *raw = clawmd_xstrndup(tok + 1, rl);
	char *target = NULL, *real = NULL;
	bool raises = false;
	if (raw[0] == '~') {
		target = expand_user(c, raw, &raises);
	} else {
		char *dir = clawmd_path_dir(file);
		target = raw[0] == '/' ? clawmd_xstrdup(raw) : clawmd_path_join(dir, raw);
		free(dir);
	}
	if (raises && !c->m->failed)
		c->m->failed = clawmd_xasprintf("chimera raises RuntimeError expanding '@%s' in '%s' "
						"(no such user) and sends no memory at all", raw, file);
	if (target)
		real = clawmd_load_realpath(c->v, target);
	struct clawmd_buf t = CLAWMD_BUF_INIT;
	size_t size = 0;
	int rc = -1;
	enum clawmd_import_status st = CLAWMD_IMPORT_MISSING;
	bool seen = false;
	for (size_t i = 0; real && i < c->nseen && !seen; i++)
		seen = !strcmp(c->seen[i], real);
	if (seen)
		st = CLAWMD_IMPORT_DUPLICATE;
	else if (real && clawmd_load_kind(c->v, real) == 'f' && (rc = read_py(c, real, &t, &size)) == 0)
		st = CLAWMD_IMPORT_LOADED;
	if (rc > 0)
		fail(c, real);
	note_import(c->m, file, raw, real ? real : target ? target : raw, st);
	if (st == CLAWMD_IMPORT_LOADED) {
		clawmd_xgrow(&c->seen, &c->capseen, c->nseen + 1, sizeof(char *));
		c->seen[c->nseen++] = clawmd_xstrdup(real);
		size_t at = c->m->nfiles;
		push(c->m, CLAWMD_MEM_PROJECT, real, file, NULL, CHIMERA_HOPS - hops + 1, size);
		struct clawmd_buf sub = CLAWMD_BUF_INIT;
		clawmd_buf_put(&sub, "", 0);
		expand(c, &sub, t.ptr, t.len, real, hops - 1);
		clawmd_buf_put(out, sub.ptr, sub.len);
		struct clawmd_mem_file *f = &c->m->files[at];
		free(f->content);
		f->len = sub.len;
		f->content = clawmd_buf_detach(&sub);
	} else if (!seen) {
		clawmd_buf_put(out, tok, tl);
	}
	clawmd_buf_release(&t);
	free(raw);
	free(target);
	free(real);
}

/*
 * resolve_imports: every match of (?:^|(?<=\s))@([~./A-Za-z0-9_\-][^\s]*)
 * replaced, left to right, the replacement not scanned again; with no
 * hops left the text as it is.
 */
static void expand(struct chim *c, struct clawmd_buf *out, const char *text, size_t len,
		   const char *file, int hops)
{
	if (hops <= 0) {
		clawmd_buf_put(out, text, len);
		return;
	}
	size_t last = 0;
	for (size_t i = 0; i < len && !c->m->failed; i++) {
		size_t e;
		if (!clawmd_chimera_import_at(text, len, i, &e))
			continue;
		clawmd_buf_put(out, text + last, i - last);
		import_one(c, out, text + i, e - i, file, hops);
		last = e;
		i = e - 1;
	}
	clawmd_buf_put(out, text + last, len - last);
}

/* ---- rules -------------------------------------------------------------- */

/* parse_frontmatter's "paths": the patterns, *n of them (none: the rule
 * always matches). */
/* The frontmatter's header: from the line after the opening "---" up to
 * the first line that is "---" once stripped, which starts at *close;
 * NULL when there is none. */
static const char *frontmatter(const char *text, size_t len, const char **close)
{
	*close = NULL;
	if (len < 3 || memcmp(text, "---", 3))
		return NULL;
	const char *first = memchr(text, '\n', len);
	if (!first)
		return NULL;
	const char *h = first + 1, *end = text + len;
	for (const char *q = h; q < end && !*close;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		const char *le = nl ? nl : end, *a = q, *b = le;
		clawmd_trim(&a, &b);
		if (b - a == 3 && !memcmp(a, "---", 3))
			*close = q;
		q = nl ? nl + 1 : end;
	}
	return *close ? h : NULL;
}

/* A block list from `q` on: "- item" lines, blank lines skipped, each
 * item into (*v, *cap, *n); returns where the list ends. */
static const char *block_list(const char *q, const char *close, char ***v, size_t *cap, size_t *n)
{
	while (q < close) {
		const char *nl2 = memchr(q, '\n', (size_t)(close - q));
		const char *le2 = nl2 ? nl2 : close, *a = q, *b = le2;
		clawmd_trim(&a, &b);
		if (a < b && !(b - a >= 2 && a[0] == '-' && a[1] == ' ') )
			break;
		if (a < b) {
			a += 2;
			clawmd_trim(&a, &b);
			if (b - a >= 2 && (*a == '"' || *a == '\'') && b[-1] == *a)
				a++, b--;
			clawmd_xgrow(v, cap, *n + 1, sizeof(char *));
			(*v)[(*n)++] = clawmd_xstrndup(a, (size_t)(b - a));
		}
		q = nl2 ? nl2 + 1 : close;
	}
	return q;
}

static char **rule_paths(const char *text, size_t len, size_t *n)
{
	const char *close, *h = frontmatter(text, len, &close);
	*n = 0;
	if (!h)
		return NULL;
	char **v = NULL;
	size_t cap = 0;
	for (const char *q = h; q < close;) {
		const char *nl = memchr(q, '\n', (size_t)(close - q));
		const char *le = nl ? nl : close;
		const char *colon = memchr(q, ':', (size_t)(le - q));
		const char *next = nl ? nl + 1 : close;
		const char *ka = q, *kb = colon;
		if (colon)
			clawmd_trim(&ka, &kb);
		if (!colon || kb - ka != 5 || memcmp(ka, "paths", 5)) {
			q = next;
			continue;
		}
		const char *va = colon + 1, *vb = le;
		clawmd_trim(&va, &vb);
		clawmd_strv_free(v, *n);
		v = NULL, cap = 0, *n = 0;
		if (va < vb && *va == '[' && vb[-1] == ']') {
			for (const char *p = va + 1; p < vb - 1;) {
				const char *comma = memchr(p, ',', (size_t)(vb - 1 - p));
				const char *ie = comma ? comma : vb - 1, *a = p, *b = ie;
				clawmd_trim(&a, &b);
				if (b - a >= 2 && (*a == '"' || *a == '\'') && b[-1] == *a)
					a++, b--;
				if (a < b) {
					clawmd_xgrow(&v, &cap, *n + 1, sizeof(char *));
					v[(*n)++] = clawmd_xstrndup(a, (size_t)(b - a));
				}
				p = comma ? comma + 1 : vb;
			}
		} else if (va == vb) {
			next = block_list(next, close, &v, &cap, n);
		} else {
			if (vb - va >= 2 && (*va == '"' || *va == '\'') && vb[-1] == *va)
				va++, vb--;
			if (va < vb) {
				clawmd_xgrow(&v, &cap, 1, sizeof(char *));
				v[(*n)++] = clawmd_xstrndup(va, (size_t)(vb - va));
			}
		}
		q = next;
	}
	return v;
}

/* The bracket expression at p (after its '['): whether it holds c, and
 * where it ends in *end (NULL: no closing ']', so '[' is literal), as
 * Python's fnmatch.translate reads it ('!' negates, a leading ']' is a
 * member, ranges a-z). */
static bool bracket(const char *p, unsigned char c, const char **end)
{
	const char *q = p;
	bool neg = *q == '!', in = false;
	q += neg;
	if (*q == ']')
		q++;
	while (*q && *q != ']')
		q++;
	if (!*q) {
		*end = NULL;
		return false;
	}
	*end = q + 1;
	for (const char *r = p + neg; r < q; r++) {
		if (r + 2 < q && r[1] == '-') {
			in |= c >= (unsigned char)r[0] && c <= (unsigned char)r[2];
			r += 2;
		} else {
			in |= c == (unsigned char)*r;
		}
	}
	return in != neg;
}

/*
 * Python's fnmatch.fnmatch on POSIX: '*' any run (a '/' too), '?' one
 * byte, [...] a set; no escapes.  In linear steps per star (the last
 * star is retried, never all of them): a rule's pattern is the agent's
 * to write, and a backtracking matcher takes exponential time on "*a*a*a...".
 * Bytes, not characters: '?' and sets over non-ASCII differ (rare).
 */
static bool wild(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;
	while (*s) {
		const char *end;
		if (*p == '*') {
			star = ++p;
			resume = s;
			continue;
		}
		if (*p == '[' && bracket(p + 1, (unsigned char)*s, &end)) {
			p = end, s++;
			continue;
		}
		if (*p && (*p == '?' || (*p == *s && !(*p == '[' && (bracket(p + 1, 0, &end), end))))) {
			p++, s++;
			continue;
		}
		if (!star)
			return false;
		p = star;
		s = ++resume;
	}
	while (*p == '*')
		p++;
	return !*p;
}

/* Path.glob(pattern) from the working directory: segments, "**" any
 * number of directories (a last "**" matching directories only), by a
 * table of (pattern, path) suffixes, not by recursion: "**" segments
 * could make that exponential. */
static bool glob_match(char **ps, size_t np, char **xs, size_t nx, bool dir)
{
	/* ok[i * (nx + 1) + j]: ps[i..] matches xs[j..] */
	bool *ok = clawmd_xcalloc((np + 1) * (nx + 1), sizeof(bool));
	ok[np * (nx + 1) + nx] = true;
	for (size_t i = np; i-- > 0;)
		for (size_t j = nx + 1; j-- > 0;) {
			bool m;
			if (!strcmp(ps[i], "**"))
				m = i + 1 == np ? dir : ok[(i + 1) * (nx + 1) + j] ||
							(j < nx && ok[i * (nx + 1) + j + 1]);
			else
				m = j < nx && wild(ps[i], xs[j]) && ok[(i + 1) * (nx + 1) + j + 1];
			ok[i * (nx + 1) + j] = m;
		}
	bool r = ok[0];
	free(ok);
	return r;
}

static char **split(const char *s, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	while (*s) {
		size_t l = strcspn(s, "/");
		if (l) {
			clawmd_xgrow(&v, &cap, *n + 1, sizeof(char *));
			v[(*n)++] = clawmd_xstrndup(s, l);
		}
		s += l + (s[l] == '/');
	}
	return v;
}

struct entry {
	char *rel;
	bool dir;
};

/* rglob("*"): every path under `cwd`, each directory's entries together
 * (readdir order), then its subdirectories', depth first. */
static void tree(struct chim *c, const char *cwd, const char *rel, struct entry **ev, size_t *n,
		 size_t *cap, int depth)
{
	char *dir = rel[0] ? clawmd_path_join(cwd, rel) : clawmd_xstrdup(cwd);
	size_t nn;
	dev_t dev;
	ino_t ino;
	char **names = depth < 32 ? clawmd_load_list(c->v, dir, false, &nn, &dev, &ino) : NULL;
	size_t first = *n;
	for (size_t i = 0; names && i < nn; i++) {
		char *r = rel[0] ? clawmd_path_join(rel, names[i]) : clawmd_xstrdup(names[i]);
		char *p = clawmd_path_join(dir, names[i]);
		clawmd_xgrow(ev, cap, *n + 1, sizeof(**ev));
		(*ev)[(*n)++] = (struct entry){r, clawmd_load_kind(c->v, p) == 'd'};
		free(p);
	}
	size_t last = *n;
	for (size_t i = first; i < last; i++)
		if ((*ev)[i].dir)
			tree(c, cwd, (*ev)[i].rel, ev, n, cap, depth + 1);
	clawmd_strv_free(names, names ? nn : 0);
	free(dir);
}

/* _rule_matches_cwd: a pattern matching the working directory, a path
 * under it (Path.glob), or within rglob's first 5001 entries a relative
 * path or a name (fnmatch, whose * crosses /). */
static bool rule_matches(struct chim *c, const char *cwd, char **pats, size_t np)
{
	if (!np)
		return true;
	struct entry *ev = NULL;
	size_t n = 0, cap = 0;
	bool listed = false, hit = false;
	for (size_t k = 0; k < np && !hit; k++) {
		if (wild(pats[k], cwd)) {
			hit = true;
			break;
		}
		if (pats[k][0] == '/') {
			/* Path.glob raises NotImplementedError: the load fails */
			if (!c->m->failed)
				c->m->failed = clawmd_xasprintf("chimera raises NotImplementedError on the "
								"absolute paths: pattern '%s' and sends "
								"no memory at all", pats[k]);
			break;
		}
		if (!listed) {
			tree(c, cwd, "", &ev, &n, &cap, 0);
			listed = true;
		}
		size_t nps;
		char **ps = split(pats[k], &nps);
		if (nps && !strcmp(ps[nps - 1], "**") && glob_match(ps, nps, NULL, 0, true))
			hit = true; /* "**" yields the directory itself */
		for (size_t i = 0; i < n && !hit; i++) {
			size_t nx;
			char **xs = split(ev[i].rel, &nx);
			hit = nps && glob_match(ps, nps, xs, nx, ev[i].dir);
			clawmd_strv_free(xs, nx);
		}
		for (size_t i = 0; i < n && i <= CHIMERA_RGLOB_MAX && !hit; i++) {
			const char *base = strrchr(ev[i].rel, '/');
			hit = wild(pats[k], ev[i].rel) || wild(pats[k], base ? base + 1 : ev[i].rel);
		}
		clawmd_strv_free(ps, nps);
	}
	for (size_t i = 0; i < n; i++)
		free(ev[i].rel);
	free(ev);
	return hit;
}

/* ---- the files ---------------------------------------------------------- */

struct found {
	char *path;
	enum clawmd_mem_type type;
	const char *source;
};

static bool listed(const struct found *fv, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fv[i].path, p))
			return true;
	return false;
}

static void add(struct found **fv, size_t *n, size_t *cap, char *p, enum clawmd_mem_type t,
		const char *source)
{
	clawmd_xgrow(fv, cap, *n + 1, sizeof(**fv));
	(*fv)[(*n)++] = (struct found){p, t, source};
}

/* The real path of dir/name when it is a regular file not listed yet. */
static char *candidate(struct chim *c, const char *dir, const char *name, const struct found *fv,
		       size_t n)
{
	if (++c->v->files > CLAWMD_LOAD_FILES_MAX)
		return NULL;
	char *p = clawmd_path_join(dir, name);
	char *real = clawmd_load_realpath(c->v, p);
	free(p);
	if (real && (clawmd_load_kind(c->v, real) != 'f' || listed(fv, n, real))) {
		free(real);
		real = NULL;
	}
	return real;
}

/* The nearest .claude/rules upward: its *.md that match, sorted. */
static void discover_rules(struct chim *c, const char *cwd, struct found **fv, size_t *n,
			   size_t *cap)
{
	for (char *dir = clawmd_xstrdup(cwd);;) {
		char *rd = clawmd_path_join(dir, ".claude/rules");
		if (clawmd_load_kind(c->v, rd) == 'd') {
			size_t nn;
			dev_t dev;
			ino_t ino;
			char **names = clawmd_load_list(c->v, rd, true, &nn, &dev, &ino);
			for (size_t i = 0; names && i < nn && !c->m->failed; i++) {
				size_t l = strlen(names[i]);
				if (l < 3 || strcmp(names[i] + l - 3, ".md"))
					continue;
				char *p = clawmd_path_join(rd, names[i]);
				char *real = clawmd_load_realpath(c->v, p);
				free(p);
				struct clawmd_buf t = CLAWMD_BUF_INIT;
				size_t size, np = 0;
				int rc = real && !listed(*fv, *n, real) ? read_py(c, real, &t, &size) : -1;
				if (rc > 0)
					fail(c, real);
				char **pats = rc == 0 ? rule_paths(t.ptr, t.len, &np) : NULL;
				if (rc == 0 && rule_matches(c, cwd, pats, np)) {
					add(fv, n, cap, real, CLAWMD_MEM_PROJECT, "rule");
					real = NULL;
				}
				clawmd_strv_free(pats, np);
				clawmd_buf_release(&t);
				free(real);
			}
			clawmd_strv_free(names, names ? nn : 0);
			free(rd);
			free(dir);
			return;
		}
		free(rd);
		if (!strcmp(dir, "/")) {
			free(dir);
			return;
		}
		char *up = clawmd_path_dir(dir);
		free(dir);
		dir = up;
	}
}

int clawmd_chimera_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			struct clawmd_load_view *v, struct clawmd_err *err)
{
	(void)err;
	if (!v->v.budget)
		v->v.budget = &v->steps;
	struct chim c = {.m = out, .v = v, .home = o->home};
	struct found *fv = NULL;
	size_t n = 0, cap = 0, ndirs;
	/* discover_memory_files: / down to the working directory */
	char **dirs = clawmd_load_walk_down("/", out->cwd, &ndirs);
	for (size_t d = 0; d < ndirs; d++)
		for (size_t k = 0; k < CLAWMD_ARRAY_SIZE(chimera_names); k++) {
			char *p = candidate(&c, dirs[d], chimera_names[k], fv, n);
			if (p)
				add(&fv, &n, &cap, p, k == 1 ? CLAWMD_MEM_LOCAL : CLAWMD_MEM_PROJECT,
				    NULL);
		}
	clawmd_strv_free(dirs, ndirs);
	if (o->home) {
		char *d = clawmd_path_join(o->home, ".claude");
		char *p = candidate(&c, d, "CLAUDE.md", fv, n);
		free(d);
		if (p)
			add(&fv, &n, &cap, p, CLAWMD_MEM_USER, NULL);
	}
	discover_rules(&c, out->cwd, &fv, &n, &cap);
	/* load_memory: each file read, stripped, expanded, trimmed at its end */
	for (size_t i = 0; i < n && !out->failed; i++) {
		struct clawmd_buf t = CLAWMD_BUF_INIT, body = CLAWMD_BUF_INIT, x = CLAWMD_BUF_INIT;
		size_t size = 0;
		int rc = read_py(&c, fv[i].path, &t, &size);
		if (rc > 0)
			fail(&c, fv[i].path);
		if (rc == 0) {
			size_t at = out->nfiles;
			push(out, fv[i].type, fv[i].path, NULL, fv[i].source, 0, size);
			strip_comments(&body, t.ptr, t.len);
			clawmd_buf_put(&x, "", 0);
			expand(&c, &x, body.ptr, body.len, fv[i].path, CHIMERA_HOPS);
			/* expanded.rstrip() */
			size_t e = x.len;
			while (e > 0) {
				size_t st = e - 1;
				while (st > 0 && e - st < 4 && ((unsigned char)x.ptr[st] & 0xc0) == 0x80)
					st--;
				if (clawmd_space_at(x.ptr, st, e, true) != e - st)
					break;
				e = st;
			}
			struct clawmd_mem_file *f = &out->files[at];
			free(f->content);
			f->content = clawmd_xstrndup(x.ptr, e);
			f->len = e;
		}
		clawmd_buf_release(&t);
		clawmd_buf_release(&body);
		clawmd_buf_release(&x);
		clawmd_strv_free(c.seen, c.nseen);
		c.seen = NULL, c.nseen = c.capseen = 0;
	}
	for (size_t i = 0; i < n; i++)
		free(fv[i].path);
	free(fv);
	return 0;
}

void clawmd_chimera_text(struct clawmd_buf *out, const struct clawmd_memory *m,
			 const struct clawmd_memory_opts *o)
{
	(void)o;
	if (m->failed)
		return;
	size_t parts = 0;
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		if (f->depth)
			continue;
		clawmd_buf_puts(out, parts++ ? "\n" : "<memory source=\"CLAUDE.md\">\n");
		clawmd_buf_printf(out, "<!-- source: %s -->\n", f->path);
		clawmd_buf_put(out, f->content, f->len);
		clawmd_buf_putc(out, '\n');
	}
	if (parts)
		clawmd_buf_puts(out, "</memory>");
}
