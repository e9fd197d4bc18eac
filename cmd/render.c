/* render.c - clawmd render: print exactly the memory Claude Code will load. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd render [options]\n"
	"       clawmd render [layout options] [options] GROUP   (as --group GROUP)\n"
	"\n"
	"Print the memory string Claude Code builds at session start, byte for byte:\n"
	"managed, user, project and local CLAUDE.md files, .claude/rules, AGENTS.md\n"
	"(2.1.281 on, where no CLAUDE.md applies) and their @-imports, as the\n"
	"configured Claude Code release loads them.  The text has\n"
	"no trailing newline (Claude Code's string ends there), except on a terminal,\n"
	"where one is added so the prompt starts on its own line.\n"
	"With --runtime, what that runtime sends instead: caliban's memory prefix\n"
	"(the text before its system prompt; --approve-external as\n"
	"CALIBAN_APPROVE_IMPORTS=1), chimera's memory message (<memory ...>).\n"
	"When the runtime would fail on the files and send nothing (chimera and a\n"
	"file that is not UTF-8), stderr says why and nothing is printed.\n";

static const char help_foot[] =
	"In --format files, PATH and PARENT are escaped: a backslash, a control byte\n"
	"or DEL is written as \\\\, \\n, \\t, \\r or \\xHH, so one line is one file.\n"
	"Reading is bounded: files over 4 MiB are skipped (as Claude Code skips them),\n"
	"at most 64 MiB and 50,000 files per load; only regular files are opened.\n"
	"\n"
	"With the nanoclaw preset and --group, stderr says where the Claude Code release\n"
	"came from (--claude-version, clawmd.json's claude_version, else the version\n"
	"container/cli-tools.json pins) and the setting sources (project,user,local\n"
	"where the container has nanoclaw's memory hook, /app/src/memory/hook.ts),\n"
	"and what that SessionStart hook injects: memory/index.md and\n"
	"memory/system/definition.md, 16000 characters each at most (Hook rows in\n"
	"--format files, session_start in --format json, with their text).\n"
	"\n"
	"Exit status: 0 success (also when nothing loads), 2 usage, 3 invalid input\n"
	"(a group name, clawmd.json, container/cli-tools.json), 4 a missing group\n"
	"directory or a working directory that cannot be opened.\n";

enum {
	O_CWD = OPT_CMD,
	O_HOME,
	O_MANAGED,
	O_APPROVE,
	O_SOURCES,
	O_TARGET,
	O_FORMAT,
	O_VERSION,
	O_JSON,
	O_RUNTIME,
	O_INSTRUCTION_FILES,
	/* each one runtime's setting (runtime_flags below) */
	O_CODEX_HOME,
	O_CODEX_MAX,
	O_CODEX_FALLBACK,
	O_CODEX_MARKERS,
	O_OC_INSTRUCTIONS,
	O_OC_NO_CLAUDE,
	O_GEMINI_NAME,
};

static const struct cmd_opt options[] = {
	{"cwd", O_CWD, "DIR", "the directory Claude Code starts in\n(default: the current directory); in a\n"
			      "group, read as --group reads it"},
	{"home", O_HOME, "DIR", "the user tier is DIR/.claude (default: $HOME); with\n"
				"--group a container path, read through the mount table,\n"
				"and no user tier unless given"},
	{"managed-dir", O_MANAGED, "DIR", "the managed tier (default: /etc/claude-code)"},
	{"approve-external", O_APPROVE, NULL, "the project approved external includes (with\n"
					      "--group also when clawmd.json's approve_external);\n"
					      "for caliban, CALIBAN_APPROVE_IMPORTS=1"},
	{"setting-sources", O_SOURCES, "L", "comma list of user,project,local (default: all;\n"
					    "with --group, setting_sources from clawmd.json)"},
	{"target", O_TARGET, "FILE", "instead: the nested memory a first read of FILE adds"},
	{"format", O_FORMAT, "F", "text, files (TYPE<TAB>PATH<TAB>PARENT) or json\n(default: text)"},
	{"json", O_JSON, NULL, "the same as --format json"},
	{"claude-version", O_VERSION, "V", "the agents' Claude Code release, any X.Y.Z or 'latest'\n"
					   "(default: claude_version from clawmd.json with --group,\n"
					   "else, for a nanoclaw host, the release\n"
					   "container/cli-tools.json pins, else 2.1.330):\n"
					   "rules sorted up to 2.1.112, in readdir(3)\n"
					   "order from 2.1.113; realpath gate from 2.1.232; AGENTS.md\n"
					   "from 2.1.281"},
	{"instruction-files", O_INSTRUCTION_FILES, "MODE",
	 "Claude Code's instructionFiles option (2.1.281 on):\n"
	 "claude-md, claude-md-or-agents-md, claude-md-and-agents-md\n"
	 "or managed-only (default: as HOME/.claude/settings.json\n"
	 "sets it, else claude-md-or-agents-md)"},
	{"runtime", O_RUNTIME, "R", "whose loading: claude, codex, gemini, opencode,\n"
				"cursor, copilot, ollama, pi, qwen, mock, caliban\n"
				"or chimera\n"
				"(default: claude; with --group, the group's first\n"
				"runtime, container.json's provider)"},
	/* ---- Codex (render/codex.c, doc/runtime-codex.md) ---- */
	{"codex-home", O_CODEX_HOME, "DIR", "with --runtime codex: its global directory, CODEX_HOME\n"
					    "(default: HOME/.codex)"},
	{"codex-max-bytes", O_CODEX_MAX, "N", "with --runtime codex: project_doc_max_bytes, the\n"
					      "project files' budget; 0 reads none (default: 32768)"},
	{"codex-fallback-filenames", O_CODEX_FALLBACK, "L",
	 "with --runtime codex: project_doc_fallback_filenames,\n"
	 "comma list of names tried after AGENTS.md (default: none)"},
	{"codex-root-markers", O_CODEX_MARKERS, "L", "with --runtime codex: project_root_markers, comma\n"
						     "list; '' for none: the cwd alone (default: .git)"},
	/* ---- end Codex ---- */
	/* OpenCode's knobs (render/opencode.c) */
	{"opencode-instructions", O_OC_INSTRUCTIONS, "GLOB",
	 "with --runtime opencode: one pattern of its config's\n"
	 "`instructions`, repeated in their order (default: none)"},
	{"opencode-no-claude", O_OC_NO_CLAUDE, NULL,
	 "with --runtime opencode: as OPENCODE_DISABLE_CLAUDE_CODE_PROMPT,\n"
	 "no CLAUDE.md fallback"},
	/* end of OpenCode's knobs */
	/* ---- Gemini CLI ---- */
	{"gemini-file-name", O_GEMINI_NAME, "NAME", "with --runtime gemini: a name of context.fileName;\n"
						    "repeat for a list, in its order (default: GEMINI.md);\n"
						    "GEMINI.md still loads after the names given"},
	/* ---- end Gemini CLI ---- */
	{"quiet", 'q', NULL, "with the nanoclaw preset: not the lines on stderr that\n"
			     "say where the release and the setting sources came from\n"
			     "and what the SessionStart hook adds"},
	{"group", 'g', "GROUP", "render inside GROUP's container: cwd is the\n"
				"container's group directory, paths are container\n"
				"paths, files are reached through the mount table"},
	CMD_OPT_END,
};

static struct clawmd_json *json_files(const struct clawmd_memory *m, bool target)
{
	struct clawmd_json *arr = clawmd_json_array();
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		struct clawmd_json *o = clawmd_json_object();
		clawmd_json_add_string(o, "type", clawmd_mem_type_name(f->type));
		clawmd_json_add_string(o, "path", f->path);
		if (f->parent)
			clawmd_json_add_string(o, "parent", f->parent);
		else
			clawmd_json_add_null(o, "parent");
		if (target) {
			if (f->nglobs) {
				struct clawmd_json *globs = clawmd_json_add_array(o, "globs");
				for (size_t k = 0; k < f->nglobs; k++)
					clawmd_json_add_string(globs, NULL, f->globs[k]);
			} else {
				clawmd_json_add_null(o, "globs");
			}
			/* the attachment as Claude Code sends it */
			struct clawmd_buf t = CLAWMD_BUF_INIT;
			clawmd_buf_printf(&t, "Contents of %s:\n\n", f->path);
			clawmd_buf_put(&t, f->content, f->len);
			clawmd_json_add_bytes(o, "text", t.ptr, t.len);
			clawmd_buf_release(&t);
		} else {
			size_t chars = clawmd_utf16_len(f->content, f->len);
			clawmd_json_add_number(o, "size", (double)f->size);
			clawmd_json_add_number(o, "tokens", (double)((chars + 3) / 4));
			if (f->source)
				clawmd_json_add_string(o, "source", f->source);
		}
		clawmd_json_add(arr, NULL, o);
	}
	return arr;
}


/* ---- Codex ---- */

/* A comma list of names, each taken in every directory: kept in `buf`
 * (no allocation, so no exit path has to free it). */
struct codex_list {
	char buf[4096];
	const char *v[64];
	size_t n;
};

static int codex_list(struct codex_list *l, const char *flag, const char *list)
{
	l->n = 0;
	if (strlen(list) >= sizeof(l->buf))
		return cmd_usage_error("render", "%s: the list is over %zu bytes", flag,
				       sizeof(l->buf) - 1);
	memcpy(l->buf, list, strlen(list) + 1);
	for (char *p = l->buf; *l->buf;) {
		size_t len = strcspn(p, ",");
		bool last = !p[len];
		p[len] = '\0';
		if (len == 0)
			return cmd_usage_error("render", "%s: an empty name in '%s'", flag, list);
		if (p[0] == '/')
			return cmd_usage_error("render", "%s: '%s' is absolute; each name is taken in "
							 "every directory", flag, p);
		if (l->n == (sizeof(l->v) / sizeof(l->v[0])))
			return cmd_usage_error("render", "%s: more than %zu names", flag,
					       (sizeof(l->v) / sizeof(l->v[0])));
		l->v[l->n++] = p;
		if (last)
			break;
		p += len + 1;
	}
	return 0;
}

static int codex_size(size_t *out, const char *flag, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(arg, &end, 10);
	if (!*arg || *end || arg[0] == '-' || errno || n > SIZE_MAX)
		return cmd_usage_error("render", "%s: expected a number of bytes, not '%s'", flag, arg);
	*out = (size_t)n;
	return 0;
}

/* ---- end Codex ---- */

/* A repeated flag's values, in order (no allocation, so no exit path has
 * to free them). */
struct name_list {
	const char *v[64];
	size_t n;
};

static int name_add(struct name_list *l, const char *flag, const char *arg)
{
	if (l->n == sizeof(l->v) / sizeof(l->v[0]))
		return cmd_usage_error("render", "%s: at most %zu given", flag,
				       sizeof(l->v) / sizeof(l->v[0]));
	l->v[l->n++] = arg;
	return 0;
}

/* The flags that are one runtime's settings: given with another runtime,
 * they would silently do nothing. */
static const struct {
	int opt;
	enum clawmd_runtime runtime;
} runtime_flags[] = {
	{O_CODEX_HOME, CLAWMD_RUNTIME_CODEX},		{O_CODEX_MAX, CLAWMD_RUNTIME_CODEX},
	{O_CODEX_FALLBACK, CLAWMD_RUNTIME_CODEX},	{O_CODEX_MARKERS, CLAWMD_RUNTIME_CODEX},
	{O_OC_INSTRUCTIONS, CLAWMD_RUNTIME_OPENCODE}, {O_OC_NO_CLAUDE, CLAWMD_RUNTIME_OPENCODE},
	{O_GEMINI_NAME, CLAWMD_RUNTIME_GEMINI},
};

/* The long name of option `opt`, for messages. */
static const char *option_name(int opt)
{
	for (size_t i = 0; options[i].name; i++)
		if (options[i].key == opt)
			return options[i].name;
	return "?";
}

/* One run of render: the options, where it reads (a group's mounts), and
 * what it must free. */
struct render_run {
	struct clawmd_memory_opts o;
	struct cmd_layout_opts lo;
	const char *format, *group;
	bool json;
	bool home_set, version_set, sources_set, runtime_set;
	struct codex_list codex_fallback, codex_markers;
	struct name_list oc_instr, gemini_names;
	int knob; /* the first runtime's setting given */
	enum clawmd_runtime knob_runtime;
	struct clawmd_root root;
	bool have_layout; /* root is open */
	char *cwd_group, *cwd_ct; /* the group --cwd (or .) lies in, and its container path */
	/* With --group: the container's view, and on a nanoclaw host where
	 * the release and the setting sources came from and what its
	 * SessionStart hook adds (clawmd_render_setup). */
	struct clawmd_render_setup setup;
};

/* --setting-sources: 0, or -1 on an unknown source (said). */
static int sources_parse(struct clawmd_memory_opts *o, const char *arg)
{
	o->no_user = !strstr(arg, "user");
	o->no_project = !strstr(arg, "project");
	o->no_local = !strstr(arg, "local");
	for (const char *p = arg;;) {
		size_t l = strcspn(p, ",");
		if (!((l == 4 && !strncmp(p, "user", 4)) || (l == 7 && !strncmp(p, "project", 7)) ||
		      (l == 5 && !strncmp(p, "local", 5))))
			return cmd_usage_error("render", "--setting-sources: unknown source '%.*s' "
							 "(user, project, local)", (int)l, p), -1;
		if (!p[l])
			return 0;
		p += l + 1;
	}
}

/* One runtime's own option (or a common one): `c`, or -1 on a usage error (said). */
static int render_runtime_option(struct render_run *r, struct cmd_args *a, int c)
{
	struct clawmd_memory_opts *o = &r->o;
	switch (c) {
	/* OpenCode's settings (render/opencode.c) */
	case O_OC_INSTRUCTIONS:
		return name_add(&r->oc_instr, a->spelled, a->arg) ? -1 : c;
	case O_OC_NO_CLAUDE: o->opencode_no_claude = true; return c;
	/* Gemini CLI's (render/gemini.c) */
	case O_GEMINI_NAME:
		if (!a->arg[0] || strchr(a->arg, '/') || !strcmp(a->arg, ".") || !strcmp(a->arg, ".."))
			return cmd_usage_error("render", "%s: a file name, without '/', not '%s'",
					       a->spelled, a->arg), -1;
		return name_add(&r->gemini_names, a->spelled, a->arg) ? -1 : c;
	case O_RUNTIME:
		r->runtime_set = true;
		if (clawmd_runtime_parse(&o->runtime, a->arg) < 0) {
			const char *near = clawmd_runtime_suggest(a->arg);
			return cmd_usage_error("render", "%s: unknown runtime '%s'%s%s%s (claude, codex, "
							 "gemini, opencode, cursor, copilot, ollama, pi, "
							 "qwen, mock, caliban or chimera)", a->spelled, a->arg,
					       near ? "; did you mean '" : "", near ? near : "",
					       near ? "'?" : ""), -1;
		}
		return c;
	/* ---- Codex ---- */
	case O_CODEX_HOME: o->codex_home = a->arg; return c;
	case O_CODEX_MAX:
		o->codex_max_bytes_set = true;
		return codex_size(&o->codex_max_bytes, a->spelled, a->arg) ? -1 : c;
	case O_CODEX_FALLBACK: {
		int rc = codex_list(&r->codex_fallback, a->spelled, a->arg);
		o->codex_fallback = r->codex_fallback.v;
		o->ncodex_fallback = r->codex_fallback.n;
		return rc ? -1 : c;
	}
	case O_CODEX_MARKERS: {
		o->codex_markers_set = true;
		int rc = codex_list(&r->codex_markers, a->spelled, a->arg);
		o->codex_markers = r->codex_markers.v;
		o->ncodex_markers = r->codex_markers.n;
		return rc ? -1 : c;
	}
	/* ---- end Codex ---- */
	default:
		return cmd_args_common(a, c, &r->lo);
	}
}

/* One option: `c`, or -1 on a usage error (said). */
static int render_option(struct render_run *r, struct cmd_args *a, int c)
{
	struct clawmd_memory_opts *o = &r->o;
	switch (c) {
	case O_CWD: o->cwd = a->arg; return c;
	case O_HOME: o->home = a->arg; r->home_set = true; return c;
	case O_MANAGED: o->managed_dir = a->arg; return c;
	case O_APPROVE: o->approve_external = true; return c;
	case O_TARGET: o->target = a->arg; return c;
	case O_INSTRUCTION_FILES:
		if (clawmd_instruction_files_parse(&o->instruction_files, a->arg) < 0)
			return cmd_usage_error("render", "%s: expected claude-md, claude-md-or-agents-md, "
							 "claude-md-and-agents-md or managed-only, not '%s'",
					       a->spelled, a->arg), -1;
		return c;
	case O_FORMAT: r->format = a->arg; return c;
	case O_JSON: r->format = "json"; return c;
	case 'g': r->group = a->arg; return c;
	case 'q': cmd_quiet = true; return c;
	case O_VERSION: {
		struct clawmd_err verr = CLAWMD_ERR_INIT;
		r->version_set = true;
		if (clawmd_release_parse(&o->release, a->arg, &verr) < 0)
			return cmd_usage_error("render", "%s: expected a release such as 2.1.330 "
							 "or 'latest', not '%s'",
					       a->spelled, a->arg), -1;
		return c;
	}
	case O_SOURCES:
		r->sources_set = true;
		return sources_parse(o, a->arg) < 0 ? -1 : c;
	default:
		return render_runtime_option(r, a, c);
	}
}

/* The options and operands: -1 to go on, else the exit status (0 after
 * --help, 2 on a usage error, said). */
static int render_parse(struct render_run *r, int argc, char **argv)
{
	struct cmd_args a;
	int c;
	cmd_args_init(&a, "render", options, true, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		for (size_t i = 0; !r->knob && i < sizeof(runtime_flags) / sizeof(runtime_flags[0]); i++)
			if (runtime_flags[i].opt == c)
				r->knob = c, r->knob_runtime = runtime_flags[i].runtime;
		if (c == 'h') {
			cmd_help(help_head, options, help_foot);
			cmd_args_release(&a);
			return 0;
		}
		if ((c = render_option(r, &a, c)) < 0)
			break;
	}
	/* `render GROUP` is `render --group GROUP`, as `compose GROUP`. */
	if (c >= 0 && a.noperands && r->group)
		c = (cmd_usage_error("render", "give GROUP or --group GROUP, not both ('%s')",
				     a.operands[0]), -1);
	else if (c >= 0 && a.noperands > 1)
		c = (cmd_usage_error("render", "one GROUP at a time ('%s' is a second)",
				     a.operands[1]), -1);
	else if (c >= 0 && a.noperands)
		r->group = a.operands[0];
	/* The container's user tier is what a mount shows at its home: the
	 * path is the container's, not the host's. */
	if (c >= 0 && r->group && r->home_set && r->o.home[0] != '/')
		c = (cmd_usage_error("render", "--home with --group is a container path, absolute, "
					       "not '%s'", r->o.home), -1);
	cmd_args_release(&a);
	if (c < 0)
		return !strcmp(r->format, "json") ? cmd_json_failure(2) : 2;
	if (r->o.target && r->o.runtime != CLAWMD_RUNTIME_CLAUDE)
		return cmd_usage_error("render", "--target: nested memory is Claude Code's alone, not %s's",
				       clawmd_runtime_name(r->o.runtime));
	if (strcmp(r->format, "text") && strcmp(r->format, "files") && strcmp(r->format, "json"))
		return cmd_usage_error("render", "--format: expected text, files or json, not '%s'",
				       r->format);
	r->json = !strcmp(r->format, "json");
	return -1;
}

/*
 * A directory inside a group (--cwd DIR, or where render runs) is read as
 * the group's container reads it, as with --group: through its mount
 * table, never the host's view of the agent's links (a CLAUDE.local.md,
 * AGENTS.md or GEMINI.md the agent made a symlink to a host file).  The
 * same path as check --cwd: the root DIR is in (cmd_tree_root), then
 * clawmd_layout_group_of (issue 28 item 5).  -1 to go on, else the exit
 * status.
 */
static int render_cwd_group(struct render_run *r)
{
	const char *dir = r->o.cwd ? r->o.cwd : ".";
	if (cmd_tree_root(&r->root, &r->lo, dir)) {
		clawmd_layout_group_of(&r->cwd_group, &r->cwd_ct, &r->root.lay, dir);
		if (r->cwd_group) {
			r->group = r->cwd_group;
			r->o.cwd = r->cwd_ct;
			r->have_layout = true;
		} else {
			clawmd_root_release(&r->root);
		}
	}
	if (r->group && r->home_set && r->o.home[0] != '/') {
		cmd_usage_error("render", "--home in a group is a container path, absolute, "
					  "not '%s'", r->o.home);
		return r->json ? cmd_json_failure(2) : 2;
	}
	return -1;
}

/* A group's container view: its mounts, its runtime, clawmd.json's
 * settings unless flags say, and what a nanoclaw host adds, all decided by
 * clawmd_render_setup() (as the Node binding's render() has them).  -1 to
 * go on, else the exit status. */
static int render_group(struct render_run *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	int st = r->have_layout ? 0 : cmd_root_open(&r->root, &r->lo, cmd_quiet);
	if (st)
		return r->json ? cmd_json_failure(st) : st;
	r->have_layout = true;
	char *gv[] = {(char *)r->group};
	if ((st = cmd_groups_check(&r->root, gv, 1)))
		return r->json ? cmd_json_failure(st) : st;
	struct clawmd_group *g = NULL;
	struct clawmd_render_opts ro = CLAWMD_RENDER_OPTS_INIT;
	ro.memory = r->o;
	ro.runtime_set = r->runtime_set;
	ro.release_set = r->version_set;
	ro.sources_set = r->sources_set;
	int rc = clawmd_group_open(&g, &r->root, r->group, &err);
	if (rc == 0)
		rc = clawmd_render_setup(&r->setup, g, &ro, &err);
	clawmd_group_free(g);
	if (rc < 0) {
		st = cmd_fail(&err);
		return r->json ? cmd_json_failure(st) : st;
	}
	r->o = r->setup.memory;
	return -1;
}

/* ---- nanoclaw's session start (render/nanoclaw.c) ---- */

#define NHOOK (sizeof(((struct clawmd_session_hook *)0)->files) / sizeof(struct clawmd_hook_file))

static void sources_put(struct clawmd_buf *b, const struct clawmd_memory_opts *o)
{
	const char *sep = "";
	if (!o->no_project)
		clawmd_buf_printf(b, "%sproject", sep), sep = ",";
	if (!o->no_user)
		clawmd_buf_printf(b, "%suser", sep), sep = ",";
	if (!o->no_local)
		clawmd_buf_printf(b, "%slocal", sep);
	if (!b->len)
		clawmd_buf_puts(b, "none");
}

/* The lines that say where the release and the sources came from, and
 * what the hook adds (stderr: stdout is the runtime's string). */
static void nanoclaw_lines(const struct render_run *r)
{
	const struct clawmd_memory_opts *o = &r->o;
	const struct clawmd_render_setup *s = &r->setup;
	if (s->release_from) {
		char *v = clawmd_render_release(o);
		fprintf(stderr, "clawmd: render: Claude Code %s, %s\n", v, s->release_from);
		free(v);
	}
	if (s->sources_from) {
		struct clawmd_buf b = CLAWMD_BUF_INIT;
		sources_put(&b, o);
		fprintf(stderr, "clawmd: render: setting sources %s, %s\n", b.ptr, s->sources_from);
		clawmd_buf_release(&b);
	}
	if (!s->hook.present)
		return;
	fprintf(stderr, "clawmd: render: its SessionStart hook adds (%d characters of each at most; "
			"--format json has the text):\n", CLAWMD_HOOK_MEMORY_CHARS);
	for (size_t i = 0; i < NHOOK; i++) {
		const struct clawmd_hook_file *f = &s->hook.files[i];
		fputs("clawmd: render:   ", stderr);
		cmd_put_field(stderr, f->path);
		if (!f->available)
			fputs(": unavailable (no regular file there)\n", stderr);
		else if (f->truncated)
			fprintf(stderr, ": %zu characters, truncated to %d\n", f->chars,
				CLAWMD_HOOK_MEMORY_CHARS);
		else
			fprintf(stderr, ": %zu characters\n", f->chars);
	}
}

static void nanoclaw_json(struct clawmd_json *root, const struct render_run *r)
{
	const struct clawmd_memory_opts *o = &r->o;
	const struct clawmd_render_setup *s = &r->setup;
	if (s->release_from) {
		char *v = clawmd_render_release(o);
		clawmd_json_add_string(root, "claude_version", v);
		free(v);
		clawmd_json_add_string(root, "claude_version_from", s->release_from);
	}
	if (s->sources_from) {
		struct clawmd_json *src = clawmd_json_add_array(root, "setting_sources");
		if (!o->no_project)
			clawmd_json_add_string(src, NULL, "project");
		if (!o->no_user)
			clawmd_json_add_string(src, NULL, "user");
		if (!o->no_local)
			clawmd_json_add_string(src, NULL, "local");
		clawmd_json_add_string(root, "setting_sources_from", s->sources_from);
	}
	if (!s->hook.present) {
		clawmd_json_add_null(root, "session_start");
		return;
	}
	struct clawmd_json *h = clawmd_json_add_object(root, "session_start");
	clawmd_json_add_string(h, "hook", CLAWMD_HOOK_SCRIPT);
	clawmd_json_add_number(h, "max_chars", CLAWMD_HOOK_MEMORY_CHARS);
	struct clawmd_json *files = clawmd_json_add_array(h, "files");
	for (size_t i = 0; i < NHOOK; i++) {
		const struct clawmd_hook_file *f = &s->hook.files[i];
		struct clawmd_json *x = clawmd_json_object();
		clawmd_json_add_string(x, "path", f->path);
		clawmd_json_add_bool(x, "available", f->available);
		if (f->available) {
			clawmd_json_add_number(x, "chars", (double)f->chars);
			clawmd_json_add_bool(x, "truncated", f->truncated);
			clawmd_json_add_bytes(x, "text", f->text, f->len);
		}
		clawmd_json_add(files, NULL, x);
	}
}

static int print_json(const struct clawmd_memory *m, const struct render_run *r)
{
	const struct clawmd_memory_opts *o = &r->o;
	struct clawmd_json *root = cmd_json_doc();
	if (o->target) {
		clawmd_json_add_string(root, "target", o->target);
		clawmd_json_add(root, "attachments", json_files(m, true));
	} else {
		clawmd_json_add_string(root, "cwd", m->cwd);
		clawmd_json_add(root, "files", json_files(m, false));
		struct clawmd_json *imps = clawmd_json_add_array(root, "imports");
		for (size_t i = 0; i < m->nimports; i++) {
			const struct clawmd_mem_import *im = &m->imports[i];
			struct clawmd_json *x = clawmd_json_object();
			clawmd_json_add_string(x, "from", im->from);
			clawmd_json_add_string(x, "import", im->raw);
			clawmd_json_add_string(x, "path", im->path);
			clawmd_json_add_string(x, "status", clawmd_import_status_name(im->status));
			clawmd_json_add(imps, NULL, x);
		}
		struct clawmd_json *ext = clawmd_json_add_array(root, "external_includes");
		for (size_t i = 0; i < m->nexternal; i++)
			clawmd_json_add_string(ext, NULL, m->external[i]);
		/* AGENTS.md (2.1.281 on): the mode in effect, what the walk
		 * found, and what turned the fallback off */
		if (m->instruction_files) {
			clawmd_json_add_string(root, "instruction_files",
						clawmd_instruction_files_name(m->instruction_files));
			struct clawmd_json *ag = clawmd_json_add_array(root, "agents_md");
			for (size_t i = 0; i < m->nagents; i++) {
				struct clawmd_json *x = clawmd_json_object();
				clawmd_json_add_string(x, "path", m->agents[i].path);
				clawmd_json_add_bool(x, "loaded", m->agents[i].loaded);
				clawmd_json_add(ag, NULL, x);
			}
			if (m->agents_off_by)
				clawmd_json_add_string(root, "agents_md_off_by", m->agents_off_by);
			else
				clawmd_json_add_null(root, "agents_md_off_by");
		} else {
			clawmd_json_add_null(root, "instruction_files");
		}
		if (m->failed)
			clawmd_json_add_string(root, "failed", m->failed);
		if (r->setup.nanoclaw)
			nanoclaw_json(root, r);
	}
	cmd_json_print(root);
	return 0;
}

/* The memory loaded and printed in the format asked: the exit status. */
static int render_print(struct render_run *r)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_memory m;
	clawmd_memory_init(&m);
	int rc = clawmd_memory_load(&m, &r->o, &err);
	int status = 0;
	if (rc >= 0 && r->setup.nanoclaw && !r->json && !cmd_quiet)
		nanoclaw_lines(r);
	/* the runtime sends nothing at all with these files: say why */
	if (rc >= 0 && m.failed && !r->json)
		fprintf(stderr, "clawmd: render: %s\n", m.failed);
	if (rc < 0) {
		status = cmd_fail(&err);
		if (r->json)
			cmd_json_failure(status);
	} else if (!strcmp(r->format, "json")) {
		status = print_json(&m, r);
	} else if (!strcmp(r->format, "files")) {
		/* Paths the agent named are escaped: no row can be forged. */
		for (size_t i = 0; i < m.nfiles; i++) {
			printf("%s\t", clawmd_mem_type_name(m.files[i].type));
			cmd_put_field(stdout, m.files[i].path);
			putchar('\t');
			cmd_put_field(stdout, m.files[i].parent ? m.files[i].parent : "-");
			putchar('\n');
		}
		/* what nanoclaw's SessionStart hook adds, after the startup
		 * memory, its parent the hook's script */
		for (size_t i = 0; i < NHOOK; i++)
			if (r->setup.hook.files[i].available) {
				fputs("Hook\t", stdout);
				cmd_put_field(stdout, r->setup.hook.files[i].path);
				fputs("\t" CLAWMD_HOOK_SCRIPT "\n", stdout);
			}
	} else {
		struct clawmd_buf s = CLAWMD_BUF_INIT;
		clawmd_memory_text(&s, &m, &r->o);
		fwrite(s.ptr, 1, s.len, stdout);
		/* Exactly Claude Code's string for a pipe (no newline of ours);
		 * a terminal gets one, so the prompt does not follow the text. */
		if (s.len && s.ptr[s.len - 1] != '\n' && isatty(1))
			putchar('\n');
		clawmd_buf_release(&s);
	}
	if (fflush(stdout) != 0 && !status)
		status = 4;
	clawmd_memory_release(&m);
	return status;
}

/* Where render reads, then whether the runtime's own flags fit the
 * runtime, then the load: the exit status. */
static int render_read(struct render_run *r)
{
	struct clawmd_memory_opts *o = &r->o;
	int st;
	if (!r->group && !o->target && (st = render_cwd_group(r)) >= 0)
		return st;
	if (!r->home_set && !r->group)
		o->home = getenv("HOME");
	if (r->group && (st = render_group(r)) >= 0)
		return st;
	/* The runtime is known now (a group's follows its provider). */
	if (r->knob && o->runtime != r->knob_runtime) {
		cmd_usage_error("render", "--%s is %s's: it needs --runtime %s (the runtime here is %s)",
				option_name(r->knob), clawmd_runtime_title(r->knob_runtime),
				clawmd_runtime_name(r->knob_runtime), clawmd_runtime_name(o->runtime));
		return r->json ? cmd_json_failure(2) : 2;
	}
	o->opencode_instructions = r->oc_instr.v;
	o->nopencode_instructions = r->oc_instr.n;
	o->gemini_names = r->gemini_names.v;
	o->ngemini_names = r->gemini_names.n;
	o->list_external = r->json;
	return render_print(r);
}

int cmd_render(int argc, char **argv)
{
	struct render_run r = {.o = CLAWMD_MEMORY_OPTS_INIT, .lo = cmd_layout_global,
			       .format = "text", .knob_runtime = CLAWMD_RUNTIME_CLAUDE};
	int status = render_parse(&r, argc, argv);
	if (status >= 0)
		return status;
	status = render_read(&r);
	clawmd_render_setup_release(&r.setup);
	if (r.have_layout)
		clawmd_root_release(&r.root);
	free(r.cwd_group);
	free(r.cwd_ct);
	return status;
}
