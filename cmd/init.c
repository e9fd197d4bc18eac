/*
 * init.c - `clawmd init`: scaffold a layout or adopt the tree that is there,
 * overwriting nothing.
 *
 * DIR is the user's, but what is inside it may not be: `container` may be a
 * symlink to anywhere.  So every path init creates is reached from DIR's fd
 * through clawmd_dir_open_beneath() (no symlink followed on the way) and
 * written with the library's atomic primitive (clawmd_fs_create_file: a
 * staged temp renamed with RENAME_NOREPLACE, so a race cannot make init
 * replace anything).  Scaffolding is a host tool's job, not a library
 * concept, so it lives here, on the library's public filesystem part
 * (clawmd/fs.h): the one atomic primitive is not copied.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd init [options] [DIR]\n"
	"\n"
	"Scaffold a layout in DIR (default: the -C directory, else the current one;\n"
	"created when missing), or adopt the tree already there: create what is\n"
	"missing of container/CLAUDE.md (the shared base), skills/ (container/skills/\n"
	"with --preset nanoclaw), groups/, a clawmd.json with the fragment mode and\n"
	"the agents' Claude Code release, and the .gitignore lines for\n"
	"CLAUDE.local.md (per-group memory the agents write) and the state\n"
	"directory /.clawmd/.  Nothing is overwritten: what exists is left as it\n"
	"is, and init says what it created and what it left.  Everything is\n"
	"created beneath DIR, following no symlink on the way.  A tree that looks\n"
	"like nanoclaw's (container/skills/, no skills/) needs --preset nanoclaw.\n";

static const char help_foot[] =
	"Exit status: 0 success (also when everything was there), 2 usage, 3 invalid\n"
	"input (--mode, --claude-version, --preset, a nanoclaw tree without --preset\n"
	"nanoclaw), 4 a symlink or something of the wrong type on a path init\n"
	"creates (nothing is changed then), or a write failed.\n";

enum { OPT_MODE = OPT_CMD, OPT_VERSION, OPT_PRESET };

static const struct cmd_opt options[] = {
	{"mode", OPT_MODE, "MODE", "fragments as 'copy' (loads on every Claude Code\n"
				   "release) or 'symlink' (default: copy)"},
	{"claude-version", OPT_VERSION, "V", "the agents' Claude Code release (default:\n"
					     "2.1.330, the newest clawmd knows)"},
	{"preset", OPT_PRESET, "NAME", "default, or nanoclaw (skills in container/skills;\n"
				       "adopts a nanoclaw checkout)"},
	{"root", 'C', "DIR", "the directory to scaffold (as DIR)"},
	{"quiet", 'q', NULL, "print only errors"},
	CMD_OPT_END,
};

static const char base_text[] =
	"# Shared instructions\n"
	"\n"
	"Every agent group loads this file first. It is mounted read-only into the\n"
	"containers; per-group memory belongs in groups/<group>/CLAUDE.local.md.\n";

/* What init makes, in order: a directory ("groups/"), or a file with text. */
struct item {
	const char *parent; /* "" for DIR itself, else a directory beneath it */
	const char *name;
	const char *text;   /* NULL for a directory */
};

/* The .gitignore lines init adds, each with the spellings that already
 * mean it: nanoclaw's own .gitignore has the '**' form. */
static const char *const ignore_local[] = {"CLAUDE.local.md", "**/CLAUDE.local.md",
					   "/**/CLAUDE.local.md", NULL};
static const char *const ignore_state[] = {"/.clawmd/", ".clawmd/", "/.clawmd", ".clawmd",
					   "**/.clawmd/", NULL};
/* A Codex or OpenCode group's AGENTS.md holds its CLAUDE.local.md inlined
 * (doc/runtimes.md); a line ignoring the whole groups directory covers it. */
static const char *const ignore_agents[] = {"/groups/*/AGENTS.md", "groups/*/AGENTS.md",
					    "groups/*", "/groups/*", "groups/", "/groups/",
					    "groups", "/groups", NULL};

static bool has_line(const char *text, const char *const *spellings)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), k = n;
		while (k && (p[k - 1] == ' ' || p[k - 1] == '\r'))
			k--;
		for (const char *const *s = spellings; *s; s++)
			if (strlen(*s) == k && !strncmp(p, *s, k))
				return true;
		p += n + (p[n] == '\n');
	}
	return false;
}

/* The example skill of a new skills directory: SKILL.md alone, Claude
 * Code's own format, which the agent loads on demand; no instructions.md,
 * so it adds nothing to any composed CLAUDE.md. */
static const char example_skill[] =
	"---\n"
	"name: example\n"
	"description: An example skill. Replace it, or delete this directory.\n"
	"---\n"
	"\n"
	"# Example\n"
	"\n"
	"Claude Code reads this file when the task matches the description above.\n"
	"\n"
	"To put standing instructions into every group's composed CLAUDE.md\n"
	"instead, write them in an instructions.md beside this file.\n";

/* One run of init: its options, checked, and DIR once open. */
struct init_run {
	struct clawmd_dir top;
	const char *dir; /* as given, for messages */
	bool quiet;
	const char *mode, *version, *preset;
	struct clawmd_release rel; /* --claude-version, parsed */
	bool nano;		   /* --preset nanoclaw */
};

static void say(const struct init_run *r, const char *what, const char *parent, const char *name,
		const char *why)
{
	if (r->quiet)
		return;
	printf("%s %s/%s%s%s%s\n", what, r->dir, *parent ? parent : "", *parent ? "/" : "", name,
	       why);
}

/*
 * The state of one item, changing nothing: 0 missing, 1 there (of the right
 * type), or an error printed (exit 4): a symlink, a wrong type, or a parent
 * reached through a symlink.
 */
static int look(const struct init_run *r, const struct item *it)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_dir pd = CLAWMD_DIR_INIT;
	const struct clawmd_dir *p = &r->top;
	mode_t t = 0;
	int rc = 0;
	if (*it->parent) {
		rc = clawmd_dir_open_beneath(&pd, &r->top, it->parent, false, &err);
		if (rc < 0)
			goto fail;
		if (rc == 2) {
			clawmd_dir_release(&pd);
			return 0;
		}
		p = &pd;
	}
	if ((rc = clawmd_fs_type(&t, p, it->name, &err)) < 0)
		goto fail;
	clawmd_dir_release(&pd);
	if (!t)
		return 0;
	if (t == (it->text ? S_IFREG : S_IFDIR))
		return 1;
	fprintf(stderr, "clawmd: %s/%s%s%s is %s, not a %s; init follows and replaces nothing "
			"(move it away, or scaffold another directory)\n",
		r->dir, it->parent, *it->parent ? "/" : "", it->name,
		t == S_IFLNK ? "a symlink" : "something else", it->text ? "file" : "directory");
	return -4;
fail:
	clawmd_dir_release(&pd);
	cmd_put_error(err.msg);
	return -4;
}

/* Create one item, beneath DIR, never replacing: 0 done (or left). */
static int make(const struct init_run *r, const struct item *it)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_dir pd = CLAWMD_DIR_INIT, d = CLAWMD_DIR_INIT;
	int rc = 0;
	if (!it->text) {
		char *rel = clawmd_xasprintf("%s%s%s", it->parent, *it->parent ? "/" : "", it->name);
		rc = clawmd_dir_open_beneath(&d, &r->top, rel, true, &err);
		free(rel);
		clawmd_dir_release(&d);
		if (rc >= 0)
			say(r, rc == 1 ? "created" : "left", it->parent, it->name,
			    rc == 1 ? "/" : "/ (already there)");
	} else {
		const struct clawmd_dir *p = &r->top;
		if (*it->parent && (rc = clawmd_dir_open_beneath(&pd, &r->top, it->parent, true, &err)) >= 0)
			p = &pd;
		if (rc >= 0)
			rc = clawmd_fs_create_file(p, it->name, it->text, strlen(it->text), &err);
		clawmd_dir_release(&pd);
		if (rc >= 0)
			say(r, rc == 0 ? "created" : "left", it->parent, it->name,
			    rc == 0 ? "" : " (already there)");
	}
	if (rc < 0) {
		cmd_put_error(err.msg);
		return 4;
	}
	return 0;
}

/* The .gitignore lines it lacks, added (the file is the user's: kept as it
 * is, only added to, through the atomic replace; created when missing). */
static int gitignore(const struct init_run *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	const char *const *want[] = {ignore_local, ignore_state, ignore_agents};
	int rc = clawmd_fs_read(&b, &r->top, ".gitignore", 1024 * 1024, &err);
	bool existed = rc == 0;
	size_t added = 0;
	if (rc < 0)
		goto fail;
	clawmd_buf_put(&b, "", 0);
	size_t len = b.len;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (has_line(b.ptr, want[i]))
			continue;
		if (len && b.ptr[len - 1] != '\n')
			clawmd_buf_putc(&b, '\n');
		clawmd_buf_printf(&b, "%s\n", want[i][0]);
		len = b.len;
		added++;
	}
	if (!added) {
		say(r, "left", "", ".gitignore", " (it ignores CLAUDE.local.md, /.clawmd/ and the groups' AGENTS.md)");
		goto out;
	}
	rc = existed ? clawmd_fs_replace_file(&r->top, ".gitignore", b.ptr, b.len, &err)
		     : clawmd_fs_create_file(&r->top, ".gitignore", b.ptr, b.len, &err);
	if (rc == 1) /* created meanwhile: it is the user's now */
		rc = clawmd_err_set(&err, CLAWMD_EFS, "%s/.gitignore appeared while init ran; "
				    "run init again", r->dir);
	if (rc < 0)
		goto fail;
	if (!r->quiet)
		printf("%s %s/.gitignore (%zu line%s: ignores CLAUDE.local.md, /.clawmd/ and the "
		       "groups' AGENTS.md)\n",
		       existed ? "added to" : "created", r->dir, added, added == 1 ? "" : "s");
out:
	clawmd_buf_release(&b);
	return 0;
fail:
	clawmd_buf_release(&b);
	cmd_put_error(err.msg);
	return 4;
}

/* The skills in `skills` (beneath DIR): how many, and the first names. */
static size_t list_skills(const struct init_run *r, const char *skills, struct clawmd_buf *names)
{
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	size_t n = 0;
	DIR *dir;
	if (clawmd_dir_open_beneath(&d, &r->top, skills, false, &err) != 0 ||
	    !(dir = clawmd_fs_list(d.fd))) {
		clawmd_dir_release(&d);
		return 0;
	}
	for (struct dirent *e; (e = readdir(dir));) {
		mode_t t = 0;
		if (e->d_name[0] == '.' || clawmd_fs_type(&t, &d, e->d_name, &err) < 0 || t != S_IFDIR)
			continue;
		if (n++ < 5)
			clawmd_buf_printf(names, "%s%s", n > 1 ? ", " : "", e->d_name);
	}
	if (n > 5)
		clawmd_buf_puts(names, ", ...");
	closedir(dir);
	clawmd_dir_release(&d);
	return n;
}

/* What to do next, read from the tree init adopted. */
static void next_steps(const struct init_run *r, const char *skills, bool example)
{
	struct clawmd_buf names = CLAWMD_BUF_INIT;
	size_t n = example ? 0 : list_skills(r, skills, &names);
	if (example)
		printf("skills: %s/example/SKILL.md is an example (on demand: Claude Code reads it "
		       "when a task matches); replace it with your own\n", skills);
	else if (n)
		printf("skills: found %zu in %s/ (%s)\n", n, skills, names.ptr);
	else
		printf("skills: %s/ has none yet; add skills/<name>/instructions.md for text every "
		       "group gets\n", skills);
	clawmd_buf_release(&names);
	bool any = false;
	if (clawmd_migrate_legacy_seen(&r->top, &any))
		printf("next: this tree has a legacy layout (groups/global/, .claude-global.md links or "
		       "hand-written CLAUDE.md files): see what the cutover does with 'clawmd -C %s "
		       "migrate --dry-run', then run 'clawmd -C %s migrate' (text git tracks stays in "
		       "git: migrate stages its moves)\n", r->dir, r->dir);
	else if (!any)
		/* compose --all would find nothing and say so: name the step before. */
		printf("next: make a group, 'mkdir %s/groups/main', then 'clawmd -C %s compose "
		       "main' and 'clawmd -C %s status'\n", r->dir, r->dir, r->dir);
	else
		printf("next: 'clawmd -C %s compose --all', then 'clawmd -C %s status'\n", r->dir,
		       r->dir);
}

/* The options into `r`: -1 to go on, else the exit status (0 after
 * --help, 2 on a usage error, said). */
static int init_parse(struct init_run *r, int argc, char **argv)
{
	struct cmd_args a;
	int c;
	cmd_args_init(&a, "init", options, false, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		switch (c) {
		case OPT_MODE: r->mode = a.arg; break;
		case OPT_VERSION: r->version = a.arg; break;
		case OPT_PRESET: r->preset = a.arg; break;
		case 'C': r->dir = a.arg; break;
		case 'q': r->quiet = true; break;
		case 'h': cmd_help_own(help_head, options, help_foot); cmd_args_release(&a); return 0;
		default:
			c = cmd_args_common(&a, c, NULL);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && a.noperands > 1)
		c = (cmd_usage_error("init", "unexpected argument '%s'", a.operands[1]), -1);
	if (c >= 0 && a.noperands)
		r->dir = a.operands[0];
	cmd_args_release(&a);
	if (c < 0)
		return 2;
	if (!r->dir)
		r->dir = ".";
	return -1;
}

/* Every value is checked before anything is created: 0, or 3 (said). */
static int init_values(struct init_run *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	if (strcmp(r->mode, "copy") && strcmp(r->mode, "symlink")) {
		fprintf(stderr, "clawmd: --mode: expected 'symlink' or 'copy', not '%s'\n", r->mode);
		return 3;
	}
	if (r->preset && strcmp(r->preset, "default") && strcmp(r->preset, "nanoclaw")) {
		fprintf(stderr, "clawmd: --preset: expected default or nanoclaw, not '%s'\n",
			r->preset);
		return 3;
	}
	if (r->version && clawmd_release_parse(&r->rel, r->version, &err) < 0) {
		fprintf(stderr, "clawmd: --claude-version: %s\n", err.msg);
		return 3;
	}
	r->nano = r->preset && !strcmp(r->preset, "nanoclaw");
	return 0;
}

/* DIR, created when missing and opened: 0, or 4 (said).  DIR itself is
 * the user's word: a symlink given as DIR is followed. */
static int init_open(struct init_run *r)
{
	if (mkdir(r->dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "clawmd: could not create '%s': %s\n", r->dir, strerror(errno));
		return 4;
	}
	r->top.fd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->top.fd < 0) {
		fprintf(stderr, "clawmd: could not open directory '%s': %s\n", r->dir,
			strerror(errno));
		return 4;
	}
	r->top.path = clawmd_xstrdup(r->dir);
	return 0;
}

/* nanoclaw's tree adopted without its preset would compose only the shared
 * base: say so (3) instead of scaffolding skills/ beside it. */
static int init_not_nanoclaw(const struct init_run *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	mode_t t = 0;
	int status = 0;
	if (r->preset || clawmd_fs_type(&t, &r->top, "skills", &err) != 0 || t)
		return 0;
	struct clawmd_dir cd = CLAWMD_DIR_INIT;
	mode_t ct = 0;
	if (clawmd_dir_open_beneath(&cd, &r->top, "container", false, &err) == 0 &&
	    clawmd_fs_type(&ct, &cd, "skills", &err) == 0 && ct == S_IFDIR) {
		fprintf(stderr, "clawmd: %s looks like a nanoclaw checkout (container/skills/, no "
				"skills/); run 'clawmd init --preset nanoclaw' to adopt it\n", r->dir);
		status = 3;
	}
	clawmd_dir_release(&cd);
	return status;
}

/* What init makes, in order; SKILLS_ITEM is the skills directory. */
enum { SKILLS_ITEM = 2, NITEMS = 5 };

/* Create what is missing (`there`: what is), each with mkdirat /
 * RENAME_NOREPLACE, so a race cannot make init replace anything; then the
 * example skill and .gitignore.  0, or the exit status. */
static int init_make(struct init_run *r, const struct item *items, const int *there,
		     const char *skills)
{
	int status = 0;
	for (size_t i = 0; !status && i < NITEMS; i++)
		if (there[i]) /* no staging either: a no-op adopt changes no mtime */
			say(r, "left", items[i].parent, items[i].name,
			    items[i].text ? " (already there)" : "/ (already there)");
		else
			status = make(r, &items[i]);
	/* A new skills directory gets one example, on demand only. */
	if (!status && !there[SKILLS_ITEM])
		status = make(r, &(struct item){skills, "example", NULL}) ||
			 make(r, &(struct item){r->nano ? "container/skills/example" : "skills/example",
						"SKILL.md", example_skill});
	if (!status)
		status = gitignore(r);
	return status;
}

int cmd_init(int argc, char **argv)
{
	struct init_run r = {.top = CLAWMD_DIR_INIT, .quiet = cmd_quiet, .mode = "copy",
			     .dir = cmd_layout_global.root, .rel = clawmd_release_default};
	int status = init_parse(&r, argc, argv);
	if (status >= 0)
		return status;
	if ((status = init_values(&r)))
		return status;

	/* Plain two-space JSON, as people write it (the values are checked
	 * words and a version: nothing to escape). */
	char *json_nl = clawmd_xasprintf(
		"{\n%s%s%s  \"mode\": \"%s\",\n  \"claude_version\": \"%u.%u.%u\"\n}\n",
		r.preset ? "  \"preset\": \"" : "", r.preset ? r.preset : "", r.preset ? "\",\n" : "",
		r.mode, r.rel.major, r.rel.minor, r.rel.patch);
	const char *skills = r.nano ? "container/skills" : "skills";
	const struct item items[NITEMS] = {
		{"", "container", NULL},
		{"container", "CLAUDE.md", base_text},
		{r.nano ? "container" : "", "skills", NULL},
		{"", "groups", NULL},
		{"", "clawmd.json", json_nl},
	};
	if ((status = init_open(&r))) {
		free(json_nl);
		return status;
	}
	/* 1. Look before creating anything: a symlink or a wrong type on any
	 *    path init would create refuses the whole run. */
	int there[NITEMS] = {0};
	for (size_t i = 0; !status && i < NITEMS; i++)
		if ((there[i] = look(&r, &items[i])) < 0)
			status = 4;
	if (!status && look(&r, &(struct item){"", ".gitignore", ""}) < 0)
		status = 4;
	/* 2. Not nanoclaw's tree without its preset. */
	if (!status)
		status = init_not_nanoclaw(&r);
	/* 3. Create what is missing. */
	if (!status)
		status = init_make(&r, items, there, skills);
	if (!status && !r.quiet)
		next_steps(&r, skills, !there[SKILLS_ITEM]);
	clawmd_dir_release(&r.top);
	free(json_nl);
	return status;
}
