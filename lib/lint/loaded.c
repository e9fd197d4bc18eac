/* loaded.c - what Claude Code would load, file by file, through the one resolver (fs/view.h):
 * import findings (CM101-CM105), sizes (CM201) and rules findings (CM501-CM503). */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"
#include "claude/frontmatter.h"
#include "claude/match.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- rules: frontmatter and paths: globs -------------------------------- */

/*
 * The rules are reached through the same resolver as the loader's (view.c):
 * in a group, container paths walked through the mount table with directory
 * fds; on the host, the identity view.  The walk is bounded (RULES_DEPTH_MAX
 * levels, RULES_ENTRIES_MAX entries, RULES_DIRS_MAX directories) and enters
 * a directory once (device and inode), so links to "." cannot multiply it.
 */

/* Files below `base`, relative to it (not .git; symlinked dirs not entered). */


/* Walk the directory open at `dfd` (taken over), never following links. */
void clawmd_lint_list_at(struct clawmd_lint_files *fl, int dfd, const char *rel, int depth)
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
				clawmd_lint_list_at(fl, sub, r, depth + 1);
			free(r);
		} else {
			clawmd_xgrow(&fl->v, &fl->cap, fl->n + 1, sizeof(char *));
			fl->v[fl->n++] = r;
		}
	}
	closedir(d);
}

void clawmd_lint_list(struct clawmd_lint_files *fl, const struct clawmd_view *v, const char *base)
{
	struct clawmd_view_node nd;
	if (clawmd_view_resolve(&nd, v, base, true) < 0)
		return;
	int dfd = nd.fd >= 0 && S_ISDIR(nd.st.st_mode)
			  ? openat(nd.fd, ".", O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC)
			  : -1;
	clawmd_view_node_release(&nd);
	if (dfd >= 0)
		clawmd_lint_list_at(fl, dfd, NULL, 0);
}

struct rules_ctx {
	struct clawmd_findings *out;
	const char *group;
	const struct clawmd_view *view;
	const char *base;  /* globs are relative to it: the parent of .claude (view) */
	const char *root;  /* findings show host paths relative to it */
	struct clawmd_lint_files files;
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
			clawmd_lint_list(&rc->files, rc->view, rc->base);
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
void clawmd_lint_rules_dir(struct clawmd_findings *out, const char *group,
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
static char *source_of(const struct clawmd_lint_view *V, char *host)
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
static char *to_host(const struct clawmd_lint_view *V, const char *vpath)
{
	if (!V->mounts)
		return clawmd_xstrdup(vpath);
	return clawmd_mounts_to_host(V->mounts, V->nmounts, vpath);
}

/* A view path for messages: container paths as they are, host paths
 * relative to ROOT (or the linted directory). */
static char *display(const struct clawmd_lint_view *V, const char *vpath)
{
	return V->mounts ? clawmd_xstrdup(vpath) : clawmd_lint_shown(V->root, vpath);
}

/* The file as shown in findings: its host path relative to ROOT. */
static char *shown_of(const struct clawmd_lint_view *V, const char *vpath)
{
	char *host = source_of(V, to_host(V, vpath));
	char *s = clawmd_lint_shown(V->root, host ? host : vpath);
	free(host);
	return s;
}

static bool in_limit(const struct clawmd_lint_view *V, const char *vpath)
{
	return !V->limit || clawmd_lint_under(vpath, V->limit);
}

/* The position of the import "@raw" in the file behind `from` (read
 * through the view): the next occurrence, from the previous import's, that
 * starts the text or follows whitespace. */
static void import_pos(const struct clawmd_lint_view *V, const char *from, const char *raw,
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

/* What a diagnostic of an import says: its code, the hint, the message's format. */
struct import_words {
	const char *code, *hint, *fmt;
};

/* The words for an import with this status; false: nothing to report. */
static bool import_words(struct import_words *w, const struct clawmd_lint_view *V,
			 enum clawmd_import_status st)
{
	switch (st) {
	case CLAWMD_IMPORT_MISSING:
		w->code = "CM101";
		w->hint = V->mounts ? "create the file, fix the path, or add a mount for it (\"mounts\" in "
				      "clawmd.json); paths are resolved as the container sees them"
				    : "create the file or fix the path";
		w->fmt = "@%s: %s does not exist (or is not a readable file), so nothing is loaded";
		return true;
	case CLAWMD_IMPORT_CYCLE:
		w->code = "CM102";
		w->hint = "remove one of the imports; Claude Code loads each file once, so the cycle "
			  "only hides the order";
		w->fmt = "@%s leads back to %s, which is already being loaded (a cycle)";
		return true;
	case CLAWMD_IMPORT_TOO_DEEP:
		w->code = "CM103";
		w->hint = "import the file from a shallower level; Claude Code follows imports at most "
			  "four hops below a top-level memory file";
		w->fmt = "@%s (%s) would be a fifth-level import: Claude Code follows four hops below a "
			 "top-level memory file and does not load it";
		return true;
	case CLAWMD_IMPORT_NOT_TEXT:
		w->code = "CM104";
		w->hint = "import a text file (.md, .txt, ...) or convert the content";
		w->fmt = "@%s: %s does not have a text extension, so Claude Code skips it";
		return true;
	case CLAWMD_IMPORT_EXTERNAL:
		w->code = "CM105";
		w->hint = V->mounts ? "use copy mode (the default; \"mode\": \"copy\" in clawmd.json) so "
				      "fragments are regular files inside the agent's directory, or, when the "
				      "host approves external includes, say so (\"approve_external\": true)"
				    : "move the file inside the directory, or approve external includes for "
				      "the project";
		w->fmt = "@%s resolves to %s, outside the working directory: Claude Code drops it in "
			 "headless runs unless external includes are approved";
		return true;
	default:
		return false;
	}
}

/* Is the importing file a fragment copied into the group (copy mode)?
 * `file` is how it is shown. */
static bool import_copied(const struct clawmd_lint_view *V, const struct clawmd_mem_import *imp,
			  const char *file)
{
	char *fhost = to_host(V, imp->from);
	bool copied = fhost && strstr(fhost, "/" CLAWMD_FRAGMENTS_DIR "/") && V->plan &&
		      !strstr(file, "/" CLAWMD_FRAGMENTS_DIR "/");
	free(fhost);
	return copied;
}

/* How the imported file is shown: for a copied fragment, the source the
 * user creates it in (skills/b/details.md), not its copy in the group. */
static char *import_shown(const struct clawmd_lint_view *V, const struct clawmd_mem_import *imp,
			  bool copied)
{
	char *disp = display(V, imp->path);
	if (!copied)
		return disp;
	char *h = to_host(V, imp->path), *was = h ? clawmd_xstrdup(h) : NULL;
	char *src = source_of(V, h);
	if (src && was && strcmp(src, was)) {
		free(disp);
		disp = clawmd_lint_shown(V->root, src);
	}
	free(src);
	free(was);
	return disp;
}

static void report_import(const struct clawmd_lint_view *V, const struct clawmd_mem_import *imp)
{
	struct import_words w;
	if (!import_words(&w, V, imp->status))
		return;
	unsigned long line, col;
	import_pos(V, imp->from, imp->raw, &line, &col);
	char *file = shown_of(V, imp->from);
	/* In a copied fragment (copy mode), only imports that stay inside its
	 * skill or module directory come along. */
	bool copied = import_copied(V, imp, file);
	if (copied && imp->status == CLAWMD_IMPORT_MISSING && !clawmd_text_extension(imp->path)) {
		/* Not copied because Claude Code would not load it anyway:
		 * say so as through the symlink. */
		import_words(&w, V, CLAWMD_IMPORT_NOT_TEXT);
	} else if (copied && imp->status == CLAWMD_IMPORT_MISSING)
		w.hint = "the fragment is copied into the group (copy mode) with the files it imports "
			 "from inside its skill or module directory: keep the file there, or fix the "
			 "path";
	char *disp = import_shown(V, imp, copied);
	struct clawmd_view cv = {V->mounts, V->nmounts};
	char *target = NULL;
	if (imp->status == CLAWMD_IMPORT_EXTERNAL &&
	    clawmd_view_readlink(&cv, imp->path, &target) == 0) {
		/* A symlink (a fragment): show where it leads. */
		free(disp);
		disp = target;
		w.fmt = "@%s is a symlink to %s, outside the working directory: Claude Code 2.1.232 "
			"and later drop it in headless runs unless external includes are approved";
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	clawmd_lint_add(V->out, w.code, V->group, file, line, col, w.hint, w.fmt, imp->raw, disp);
#pragma GCC diagnostic pop
	free(disp);
	free(file);
}

/* The directory a memory file belongs to: before its last "/.claude/",
 * else its own directory (as Claude Code places AGENTS.md). */
static size_t project_dir_len(const char *path)
{
	const char *c = NULL;
	for (const char *p = strstr(path, "/.claude/"); p; p = strstr(p + 1, "/.claude/"))
		c = p;
	if (!c)
		c = strrchr(path, '/');
	return c ? (size_t)(c - path) : 0;
}

/* A loaded CLAUDE.md or .claude/CLAUDE.md in the AGENTS.md's own directory:
 * the project has both, knowingly. */
static bool claude_md_beside(const struct clawmd_memory *m, const char *agents)
{
	size_t n = project_dir_len(agents);
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		size_t len = strlen(f->path);
		if (f->type != CLAWMD_MEM_PROJECT || f->parent || len < 10 ||
		    strcmp(f->path + len - 10, "/CLAUDE.md"))
			continue;
		if (project_dir_len(f->path) == n && !strncmp(f->path, agents, n))
			return true;
	}
	return false;
}

/*
 * CM701, CM702: AGENTS.md as the release loads it (2.1.281 on).  Worth a
 * finding where the user would not expect it: loaded by the default
 * fallback (nobody chose it, and older releases do not read it), or kept
 * out by a CLAUDE file that is not its own CLAUDE.md.
 */
static void lint_agents(const struct clawmd_lint_view *V, const struct clawmd_memory *m)
{
	for (size_t i = 0; i < m->nagents; i++) {
		const struct clawmd_mem_agents *a = &m->agents[i];
		if (!in_limit(V, a->path))
			continue;
		char *file = shown_of(V, a->path);
		if (a->loaded && !m->agents_off_by && m->instruction_files == CLAWMD_IF_FALLBACK &&
		    !m->instruction_files_set) {
			clawmd_lint_add(V->out, "CM701", V->group, file, 1, 1,
					"to load it on every release, write a CLAUDE.md that imports it "
					"(@AGENTS.md); to keep Claude from reading it, set instructionFiles "
					"to \"claude-md\" in the user's settings",
					"%s loads as project instructions because no CLAUDE.md applies "
					"(Claude Code 2.1.281 and later; earlier releases do not read it)",
					file);
		} else if (!a->loaded && m->agents_off_by && !claude_md_beside(m, a->path)) {
			char *by = display(V, m->agents_off_by);
			clawmd_lint_add(V->out, "CM702", V->group, file, 1, 1,
					"import it from the CLAUDE.md that applies (@AGENTS.md), or set "
					"instructionFiles to \"claude-md-and-agents-md\" in the user's "
					"settings",
					"%s is not loaded: %s turns off every AGENTS.md (Claude Code 2.1.281 "
					"and later read AGENTS.md only where no CLAUDE.md or "
					"CLAUDE.local.md applies)",
					file, by);
			free(by);
		}
		free(file);
	}
}

/*
 * Lint what loads at `o->cwd`; the size of every loaded file (CM201) and
 * their total in *chars.  EFS/EINPUT only when the loader cannot start.
 */
int clawmd_lint_loaded(const struct clawmd_lint_view *VV, const struct clawmd_memory_opts *base,
		       size_t *chars, struct clawmd_err *err)
{
	struct pos_cache pc = {NULL, CLAWMD_BUF_INIT, 0, 0};
	struct clawmd_lint_view view = *VV;
	const struct clawmd_lint_view *V = &view;
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
	lint_agents(V, &m);
	clawmd_memory_release(&m);
	rc = 0;
out:
	free(pc.file);
	clawmd_buf_release(&pc.data);
	return rc;
}
