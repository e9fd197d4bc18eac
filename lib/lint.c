/* lint.c - the findings behind `clawmd check` and the per-group summary
 * behind `clawmd status`.  Reads only; never writes, never takes a lock. */
#include "clawmd.h"
#include "frontmatter.h"
#include "fs.h"
#include "match.h"
#include "git.h"
#include "util.h"
#include "view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ctype.h>

/* ---- the rules ---------------------------------------------------------- */

/* Sorted by code.  A code never changes meaning; retired codes stay listed. */
static const struct clawmd_lint_rule lint_rules[] = {
	{"CM101", "import-missing", CLAWMD_SEV_ERROR,
	 "an @ import names a file that does not exist (in the container view for groups)"},
	{"CM102", "import-cycle", CLAWMD_SEV_WARNING,
	 "an @ import leads back to a file already loaded"},
	{"CM103", "import-too-deep", CLAWMD_SEV_ERROR,
	 "an @ import is nested deeper than Claude Code's limit of 5 levels and is not loaded"},
	{"CM104", "import-not-text", CLAWMD_SEV_ERROR,
	 "an @ import names a file whose extension Claude Code does not load as text"},
	{"CM105", "import-external-dropped", CLAWMD_SEV_ERROR,
	 "an @ import resolves outside the working directory and a headless Claude Code "
	 "(2.1.330) drops it"},
	{"CM201", "file-too-large", CLAWMD_SEV_WARNING,
	 "a memory file is over 40,000 characters"},
	{"CM202", "memory-over-budget", CLAWMD_SEV_WARNING,
	 "the memory a group loads is over the token budget (characters / 4)"},
	{"CM301", "mcp-import-directive", CLAWMD_SEV_WARNING,
	 "inline MCP instructions contain an @ directive (compose defuses it)"},
	{"CM302", "config-invalid", CLAWMD_SEV_ERROR,
	 "container.json is invalid: malformed, a bad name, a wrong type"},
	{"CM303", "skill-unknown", CLAWMD_SEV_ERROR,
	 "container.json selects a skill that does not exist"},
	{"CM401", "entry-hand-edited", CLAWMD_SEV_ERROR,
	 "the composed CLAUDE.md was edited by hand (or was never composed by clawmd)"},
	{"CM402", "entry-stale", CLAWMD_SEV_ERROR,
	 "compose would change the group: the composed state is stale or missing"},
	{"CM403", "local-not-ignored", CLAWMD_SEV_WARNING,
	 "CLAUDE.local.md is not ignored by git"},
	{"CM501", "frontmatter-invalid", CLAWMD_SEV_ERROR,
	 "a rule's frontmatter does not parse, so the rule loads unconditionally"},
	{"CM502", "paths-no-match", CLAWMD_SEV_WARNING,
	 "a rule's paths: globs match no file in the tree"},
	{"CM503", "paths-too-many", CLAWMD_SEV_WARNING,
	 "a rule's paths: expand to more than 256 patterns (braces); the rest are not matched"},
};

const struct clawmd_lint_rule *clawmd_lint_rules(size_t *n)
{
	*n = CLAWMD_ARRAY_SIZE(lint_rules);
	return lint_rules;
}

const struct clawmd_lint_rule *clawmd_lint_rule(const char *code)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(lint_rules); i++)
		if (!strcmp(lint_rules[i].code, code))
			return &lint_rules[i];
	return NULL;
}

const char *clawmd_severity_name(enum clawmd_severity sev)
{
	static const char *const names[] = {"note", "warning", "error"};
	return (unsigned)sev < CLAWMD_ARRAY_SIZE(names) ? names[sev] : "error";
}

const char *clawmd_drift_name(enum clawmd_drift drift)
{
	static const char *const names[] = {"clean", "would change", "hand-edited",
					    "never composed", "invalid"};
	return (unsigned)drift < CLAWMD_ARRAY_SIZE(names) ? names[drift] : "invalid";
}

static void clawmd_lint_add(struct clawmd_findings *out, const char *code, const char *group,
			    const char *file, unsigned long line, unsigned long col,
			    const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static void clawmd_lint_local_ignored(struct clawmd_findings *out, const char *group,
				      const char *repo_dir, const char *dir, const char *shown);

/* ---- findings ----------------------------------------------------------- */

void clawmd_findings_init(struct clawmd_findings *f)
{
	memset(f, 0, sizeof(*f));
}

void clawmd_findings_release(struct clawmd_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].group);
		free(f->v[i].file);
		free(f->v[i].message);
		free(f->v[i].hint);
	}
	free(f->v);
	clawmd_findings_init(f);
}

size_t clawmd_findings_count(const struct clawmd_findings *f, enum clawmd_severity sev)
{
	size_t k = 0;
	for (size_t i = 0; i < f->n; i++)
		k += f->v[i].rule->severity >= sev;
	return k;
}

static void clawmd_lint_add(struct clawmd_findings *out, const char *code, const char *group,
		     const char *file, unsigned long line, unsigned long col, const char *hint,
		     const char *fmt, ...)
{
	va_list ap;
	char *msg;
	const struct clawmd_lint_rule *rule = clawmd_lint_rule(code);
	if (!rule)
		abort(); /* a typo in a code is a bug, not a finding */
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	clawmd_xgrow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = (struct clawmd_finding){
		.rule = rule,
		.group = group ? clawmd_xstrdup(group) : NULL,
		.file = clawmd_xstrdup(file),
		.line = line ? line : 1,
		.col = col ? col : 1,
		.message = msg,
		.hint = clawmd_xstrdup(hint ? hint : ""),
	};
}

static void clawmd_lint_pos(unsigned long *line, unsigned long *col, const char *text, size_t off)
{
	unsigned long l = 1, c = 1;
	for (size_t i = 0; i < off && text[i]; i++, c++)
		if (text[i] == '\n')
			l++, c = 0;
	*line = l;
	*col = c;
}

static size_t clawmd_lint_chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c & 0xC0) != 0x80)
			n += c >= 0xF0 ? 2 : 1; /* astral characters are two UTF-16 units */
	}
	return n;
}

/* A path as shown in findings: relative to `base` when inside it. */
static char *clawmd_lint_shown(const char *base, const char *path)
{
	size_t n = base ? strlen(base) : 0;
	while (n > 1 && base[n - 1] == '/')
		n--;
	if (n && !strncmp(path, base, n) && path[n] == '/' && path[n + 1])
		return clawmd_xstrdup(path + n + 1);
	if (n && !strncmp(path, base, n) && !path[n])
		return clawmd_xstrdup(".");
	return clawmd_xstrdup(path);
}

/* ---- memory sizes ------------------------------------------------------- */

#define LARGE_FILE_CHARS 40000
#define MEMORY_READ_MAX (4 * 1024 * 1024)

/* Account one loaded file: CM201 when large; its size into *total. */
static void clawmd_lint_size(struct clawmd_findings *out, const char *group, const char *shown,
		      const char *data, size_t len, size_t *total)
{
	size_t chars = clawmd_lint_chars(data, len);
	*total += chars;
	if (chars > LARGE_FILE_CHARS)
		clawmd_lint_add(out, "CM201", group, shown, 1, 1,
				"split it, or move rarely needed parts into path-scoped rules "
				"(.claude/rules with paths:)",
				"%s has %zu characters, over Claude Code's %d-character warning threshold",
				shown, chars, LARGE_FILE_CHARS);
}

/* `path` is `dir` or below it. */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

/* ---- rules: frontmatter and paths: globs -------------------------------- */

/*
 * The rules are reached through the same resolver as the loader's (view.c):
 * in a group, container paths walked through the mount table with directory
 * fds; on the host, the identity view.  The walk is bounded (RULES_DEPTH_MAX
 * levels, RULES_ENTRIES_MAX entries, RULES_DIRS_MAX directories) and enters
 * a directory once (device and inode), so links to "." cannot multiply it.
 */

/* Files below `base`, relative to it (not .git; symlinked dirs not entered). */
struct file_list {
	char **v;
	size_t n, cap;
};

#define TREE_FILES_MAX 200000
#define TREE_DEPTH_MAX 32
#define RULES_DEPTH_MAX 16
#define RULES_ENTRIES_MAX 100000
#define RULES_DIRS_MAX 4096
#define RULES_STEPS_MAX 2000000 /* path components resolved */

/* Walk the directory open at `dfd` (taken over), never following links. */
static void list_files_at(struct file_list *fl, int dfd, const char *rel, int depth)
{
	DIR *d = depth <= TREE_DEPTH_MAX ? fdopendir(dfd) : NULL;
	if (!d) {
		close(dfd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) && fl->n < TREE_FILES_MAX) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
			continue;
		char *r = rel ? clawmd_xasprintf("%s/%s", rel, e->d_name) : clawmd_xstrdup(e->d_name);
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			if (sub >= 0)
				list_files_at(fl, sub, r, depth + 1);
			free(r);
		} else {
			clawmd_xgrow(&fl->v, &fl->cap, fl->n + 1, sizeof(char *));
			fl->v[fl->n++] = r;
		}
	}
	closedir(d);
}

static void list_files(struct file_list *fl, const struct clawmd_view *v, const char *base)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, base, true) < 0)
		return;
	int dfd = nd.fd >= 0 && S_ISDIR(nd.st.st_mode)
			  ? openat(nd.fd, ".", O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC)
			  : -1;
	clawmd_view_node_release(&nd);
	if (dfd >= 0)
		list_files_at(fl, dfd, NULL, 0);
}

struct rules_ctx {
	struct clawmd_findings *out;
	const char *group;
	const struct clawmd_view *view;
	const char *base;  /* globs are relative to it: the parent of .claude (view) */
	const char *root;  /* findings show host paths relative to it */
	struct file_list files;
	bool listed;
	int depth;
	size_t entries;
	struct { dev_t dev; ino_t ino; } dirs[RULES_DIRS_MAX];
	size_t ndirs;
};

/* A view path as findings show it: its host path relative to ROOT (for
 * display only: nothing is opened by it). */
static char *rules_shown(const struct rules_ctx *rc, const char *vpath)
{
	char *host = rc->view->m ? clawmd_mounts_to_host(rc->view->m, rc->view->n, vpath) : NULL;
	char *s = clawmd_lint_shown(rc->root, host ? host : vpath);
	free(host);
	return s;
}

static void lint_rule_file(struct rules_ctx *rc, const char *path)
{
	struct clawmd_buf data = CLAWMD_BUF_INIT;
	struct clawmd_frontmatter cf;
	clawmd_buf_put(&data, "", 0);
	if (clawmd_view_read(rc->view, path, &data, MEMORY_READ_MAX, NULL) != 0) {
		clawmd_buf_release(&data);
		return;
	}
	/* The loader's frontmatter code decides, and says where. */
	clawmd_frontmatter_parse(&cf, data.ptr, data.len);
	if (!cf.block)
		goto out_data;
	char *shown = rules_shown(rc, path);
	unsigned long line, col;
	clawmd_lint_pos(&line, &col, data.ptr, cf.yaml);
	if (!cf.yaml_ok) {
		clawmd_lint_add(rc->out, "CM501", rc->group, shown, line + cf.problem_line,
				cf.problem_col + 1,
				"fix the YAML between the '---' lines (quote values with special "
				"characters); until then the rule loads everywhere, unconditionally",
				"the frontmatter of %s does not parse: %s", shown,
				cf.problem[0] ? cf.problem : "invalid YAML");
		goto out;
	}
	if (cf.globs_capped)
		clawmd_lint_add(rc->out, "CM503", rc->group, shown, line + cf.paths_line,
				cf.paths_col + 1,
				"write fewer alternatives in braces, or split the rule; clawmd matches "
				"only the first expansions",
				"the paths: globs of %s expand to more than %u patterns (brace "
				"expansion); only the first %u are matched",
				shown, CLAWMD_PATHS_MAX, CLAWMD_PATHS_MAX);
	if (cf.nglobs) {
		if (!rc->listed) {
			list_files(&rc->files, rc->view, rc->base);
			rc->listed = true;
		}
		bool any = false;
		for (size_t i = 0; i < rc->files.n && !any; i++)
			any = clawmd_globs_match(cf.globs, cf.nglobs, rc->files.v[i]);
		if (!any) {
			struct clawmd_buf list = CLAWMD_BUF_INIT;
			for (size_t i = 0; i < cf.nglobs && i < 16; i++)
				clawmd_buf_printf(&list, "%s'%s'", i ? ", " : "", cf.globs[i]);
			if (cf.nglobs > 16)
				clawmd_buf_printf(&list, ", and %zu more", cf.nglobs - 16);
			char *bshown = rules_shown(rc, rc->base);
			clawmd_lint_add(rc->out, "CM502", rc->group, shown, line + cf.paths_line,
					cf.paths_col + 1,
					"fix the globs (gitignore syntax, relative to the directory that holds "
					".claude), or delete the rule if its files are gone",
					"the paths: globs of %s (%s) match no file under %s", shown, list.ptr,
					bshown);
			free(bshown);
			clawmd_buf_release(&list);
		}
	}
out:
	free(shown);
out_data:
	clawmd_frontmatter_release(&cf);
	clawmd_buf_release(&data);
}

static void lint_rules_walk(struct rules_ctx *rc, const char *dir)
{
	char **names;
	size_t n;
	bool truncated;
	dev_t dev;
	ino_t ino;
	if (rc->depth > RULES_DEPTH_MAX || rc->entries >= RULES_ENTRIES_MAX ||
	    rc->ndirs >= RULES_DIRS_MAX)
		return;
	if (clawmd_view_list(rc->view, dir, RULES_ENTRIES_MAX - rc->entries, &names, &n, &truncated,
			     &dev, &ino) < 0)
		return;
	for (size_t i = 0; i < rc->ndirs; i++)
		if (rc->dirs[i].dev == dev && rc->dirs[i].ino == ino) {
			clawmd_strv_free(names, n);
			return; /* entered already: a loop, or two links to one directory */
		}
	rc->dirs[rc->ndirs].dev = dev;
	rc->dirs[rc->ndirs++].ino = ino;
	rc->entries += n;
	if (n) /* findings in a stable order */
		qsort(names, n, sizeof(char *), clawmd_strcmp_ptr);
	for (size_t i = 0; i < n; i++) {
		char *p = clawmd_path_join(dir, names[i]);
		size_t l = strlen(names[i]);
		char kind = clawmd_view_kind(rc->view, p);
		if (kind == 'd') {
			rc->depth++;
			lint_rules_walk(rc, p);
			rc->depth--;
		} else if (kind == 'f' && l > 3 && !strcmp(names[i] + l - 3, ".md")) {
			lint_rule_file(rc, p);
		}
		free(p);
	}
	clawmd_strv_free(names, n);
}

/* CM501, CM502, CM503 for the rules under `base`/.claude/rules (a view path). */
static void lint_rules_dir(struct clawmd_findings *out, const char *group,
			   const struct clawmd_view *view, const char *base, const char *root)
{
	struct rules_ctx *rc = clawmd_xcalloc(1, sizeof(*rc));
	size_t steps = RULES_STEPS_MAX;
	struct clawmd_view bounded = {view->m, view->n, &steps};
	rc->out = out;
	rc->group = group;
	rc->view = &bounded;
	rc->base = base;
	rc->root = root;
	char *dir = clawmd_path_join(base, ".claude/rules");
	lint_rules_walk(rc, dir);
	free(dir);
	clawmd_strv_free(rc->files.v, rc->files.n);
	free(rc);
}

/* ---- imports: what Claude Code would load ------------------------------- */

/*
 * The loader is render's (clawmd_memory_load): the same walk, import
 * resolution, depth limit, dedup and external gate, in the container view
 * for a group.  Lint runs it twice: as the host is configured, to see which
 * imports the external gate drops (CM105), then with external includes
 * approved, to reach and lint everything below them too, as a run that
 * approves them would load it.  Import findings are placed at the '@' of
 * the import in the importing file.
 */

struct view {
	struct clawmd_findings *out;
	const char *group;
	const char *root;  /* findings are shown relative to it (host paths) */
	const char *limit; /* only files below it (view paths); NULL: all */
	const struct clawmd_mount *mounts; /* NULL: the host view */
	size_t nmounts;
	struct pos_cache *pos; /* the file import_pos read last */
};

/* import_pos reads each importing file once, and scans it once, so that
 * N imports in one file cost O(size + N), not O(size * N). */
struct pos_cache {
	char *file;
	struct clawmd_buf data;
	int rc;
	size_t from; /* where the previous import was found */
};

/* A view path mapped to its host path: for messages only, never opened
 * (reads go through view.c). */
static char *to_host(const struct view *V, const char *vpath)
{
	if (!V->mounts)
		return clawmd_xstrdup(vpath);
	return clawmd_mounts_to_host(V->mounts, V->nmounts, vpath);
}

/* A view path for messages: container paths as they are, host paths
 * relative to ROOT (or the linted directory). */
static char *display(const struct view *V, const char *vpath)
{
	return V->mounts ? clawmd_xstrdup(vpath) : clawmd_lint_shown(V->root, vpath);
}

/* The file as shown in findings: its host path relative to ROOT. */
static char *shown_of(const struct view *V, const char *vpath)
{
	char *host = to_host(V, vpath);
	char *s = clawmd_lint_shown(V->root, host ? host : vpath);
	free(host);
	return s;
}

static bool in_limit(const struct view *V, const char *vpath)
{
	return !V->limit || path_under(vpath, V->limit);
}

/* The position of the import "@raw" in the file behind `from` (read
 * through the view): the next occurrence, from the previous import's, that
 * starts the text or follows whitespace. */
static void import_pos(const struct view *V, const char *from, const char *raw,
		       unsigned long *line, unsigned long *col)
{
	struct pos_cache *pc = V->pos;
	*line = *col = 1;
	if (!pc)
		return;
	if (!pc->file || strcmp(pc->file, from)) {
		struct clawmd_view cv = {V->mounts, V->nmounts};
		free(pc->file);
		pc->file = clawmd_xstrdup(from);
		clawmd_buf_clear(&pc->data);
		clawmd_buf_put(&pc->data, "", 0);
		pc->rc = clawmd_view_read(&cv, from, &pc->data, MEMORY_READ_MAX, NULL);
		pc->from = 0;
	}
	if (pc->rc < 0)
		return;
	char *tok = clawmd_xasprintf("@%s", raw);
	const char *base = pc->data.ptr;
	for (int pass = 0; pass < 2; pass++) {
		const char *p = base + (pass ? 0 : pc->from);
		while ((p = strstr(p, tok)) && p != base && !isspace((unsigned char)p[-1]))
			p++;
		if (p) {
			pc->from = (size_t)(p - base) + 1;
			clawmd_lint_pos(line, col, base, (size_t)(p - base));
			break;
		}
		if (!pc->from)
			break;
	}
	free(tok);
}

static void report_import(const struct view *V, const struct clawmd_mem_import *imp)
{
	const char *code, *hint, *fmt;
	switch (imp->status) {
	case CLAWMD_IMPORT_MISSING:
		code = "CM101";
		hint = V->mounts ? "create the file, fix the path, or add a mount for it (\"mounts\" in "
				   "clawmd.json); paths are resolved as the container sees them"
				 : "create the file or fix the path";
		fmt = "@%s: %s does not exist (or is not a readable file), so nothing is loaded";
		break;
	case CLAWMD_IMPORT_CYCLE:
		code = "CM102";
		hint = "remove one of the imports; Claude Code loads each file once, so the cycle "
		       "only hides the order";
		fmt = "@%s leads back to %s, which is already being loaded (a cycle)";
		break;
	case CLAWMD_IMPORT_TOO_DEEP:
		code = "CM103";
		hint = "import the file from a shallower level; Claude Code follows at most 5 levels "
		       "and silently skips deeper ones";
		fmt = "@%s (%s) is 5 imports deep, past Claude Code's limit, and is not loaded";
		break;
	case CLAWMD_IMPORT_NOT_TEXT:
		code = "CM104";
		hint = "import a text file (.md, .txt, ...) or convert the content";
		fmt = "@%s: %s does not have a text extension, so Claude Code skips it";
		break;
	case CLAWMD_IMPORT_EXTERNAL:
		code = "CM105";
		hint = V->mounts ? "compose with --mode copy (or \"mode\": \"copy\" in clawmd.json) so "
				   "fragments are regular files inside the agent's directory, or approve "
				   "external includes for the project"
				 : "move the file inside the directory, or approve external includes for "
				   "the project";
		fmt = "@%s resolves to %s, outside the working directory: Claude Code 2.1.330 drops "
		      "it in headless runs unless external includes are approved";
		break;
	default:
		return;
	}
	unsigned long line, col;
	import_pos(V, imp->from, imp->raw, &line, &col);
	char *file = shown_of(V, imp->from);
	char *disp = display(V, imp->path);
	struct clawmd_view cv = {V->mounts, V->nmounts};
	char *target = NULL;
	if (imp->status == CLAWMD_IMPORT_EXTERNAL &&
	    clawmd_view_readlink(&cv, imp->path, &target) == 0) {
		/* A symlink (a fragment): show where it leads. */
		free(disp);
		disp = target;
		fmt = "@%s is a symlink to %s, outside the working directory: Claude Code 2.1.330 "
		      "drops it in headless runs unless external includes are approved";
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	clawmd_lint_add(V->out, code, V->group, file, line, col, hint, fmt, imp->raw, disp);
#pragma GCC diagnostic pop
	free(disp);
	free(file);
}

/*
 * Lint what loads at `o->cwd`; the size of every loaded file (CM201) and
 * their total in *chars.  EFS/EINPUT only when the loader cannot start.
 */
static int lint_loaded(const struct view *VV, const struct clawmd_memory_opts *base,
		       size_t *chars, struct clawmd_err *err)
{
	struct pos_cache pc = {NULL, CLAWMD_BUF_INIT, 0, 0};
	struct view view = *VV;
	const struct view *V = &view;
	view.pos = &pc;
	struct clawmd_memory m;
	struct clawmd_memory_opts o = *base;
	int rc;
	*chars = 0;
	if (!base->approve_external) {
		clawmd_memory_init(&m);
		if ((rc = clawmd_memory_load(&m, &o, err)) < 0) {
			clawmd_memory_release(&m);
			goto out;
		}
		for (size_t i = 0; i < m.nimports; i++)
			if (m.imports[i].status == CLAWMD_IMPORT_EXTERNAL &&
			    in_limit(V, m.imports[i].from))
				report_import(V, &m.imports[i]);
		clawmd_memory_release(&m);
	}
	o.approve_external = true;
	clawmd_memory_init(&m);
	if ((rc = clawmd_memory_load(&m, &o, err)) < 0) {
		clawmd_memory_release(&m);
		goto out;
	}
	for (size_t i = 0; i < m.nimports; i++)
		if (m.imports[i].status != CLAWMD_IMPORT_EXTERNAL && in_limit(V, m.imports[i].from))
			report_import(V, &m.imports[i]);
	for (size_t i = 0; i < m.nfiles; i++) {
		const struct clawmd_mem_file *f = &m.files[i];
		if (!in_limit(V, f->path))
			continue;
		char *shown = shown_of(V, f->path);
		clawmd_lint_size(V->out, V->group, shown, f->content, f->len, chars);
		free(shown);
	}
	clawmd_memory_release(&m);
	rc = 0;
out:
	free(pc.file);
	clawmd_buf_release(&pc.data);
	return rc;
}

/* ---- a tree ------------------------------------------------------------- */

/* Every directory below `dir` that holds .claude/rules, for nested memory. */
static void lint_tree_rules(struct clawmd_findings *out, const char *dir, const char *root,
			    int depth)
{
	char *rules = clawmd_path_join(dir, ".claude/rules");
	struct stat st;
	static const struct clawmd_view host = {NULL, 0};
	if (stat(rules, &st) == 0 && S_ISDIR(st.st_mode))
		lint_rules_dir(out, NULL, &host, dir, root);
	free(rules);
	DIR *d = depth < 12 ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
			continue;
		char *p = clawmd_path_join(dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			lint_tree_rules(out, p, root, depth + 1);
		free(p);
	}
	if (d)
		closedir(d);
}

int clawmd_lint_tree(struct clawmd_findings *out, const char *dir,
		     const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct stat st;
	char *real = realpath(dir, NULL);
	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = errno;
		free(real);
		errno = real ? ENOTDIR : e;
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not open directory '%s'", dir);
	}
	/* The tree only: no user tier, and nothing above DIR is reported. */
	struct view V = {.out = out, .root = real, .limit = real};
	struct clawmd_memory_opts mo = {
		.cwd = real,
		.approve_external = opts && opts->approve_external,
	};
	size_t chars;
	int rc = lint_loaded(&V, &mo, &chars, err);
	if (rc == 0) {
		lint_tree_rules(out, real, real, 0);
		char *local = clawmd_path_join(real, CLAWMD_LOCAL_NAME);
		if (lstat(local, &st) == 0)
			clawmd_lint_local_ignored(out, NULL, real, real, CLAWMD_LOCAL_NAME);
		free(local);
	}
	free(real);
	return rc;
}

/* ---- a group ------------------------------------------------------------ */

struct group_ctx {
	struct clawmd_findings *out;
	const struct clawmd_layout *lay;
	const struct clawmd_lint_opts *opts;
	const char *group;
	char *gpath;	  /* host path of the group */
	char *gshown;	  /* as shown: relative to ROOT */
	char *cfg_shown;  /* container.json as shown */
	char *entry_shown;
	struct clawmd_buf cfg_text;
	struct clawmd_group_config cfg;
	bool cfg_ok;
	struct clawmd_plan plan;
	bool planned;
	enum clawmd_drift drift;
	size_t memory_chars;
};

/* The byte offset of the JSON string "s" in `json`, or 0. */
static size_t json_find_string(const char *json, const char *s)
{
	char *q = clawmd_xasprintf("\"%s\"", s);
	const char *p = strstr(json, q);
	free(q);
	return p ? (size_t)(p - json) + 1 : 0;
}

static void lint_config(struct group_ctx *g, struct clawmd_err *err)
{
	struct clawmd_err perr = CLAWMD_ERR_INIT;
	struct clawmd_dir gd = CLAWMD_DIR_INIT;
	int rc;
	clawmd_config_init(&g->cfg);
	if (clawmd_dir_open(&gd, g->gpath, err) < 0)
		return;
	rc = clawmd_fs_read(&g->cfg_text, &gd, CLAWMD_CONFIG_NAME, CLAWMD_CONFIG_MAX, &perr);
	clawmd_dir_release(&gd);
	if (rc == 1) { /* no container.json: all defaults */
		g->cfg.all_skills = true;
		g->cfg_ok = true;
		clawmd_buf_clear(&g->cfg_text);
		clawmd_buf_put(&g->cfg_text, "", 0);
		return;
	}
	if (rc == 0)
		rc = clawmd_config_parse(&g->cfg, g->cfg_text.ptr, g->cfg_text.len, g->cfg_shown,
					 &perr);
	if (rc == 0) {
		g->cfg_ok = true;
		return;
	}
	/* The message names the file first; findings carry it separately. */
	const char *msg = perr.msg;
	unsigned long line = 1, col = 1;
	size_t sl = strlen(g->cfg_shown);
	if (!strncmp(msg, g->cfg_shown, sl)) {
		msg += sl;
		if (sscanf(msg, ":%lu:%lu:", &line, &col) != 2)
			line = col = 1;
		while (*msg == ':' || (*msg >= '0' && *msg <= '9'))
			msg++;
		while (*msg == ' ')
			msg++;
	}
	if (line == 1 && col == 1 && g->cfg_text.ptr && !memchr(g->cfg_text.ptr, '\0', g->cfg_text.len)) {
		/* Point at the offending value ("... '../x'"), else at the key the
		 * message starts with ("skills[2]: ..."). */
		const char *q = strchr(msg, '\'');
		const char *qe = q ? strchr(q + 1, '\'') : NULL;
		size_t kl = strcspn(msg, "[.: ");
		char *tok = qe && qe > q + 1 ? clawmd_xstrndup(q + 1, (size_t)(qe - q - 1))
					   : clawmd_xstrndup(msg, kl);
		size_t at = tok[0] ? json_find_string(g->cfg_text.ptr, tok) : 0;
		if (!at && qe) {
			free(tok);
			tok = clawmd_xstrndup(msg, kl);
			at = tok[0] ? json_find_string(g->cfg_text.ptr, tok) : 0;
		}
		if (at)
			clawmd_lint_pos(&line, &col, g->cfg_text.ptr, at - 1);
		free(tok);
	}
	clawmd_lint_add(g->out, "CM302", g->group, g->cfg_shown, line, col,
			"fix container.json: names match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, \"skills\" is "
			"\"all\" or an array of names, instructions are strings; compose refuses "
			"the group until then",
			"%s", msg);
}

/* CM303: every listed skill must be a directory under the skills dir. */
static void lint_skills(struct group_ctx *g)
{
	if (!g->cfg_ok || g->cfg.all_skills)
		return;
	for (size_t i = 0; i < g->cfg.nskills; i++) {
		char *dir = clawmd_path_join(g->lay->skills, g->cfg.skills[i]);
		struct stat st;
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			unsigned long line, col;
			clawmd_lint_pos(&line, &col, g->cfg_text.ptr,
					json_find_string(g->cfg_text.ptr, g->cfg.skills[i]));
			char *shown = clawmd_lint_shown(g->lay->root, dir);
			clawmd_lint_add(g->out, "CM303", g->group, g->cfg_shown, line, col,
					"remove it from \"skills\", or add the skill's directory",
					"skill '%s' is selected but %s does not exist",
					g->cfg.skills[i], shown);
			free(shown);
		}
		free(dir);
	}
}

struct directive_ctx {
	struct group_ctx *g;
	const struct clawmd_mcp *m;
	size_t value;	/* offset of the instructions' string literal, or 0 */
};

static size_t hex4(const char *s, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;
		if (v == 16)
			return 0;
		*cp = *cp * 16 + v;
	}
	return 4;
}

/*
 * The byte offset in the JSON text of decoded byte `off` of the string
 * literal at `lit` (its opening quote): walk the escapes, counting what
 * each decodes to in UTF-8.
 */
static size_t json_raw_offset(const char *json, size_t lit, size_t off)
{
	size_t i = lit + 1, dec = 0;
	unsigned cp, lo;
	while (json[i] && json[i] != '"' && dec < off) {
		if (json[i] != '\\') {
			i++, dec++;
			continue;
		}
		if (json[i + 1] != 'u' || !hex4(json + i + 2, &cp)) {
			i += 2, dec++;
			continue;
		}
		if (cp >= 0xD800 && cp < 0xDC00 && json[i + 6] == '\\' && json[i + 7] == 'u' &&
		    hex4(json + i + 8, &lo) && lo >= 0xDC00 && lo < 0xE000) {
			i += 12, dec += 4;
			continue;
		}
		i += 6, dec += cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
	}
	return i;
}

/* The offset of the opening quote of server `name`'s "instructions" value. */
static size_t json_instructions(const char *json, const char *name)
{
	size_t k = json_find_string(json, name);
	const char *p = k ? strstr(json + k, "\"instructions\"") : NULL;
	if (!p)
		return 0;
	p += strlen("\"instructions\"");
	while (*p && (isspace((unsigned char)*p) || *p == ':'))
		p++;
	return *p == '"' ? (size_t)(p - json) : 0;
}

static int report_directive(size_t off, size_t len, const char *path, void *payload)
{
	struct directive_ctx *d = payload;
	const char *json = d->g->cfg_text.ptr;
	unsigned long line, col;
	if (d->value)
		clawmd_lint_pos(&line, &col, json, json_raw_offset(json, d->value, off));
	else
		clawmd_lint_pos(&line, &col, json, json_find_string(json, d->m->name));
	int shown_len = len > 200 ? 200 : (int)len;
	clawmd_lint_add(d->g->out, "CM301", d->g->group, d->g->cfg_shown, line, col,
			"drop the '@' or write the path in backticks; compose writes the directive "
			"inside a code span so the model reads it but nothing is imported",
			"mcpServers.%s.instructions has the @ directive '%.*s', which Claude Code "
			"would import",
			d->m->name, shown_len, d->m->instructions + off);
	return 0;
}

/* CM301: @ directives in inline MCP instructions, located at the directive
 * inside the JSON string (escapes accounted for). */
static void lint_mcp(struct group_ctx *g)
{
	if (!g->cfg_ok)
		return;
	for (size_t i = 0; i < g->cfg.nmcp; i++) {
		const struct clawmd_mcp *m = &g->cfg.mcp[i];
		if (!m->instructions)
			continue;
		struct directive_ctx d = {g, m, json_instructions(g->cfg_text.ptr, m->name)};
		clawmd_md_imports(m->instructions, strlen(m->instructions), report_directive, &d);
	}
}

/* CM401, CM402: compare the plan with the disk, as compose --check does. */
static int lint_drift(struct group_ctx *g, struct clawmd_err *err)
{
	struct clawmd_changes ch;
	clawmd_changes_init(&ch);
	int rc = clawmd_changes_compute(&ch, g->lay, &g->plan, err);
	if (rc < 0)
		return rc;
	/* A hand-edited entry shows as a PRESERVE of CLAUDE.md (then its WRITE). */
	const struct clawmd_change *entry = NULL;
	for (size_t i = 0; i < ch.n; i++)
		if (!strcmp(ch.v[i].name, CLAWMD_ENTRY_NAME) &&
		    (!entry || ch.v[i].action == CLAWMD_PRESERVE))
			entry = &ch.v[i];
	if (!ch.n) {
		g->drift = CLAWMD_DRIFT_CLEAN;
	} else if (entry && entry->action != CLAWMD_PRESERVE && entry->old_type == CLAWMD_FT_NONE) {
		g->drift = CLAWMD_DRIFT_NEVER;
		clawmd_lint_add(g->out, "CM402", g->group, g->entry_shown, 1, 1,
				"run 'clawmd compose GROUP' (the container runner does it at every spawn)",
				"%s has never been composed", g->gshown);
	} else if (entry && (entry->action == CLAWMD_PRESERVE ||
			     !clawmd_composed_is_ours(entry->old.ptr ? entry->old.ptr : "",
						      entry->old.len))) {
		g->drift = CLAWMD_DRIFT_HAND_EDITED;
		clawmd_lint_add(g->out, "CM401", g->group, g->entry_shown, 1, 1,
				"put per-group content in CLAUDE.local.md; the next compose moves this "
				"file's content there (or aside) and rewrites CLAUDE.md",
				"%s was not written by clawmd (edited by hand, or a legacy file)",
				g->entry_shown);
	} else {
		g->drift = CLAWMD_DRIFT_CHANGE;
		struct clawmd_buf names = CLAWMD_BUF_INIT;
		for (size_t i = 0; i < ch.n && i < 8; i++)
			clawmd_buf_printf(&names, "%s%s", i ? ", " : "", ch.v[i].name);
		if (ch.n > 8)
			clawmd_buf_printf(&names, ", and %zu more", ch.n - 8);
		clawmd_lint_add(g->out, "CM402", g->group, g->entry_shown, 1, 1,
				"run 'clawmd compose GROUP'; 'clawmd compose --dry-run GROUP' shows the diff",
				"%s is stale: compose would change %s", g->gshown, names.ptr);
		clawmd_buf_release(&names);
	}
	clawmd_changes_release(&ch);
	return 0;
}

/* What the container loads at startup, through the mount table: CM101-CM105
 * and CM201, and the memory size for the budget. */
static int lint_memory(struct group_ctx *g, struct clawmd_err *err)
{
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	int rc = clawmd_layout_mounts(&mounts, &nmounts, g->lay, g->group, err);
	if (rc < 0)
		return rc;
	struct view V = {
		.out = g->out,
		.group = g->group,
		.root = g->lay->root,
		.mounts = mounts,
		.nmounts = nmounts,
	};
	struct clawmd_memory_opts mo = {
		.cwd = g->lay->ct_group,
		.approve_external = g->opts->approve_external || g->lay->approve_external,
		.release = g->lay->claude,
		.mounts = mounts,
		.nmounts = nmounts,
	};
	rc = lint_loaded(&V, &mo, &g->memory_chars, err);
	clawmd_mounts_free(mounts, nmounts);
	return rc;
}

/* CM501-CM503 for the group's rules, as the container sees them. */
static int lint_group_rules(struct group_ctx *g)
{
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	int rc = clawmd_layout_mounts(&mounts, &nmounts, g->lay, g->group, &err);
	if (rc < 0)
		return 0; /* lint_memory reported it */
	struct clawmd_view v = {mounts, nmounts};
	lint_rules_dir(g->out, g->group, &v, g->lay->ct_group, g->lay->root);
	clawmd_mounts_free(mounts, nmounts);
	return 0;
}

static void lint_budget(struct group_ctx *g)
{
	long budget = g->lay->token_budget;
	size_t tokens = (g->memory_chars + 3) / 4;
	if (budget > 0 && tokens > (size_t)budget)
		clawmd_lint_add(g->out, "CM202", g->group, g->entry_shown, 1, 1,
				"drop skills the group does not use (\"skills\" in container.json), trim "
				"CLAUDE.local.md, or raise \"token_budget\" in clawmd.json",
				"%s loads about %zu tokens of memory (%zu characters / 4), over the budget of "
				"%ld",
				g->gshown, tokens, g->memory_chars, budget);
}

/*
 * CM403: CLAUDE.local.md is per-group, agent-written memory; committing it
 * publishes whatever the agent wrote.  Only when `dir` is in the work tree
 * of the repository found from `repo_dir` (ROOT for a group: a repository
 * the agent made inside its group is never opened).
 *
 * libgit2 must not read anything in the group: a FIFO .gitignore would
 * hang it, a symlinked one would read a host file.  So clawmd reads the
 * .gitignore files from the work tree's top down to `dir` itself (O_NOFOLLOW,
 * O_NONBLOCK, regular files only, bounded; git does not follow a symlinked
 * .gitignore either), turns each into rules relative to the top (a pattern
 * without an inner slash matches below its directory: "d/" + "**" + "/p";
 * with one, it is anchored there: "d/p"), and hands them to libgit2 as
 * in-memory rules, with libgit2's work tree pointed at the git directory,
 * where no .gitignore is.  info/exclude and core.excludesFile still apply.
 */
#define IGNORE_FILE_MAX (1024 * 1024)

static void ignore_rules(struct clawmd_buf *out, const char *text, const char *rel)
{
	for (const char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		char *line = clawmd_xstrndup(l, n);
		l += n + (l[n] == '\n');
		const char *p = line;
		bool neg = *p == '!';
		p += neg;
		size_t pl = strlen(p);
		if (!pl || line[0] == '#' || !*rel) {
			if (pl && line[0] != '#')
				clawmd_buf_printf(out, "%s\n", line);
			free(line);
			continue;
		}
		/* an inner slash anchors the pattern to its directory */
		bool anchored = false;
		for (size_t i = 0; i + 1 < pl; i++)
			anchored = anchored || p[i] == '/';
		clawmd_buf_puts(out, neg ? "!" : "");
		for (const char *c = rel; *c; c++) {
			if (strchr("*?[]\\!#", *c))
				clawmd_buf_putc(out, '\\');
			clawmd_buf_putc(out, *c);
		}
		clawmd_buf_printf(out, "%s%s\n", anchored ? "/" : "/**/", p + (p[0] == '/'));
		free(line);
	}
}

static void ignore_file(struct clawmd_buf *rules, const char *top, const char *rel)
{
	char *path = *rel ? clawmd_xasprintf("%s/%s/.gitignore", top, rel)
			  : clawmd_xasprintf("%s/.gitignore", top);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	free(path);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= IGNORE_FILE_MAX) {
		struct clawmd_buf b = CLAWMD_BUF_INIT;
		char chunk[8192];
		ssize_t k;
		clawmd_buf_put(&b, "", 0);
		while (b.len <= IGNORE_FILE_MAX && (k = read(fd, chunk, sizeof(chunk))) > 0)
			clawmd_buf_put(&b, chunk, (size_t)k);
		if (b.len <= IGNORE_FILE_MAX && !memchr(b.ptr, '\0', b.len))
			ignore_rules(rules, b.ptr, rel);
		clawmd_buf_release(&b);
	}
	close(fd);
}

static void clawmd_lint_local_ignored(struct clawmd_findings *out, const char *group,
				      const char *repo_dir, const char *dir, const char *shown)
{
	struct clawmd_err gerr = CLAWMD_ERR_INIT;
	const struct clawmd_git *git = clawmd_git(&gerr);
	git_repository *repo = NULL;
	char *rdir = NULL, *rwd = NULL, *rel = NULL;
	struct clawmd_buf rules = CLAWMD_BUF_INIT;
	if (!git || git->git_repository_open_ext(&repo, repo_dir, 0, NULL) < 0)
		return;
	const char *wd = git->git_repository_workdir(repo);
	if (!wd || !(rdir = realpath(dir, NULL)) || !(rwd = realpath(wd, NULL)))
		goto out;
	if (!path_under(rdir, rwd))
		goto out;
	const char *rest = rdir + strlen(rwd);
	while (*rest == '/')
		rest++;
	/* the .gitignore files from the top down to dir */
	clawmd_buf_put(&rules, "", 0);
	ignore_file(&rules, rwd, "");
	for (const char *c = rest; *c; c++)
		if (c[1] == '/' || !c[1]) {
			char *sub = clawmd_xstrndup(rest, (size_t)(c - rest + 1));
			ignore_file(&rules, rwd, sub);
			free(sub);
		}
	rel = *rest ? clawmd_xasprintf("%s/%s", rest, CLAWMD_LOCAL_NAME)
		    : clawmd_xstrdup(CLAWMD_LOCAL_NAME);
	int ignored = 0;
	if (git->git_repository_set_workdir(repo, git->git_repository_path(repo), 0) == 0 &&
	    (!rules.len || git->git_ignore_add_rule(repo, rules.ptr) == 0) &&
	    git->git_ignore_path_is_ignored(&ignored, repo, rel) == 0 && !ignored)
		clawmd_lint_add(out, "CM403", group, shown, 1, 1,
				"add 'CLAUDE.local.md' to .gitignore (per-group memory is written by the "
				"agent and is not for the repository)",
				"%s is not ignored by git", rel);
out:
	clawmd_buf_release(&rules);
	free(rel);
	free(rdir);
	free(rwd);
	git->git_repository_free(repo);
}

static void group_ctx_release(struct group_ctx *g)
{
	free(g->gpath);
	free(g->gshown);
	free(g->cfg_shown);
	free(g->entry_shown);
	clawmd_buf_release(&g->cfg_text);
	clawmd_config_release(&g->cfg);
	clawmd_plan_release(&g->plan);
}

static int lint_group(struct group_ctx *g, struct clawmd_findings *out,
		      const struct clawmd_layout *lay, const char *group,
		      const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	static const struct clawmd_lint_opts defaults = {0};
	struct stat st;
	int rc;
	memset(g, 0, sizeof(*g));
	clawmd_config_init(&g->cfg);
	clawmd_plan_init(&g->plan);
	g->out = out;
	g->lay = lay;
	g->opts = opts ? opts : &defaults;
	g->group = group;
	g->drift = CLAWMD_DRIFT_INVALID;
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "invalid group name '%s' (names match [A-Za-z0-9][A-Za-z0-9._-]{0,63})",
				      group);
	g->gpath = clawmd_path_join(lay->groups, group);
	g->gshown = clawmd_lint_shown(lay->root, g->gpath);
	g->cfg_shown = clawmd_xasprintf("%s/%s", g->gshown, CLAWMD_CONFIG_NAME);
	g->entry_shown = clawmd_xasprintf("%s/%s", g->gshown, CLAWMD_ENTRY_NAME);
	if (lstat(g->gpath, &st) < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not open group '%s'", g->gshown);
	if (!S_ISDIR(st.st_mode))
		return clawmd_err_set(err, CLAWMD_EFS, "group '%s' is not a directory (a symlink?)",
				      g->gshown);

	lint_config(g, err);
	if (err->code)
		return err->code;
	lint_skills(g);
	lint_mcp(g);
	if (g->cfg_ok) {
		if ((rc = clawmd_plan_build(&g->plan, lay, group, err)) < 0)
			return rc;
		g->planned = true;
		if ((rc = lint_drift(g, err)) < 0)
			return rc;
	}
	if ((rc = lint_memory(g, err)) < 0)
		return rc;
	lint_budget(g);
	char *local = clawmd_path_join(g->gshown, CLAWMD_LOCAL_NAME);
	clawmd_lint_local_ignored(out, group, lay->root, g->gpath, local);
	free(local);
	if ((rc = lint_group_rules(g)) < 0)
		return rc;
	return 0;
}

int clawmd_lint_group(struct clawmd_findings *out, const struct clawmd_layout *lay,
		      const char *group, const struct clawmd_lint_opts *opts,
		      struct clawmd_err *err)
{
	struct group_ctx g;
	int rc = lint_group(&g, out, lay, group, opts, err);
	group_ctx_release(&g);
	return rc;
}

/* ---- status ------------------------------------------------------------- */

void clawmd_group_status_init(struct clawmd_group_status *st)
{
	memset(st, 0, sizeof(*st));
}

void clawmd_group_status_release(struct clawmd_group_status *st)
{
	if (!st)
		return;
	free(st->group);
	clawmd_strv_free(st->skills, st->nskills);
	clawmd_strv_free(st->fragments, st->nfragments);
	clawmd_group_status_init(st);
}

int clawmd_group_status_get(struct clawmd_group_status *out, const struct clawmd_layout *lay,
			    const char *group, const struct clawmd_lint_opts *opts,
			    struct clawmd_err *err)
{
	struct clawmd_findings f;
	struct group_ctx g;
	clawmd_group_status_init(out);
	clawmd_findings_init(&f);
	int rc = lint_group(&g, &f, lay, group, opts, err);
	out->group = clawmd_xstrdup(group);
	if (rc < 0)
		goto out;
	out->drift = g.drift;
	out->all_skills = g.cfg_ok && g.cfg.all_skills;
	out->memory_chars = g.memory_chars;
	out->tokens = (g.memory_chars + 3) / 4;
	out->nfindings = f.n;
	out->nerrors = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
	if (g.planned) {
		size_t cap = 0, scap = 0;
		static const char skill_prefix[] = CLAWMD_FRAGMENTS_DIR "/skill-";
		for (size_t i = 0; i + 1 < g.plan.n; i++) {
			const char *name = g.plan.entries[i].name;
			clawmd_xgrow(&out->fragments, &cap, out->nfragments + 1, sizeof(char *));
			out->fragments[out->nfragments++] = clawmd_xstrdup(name);
			if (!strncmp(name, skill_prefix, sizeof(skill_prefix) - 1)) {
				const char *s = name + sizeof(skill_prefix) - 1;
				clawmd_xgrow(&out->skills, &scap, out->nskills + 1, sizeof(char *));
				out->skills[out->nskills++] = clawmd_xstrndup(s, strlen(s) - 3);
			}
		}
	}
out:
	group_ctx_release(&g);
	clawmd_findings_release(&f);
	return rc;
}
