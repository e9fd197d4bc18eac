/* lint.c - the findings behind `clawmd check` and the per-group summary
 * behind `clawmd status`.  Reads only; never writes, never takes a lock. */
#include "clawmd.h"
#include "group/group.h"
#include "claude/frontmatter.h"
#include "fs/fs.h"
#include "claude/match.h"
#include "sys/git.h"
#include "compose/state.h"
#include "base/util.h"
#include "fs/view.h"

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

/*
 * Sorted by code.  A code never changes meaning; retired codes stay listed.
 * Each rule carries what SARIF consumers (code scanning) show: a one-line
 * summary, a full description, and what to do about it.
 */
static const struct clawmd_lint_rule lint_rules[] = {
	{"CM101", "import-missing", CLAWMD_SEV_ERROR,
	 "An @ import names a file that does not exist.",
	 "An @ import in a memory file names a file that does not exist or is not a readable "
	 "regular file. For a group the path is resolved as the container sees it, through the "
	 "mount table, so a file that exists only on the host is missing too. Claude Code "
	 "silently loads nothing for it.",
	 "Create the file or fix the path. For a group, add a mount for it (\"mounts\" in "
	 "clawmd.json) when it lives outside the mounted directories."},
	{"CM102", "import-cycle", CLAWMD_SEV_WARNING,
	 "An @ import leads back to a file already being loaded.",
	 "An @ import leads back to a file that is already being loaded. Claude Code loads each "
	 "file once, so the cycle loads nothing more and only hides the order in which files "
	 "appear.",
	 "Remove one of the imports that form the cycle."},
	{"CM103", "import-too-deep", CLAWMD_SEV_ERROR,
	 "An @ import is a fifth-level import, which Claude Code does not load.",
	 "Claude Code follows @ imports at most four hops below a top-level memory file (its "
	 "MAX_INCLUDE_DEPTH is 5, counting the top-level file as 0). An import at the fifth "
	 "level is not loaded, and its own imports are not followed.",
	 "Import the file from a shallower level, at most four hops below a top-level memory "
	 "file."},
	{"CM104", "import-not-text", CLAWMD_SEV_ERROR,
	 "An @ import names a file Claude Code does not load as text.",
	 "An @ import names a file whose extension is not on Claude Code's list of text "
	 "extensions (for example .png), so it is silently skipped.",
	 "Import a text file (.md, .txt, ...) or convert the content."},
	{"CM105", "import-external-dropped", CLAWMD_SEV_ERROR,
	 "An @ import leaves the working directory and a headless Claude Code drops it.",
	 "An @ import resolves, by its path or its real path, outside the working directory. "
	 "Claude Code 2.1.232 and later drop such an import in headless runs unless external "
	 "includes were approved for the project. In clawmd's default symlink mode this is every "
	 "symlinked fragment.",
	 "Compose with --mode copy (\"mode\": \"copy\" in clawmd.json) so fragments are regular "
	 "files inside the agent's directory, or approve external includes for the project and "
	 "pass --approve-external."},
	{"CM201", "file-too-large", CLAWMD_SEV_WARNING,
	 "A memory file is over 40,000 characters.",
	 "A memory file is over 40,000 characters, Claude Code's size warning threshold. Large "
	 "memory files crowd the context of every session.",
	 "Split the file, or move rarely needed parts into path-scoped rules (.claude/rules with "
	 "paths: frontmatter)."},
	{"CM202", "memory-over-budget", CLAWMD_SEV_WARNING,
	 "The memory a group loads is over the token budget.",
	 "Everything a group loads at startup is over the token budget (characters / 4; "
	 "\"token_budget\" in clawmd.json, default 20000).",
	 "Drop skills the group does not use (\"skills\" in container.json), trim CLAUDE.local.md, "
	 "or raise \"token_budget\" in clawmd.json."},
	{"CM301", "mcp-import-directive", CLAWMD_SEV_WARNING,
	 "Inline MCP instructions contain an @ directive.",
	 "Inline MCP instructions in container.json contain an @ directive that Claude Code would "
	 "import from the MCP fragment. Compose defuses it into a code span, so the model reads "
	 "the text but nothing is imported; the finding says whether the fragment on disk is "
	 "defused or still live (written before defusing, or edited since).",
	 "Drop the '@' or write the path in backticks. A live directive disappears at the next "
	 "compose."},
	{"CM302", "config-invalid", CLAWMD_SEV_ERROR,
	 "container.json is invalid.",
	 "The group's container.json is malformed or has a bad name or type. Compose refuses "
	 "the group until it is fixed.",
	 "Fix container.json: names match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, \"skills\" is \"all\" "
	 "or an array of names, instructions are strings."},
	{"CM303", "skill-unknown", CLAWMD_SEV_ERROR,
	 "container.json selects a skill that does not exist.",
	 "container.json selects a skill that has no directory under the skills directory, so the "
	 "group gets no fragment for it.",
	 "Remove the skill from \"skills\", or add the skill's directory."},
	{"CM304", "config-unknown-key", CLAWMD_SEV_WARNING,
	 "container.json has a misspelt key, which is ignored.",
	 "A top-level key of container.json looks like a misspelling of a key clawmd reads "
	 "(skills, mcpServers, cli_scope). It is ignored, so for example a misspelt \"skills\" "
	 "means every skill. Keys far from clawmd's belong to other tools and pass silently.",
	 "Spell the key as suggested."},
	{"CM305", "layout-unknown-key", CLAWMD_SEV_WARNING,
	 "clawmd.json has a key clawmd does not know, which is ignored.",
	 "A key of clawmd.json is not one clawmd knows, so it is ignored and its default stands.",
	 "Spell the key as suggested, or remove it. The keys are listed in the README under "
	 "\"Layout and clawmd.json\"."},
	{"CM401", "entry-hand-edited", CLAWMD_SEV_ERROR,
	 "The composed CLAUDE.md was edited by hand.",
	 "The group's CLAUDE.md is not clawmd's output: it was edited by hand, or is a legacy "
	 "file. The next compose moves its content into CLAUDE.local.md (or aside) and rewrites "
	 "it.",
	 "Put per-group content in CLAUDE.local.md."},
	{"CM402", "entry-stale", CLAWMD_SEV_ERROR,
	 "Compose would change the group.",
	 "Compose would change the group: it was never composed, or a source, container.json or "
	 "the layout changed since. This is what compose --check fails on.",
	 "Run clawmd compose for the group; clawmd compose --dry-run shows the diff."},
	{"CM403", "local-not-ignored", CLAWMD_SEV_WARNING,
	 "CLAUDE.local.md is not ignored by git.",
	 "The group's CLAUDE.local.md is inside a git work tree and not ignored. It holds what "
	 "the agent writes; committing it publishes that.",
	 "Add CLAUDE.local.md to .gitignore (clawmd init writes that line)."},
	{"CM404", "preserved-leftover", CLAWMD_SEV_WARNING,
	 "Content compose moved aside is waiting for review.",
	 "Compose never deletes content it did not write: a hand-edited CLAUDE.md it could not "
	 "carry into CLAUDE.local.md, or anything of the wrong type where a fragment belongs, is "
	 "renamed to NAME.clawmd-preserved-TIME-RANDOM. Such a file stays until someone looks "
	 "at it.",
	 "Review the file, keep what matters (in CLAUDE.local.md), then delete it."},
	{"CM501", "frontmatter-invalid", CLAWMD_SEV_ERROR,
	 "A rule's frontmatter does not parse.",
	 "A rule's frontmatter does not parse even after Claude Code's quoting retry, so the rule "
	 "loads unconditionally, everywhere.",
	 "Fix the YAML between the '---' lines; quote values with special characters."},
	{"CM502", "paths-no-match", CLAWMD_SEV_WARNING,
	 "A rule's paths: globs match no file.",
	 "A rule's paths: globs (gitignore semantics, relative to the directory that holds "
	 ".claude) match no file in the tree, so the rule never loads.",
	 "Fix the globs, or delete the rule if its files are gone."},
	{"CM503", "paths-too-many", CLAWMD_SEV_WARNING,
	 "A rule's paths: expand to more than 256 patterns.",
	 "A rule's paths: globs expand, through brace groups, to more than 256 patterns (26 "
	 "groups of {a,b} would be 67 million). clawmd keeps the first 256 and matches nothing "
	 "past them; Claude Code would try to expand them all.",
	 "Write fewer brace groups, or split the rule."},
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
 * for a group.  Lint runs it with external includes approved, to reach and
 * lint everything below them too, as a run that approves them would load
 * it; and, when that load met anything outside the working directory, as
 * the host is configured too, to see which imports the external gate
 * drops (CM105).  Import findings are placed at the '@' of
 * the import in the importing file.
 */

struct view {
	struct clawmd_findings *out;
	const char *group;
	const char *root;  /* findings are shown relative to it (host paths) */
	const char *limit; /* only files below it (view paths); NULL: all */
	struct pos_cache *pos; /* the file import_pos read last */
	const struct clawmd_plan *plan; /* a group's plan: findings in what compose
					   wrote point at the source instead */
	const char *gpath;	/* the group's host directory */
	const struct clawmd_mount *mounts; /* NULL: the host view */
	size_t nmounts;
};

/* import_pos reads each importing file once, and scans it once, so that
 * N imports in one file cost O(size + N), not O(size * N). */
struct pos_cache {
	char *file;
	struct clawmd_buf data;
	int rc;
	size_t from; /* where the previous import was found */
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
	char *host = source_of(V, to_host(V, vpath));
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
		hint = "import the file from a shallower level; Claude Code follows imports at most "
		       "four hops below a top-level memory file";
		fmt = "@%s (%s) would be a fifth-level import: Claude Code follows four hops below a "
		      "top-level memory file and does not load it";
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
	if (copied) {
		/* The missing file is where the user creates it, the source
		 * (skills/b/details.md), not its copy in the group. */
		char *h = to_host(V, imp->path), *was = h ? clawmd_xstrdup(h) : NULL;
		char *src = source_of(V, h);
		if (src && was && strcmp(src, was)) {
			free(disp);
			disp = clawmd_lint_shown(V->root, src);
		}
		free(src);
		free(was);
	}
	struct clawmd_view cv = {V->mounts, V->nmounts};
	char *target = NULL;
	if (imp->status == CLAWMD_IMPORT_EXTERNAL &&
	    clawmd_view_readlink(&cv, imp->path, &target) == 0) {
		/* A symlink (a fragment): show where it leads. */
		free(disp);
		disp = target;
		fmt = "@%s is a symlink to %s, outside the working directory: Claude Code 2.1.232 "
		      "and later drop it in headless runs unless external includes are approved";
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
	struct clawmd_memory m, gated;
	struct clawmd_memory_opts o = *base;
	int rc;
	*chars = 0;
	/* The approved load first: when nothing in it led outside the working
	 * directory, the load as configured is the same load, so it is run
	 * (for its CM105) only when something did. */
	o.approve_external = true;
	clawmd_memory_init(&m);
	if ((rc = clawmd_memory_load(&m, &o, err)) < 0) {
		clawmd_memory_release(&m);
		goto out;
	}
	if (!base->approve_external && m.external_met) {
		clawmd_memory_init(&gated);
		if ((rc = clawmd_memory_load(&gated, base, err)) < 0) {
			clawmd_memory_release(&gated);
			clawmd_memory_release(&m);
			goto out;
		}
		for (size_t i = 0; i < gated.nimports; i++)
			if (gated.imports[i].status == CLAWMD_IMPORT_EXTERNAL &&
			    in_limit(V, gated.imports[i].from))
				report_import(V, &gated.imports[i]);
		clawmd_memory_release(&gated);
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
	struct clawmd_group *grp;
	struct clawmd_dir gd; /* the handle's directory (not owned) */
	char *gshown;	  /* as shown: relative to ROOT */
	char *cfg_shown;  /* container.json as shown */
	char *entry_shown;
	const struct clawmd_buf *cfg_text;	  /* the handle's container.json */
	const struct clawmd_group_config *cfg;
	char *cfg_prefix; /* how the handle names container.json in messages */
	bool cfg_ok;
	struct clawmd_plan plan;
	bool planned;
	enum clawmd_drift drift;
	size_t memory_chars;
	size_t npreserved;
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
	int rc = clawmd_group_config(&g->cfg, g->grp, &perr);
	g->cfg_text = &g->grp->config_text;
	if (rc == 0) {
		g->cfg_ok = true;
		for (size_t i = 0; i < g->cfg->nunknown; i++) {
			unsigned long line, col;
			const char *msg = g->cfg->warnings[i];
			size_t sl = strlen(g->cfg_prefix);
			if (!strncmp(msg, g->cfg_prefix, sl) && msg[sl] == ':')
				msg += sl + 2;
			clawmd_lint_pos(&line, &col, g->cfg_text->ptr,
					json_find_string(g->cfg_text->ptr, g->cfg->unknown_keys[i]));
			clawmd_lint_add(g->out, "CM304", g->group, g->cfg_shown, line, col,
					"spell the key as suggested; as it is, clawmd ignores it",
					"%s", msg);
		}
		return;
	}
	/* The message names the file first; findings carry it separately. */
	const char *msg = perr.msg;
	unsigned long line = 1, col = 1;
	size_t sl = strlen(g->cfg_prefix);
	if (!strncmp(msg, g->cfg_prefix, sl)) {
		msg += sl;
		if (sscanf(msg, ":%lu:%lu:", &line, &col) != 2)
			line = col = 1;
		while (*msg == ':' || (*msg >= '0' && *msg <= '9'))
			msg++;
		while (*msg == ' ')
			msg++;
	}
	if (line == 1 && col == 1 && g->cfg_text->ptr && !memchr(g->cfg_text->ptr, '\0', g->cfg_text->len)) {
		/* Point at the offending value ("... '../x'"), else at the key the
		 * message starts with ("skills[2]: ..."). */
		const char *q = strchr(msg, '\'');
		const char *qe = q ? strchr(q + 1, '\'') : NULL;
		size_t kl = strcspn(msg, "[.: ");
		char *tok = qe && qe > q + 1 ? clawmd_xstrndup(q + 1, (size_t)(qe - q - 1))
					   : clawmd_xstrndup(msg, kl);
		size_t at = tok[0] ? json_find_string(g->cfg_text->ptr, tok) : 0;
		if (!at && qe) {
			free(tok);
			tok = clawmd_xstrndup(msg, kl);
			at = tok[0] ? json_find_string(g->cfg_text->ptr, tok) : 0;
		}
		if (at)
			clawmd_lint_pos(&line, &col, g->cfg_text->ptr, at - 1);
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
	if (!g->cfg_ok || g->cfg->all_skills)
		return;
	for (size_t i = 0; i < g->cfg->nskills; i++) {
		char *dir = clawmd_path_join(g->lay->skills, g->cfg->skills[i]);
		struct stat st;
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			unsigned long line, col;
			clawmd_lint_pos(&line, &col, g->cfg_text->ptr,
					json_find_string(g->cfg_text->ptr, g->cfg->skills[i]));
			char *shown = clawmd_lint_shown(g->lay->root, dir);
			clawmd_lint_add(g->out, "CM303", g->group, g->cfg_shown, line, col,
					"remove it from \"skills\", or add the skill's directory",
					"skill '%s' is selected but %s does not exist",
					g->cfg->skills[i], shown);
			free(shown);
		}
		free(dir);
	}
}

struct directive_ctx {
	struct group_ctx *g;
	const struct clawmd_mcp *m;
	size_t value;	/* offset of the instructions' string literal, or 0 */
	int live;	/* the fragment on disk: -1 none, 0 defused, 1 imports live */
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
	const char *json = d->g->cfg_text->ptr;
	unsigned long line, col;
	if (d->value)
		clawmd_lint_pos(&line, &col, json, json_raw_offset(json, d->value, off));
	else
		clawmd_lint_pos(&line, &col, json, json_find_string(json, d->m->name));
	int shown_len = len > 200 ? 200 : (int)len;
	const char *state =
		d->live > 0 ? "LIVE in the fragment on disk, so Claude Code imports it until the next "
			      "compose defuses it"
		: d->live == 0 ? "defused by compose in the fragment (the model reads it as text; "
				 "nothing is imported)"
			       : "which compose defuses when it writes the fragment";
	clawmd_lint_add(d->g->out, "CM301", d->g->group, d->g->cfg_shown, line, col,
			d->live > 0 ? "run 'clawmd compose' for the group now; then drop the '@' or "
				      "write the path in backticks"
				    : "drop the '@' or write the path in backticks",
			"mcpServers.%s.instructions has the @ directive '%.*s', %s", d->m->name,
			shown_len, d->m->instructions + off, state);
	return 0;
}

static int count_import(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

/* Whether the MCP fragment compose wrote for `server` still imports
 * anything: -1 when there is none (or it is not a regular file). */
static int fragment_live(struct group_ctx *g, const char *server)
{
	struct clawmd_dir fd = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	int live = -1;
	char *name = clawmd_xasprintf("mcp-%s.md", server);
	if (clawmd_dir_openat(&fd, &g->gd, CLAWMD_FRAGMENTS_DIR, true, &e) == 0 &&
	    clawmd_fs_read(&buf, &fd, name, CLAWMD_INSTRUCTIONS_MAX * 2, &e) == 0) {
		size_t n = 0;
		clawmd_md_imports(buf.ptr, buf.len, count_import, &n);
		live = n > 0;
	}
	free(name);
	clawmd_buf_release(&buf);
	clawmd_dir_release(&fd);
	return live;
}

/* CM301: @ directives in inline MCP instructions, located at the directive
 * inside the JSON string (escapes accounted for). */
static void lint_mcp(struct group_ctx *g)
{
	if (!g->cfg_ok)
		return;
	for (size_t i = 0; i < g->cfg->nmcp; i++) {
		const struct clawmd_mcp *m = &g->cfg->mcp[i];
		if (!m->instructions)
			continue;
		struct directive_ctx d = {g, m, json_instructions(g->cfg_text->ptr, m->name),
					  fragment_live(g, m->name)};
		clawmd_md_imports(m->instructions, strlen(m->instructions), report_directive, &d);
	}
}

/* CM401, CM402: compare the plan with the disk, as compose --check does. */
static int lint_drift(struct group_ctx *g, struct clawmd_err *err)
{
	struct clawmd_changes ch;
	clawmd_changes_init(&ch);
	int rc = clawmd_changes_compute(&ch, g->grp, &g->plan, err);
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
		char *hint = clawmd_xasprintf("run 'clawmd compose %s' (the container runner does it "
					      "at every spawn)", g->group);
		clawmd_lint_add(g->out, "CM402", g->group, g->entry_shown, 1, 1, hint,
				"%s has never been composed", g->gshown);
		free(hint);
	} else if (entry && (entry->action == CLAWMD_PRESERVE ||
			     !clawmd_entry_ours(entry->old.ptr ? entry->old.ptr : "",
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
		char *hint = clawmd_xasprintf("run 'clawmd compose %s'; 'clawmd compose --dry-run %s' "
					      "shows the diff", g->group, g->group);
		clawmd_lint_add(g->out, "CM402", g->group, g->entry_shown, 1, 1, hint,
				"%s is stale: compose would change %s", g->gshown, names.ptr);
		free(hint);
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
		.release = g->lay->claude,
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

/* CM403 is about a file that exists: an absent CLAUDE.local.md (compose
 * creates it) is not committed by anyone. */
static bool local_present(struct group_ctx *g)
{
	struct clawmd_err e = CLAWMD_ERR_INIT;
	mode_t t = 0;
	return clawmd_fs_type(&t, &g->gd, CLAWMD_LOCAL_NAME, &e) == 0 && t != 0;
}

#define PRESERVED_MARK ".clawmd-preserved-"
#define PRESERVED_MAX 100 /* findings per group; the count says the rest */

/* The names in `d` that compose moved aside, sorted. */
static void list_preserved(struct file_list *fl, const struct clawmd_dir *d, const char *prefix)
{
	DIR *dir = d->fd >= 0 ? clawmd_fs_list(d->fd) : NULL;
	struct dirent *e;
	while (dir && (e = readdir(dir)) && fl->n < 10000)
		if (strstr(e->d_name, PRESERVED_MARK)) {
			clawmd_xgrow(&fl->v, &fl->cap, fl->n + 1, sizeof(char *));
			fl->v[fl->n++] = prefix ? clawmd_xasprintf("%s/%s", prefix, e->d_name)
						: clawmd_xstrdup(e->d_name);
		}
	if (dir)
		closedir(dir);
}

/* CM404: content compose preserved (never deleted) and nobody reviewed yet,
 * in the group and in its fragments directory. */
static void lint_preserved(struct group_ctx *g)
{
	struct clawmd_dir fd = CLAWMD_DIR_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	struct file_list fl = {0};
	list_preserved(&fl, &g->gd, NULL);
	if (clawmd_dir_openat(&fd, &g->gd, CLAWMD_FRAGMENTS_DIR, true, &e) == 0)
		list_preserved(&fl, &fd, CLAWMD_FRAGMENTS_DIR);
	if (fl.n)
		qsort(fl.v, fl.n, sizeof(char *), clawmd_strcmp_ptr);
	for (size_t i = 0; i < fl.n && i < PRESERVED_MAX; i++) {
		char *file = clawmd_xasprintf("%s/%s", g->gshown, fl.v[i]);
		clawmd_lint_add(g->out, "CM404", g->group, file, 1, 1,
				"review it, keep what matters (in CLAUDE.local.md), then delete it",
				"compose moved this content aside rather than delete it; it is waiting "
				"for review%s",
				i + 1 == PRESERVED_MAX && fl.n > PRESERVED_MAX ? " (and more not listed)"
									     : "");
		free(file);
	}
	g->npreserved = fl.n;
	clawmd_strv_free(fl.v, fl.n);
	clawmd_dir_release(&fd);
}

static void group_ctx_release(struct group_ctx *g)
{
	free(g->gpath);
	free(g->gshown);
	free(g->cfg_shown);
	free(g->entry_shown);
	free(g->cfg_prefix);
	clawmd_plan_release(&g->plan);
}

static int lint_group(struct group_ctx *g, struct clawmd_findings *out, struct clawmd_group *grp,
		      const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	static const struct clawmd_lint_opts defaults = {0};
	const struct clawmd_layout *lay = grp->lay;
	const struct clawmd_dir *gd;
	int rc;
	memset(g, 0, sizeof(*g));
	clawmd_plan_init(&g->plan);
	g->out = out;
	g->grp = grp;
	g->lay = lay;
	g->opts = opts ? opts : &defaults;
	g->group = grp->name;
	g->drift = CLAWMD_DRIFT_INVALID;
	g->gpath = clawmd_xstrdup(grp->path);
	g->gshown = clawmd_lint_shown(lay->root, g->gpath);
	g->cfg_shown = clawmd_xasprintf("%s/%s", g->gshown, CLAWMD_CONFIG_NAME);
	g->cfg_prefix = clawmd_path_join(grp->shown, CLAWMD_CONFIG_NAME);
	g->entry_shown = clawmd_xasprintf("%s/%s", g->gshown, CLAWMD_ENTRY_NAME);
	/* The handle's directory, opened once, for every look below. */
	if ((rc = clawmd_group_dir(&gd, grp, err)) < 0)
		return rc;
	g->gd = (struct clawmd_dir){gd->fd, g->gpath};

	lint_config(g, err);
	if (err->code)
		return err->code;
	lint_skills(g);
	lint_mcp(g);
	if (g->cfg_ok) {
		if ((rc = clawmd_plan_build(&g->plan, grp, err)) < 0)
			return rc;
		g->planned = true;
		if ((rc = lint_drift(g, err)) < 0)
			return rc;
	}
	if ((rc = lint_memory(g, err)) < 0)
		return rc;
	lint_budget(g);
	char *local = clawmd_path_join(g->gshown, CLAWMD_LOCAL_NAME);
	if (local_present(g))
		clawmd_lint_local_ignored(out, grp->name, lay->root, g->gpath, local);
	free(local);
	lint_preserved(g);
	if ((rc = lint_group_rules(g)) < 0)
		return rc;
	return 0;
}

int clawmd_lint_group(struct clawmd_findings *out, struct clawmd_group *grp,
		      const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct group_ctx g;
	int rc = lint_group(&g, out, grp, opts, err);
	group_ctx_release(&g);
	return rc;
}

/* ---- the layout and the order of findings -------------------------------- */

void clawmd_lint_layout(struct clawmd_findings *out, const struct clawmd_layout *lay)
{
	struct clawmd_buf text = CLAWMD_BUF_INIT;
	struct clawmd_dir root = CLAWMD_DIR_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	if (!lay->nunknown_keys)
		return;
	if (clawmd_dir_open(&root, lay->root, &e) == 0)
		clawmd_fs_read(&text, &root, "clawmd.json", 256 * 1024, &e);
	for (size_t i = 0; i < lay->nunknown_keys; i++) {
		const char *key = lay->unknown_keys[i], *dot = strrchr(key, '.');
		unsigned long line = 1, col = 1;
		if (text.ptr)
			clawmd_lint_pos(&line, &col, text.ptr,
					json_find_string(text.ptr, dot ? dot + 1 : key));
		char *msg = clawmd_layout_unknown_message(lay, i);
		const char *m = strstr(msg, ": unknown key");
		clawmd_lint_add(out, "CM305", NULL, "clawmd.json", line, col,
				"spell the key as suggested, or remove it; as it is, clawmd ignores it",
				"%s", m ? m + 2 : msg);
		free(msg);
	}
	clawmd_buf_release(&text);
	clawmd_dir_release(&root);
}

static int finding_cmp(const void *a, const void *b)
{
	const struct clawmd_finding *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if ((c = strcmp(x->rule->code, y->rule->code)))
		return c;
	return strcmp(x->message, y->message);
}

void clawmd_findings_sort(struct clawmd_findings *f)
{
	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), finding_cmp);
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

int clawmd_group_status_get(struct clawmd_group_status *out, struct clawmd_group *grp,
			    const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct clawmd_findings f;
	struct group_ctx g;
	clawmd_group_status_init(out);
	clawmd_findings_init(&f);
	int rc = lint_group(&g, &f, grp, opts, err);
	out->group = clawmd_xstrdup(grp->name);
	if (rc < 0)
		goto out;
	out->drift = g.drift;
	out->all_skills = g.cfg_ok && g.cfg->all_skills;
	out->memory_chars = g.memory_chars;
	out->tokens = (g.memory_chars + 3) / 4;
	out->nfindings = f.n;
	out->nerrors = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
	out->npreserved = g.npreserved;
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
