/* lint.c - the findings behind `clawmd check` and the per-group summary
 * behind `clawmd status`.  Reads only; never writes, never takes a lock. */
#include "clawmd.h"
#include "frontmatter.h"
#include "fs.h"
#include "match.h"
#include "git.h"
#include "util.h"

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
				      const char *dir, const char *shown);

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

/* Read a host file (following symlinks: host-owned) of at most `max` bytes.
 * 0, 1 when missing or not a regular file, negative when unreadable. */
static int clawmd_lint_read(struct clawmd_buf *out, const char *path, size_t max)
{
	struct stat st;
	clawmd_buf_clear(out);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == ELOOP ? 1 : -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	for (;;) {
		clawmd_buf_grow(out, 8192);
		ssize_t r = read(fd, out->ptr + out->len, out->cap - out->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			if (!out->ptr)
				clawmd_buf_put(out, "", 0);
			return r < 0 ? -1 : 0;
		}
		out->len += (size_t)r;
		out->ptr[out->len] = '\0';
		if (out->len > max) {
			close(fd);
			return 0; /* enough to know it is too large */
		}
	}
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

/* Files below `base`, relative to it (not .git; symlinked dirs not entered). */
struct file_list {
	char **v;
	size_t n, cap;
};

#define TREE_FILES_MAX 200000
#define TREE_DEPTH_MAX 32

static void list_files(struct file_list *fl, const char *base, const char *rel, int depth)
{
	char *dir = rel ? clawmd_path_join(base, rel) : clawmd_xstrdup(base);
	DIR *d = depth <= TREE_DEPTH_MAX ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)) && fl->n < TREE_FILES_MAX) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".git"))
			continue;
		char *r = rel ? clawmd_xasprintf("%s/%s", rel, e->d_name) : clawmd_xstrdup(e->d_name);
		char *full = clawmd_path_join(dir, e->d_name);
		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			list_files(fl, base, r, depth + 1);
			free(r);
		} else {
			clawmd_xgrow(&fl->v, &fl->cap, fl->n + 1, sizeof(char *));
			fl->v[fl->n++] = r;
		}
		free(full);
	}
	if (d)
		closedir(d);
	free(dir);
}

struct rules_ctx {
	struct clawmd_findings *out;
	const char *group;
	const char *base;  /* globs are relative to it: the parent of .claude */
	const char *root;  /* findings show paths relative to it */
	struct file_list files;
	bool listed;
	int depth;
};

static void lint_rule_file(struct rules_ctx *rc, const char *path)
{
	struct clawmd_buf data = CLAWMD_BUF_INIT;
	struct clawmd_frontmatter cf;
	if (clawmd_lint_read(&data, path, MEMORY_READ_MAX) != 0) {
		clawmd_buf_release(&data);
		return;
	}
	/* The loader's frontmatter code decides, and says where. */
	clawmd_frontmatter_parse(&cf, data.ptr, data.len);
	if (!cf.block)
		goto out_data;
	char *shown = clawmd_lint_shown(rc->root, path);
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
	if (cf.nglobs) {
		if (!rc->listed) {
			list_files(&rc->files, rc->base, NULL, 0);
			rc->listed = true;
		}
		bool any = false;
		for (size_t i = 0; i < rc->files.n && !any; i++)
			any = clawmd_globs_match(cf.globs, cf.nglobs, rc->files.v[i]);
		if (!any) {
			struct clawmd_buf list = CLAWMD_BUF_INIT;
			for (size_t i = 0; i < cf.nglobs; i++)
				clawmd_buf_printf(&list, "%s'%s'", i ? ", " : "", cf.globs[i]);
			char *bshown = clawmd_lint_shown(rc->root, rc->base);
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

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lint_rules_walk(struct rules_ctx *rc, const char *dir)
{
	DIR *d = rc->depth <= 16 ? opendir(dir) : NULL;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		clawmd_xgrow(&names, &cap, n + 1, sizeof(char *));
		names[n++] = clawmd_xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(char *), name_cmp);
	for (size_t i = 0; i < n; i++) {
		char *p = clawmd_path_join(dir, names[i]);
		struct stat st;
		size_t l = strlen(names[i]);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc->depth++;
			lint_rules_walk(rc, p);
			rc->depth--;
		} else if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && l > 3 &&
			   !strcmp(names[i] + l - 3, ".md")) {
			lint_rule_file(rc, p);
		}
		free(p);
	}
	clawmd_strv_free(names, n);
}

/* CM501, CM502 for the rules under `base`/.claude/rules. */
static void lint_rules_dir(struct clawmd_findings *out, const char *group, const char *base,
			   const char *root)
{
	struct rules_ctx rc = {out, group, base, root, {0}, false, 0};
	char *dir = clawmd_path_join(base, ".claude/rules");
	lint_rules_walk(&rc, dir);
	free(dir);
	clawmd_strv_free(rc.files.v, rc.files.n);
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
	const struct clawmd_plan *plan; /* a group's plan: findings in what compose
					   wrote point at the source instead */
	const char *gpath;	/* the group's host directory */
	const struct clawmd_mount *mounts; /* NULL: the host view */
	size_t nmounts;
};

/*
 * The host file a group file comes from: a copied fragment's source, a file
 * inside a copied fragment directory, a symlinked fragment's target (through
 * the mount table); else the file itself.  Findings point there, since the
 * copy is compose's output and the fix belongs in the source.  Takes `host`.
 */
static char *source_of(const struct view *V, char *host)
{
	size_t gl = V->gpath ? strlen(V->gpath) : 0;
	if (!V->plan || !host || strncmp(host, V->gpath, gl) || host[gl] != '/')
		return host;
	const char *rel = host + gl + 1;
	for (size_t i = 0; i < V->plan->n; i++) {
		const struct clawmd_entry *e = &V->plan->entries[i];
		size_t nl = strlen(e->name);
		char *src = NULL;
		if (e->type == CLAWMD_FT_DIR && e->source && !strncmp(rel, e->name, nl) &&
		    rel[nl] == '/')
			src = clawmd_path_join(e->source, rel + nl + 1);
		else if (strcmp(rel, e->name))
			continue;
		else if (e->source)
			src = clawmd_xstrdup(e->source);
		else if (e->type == CLAWMD_FT_LINK)
			src = clawmd_mounts_to_host(V->mounts, V->nmounts, e->data);
		if (src) {
			free(host);
			return src;
		}
	}
	return host;
}

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
	char *host = source_of(V, to_host(V, vpath));
	char *s = clawmd_lint_shown(V->root, host ? host : vpath);
	free(host);
	return s;
}

static bool in_limit(const struct view *V, const char *vpath)
{
	return !V->limit || path_under(vpath, V->limit);
}

/* The position of the import "@raw" in the host file behind `from`: the
 * first occurrence that starts the text or follows whitespace. */
static void import_pos(const struct view *V, const char *from, const char *raw,
		       unsigned long *line, unsigned long *col)
{
	struct clawmd_buf data = CLAWMD_BUF_INIT;
	char *host = to_host(V, from);
	*line = *col = 1;
	if (host && clawmd_lint_read(&data, host, MEMORY_READ_MAX) == 0) {
		char *tok = clawmd_xasprintf("@%s", raw);
		const char *p = data.ptr;
		while ((p = strstr(p, tok)) && p != data.ptr && !isspace((unsigned char)p[-1]))
			p++;
		if (p)
			clawmd_lint_pos(line, col, data.ptr, (size_t)(p - data.ptr));
		free(tok);
	}
	free(host);
	clawmd_buf_release(&data);
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
		hint = V->mounts ? "use copy mode (the default; \"mode\": \"copy\" in clawmd.json) so "
				   "fragments are regular files inside the agent's directory, or, when the "
				   "host approves external includes, say so (\"approve_external\": true)"
				 : "move the file inside the directory, or approve external includes for "
				   "the project";
		fmt = "@%s resolves to %s, outside the working directory: Claude Code drops it in "
		      "headless runs unless external includes are approved";
		break;
	default:
		return;
	}
	unsigned long line, col;
	import_pos(V, imp->from, imp->raw, &line, &col);
	char *file = shown_of(V, imp->from);
	/* In a copied fragment (copy mode), only imports that stay inside its
	 * skill or module directory come along. */
	char *fhost = to_host(V, imp->from);
	bool copied = fhost && strstr(fhost, "/" CLAWMD_FRAGMENTS_DIR "/") && V->plan &&
		      !strstr(file, "/" CLAWMD_FRAGMENTS_DIR "/");
	free(fhost);
	if (copied && imp->status == CLAWMD_IMPORT_MISSING && !clawmd_text_extension(imp->path)) {
		/* Not copied because Claude Code would not load it anyway:
		 * say so as through the symlink. */
		code = "CM104";
		hint = "import a text file (.md, .txt, ...) or convert the content";
		fmt = "@%s: %s does not have a text extension, so Claude Code skips it";
	} else if (copied && imp->status == CLAWMD_IMPORT_MISSING)
		hint = "the fragment is copied into the group (copy mode) with the files it imports "
		       "from inside its skill or module directory: keep the file there, or fix the "
		       "path";
	char *disp = display(V, imp->path);
	char *host = to_host(V, imp->path), target[PATH_MAX];
	ssize_t tl;
	if (imp->status == CLAWMD_IMPORT_EXTERNAL && host &&
	    (tl = readlink(host, target, sizeof(target) - 1)) > 0) {
		/* A symlink (a fragment): show where it leads. */
		target[tl] = '\0';
		free(disp);
		disp = clawmd_xstrdup(target);
		fmt = "@%s is a symlink to %s, outside the working directory: Claude Code 2.1.232 "
		      "and later drop it in headless runs unless external includes are approved";
	}
	free(host);
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
static int lint_loaded(const struct view *V, const struct clawmd_memory_opts *base,
		       size_t *chars, struct clawmd_err *err)
{
	struct clawmd_memory m;
	struct clawmd_memory_opts o = *base;
	int rc;
	*chars = 0;
	if (!base->approve_external) {
		clawmd_memory_init(&m);
		if ((rc = clawmd_memory_load(&m, &o, err)) < 0) {
			clawmd_memory_release(&m);
			return rc;
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
		return rc;
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
	return 0;
}

/* ---- a tree ------------------------------------------------------------- */

/* Every directory below `dir` that holds .claude/rules, for nested memory. */
static void lint_tree_rules(struct clawmd_findings *out, const char *dir, const char *root,
			    int depth)
{
	char *rules = clawmd_path_join(dir, ".claude/rules");
	struct stat st;
	if (stat(rules, &st) == 0 && S_ISDIR(st.st_mode))
		lint_rules_dir(out, NULL, dir, root);
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
			clawmd_lint_local_ignored(out, NULL, real, CLAWMD_LOCAL_NAME);
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
	if (!clawmd_changes_drift(&ch)) {
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
		.plan = g->planned ? &g->plan : NULL,
		.gpath = g->gpath,
	};
	struct clawmd_memory_opts mo = {
		.cwd = g->lay->ct_group,
		.approve_external = g->opts->approve_external || g->lay->approve_external,
		.mounts = mounts,
		.nmounts = nmounts,
	};
	/* The host's setting sources decide what loads natively (nanoclaw
	 * leaves out local: CLAUDE.local.md only loads when imported). */
	mo.no_user = g->lay->no_user;
	mo.no_project = g->lay->no_project;
	mo.no_local = g->lay->no_local;
	rc = lint_loaded(&V, &mo, &g->memory_chars, err);
	clawmd_mounts_free(mounts, nmounts);
	return rc;
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

/* CM403: CLAUDE.local.md is per-group, agent-written memory; committing it
 * publishes whatever the agent wrote.  Only when the group is in a work tree. */
static void clawmd_lint_local_ignored(struct clawmd_findings *out, const char *group, const char *dir,
			       const char *shown)
{
	struct clawmd_err gerr = CLAWMD_ERR_INIT;
	const struct clawmd_git *git = clawmd_git(&gerr);
	git_repository *repo = NULL;
	char *rdir = NULL, *rwd = NULL;
	if (!git || git->git_repository_open_ext(&repo, dir, 0, NULL) < 0)
		return;
	const char *wd = git->git_repository_workdir(repo);
	if (!wd || !(rdir = realpath(dir, NULL)) || !(rwd = realpath(wd, NULL)))
		goto out;
	if (!path_under(rdir, rwd))
		goto out;
	const char *rest = rdir + strlen(rwd);
	while (*rest == '/')
		rest++;
	char *rel = *rest ? clawmd_xasprintf("%s/%s", rest, CLAWMD_LOCAL_NAME)
			  : clawmd_xstrdup(CLAWMD_LOCAL_NAME);
	int ignored = 0;
	if (git->git_ignore_path_is_ignored(&ignored, repo, rel) == 0 && !ignored)
		clawmd_lint_add(out, "CM403", group, shown, 1, 1,
				"add 'CLAUDE.local.md' to .gitignore (per-group memory is written by the "
				"agent and is not for the repository)",
				"%s is not ignored by git", rel);
	free(rel);
out:
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
	clawmd_lint_local_ignored(out, group, g->gpath, local);
	free(local);
	lint_rules_dir(out, group, g->gpath, lay->root);
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
			const struct clawmd_entry *e = &g.plan.entries[i];
			const char *name = e->name;
			bool dir = e->type == CLAWMD_FT_DIR;
			clawmd_xgrow(&out->fragments, &cap, out->nfragments + 1, sizeof(char *));
			/* A copied fragment directory: the entry imports its first file. */
			out->fragments[out->nfragments++] =
				dir ? clawmd_xasprintf("%s/%s", name, e->files[0].name) : clawmd_xstrdup(name);
			if (!strncmp(name, skill_prefix, sizeof(skill_prefix) - 1)) {
				const char *s = name + sizeof(skill_prefix) - 1;
				clawmd_xgrow(&out->skills, &scap, out->nskills + 1, sizeof(char *));
				out->skills[out->nskills++] = clawmd_xstrndup(s, strlen(s) - (dir ? 0 : 3));
			}
		}
	}
out:
	group_ctx_release(&g);
	clawmd_findings_release(&f);
	return rc;
}
