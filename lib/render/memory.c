/*
 * memory.c - Claude Code's memory loading (getMemoryFiles, processMemoryFile,
 * the .claude/rules traversal, nested memory), over a small filesystem view.
 *
 * The view: every path the loader handles is a path as the agent sees it.
 * On the host that is the identity.  In group mode it is the container's
 * view: a path is mapped to the host through the mount table, and realpath
 * is computed component by component, reading each symlink and resolving
 * its target again in the container's view (a fragment link pointing at
 * /app/skills/x/instructions.md must land on the skills mount, not on the
 * host's /app).
 *
 * Section numbers (§) refer to claude-code-memory.md.
 */
#include "sys/dl.h"
#include "clawmd.h"
#include "claude/frontmatter.h"
#include "claude/match.h"
#include "claude/mdscan.h"
#include "base/util.h"
#include "base/strset.h"
#include "fs/view.h"
#include "render/load.h"
#include "render/runtimes.h"
#include "render/worktree.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INCLUDE_DEPTH 5
#define MAX_LINKS 40

/* ---- the text extension whitelist (§8) ---------------------------------- */

static const char *const text_exts[] = {
	".md", ".txt", ".text", ".json", ".yaml", ".yml", ".toml", ".xml", ".csv", ".html",
	".htm", ".css", ".scss", ".sass", ".less", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs",
	".mts", ".cts", ".py", ".pyi", ".pyw", ".rb", ".erb", ".rake", ".go", ".rs", ".java",
	".kt", ".kts", ".scala", ".c", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".hxx", ".cs",
	".swift", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd", ".env", ".ini",
	".cfg", ".conf", ".config", ".properties", ".sql", ".graphql", ".gql", ".proto", ".vue",
	".svelte", ".astro", ".ejs", ".hbs", ".pug", ".jade", ".php", ".pl", ".pm", ".lua", ".r",
	".R", ".dart", ".ex", ".exs", ".erl", ".hrl", ".clj", ".cljs", ".cljc", ".edn", ".hs",
	".lhs", ".elm", ".ml", ".mli", ".f", ".f90", ".f95", ".for", ".cmake", ".make",
	".makefile", ".gradle", ".sbt", ".rst", ".adoc", ".asciidoc", ".org", ".tex", ".latex",
	".lock", ".log", ".diff", ".patch",
};

bool clawmd_text_extension(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base) /* Node's extname: none, or a dotfile */
		return true;
	char ext[64];
	size_t n = strlen(dot);
	if (n >= sizeof(ext))
		return false;
	for (size_t i = 0; i <= n; i++)
		ext[i] = (char)((dot[i] >= 'A' && dot[i] <= 'Z') ? dot[i] + 32 : dot[i]);
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(text_exts); i++)
		if (!strcmp(ext, text_exts[i]))
			return true;
	return false;
}

/* ---- the loader state --------------------------------------------------- */

/* A set of strings: open addressing, so that N paths cost O(N), not O(N^2). */
struct loader {
	const struct clawmd_memory_opts *o;
	struct clawmd_load_view view;
	struct clawmd_memory *m;
	struct clawmd_strset seen;  /* S: processed paths */
	bool native;	  /* 2.1.113 on: readdir order */
	bool dedup;	  /* 2.1.142 on: realpath dedup */
	bool gate;	  /* 2.1.232 on: the realpath gate (imports and rules) */
	bool agents;	  /* 2.1.281 on: AGENTS.md, instructionFiles */
	struct clawmd_release rel;
	char *cwd;	  /* originalCwd, realpath'd */
	char *home;	  /* for @~/ */
	bool approve;	  /* external includes approved (or forced) */
	bool record;	  /* record imports (not during the forced pass) */
	/* An import the external gate resolved already, for process_file to
	 * read: one resolution, so the realpath judged is the file read. */
	const char *pre_path;
	struct clawmd_view_node pre;
	bool pre_ok;
	const char *chain[MAX_INCLUDE_DEPTH + 1];
};

/* A file list under construction: one processMemoryFile result. */
struct flist {
	struct clawmd_mem_file *v;
	size_t n, cap;
};

static void file_release(struct clawmd_mem_file *f)
{
	free(f->path);
	free(f->parent);
	free(f->root);
	free(f->content);
	clawmd_strv_free(f->globs, f->nglobs);
}

static void flist_push(struct flist *l, struct clawmd_mem_file *f)
{
	clawmd_xgrow(&l->v, &l->cap, l->n + 1, sizeof(l->v[0]));
	l->v[l->n++] = *f;
}

/* Record an import in document order; returns its index (SIZE_MAX: not recording). */
static size_t record_import(struct loader *L, const char *from, const char *raw, const char *path,
			    enum clawmd_import_status st)
{
	if (!L->record)
		return SIZE_MAX;
	struct clawmd_memory *m = L->m;
	clawmd_xgrow(&m->imports, &m->capimports, m->nimports + 1, sizeof(m->imports[0]));
	m->imports[m->nimports] = (struct clawmd_mem_import){
		clawmd_xstrdup(from), clawmd_xstrdup(raw), clawmd_xstrdup(path), st};
	return m->nimports++;
}

/* "Is inside originalCwd" (§3.8): lower-cased, /private/{var,tmp} folded. */
static char *fold(const char *p)
{
	const char *q = p;
	if (!strncmp(q, "/private/var", 12) && (q[12] == '/' || !q[12]))
		q += 8;
	else if (!strncmp(q, "/private/tmp", 12) && (q[12] == '/' || !q[12]))
		q += 8;
	char *s = clawmd_xstrdup(q);
	for (char *c = s; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	return s;
}

static bool inside_cwd(const struct loader *L, const char *p)
{
	char *a = fold(p), *b = fold(L->cwd);
	bool in = clawmd_path_under(a, b);
	free(a);
	free(b);
	return in;
}

/* Resolve an include path against the including file's directory (§3.6). */
static char *resolve_include(const struct loader *L, const char *raw, const char *dir)
{
	size_t a, b;
	clawmd_js_trim(raw, strlen(raw), &a, &b);
	char *p = clawmd_xstrndup(raw + a, b - a);
	char *r;
	if (!strcmp(p, "~") || !strncmp(p, "~/", 2)) {
		char *j = clawmd_xasprintf("%s/%s", L->home ? L->home : "/", p + 1);
		r = clawmd_path_norm(j);
		free(j);
	} else {
		r = clawmd_path_resolve(dir, p);
	}
	free(p);
	return r;
}

/* One file process_file is loading: what its phases share. */
struct visit {
	const char *path;	/* as given: what the record and the file list name */
	const char *parent;	/* the including file; NULL for a root */
	enum clawmd_mem_type type;
	bool include_external;
	int depth;
	char *np;		/* path, normalized: what the processed set holds */
	char *rp;		/* its realpath (np when it does not resolve) */
};

/* Whether processMemoryFile may go on with `np` at all: LOADED when it
 * may, else the status an import of it gets. */
static enum clawmd_import_status visit_admit(struct loader *L, const struct visit *v)
{
	if (clawmd_strset_has(&L->seen, v->np)) {
		enum clawmd_import_status st = CLAWMD_IMPORT_DUPLICATE;
		for (int i = 0; i < v->depth && i <= MAX_INCLUDE_DEPTH; i++)
			if (L->chain[i] && !strcmp(L->chain[i], v->np))
				st = CLAWMD_IMPORT_CYCLE;
		return st;
	}
	if (v->depth >= MAX_INCLUDE_DEPTH)
		return CLAWMD_IMPORT_TOO_DEEP;
	if (++L->view.files > CLAWMD_LOAD_FILES_MAX)
		return CLAWMD_IMPORT_MISSING; /* past the bound: skipped */
	return CLAWMD_IMPORT_LOADED;
}

/* Resolve the file once, so that the realpath recorded is the file then
 * read, and mark it processed.  False: its realpath was processed already
 * (from 2.1.142, §14.2; bisected by make e2e, case imports-symlink). */
static bool visit_resolve(struct loader *L, struct visit *v, struct clawmd_view_node *nd,
			  bool *resolved)
{
	if (L->pre_path && !strcmp(L->pre_path, v->np)) {
		*nd = L->pre;
		*resolved = L->pre_ok;
		L->pre_path = NULL;
	} else {
		*resolved = clawmd_view_resolve(nd, &L->view.v, v->np, true) == 0;
	}
	v->rp = *resolved ? clawmd_xstrdup(nd->real) : clawmd_xstrdup(v->np);
	if (L->dedup && clawmd_strset_has(&L->seen, v->rp)) {
		if (*resolved)
			clawmd_view_node_release(nd);
		return false;
	}
	clawmd_strset_add(&L->seen, v->np);
	if (strcmp(v->rp, v->np))
		clawmd_strset_add(&L->seen, v->rp);
	return true;
}

/* Read the file into `raw` and, when it has text, append it to `out`;
 * `*body` is where its body (after the frontmatter) starts in `raw`. */
static enum clawmd_import_status visit_read(struct loader *L, struct flist *out,
					    const struct visit *v, struct clawmd_view_node *nd,
					    bool resolved, struct clawmd_buf *raw, size_t *body)
{
	int rrc = resolved ? clawmd_load_read(&L->view, nd, raw) : -ENOENT;
	if (resolved)
		clawmd_view_node_release(nd);
	if (rrc < 0)
		return CLAWMD_IMPORT_MISSING;
	if (!clawmd_text_extension(v->np))
		return CLAWMD_IMPORT_NOT_TEXT;
	size_t raw_size = raw->len;
	clawmd_utf8_sanitize(raw);
	struct clawmd_frontmatter fm;
	clawmd_frontmatter_parse(&fm, raw->ptr, raw->len);
	*body = fm.body;
	struct clawmd_buf content = CLAWMD_BUF_INIT;
	clawmd_md_strip_comments(&content, raw->ptr + fm.body, raw->len - fm.body);
	size_t ta, tb;
	clawmd_js_trim(content.ptr, content.len, &ta, &tb);
	if (ta >= tb) {
		clawmd_buf_release(&content);
		clawmd_frontmatter_release(&fm);
		return CLAWMD_IMPORT_EMPTY;
	}
	struct clawmd_mem_file f = {0};
	f.type = v->type;
	f.path = clawmd_xstrdup(v->path);
	f.parent = v->parent ? clawmd_xstrdup(v->parent) : NULL;
	f.root = clawmd_xstrdup(v->depth && L->chain[0] ? L->chain[0] : v->path);
	f.size = raw_size;
	f.len = content.len;
	f.content = clawmd_buf_detach(&content);
	f.globs = fm.globs;
	f.nglobs = fm.nglobs;
	f.depth = v->depth;
	fm.globs = NULL;
	fm.nglobs = 0;
	clawmd_frontmatter_release(&fm);
	flist_push(out, &f);
	return CLAWMD_IMPORT_LOADED;
}

static enum clawmd_import_status process_file(struct loader *L, struct flist *out,
					      const char *path, enum clawmd_mem_type type,
					      bool include_external, int depth,
					      const char *parent);

/* One include of the file `v`, resolved to `inc`: whether it is external,
 * then loaded (or not); returns the status its import gets. */
static enum clawmd_import_status visit_include(struct loader *L, struct flist *out,
					       const struct visit *v, char *inc)
{
	enum clawmd_import_status ist;
	bool external = !inside_cwd(L, inc);
	if (!external && L->gate) {
		/* 2.1.232 on: the realpath must stay inside too (§14.5, §15) */
		L->pre_ok = clawmd_view_resolve(&L->pre, &L->view.v, inc, true) == 0;
		L->pre_path = inc;
		external = L->pre_ok && !inside_cwd(L, L->pre.real);
	}
	if (external && L->record)
		L->m->external_met = true;
	if (external && !v->include_external) {
		ist = CLAWMD_IMPORT_EXTERNAL;
	} else {
		ist = process_file(L, out, inc, v->type, v->include_external, v->depth + 1,
				   v->path);
	}
	if (L->pre_path) { /* not taken: a duplicate, too deep, ... */
		if (L->pre_ok)
			clawmd_view_node_release(&L->pre);
		L->pre_path = NULL;
	}
	return ist;
}

/* The includes of the body, resolved against the realpath's directory (§3.6). */
static void visit_includes(struct loader *L, struct flist *out, const struct visit *v,
			   const char *body, size_t blen)
{
	struct clawmd_md_scan scan;
	clawmd_md_scan_init(&scan);
	clawmd_md_scan(&scan, body, blen, L->record);
	char *dir = clawmd_path_dir(v->rp);
	struct clawmd_strset mine = {0};
	L->chain[v->depth] = v->np;
	for (size_t i = 0; i < scan.n; i++) {
		char *inc = resolve_include(L, scan.v[i].path, dir);
		if (scan.v[i].in_code) {
			record_import(L, v->path, scan.v[i].path, inc, CLAWMD_IMPORT_INSIDE_CODE);
		} else if (!clawmd_strset_has(&mine, inc)) {
			clawmd_strset_add(&mine, inc);
			size_t slot = record_import(L, v->path, scan.v[i].path, inc,
						    CLAWMD_IMPORT_LOADED);
			enum clawmd_import_status ist = visit_include(L, out, v, inc);
			if (slot != SIZE_MAX)
				L->m->imports[slot].status = ist;
		}
		free(inc);
	}
	L->chain[v->depth] = NULL;
	clawmd_strset_release(&mine);
	free(dir);
	clawmd_md_scan_release(&scan);
}

/*
 * processMemoryFile (§4).  Appends what it emits to `out`; returns the
 * status an import of `path` gets.
 */
static enum clawmd_import_status process_file(struct loader *L, struct flist *out,
					      const char *path, enum clawmd_mem_type type,
					      bool include_external, int depth,
					      const char *parent)
{
	struct visit v = {path, parent, type, include_external, depth, clawmd_path_norm(path), NULL};
	enum clawmd_import_status st = visit_admit(L, &v);
	if (st != CLAWMD_IMPORT_LOADED) {
		free(v.np);
		return st;
	}
	struct clawmd_view_node nd;
	bool resolved;
	if (!visit_resolve(L, &v, &nd, &resolved)) {
		free(v.np);
		free(v.rp);
		return CLAWMD_IMPORT_DUPLICATE;
	}
	struct clawmd_buf raw = CLAWMD_BUF_INIT;
	clawmd_buf_put(&raw, "", 0);
	size_t body = 0;
	st = visit_read(L, out, &v, &nd, resolved, &raw, &body);
	if (st == CLAWMD_IMPORT_LOADED)
		visit_includes(L, out, &v, raw.ptr + body, raw.len - body);
	clawmd_buf_release(&raw);
	free(v.np);
	free(v.rp);
	return st;
}

enum rules_mode { RULES_UNCONDITIONAL, RULES_CONDITIONAL };

/*
 * The .claude/rules traversal (§5.1).  A directory is entered once per
 * traversal (by path, realpath and device/inode: four links to "." cost
 * four lookups), at most RULES_DEPTH_MAX deep; the entries are bounded by
 * view_list.  From 2.1.232, an entry whose realpath leaves the project is
 * dropped unless external includes are approved (§15).
 */
#define RULES_DEPTH_MAX 32

static void rules_walk(struct loader *L, struct flist *out, const char *dir,
		       enum clawmd_mem_type type, bool include_external, struct clawmd_strset *visited,
		       int depth)
{
	char *rd = clawmd_load_realpath(&L->view, dir);
	if (!rd || depth > RULES_DEPTH_MAX)
		goto out;
	if (L->gate && strcmp(rd, dir) && !inside_cwd(L, rd)) {
		L->m->external_met |= L->record;
		if (!include_external)
			goto out;
	}
	if (clawmd_strset_has(visited, dir) || clawmd_strset_has(visited, rd))
		goto out;
	clawmd_strset_add(visited, dir);
	clawmd_strset_add(visited, rd);
	size_t n;
	dev_t dev;
	ino_t ino;
	char **names = clawmd_load_list(&L->view, rd, !L->native, &n, &dev, &ino);
	if (!names)
		goto out;
	char id[64];
	snprintf(id, sizeof(id), "\x01%llu:%llu", (unsigned long long)dev,
		 (unsigned long long)ino);
	if (clawmd_strset_has(visited, id)) {
		clawmd_strv_free(names, n);
		goto out;
	}
	clawmd_strset_add(visited, id);
	for (size_t i = 0; i < n; i++) {
		char *entry = clawmd_path_resolve(rd, names[i]);
		struct clawmd_view_node nd;
		char *erp = NULL, kind = 0;
		if (clawmd_view_resolve(&nd, &L->view.v, entry, true) == 0) {
			erp = nd.real;
			nd.real = NULL;
			kind = S_ISDIR(nd.st.st_mode) ? 'd' : S_ISREG(nd.st.st_mode) ? 'f' : 'o';
			clawmd_view_node_release(&nd);
		}
		size_t nl = strlen(names[i]);
		bool gated = L->gate && erp && strcmp(erp, entry) && !inside_cwd(L, erp);
		L->m->external_met |= gated && L->record;
		gated = gated && !include_external;
		if (gated) {
			/* a rule (or a directory of rules) linked outside */
		} else if (kind == 'd') {
			rules_walk(L, out, entry, type, include_external, visited, depth + 1);
		} else if (kind == 'f' && nl >= 3 && !strcmp(names[i] + nl - 3, ".md")) {
			process_file(L, out, erp, type, include_external, 0, NULL);
		}
		free(erp);
		free(entry);
	}
	clawmd_strv_free(names, n);
out:
	free(rd);
}

/* processMdRules: unconditional keeps files without globs, conditional those with. */
static void rules(struct loader *L, struct flist *out, const char *dir, enum clawmd_mem_type type,
		  bool include_external, enum rules_mode mode)
{
	struct flist all = {0};
	struct clawmd_strset visited = {0};
	rules_walk(L, &all, dir, type, include_external, &visited, 0);
	clawmd_strset_release(&visited);
	struct clawmd_strset dropped = {0};
	for (size_t i = 0; i < all.n; i++) {
		bool cond = all.v[i].nglobs > 0;
		if (cond == (mode == RULES_CONDITIONAL)) {
			flist_push(out, &all.v[i]);
		} else {
			if (mode == RULES_UNCONDITIONAL && L->record)
				clawmd_strset_add(&dropped, all.v[i].path);
			file_release(&all.v[i]);
		}
	}
	/* the imports of what was dropped: loaded, then dropped as conditional */
	for (size_t k = 0; dropped.n && k < L->m->nimports; k++)
		if (L->m->imports[k].status == CLAWMD_IMPORT_LOADED &&
		    clawmd_strset_has(&dropped, L->m->imports[k].path))
			L->m->imports[k].status = CLAWMD_IMPORT_CONDITIONAL;
	clawmd_strset_release(&dropped);
	free(all.v);
}

/* ---- getMemoryFiles ----------------------------------------------------- */

static void loader_init(struct loader *L, struct clawmd_memory *m, const struct clawmd_memory_opts *o,
			struct clawmd_view_cache *cache, char *cwd, bool approve, bool record)
{
	memset(L, 0, sizeof(*L));
	L->o = o;
	L->view.v = (struct clawmd_view){o->mounts, o->nmounts, &L->view.steps, cache};
	L->view.steps = CLAWMD_LOAD_STEPS_MAX;
	struct clawmd_release rel = o->release;
	if (!rel.major && !rel.minor && !rel.patch)
		rel = clawmd_release_default;
	L->native = clawmd_release_native(&rel);
	L->dedup = clawmd_release_realpath_dedup(&rel);
	L->gate = clawmd_release_realpath_gate(&rel);
	L->agents = clawmd_release_agents_md(&rel);
	L->rel = rel;
	L->m = m;
	L->cwd = cwd;
	L->home = o->home ? clawmd_path_norm(o->home) : NULL;
	L->approve = approve;
	L->record = record;
}

static void loader_release(struct loader *L)
{
	clawmd_strset_release(&L->seen);
	free(L->home);
}

/* Directories of the walk, top down: just below / to the cwd (§2.2). */
static char **walk_dirs(const char *cwd, size_t *n)
{
	size_t k = 0;
	for (const char *c = cwd; *c; c++)
		k += *c == '/';
	char **v = clawmd_xcalloc(k + 1, sizeof(char *));
	*n = 0;
	if (!strcmp(cwd, "/"))
		return v;
	for (const char *c = cwd + 1;; c++) {
		if (*c == '/' || !*c)
			v[(*n)++] = clawmd_xstrndup(cwd, (size_t)(c - cwd));
		if (!*c)
			break;
	}
	return v;
}

/* ---- AGENTS.md (2.1.281 on; doc/render.md, "AGENTS.md") ---------------- */

static const char *const if_names[] = {"", "claude-md", "claude-md-or-agents-md",
				       "claude-md-and-agents-md", "managed-only"};

int clawmd_instruction_files_parse(enum clawmd_instruction_files *out, const char *text)
{
	for (size_t i = 1; i < CLAWMD_ARRAY_SIZE(if_names); i++)
		if (!strcmp(text, if_names[i])) {
			*out = (enum clawmd_instruction_files)i;
			return 0;
		}
	return -1;
}

const char *clawmd_instruction_files_name(enum clawmd_instruction_files v)
{
	return (unsigned)v < CLAWMD_ARRAY_SIZE(if_names) ? if_names[v] : "";
}

#define SETTINGS_MAX (4u * 1024 * 1024)

/*
 * instructionFiles as the user's settings.json sets it (the module's option,
 * pluginConfigs["cc-plugin-agents-md@builtin"].options from 2.1.285, else
 * pluginConfigs["agents-md@builtin"].options): a value the release
 * does not know is the default; the older projectInstructions ("none",
 * "claude", "agents-fallback", "both"; anything else is "claude-md") still
 * counts while instructionFiles is the default.  A settings file that is
 * missing, unreadable or not JSON sets nothing.  Project settings do not
 * set it (measured: case agents-mode-unknown).  enabledPlugins false for
 * the module (under its name of the release) turns it off: "claude-md"
 * (measured on 2.1.332: case agents-mode-disabled).
 */
static enum clawmd_instruction_files settings_mode(struct loader *L, bool *set)
{
	enum clawmd_instruction_files mode = CLAWMD_IF_FALLBACK;
	*set = false;
	if (L->o->no_user || !L->home)
		return mode;
	char *path = clawmd_path_resolve(L->home, ".claude/settings.json");
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	int rc = clawmd_view_read(&L->view.v, path, &b, SETTINGS_MAX, NULL);
	free(path);
	cJSON *doc = rc == 0 ? cJSON_ParseWithLength(b.ptr, b.len) : NULL;
	clawmd_buf_release(&b);
	const char *id = clawmd_release_agents_md_renamed(&L->rel) ? "cc-plugin-agents-md@builtin"
								   : "agents-md@builtin";
	/* the module turned off (enabledPlugins): as "claude-md" */
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(doc, "enabledPlugins"), id))) {
		cJSON_Delete(doc);
		*set = true;
		return CLAWMD_IF_CLAUDE_MD;
	}
	const cJSON *pc = cJSON_GetObjectItemCaseSensitive(doc, "pluginConfigs");
	const cJSON *mod = cJSON_GetObjectItemCaseSensitive(pc, id);
	if (!cJSON_IsObject(mod))
		mod = cJSON_GetObjectItemCaseSensitive(pc, "agents-md@builtin");
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(mod, "options");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(opts, "instructionFiles");
	const cJSON *legacy = cJSON_GetObjectItemCaseSensitive(opts, "projectInstructions");
	if (cJSON_IsObject(opts) && cJSON_IsString(v)) {
		*set = true;
		if (clawmd_instruction_files_parse(&mode, v->valuestring) < 0)
			mode = CLAWMD_IF_FALLBACK;
	}
	if (cJSON_IsObject(opts) && legacy && mode == CLAWMD_IF_FALLBACK) {
		static const char *const old[] = {"none", "claude", "agents-fallback", "both"};
		static const enum clawmd_instruction_files to[] = {
			CLAWMD_IF_MANAGED_ONLY, CLAWMD_IF_CLAUDE_MD, CLAWMD_IF_FALLBACK, CLAWMD_IF_BOTH};
		*set = true;
		mode = CLAWMD_IF_CLAUDE_MD;
		for (size_t i = 0; cJSON_IsString(legacy) && i < CLAWMD_ARRAY_SIZE(old); i++)
			if (!strcmp(legacy->valuestring, old[i]))
				mode = to[i];
	}
	cJSON_Delete(doc);
	return mode;
}

/* A memory file's project directory: what precedes its last "/.claude/",
 * else its directory. */
static char *project_dir(const char *path)
{
	const char *c = NULL;
	for (const char *p = strstr(path, "/.claude/"); p; p = strstr(p + 1, "/.claude/"))
		c = p;
	if (!c)
		c = strrchr(path, '/');
	return c && c > path ? clawmd_xstrndup(path, (size_t)(c - path)) : clawmd_xstrdup("/");
}

/* a lies strictly below b */
static bool below(const char *a, const char *b)
{
	size_t n = strlen(b);
	return !strncmp(a, b, n) && a[n] == '/';
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

/* A CLAUDE file of the walk: top-level project or local, named CLAUDE.md,
 * .claude/CLAUDE.md or CLAUDE.local.md, in the cwd or above it. */
static bool claude_file_on_walk(const struct loader *L, const struct clawmd_mem_file *f)
{
	if ((f->type != CLAWMD_MEM_PROJECT && f->type != CLAWMD_MEM_LOCAL) || f->parent ||
	    !(ends_with(f->path, "/CLAUDE.md") || ends_with(f->path, "/.claude/CLAUDE.md") ||
	      ends_with(f->path, "/CLAUDE.local.md")))
		return false;
	char *d = project_dir(f->path);
	bool on = !strcmp(d, L->cwd) || below(L->cwd, d);
	free(d);
	return on;
}

/* The directories of the walk, top down, and the nested worktree whose
 * outer directories it leaves out (git_root NULL: none). */
struct walk {
	char **dirs;
	size_t nd;
	const char *git_root, *canonical;
};

/*
 * Claude Code's ancestor search (fs.ancestors): in each directory of the
 * walk, top down (a nested worktree's outer directories left out, as the
 * walk leaves them), each of `names`, processed as a project file with its
 * imports, in a processed set of its own that holds the managed and user
 * CLAUDE.md.  What has text lands in `out`.
 */
static void ancestors(struct loader *L, struct flist *out, const struct walk *w,
		      const char *const *names, size_t nnames, bool record)
{
	const char *managed = L->o->managed_dir ? L->o->managed_dir : "/etc/claude-code";
	struct clawmd_strset saved = L->seen;
	bool saved_record = L->record;
	memset(&L->seen, 0, sizeof(L->seen));
	L->record = record;
	char *seed = clawmd_path_resolve(managed, "CLAUDE.md");
	clawmd_strset_add(&L->seen, seed);
	free(seed);
	if (L->home) {
		seed = clawmd_path_resolve(L->home, ".claude/CLAUDE.md");
		clawmd_strset_add(&L->seen, seed);
		free(seed);
	}
	for (size_t i = 0; i < w->nd; i++) {
		if (w->git_root && clawmd_path_under(w->dirs[i], w->canonical) &&
		    !clawmd_path_under(w->dirs[i], w->git_root))
			continue;
		for (size_t k = 0; k < nnames; k++) {
			char *p = clawmd_path_resolve(w->dirs[i], names[k]);
			process_file(L, out, p, CLAWMD_MEM_PROJECT, L->approve, 0, NULL);
			free(p);
		}
	}
	clawmd_strset_release(&L->seen);
	L->seen = saved;
	L->record = saved_record;
}

static void flist_release(struct flist *l)
{
	for (size_t i = 0; i < l->n; i++)
		file_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Does a loaded project or local file hold this text (trimmed)? */
static bool text_sent(const struct flist *out, const struct clawmd_mem_file *f)
{
	size_t a, b;
	clawmd_js_trim(f->content, f->len, &a, &b);
	for (size_t i = 0; a < b && i < out->n; i++) {
		const struct clawmd_mem_file *prev = &out->v[i];
		size_t c, d;
		if (prev->type != CLAWMD_MEM_PROJECT && prev->type != CLAWMD_MEM_LOCAL)
			continue;
		clawmd_js_trim(prev->content, prev->len, &c, &d);
		if (d - c == b - a && !memcmp(prev->content + c, f->content + a, b - a))
			return true;
	}
	return false;
}

/* An import of a file that was then not sent: say so in the record. */
static void import_dropped(struct loader *L, const struct clawmd_mem_file *f)
{
	for (size_t k = 0; f->parent && L->record && k < L->m->nimports; k++) {
		struct clawmd_mem_import *im = &L->m->imports[k];
		if (im->status == CLAWMD_IMPORT_LOADED && !strcmp(im->path, f->path) &&
		    !strcmp(im->from, f->parent))
			im->status = CLAWMD_IMPORT_DUPLICATE;
	}
}

/*
 * AGENTS.md (2.1.281 on).  In the default mode a CLAUDE file of the walk
 * that loaded, or one the ancestor search finds with text, turns every
 * AGENTS.md off; otherwise AGENTS.md and .claude/AGENTS.md of each
 * directory, with their imports, go in as project files: a file already
 * sent (by path, or by its text as a project or local file) is left out,
 * and each directory's files go before the first project or local file of
 * a directory below it, else after the last one.  "managed-only" keeps the
 * managed tier alone.
 */
/* The instructionFiles mode: the option's, else the settings' (recorded). */
static enum clawmd_instruction_files agents_mode(struct loader *L)
{
	bool set = false;
	enum clawmd_instruction_files mode = L->o->instruction_files;
	if (mode != CLAWMD_IF_UNSET)
		set = true;
	else
		mode = settings_mode(L, &set);
	if (L->record) {
		L->m->instruction_files = mode;
		L->m->instruction_files_set = set;
	}
	return mode;
}

/* In the fallback mode, the CLAUDE file that turns every AGENTS.md off: one
 * of the walk that loaded, else one the ancestor search finds with text
 * (`found` keeps what it found); NULL when none does. */
static const char *agents_off(struct loader *L, const struct flist *out, struct flist *found,
			      const struct walk *w)
{
	static const char *const claude_names[] = {"CLAUDE.md", ".claude/CLAUDE.md",
						   "CLAUDE.local.md"};
	for (size_t i = 0; i < out->n; i++)
		if (claude_file_on_walk(L, &out->v[i]))
			return out->v[i].path;
	ancestors(L, found, w, claude_names, CLAWMD_ARRAY_SIZE(claude_names), false);
	for (size_t i = 0; i < found->n; i++)
		if (!found->v[i].parent)
			return found->v[i].path;
	return NULL;
}

/* Of what the search found, keep in `parts` what was not sent already (by
 * path, or by its text as a project or local file): nothing when `off`.
 * Each AGENTS.md found is recorded. */
static void agents_pick(struct loader *L, const struct flist *out, struct flist *parts,
			const char *off)
{
	struct clawmd_memory *m = L->m;
	struct clawmd_strset sent = {0};
	for (size_t i = 0; i < out->n; i++)
		clawmd_strset_add(&sent, out->v[i].path);
	size_t k = 0, cap = 0;
	for (size_t i = 0; i < parts->n; i++) {
		struct clawmd_mem_file *f = &parts->v[i];
		bool dup = clawmd_strset_has(&sent, f->path) || text_sent(out, f);
		if (!f->parent && L->record) {
			clawmd_xgrow(&m->agents, &cap, m->nagents + 1, sizeof(m->agents[0]));
			m->agents[m->nagents++] = (struct clawmd_mem_agents){clawmd_xstrdup(f->path),
									      dup};
		}
		if (off || dup) {
			if (!off)
				import_dropped(L, f);
			file_release(f);
			continue;
		}
		clawmd_strset_add(&sent, f->path);
		parts->v[k++] = *f;
	}
	parts->n = off ? 0 : k;
	clawmd_strset_release(&sent);
}

/* Move `parts` into `out`, each directory's files before the first project
 * or local file of a directory below it, else after the last one. */
static void agents_place(struct flist *out, struct flist *parts)
{
	for (size_t i = 0; i < parts->n;) {
		char *dir = project_dir(parts->v[i].root);
		size_t j = i + 1;
		for (; j < parts->n; j++) {
			char *d2 = project_dir(parts->v[j].root);
			bool same = !strcmp(d2, dir);
			free(d2);
			if (!same)
				break;
		}
		size_t at = SIZE_MAX, last = SIZE_MAX;
		for (size_t x = 0; x < out->n; x++) {
			const struct clawmd_mem_file *placed = &out->v[x];
			if (placed->type != CLAWMD_MEM_PROJECT && placed->type != CLAWMD_MEM_LOCAL)
				continue;
			last = x;
			char *placed_dir = project_dir(placed->root ? placed->root : placed->path);
			bool under = below(placed_dir, dir);
			free(placed_dir);
			if (under && at == SIZE_MAX)
				at = x;
		}
		if (at == SIZE_MAX)
			at = last == SIZE_MAX ? out->n : last + 1;
		size_t cnt = j - i;
		clawmd_xgrow(&out->v, &out->cap, out->n + cnt, sizeof(out->v[0]));
		memmove(&out->v[at + cnt], &out->v[at], (out->n - at) * sizeof(out->v[0]));
		memcpy(&out->v[at], &parts->v[i], cnt * sizeof(out->v[0]));
		out->n += cnt;
		free(dir);
		i = j;
	}
}

/*
 * AGENTS.md (2.1.281 on).  In the default mode a CLAUDE file of the walk
 * that loaded, or one the ancestor search finds with text, turns every
 * AGENTS.md off; otherwise AGENTS.md and .claude/AGENTS.md of each
 * directory, with their imports, go in as project files: a file already
 * sent (by path, or by its text as a project or local file) is left out,
 * and each directory's files go before the first project or local file of
 * a directory below it, else after the last one.  "managed-only" keeps the
 * managed tier alone.
 */
static void agents_md(struct loader *L, struct flist *out, const struct walk *w)
{
	static const char *const agents_names[] = {"AGENTS.md", ".claude/AGENTS.md"};
	struct clawmd_memory *m = L->m;
	/* Not on the forced load of the approval listing (section 3.10): the
	 * module adds its files to the prompt, not to getMemoryFiles. */
	if (!L->agents || !L->record)
		return;
	enum clawmd_instruction_files mode = agents_mode(L);
	if (mode == CLAWMD_IF_MANAGED_ONLY) {
		size_t k = 0;
		for (size_t i = 0; i < out->n; i++) {
			if (out->v[i].type == CLAWMD_MEM_MANAGED)
				out->v[k++] = out->v[i];
			else
				file_release(&out->v[i]);
		}
		out->n = k;
	}
	/* the project source off: the search finds nothing */
	if (mode == CLAWMD_IF_CLAUDE_MD || mode == CLAWMD_IF_MANAGED_ONLY || L->o->no_project)
		return;
	struct flist found = {0};
	const char *off = mode == CLAWMD_IF_FALLBACK ? agents_off(L, out, &found, w) : NULL;
	if (off && L->record)
		m->agents_off_by = clawmd_xstrdup(off);
	/* What the search finds (imports recorded only when it is sent). */
	struct flist parts = {0};
	ancestors(L, &parts, w, agents_names, CLAWMD_ARRAY_SIZE(agents_names),
		  L->record && !off);
	agents_pick(L, out, &parts, off);
	agents_place(out, &parts);
	for (size_t i = 0; i < m->nagents && L->record; i++)
		for (size_t x = 0; !m->agents[i].loaded && x < out->n; x++)
			m->agents[i].loaded = !strcmp(out->v[x].path, m->agents[i].path);
	free(parts.v);
	flist_release(&found);
}

static void startup(struct loader *L, struct flist *out)
{
	const struct clawmd_memory_opts *o = L->o;
	const char *managed = o->managed_dir ? o->managed_dir : "/etc/claude-code";
	char *mfile = clawmd_path_resolve(managed, "CLAUDE.md");
	char *mrules = clawmd_path_resolve(managed, ".claude/rules");
	process_file(L, out, mfile, CLAWMD_MEM_MANAGED, L->approve, 0, NULL);
	rules(L, out, mrules, CLAWMD_MEM_MANAGED, L->approve, RULES_UNCONDITIONAL);
	free(mfile);
	free(mrules);
	if (!o->no_user && L->home) {
		char *ufile = clawmd_path_resolve(L->home, ".claude/CLAUDE.md");
		char *urules = clawmd_path_resolve(L->home, ".claude/rules");
		process_file(L, out, ufile, CLAWMD_MEM_USER, true, 0, NULL);
		rules(L, out, urules, CLAWMD_MEM_USER, true, RULES_UNCONDITIONAL);
		free(ufile);
		free(urules);
	}
	char *git_root = NULL, *canonical = NULL;
	bool nested = !o->no_project && clawmd_git_nested_worktree(&L->view, L->cwd, &git_root, &canonical);
	size_t nd;
	char **dirs = walk_dirs(L->cwd, &nd);
	for (size_t i = 0; i < nd; i++) {
		const char *d = dirs[i];
		bool skip = nested && clawmd_path_under(d, canonical) && !clawmd_path_under(d, git_root);
		if (!o->no_project && !skip) {
			char *a = clawmd_path_resolve(d, "CLAUDE.md");
			char *b = clawmd_path_resolve(d, ".claude/CLAUDE.md");
			char *r = clawmd_path_resolve(d, ".claude/rules");
			process_file(L, out, a, CLAWMD_MEM_PROJECT, L->approve, 0, NULL);
			process_file(L, out, b, CLAWMD_MEM_PROJECT, L->approve, 0, NULL);
			rules(L, out, r, CLAWMD_MEM_PROJECT, L->approve, RULES_UNCONDITIONAL);
			free(a);
			free(b);
			free(r);
		}
		if (!o->no_local) {
			char *l = clawmd_path_resolve(d, "CLAUDE.local.md");
			process_file(L, out, l, CLAWMD_MEM_LOCAL, L->approve, 0, NULL);
			free(l);
		}
	}
	struct walk w = {dirs, nd, nested ? git_root : NULL, canonical};
	agents_md(L, out, &w);
	clawmd_strv_free(dirs, nd);
	free(git_root);
	free(canonical);
}

/* Conditional rules under `rules_dir` that match the target, globs taken
 * relative to `base` (§7.4, §11). */
static void matching_rules(struct loader *L, struct flist *out, const char *rules_dir,
			   const char *base, enum clawmd_mem_type type, bool include_external,
			   const char *target)
{
	/* A processed set of its own: the unconditional pass over the same
	 * directory has processed (and dropped) these rules already. */
	struct flist cond = {0};
	struct clawmd_strset saved = L->seen;
	memset(&L->seen, 0, sizeof(L->seen));
	rules(L, &cond, rules_dir, type, include_external, RULES_CONDITIONAL);
	clawmd_strset_release(&L->seen);
	L->seen = saved;
	for (size_t i = 0; i < cond.n; i++) {
		const char *rel = NULL;
		if (clawmd_path_under(target, base) && strcmp(target, base))
			rel = target + strlen(base) + (strcmp(base, "/") ? 1 : 0);
		if (rel && clawmd_globs_match(cond.v[i].globs, cond.v[i].nglobs, rel))
			flist_push(out, &cond.v[i]);
		else
			file_release(&cond.v[i]);
	}
	free(cond.v);
}

/* Nested memory for a first read of the target (§11). */
static void nested(struct loader *L, struct flist *out, const char *target)
{
	const struct clawmd_memory_opts *o = L->o;
	if (!clawmd_path_under(target, L->cwd) || !strcmp(target, L->cwd))
		return;
	const char *managed = o->managed_dir ? o->managed_dir : "/etc/claude-code";
	char *mrules = clawmd_path_resolve(managed, ".claude/rules");
	matching_rules(L, out, mrules, L->cwd, CLAWMD_MEM_MANAGED, L->approve, target);
	free(mrules);
	if (!o->no_user && L->home) {
		char *urules = clawmd_path_resolve(L->home, ".claude/rules");
		matching_rules(L, out, urules, L->cwd, CLAWMD_MEM_USER, true, target);
		free(urules);
	}
	/* directories strictly below the cwd down to the target's directory */
	char *tdir = clawmd_path_dir(target);
	size_t nd;
	char **dirs = walk_dirs(tdir, &nd);
	for (size_t i = 0; i < nd; i++) {
		const char *d = dirs[i];
		if (!clawmd_path_under(d, L->cwd) || !strcmp(d, L->cwd))
			continue;
		char *r = clawmd_path_resolve(d, ".claude/rules");
		if (!o->no_project) {
			char *a = clawmd_path_resolve(d, "CLAUDE.md");
			char *b = clawmd_path_resolve(d, ".claude/CLAUDE.md");
			process_file(L, out, a, CLAWMD_MEM_PROJECT, false, 0, NULL);
			process_file(L, out, b, CLAWMD_MEM_PROJECT, false, 0, NULL);
			free(a);
			free(b);
		}
		if (!o->no_local) {
			char *l = clawmd_path_resolve(d, "CLAUDE.local.md");
			process_file(L, out, l, CLAWMD_MEM_LOCAL, false, 0, NULL);
			free(l);
		}
		if (!o->no_project) {
			rules(L, out, r, CLAWMD_MEM_PROJECT, false, RULES_UNCONDITIONAL);
			matching_rules(L, out, r, d, CLAWMD_MEM_PROJECT, false, target);
		}
		free(r);
	}
	clawmd_strv_free(dirs, nd);
	free(tdir);
	/* the walk's own directories: their conditional rules */
	dirs = walk_dirs(L->cwd, &nd);
	for (size_t i = 0; i < nd && !o->no_project; i++) {
		char *r = clawmd_path_resolve(dirs[i], ".claude/rules");
		matching_rules(L, out, r, dirs[i], CLAWMD_MEM_PROJECT, L->approve, target);
		free(r);
	}
	clawmd_strv_free(dirs, nd);
}

void clawmd_memory_init(struct clawmd_memory *m)
{
	memset(m, 0, sizeof(*m));
}

/* The working directory, absolute and realpath'd through the view: NULL
 * (err set) when it is not a directory that can be opened. */
static char *memory_cwd(struct clawmd_load_view *view, const char *cwd_arg,
			struct clawmd_err *err)
{
	char *abs;
	if (cwd_arg[0] == '/' || view->v.m) {
		abs = clawmd_path_norm(cwd_arg);
	} else {
		char *here = getcwd(NULL, 0);
		if (!here) {
			clawmd_err_sys(err, CLAWMD_EFS, "could not get the current directory");
			return NULL;
		}
		abs = clawmd_path_resolve(here, cwd_arg);
		free(here);
	}
	char *cwd = clawmd_load_realpath(view, abs);
	free(abs);
	if (!cwd || clawmd_load_kind(view, cwd) != 'd') {
		clawmd_err_set(err, CLAWMD_EFS, "could not open the working directory '%s'",
			       cwd_arg);
		free(cwd);
		return NULL;
	}
	return cwd;
}

/* getExternalClaudeMdIncludes runs on a forced load (§3.10): the imported
 * files outside the cwd, user files aside, into out->external. */
static void memory_external(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			    struct clawmd_view_cache *cache, char *cwd)
{
	struct loader L;
	struct clawmd_memory forced;
	clawmd_memory_init(&forced);
	struct flist ff = {0};
	loader_init(&L, &forced, o, cache, cwd, true, false);
	startup(&L, &ff);
	loader_release(&L);
	size_t cap = 0;
	for (size_t i = 0; i < ff.n; i++) {
		struct clawmd_mem_file *f = &ff.v[i];
		L.cwd = cwd;
		if (f->parent && f->type != CLAWMD_MEM_USER && !inside_cwd(&L, f->path)) {
			clawmd_xgrow(&out->external, &cap, out->nexternal + 1, sizeof(char *));
			out->external[out->nexternal++] = clawmd_xstrdup(f->path);
		}
		file_release(f);
	}
	free(ff.v);
}

/* Claude Code's load, from the working directory `cwd`: startup memory, or
 * nested memory for a target. */
static void memory_claude(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
			  struct clawmd_view_cache *cache, char *cwd)
{
	struct loader L;
	struct flist files = {0};
	loader_init(&L, out, o, cache, cwd, o->approve_external, true);
	if (o->target) {
		/* Nested memory starts a processed set of its own: conditional
		 * rules were processed (and dropped) at startup, yet attach. */
		char *t = L.view.v.m || o->target[0] == '/' ? clawmd_path_norm(o->target)
							   : clawmd_path_resolve(cwd, o->target);
		nested(&L, &files, t);
		free(t);
	} else {
		startup(&L, &files);
	}
	loader_release(&L);
	out->files = files.v;
	out->nfiles = files.n;
	out->capfiles = files.cap;
	if (!o->target && o->list_external)
		memory_external(out, o, cache, cwd);
}

int clawmd_memory_load(struct clawmd_memory *out, const struct clawmd_memory_opts *o,
		       struct clawmd_err *err)
{
	int rc = clawmd_opts_version(o->version, CLAWMD_MEMORY_OPTS_VERSION, "clawmd_memory_opts",
				     err);
	/* Claude Code's loader scans with md4c (claude/mdscan.c). */
	if (rc == 0 && o->runtime == CLAWMD_RUNTIME_CLAUDE)
		rc = clawmd_dl_need_md4c(err);
	if (rc < 0)
		return rc;
	struct clawmd_load_view view = {{o->mounts, o->nmounts, NULL, clawmd_view_cache_new()}, 0, 0, 0, 0};
	char *cwd = memory_cwd(&view, o->cwd ? o->cwd : ".", err);
	if (!cwd) {
		clawmd_view_cache_free(view.v.cache);
		return CLAWMD_EFS;
	}
	out->cwd = cwd;

	/* --home and --managed-dir are taken relative to the process on the host */
	struct clawmd_memory_opts oo = *o;
	char *home_abs = NULL, *managed_abs = NULL;
	if (!view.v.m) {
		char *here = getcwd(NULL, 0);
		if (here && o->home)
			oo.home = home_abs = clawmd_path_resolve(here, o->home);
		if (here && o->managed_dir)
			oo.managed_dir = managed_abs = clawmd_path_resolve(here, o->managed_dir);
		free(here);
	}
	/* A runtime that loads as another does (Ollama is Claude Code) */
	const struct clawmd_contract *ct = clawmd_runtime_contract(o->runtime);
	if (ct)
		oo.runtime = ct->like;
	o = &oo;
	if (o->runtime != CLAWMD_RUNTIME_CLAUDE) {
		view.steps = CLAWMD_LOAD_STEPS_MAX;
		rc = clawmd_runtime_load(out, o, &view, err);
	} else {
		memory_claude(out, o, view.v.cache, cwd);
	}
	free(home_abs);
	free(managed_abs);
	clawmd_view_cache_free(view.v.cache);
	return rc;
}

void clawmd_memory_release(struct clawmd_memory *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nfiles; i++)
		file_release(&m->files[i]);
	free(m->files);
	for (size_t i = 0; i < m->nimports; i++) {
		free(m->imports[i].from);
		free(m->imports[i].raw);
		free(m->imports[i].path);
	}
	free(m->imports);
	clawmd_strv_free(m->external, m->nexternal);
	for (size_t i = 0; i < m->nagents; i++)
		free(m->agents[i].path);
	free(m->agents);
	free(m->agents_off_by);
	free(m->failed);
	free(m->cwd);
	memset(m, 0, sizeof(*m));
}
