/* render.c - clawmd render: print exactly the memory Claude Code will load. */
#include <cJSON.h>
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
	"where one is added so the prompt starts on its own line.\n";

static const char help_foot[] =
	"In --format files, PATH and PARENT are escaped: a backslash, a control byte\n"
	"or DEL is written as \\\\, \\n, \\t, \\r or \\xHH, so one line is one file.\n"
	"Reading is bounded: files over 4 MiB are skipped (as Claude Code skips them),\n"
	"at most 64 MiB and 50,000 files per load; only regular files are opened.\n"
	"\n"
	"Exit status: 0 success (also when nothing loads), 2 usage, 3 invalid input\n"
	"(a group name, clawmd.json), 4 a missing group directory or a working\n"
	"directory that cannot be opened.\n";

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
					      "--group also when clawmd.json's approve_external)"},
	{"setting-sources", O_SOURCES, "L", "comma list of user,project,local (default: all;\n"
					    "with --group, setting_sources from clawmd.json)"},
	{"target", O_TARGET, "FILE", "instead: the nested memory a first read of FILE adds"},
	{"format", O_FORMAT, "F", "text, files (TYPE<TAB>PATH<TAB>PARENT) or json\n(default: text)"},
	{"json", O_JSON, NULL, "the same as --format json"},
	{"claude-version", O_VERSION, "V", "the agents' Claude Code release, any X.Y.Z or 'latest'\n"
					   "(default: claude_version from clawmd.json with --group,\n"
					   "else 2.1.330): rules sorted up to 2.1.112, in readdir(3)\n"
					   "order from 2.1.113; realpath gate from 2.1.232; AGENTS.md\n"
					   "from 2.1.281"},
	{"instruction-files", O_INSTRUCTION_FILES, "MODE",
	 "Claude Code's instructionFiles option (2.1.281 on):\n"
	 "claude-md, claude-md-or-agents-md, claude-md-and-agents-md\n"
	 "or managed-only (default: as HOME/.claude/settings.json\n"
	 "sets it, else claude-md-or-agents-md)"},
	{"runtime", O_RUNTIME, "R", "whose loading: claude, codex, gemini, opencode,\n"
				"cursor, copilot, ollama, pi, qwen or mock\n"
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
	{"group", 'g', "GROUP", "render inside GROUP's container: cwd is the\n"
				"container's group directory, paths are container\n"
				"paths, files are reached through the mount table"},
	CMD_OPT_END,
};

static cJSON *json_files(const struct clawmd_memory *m, bool target)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct clawmd_mem_file *f = &m->files[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "type", clawmd_mem_type_name(f->type));
		cJSON_AddStringToObject(o, "path", f->path);
		if (f->parent)
			cJSON_AddStringToObject(o, "parent", f->parent);
		else
			cJSON_AddNullToObject(o, "parent");
		if (target) {
			if (f->nglobs) {
				cJSON *g = cJSON_AddArrayToObject(o, "globs");
				for (size_t k = 0; k < f->nglobs; k++)
					cJSON_AddItemToArray(g, cJSON_CreateString(f->globs[k]));
			} else {
				cJSON_AddNullToObject(o, "globs");
			}
			/* the attachment as Claude Code sends it */
			struct clawmd_buf t = CLAWMD_BUF_INIT;
			clawmd_buf_printf(&t, "Contents of %s:\n\n", f->path);
			clawmd_buf_put(&t, f->content, f->len);
			cJSON_AddStringToObject(o, "text", t.ptr);
			clawmd_buf_release(&t);
		} else {
			/* chars in UTF-16 code units, as Claude Code counts them */
			size_t chars = 0;
			for (size_t k = 0; k < f->len; k++) {
				unsigned char c = (unsigned char)f->content[k];
				if ((c & 0xc0) != 0x80)
					chars += c >= 0xf0 ? 2 : 1;
			}
			cJSON_AddNumberToObject(o, "size", (double)f->size);
			cJSON_AddNumberToObject(o, "tokens", (double)((chars + 3) / 4));
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static int print_json(const struct clawmd_memory *m, const struct clawmd_memory_opts *o)
{
	cJSON *root = cmd_json_doc();
	if (o->target) {
		cJSON_AddStringToObject(root, "target", o->target);
		cJSON_AddItemToObject(root, "attachments", json_files(m, true));
	} else {
		cJSON_AddStringToObject(root, "cwd", m->cwd);
		cJSON_AddItemToObject(root, "files", json_files(m, false));
		cJSON *imps = cJSON_AddArrayToObject(root, "imports");
		for (size_t i = 0; i < m->nimports; i++) {
			const struct clawmd_mem_import *im = &m->imports[i];
			cJSON *x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "from", im->from);
			cJSON_AddStringToObject(x, "import", im->raw);
			cJSON_AddStringToObject(x, "path", im->path);
			cJSON_AddStringToObject(x, "status", clawmd_import_status_name(im->status));
			cJSON_AddItemToArray(imps, x);
		}
		cJSON *ext = cJSON_AddArrayToObject(root, "external_includes");
		for (size_t i = 0; i < m->nexternal; i++)
			cJSON_AddItemToArray(ext, cJSON_CreateString(m->external[i]));
		/* AGENTS.md (2.1.281 on): the mode in effect, what the walk
		 * found, and what turned the fallback off */
		if (m->instruction_files) {
			cJSON_AddStringToObject(root, "instruction_files",
						clawmd_instruction_files_name(m->instruction_files));
			cJSON *ag = cJSON_AddArrayToObject(root, "agents_md");
			for (size_t i = 0; i < m->nagents; i++) {
				cJSON *x = cJSON_CreateObject();
				cJSON_AddStringToObject(x, "path", m->agents[i].path);
				cJSON_AddBoolToObject(x, "loaded", m->agents[i].loaded);
				cJSON_AddItemToArray(ag, x);
			}
			if (m->agents_off_by)
				cJSON_AddStringToObject(root, "agents_md_off_by", m->agents_off_by);
			else
				cJSON_AddNullToObject(root, "agents_md_off_by");
		} else {
			cJSON_AddNullToObject(root, "instruction_files");
		}
	}
	cmd_json_print(root);
	return 0;
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

int cmd_render(int argc, char **argv)
{
	struct clawmd_memory_opts o = CLAWMD_MEMORY_OPTS_INIT;
	struct cmd_layout_opts lo = cmd_layout_global;
	struct cmd_args a;
	const char *format = "text", *group = NULL;
	bool home_set = false, version_set = false, sources_set = false, runtime_set = false;
	struct codex_list codex_fallback, codex_markers;
	struct name_list oc_instr = {{0}, 0}, gemini_names = {{0}, 0};
	int knob = 0; /* the first runtime's setting given */
	enum clawmd_runtime knob_runtime = CLAWMD_RUNTIME_CLAUDE;
	int c;
	cmd_args_init(&a, "render", options, true, argc, argv);
	while ((c = cmd_args_next(&a)) > 0) {
		for (size_t i = 0; !knob && i < sizeof(runtime_flags) / sizeof(runtime_flags[0]); i++)
			if (runtime_flags[i].opt == c)
				knob = c, knob_runtime = runtime_flags[i].runtime;
		switch (c) {
		case O_CWD: o.cwd = a.arg; break;
		case O_HOME: o.home = a.arg; home_set = true; break;
		case O_MANAGED: o.managed_dir = a.arg; break;
		case O_APPROVE: o.approve_external = true; break;
		case O_TARGET: o.target = a.arg; break;
		case O_INSTRUCTION_FILES:
			if (clawmd_instruction_files_parse(&o.instruction_files, a.arg) < 0)
				c = (cmd_usage_error("render", "%s: expected claude-md, claude-md-or-agents-md, "
							       "claude-md-and-agents-md or managed-only, not '%s'",
						     a.spelled, a.arg), -1);
			break;
		case O_FORMAT: format = a.arg; break;
		case O_JSON: format = "json"; break;
		case 'g': group = a.arg; break;
		/* OpenCode's settings (render/opencode.c) */
		case O_OC_INSTRUCTIONS:
			if (name_add(&oc_instr, a.spelled, a.arg))
				c = -1;
			break;
		case O_OC_NO_CLAUDE: o.opencode_no_claude = true; break;
		/* Gemini CLI's (render/gemini.c) */
		case O_GEMINI_NAME:
			if (!a.arg[0] || strchr(a.arg, '/') || !strcmp(a.arg, ".") || !strcmp(a.arg, ".."))
				c = (cmd_usage_error("render", "%s: a file name, without '/', not '%s'",
						     a.spelled, a.arg), -1);
			else if (name_add(&gemini_names, a.spelled, a.arg))
				c = -1;
			break;
		case O_RUNTIME:
			runtime_set = true;
			if (clawmd_runtime_parse(&o.runtime, a.arg) < 0) {
				const char *near = clawmd_runtime_suggest(a.arg);
				c = (cmd_usage_error("render", "%s: unknown runtime '%s'%s%s%s (claude, codex, "
							       "gemini, opencode, cursor, copilot, ollama, pi, "
							       "qwen or mock)", a.spelled, a.arg,
						     near ? "; did you mean '" : "", near ? near : "",
						     near ? "'?" : ""), -1);
			}
			break;
		case O_VERSION: {
			struct clawmd_err verr = CLAWMD_ERR_INIT;
			if (clawmd_release_parse(&o.release, a.arg, &verr) < 0)
				c = (cmd_usage_error("render", "%s: expected a release such as 2.1.330 "
							       "or 'latest', not '%s'",
						     a.spelled, a.arg), -1);
			version_set = true;
			break;
		}
		case O_SOURCES:
			sources_set = true;
			o.no_user = !strstr(a.arg, "user");
			o.no_project = !strstr(a.arg, "project");
			o.no_local = !strstr(a.arg, "local");
			for (const char *p = a.arg; c > 0;) {
				size_t l = strcspn(p, ",");
				if (!((l == 4 && !strncmp(p, "user", 4)) || (l == 7 && !strncmp(p, "project", 7)) ||
				      (l == 5 && !strncmp(p, "local", 5))))
					c = (cmd_usage_error("render", "--setting-sources: unknown source '%.*s' "
								       "(user, project, local)", (int)l, p), -1);
				if (!p[l])
					break;
				p += l + 1;
			}
			break;
		/* ---- Codex ---- */
		case O_CODEX_HOME:
			o.codex_home = a.arg;
			break;
		case O_CODEX_MAX:
			o.codex_max_bytes_set = true;
			if (codex_size(&o.codex_max_bytes, a.spelled, a.arg))
				c = -1;
			break;
		case O_CODEX_FALLBACK:
			if (codex_list(&codex_fallback, a.spelled, a.arg))
				c = -1;
			o.codex_fallback = codex_fallback.v;
			o.ncodex_fallback = codex_fallback.n;
			break;
		case O_CODEX_MARKERS:
			o.codex_markers_set = true;
			if (codex_list(&codex_markers, a.spelled, a.arg))
				c = -1;
			o.codex_markers = codex_markers.v;
			o.ncodex_markers = codex_markers.n;
			break;
		/* ---- end Codex ---- */
		case 'h': cmd_help(help_head, options, help_foot); cmd_args_release(&a); return 0;
		default:
			if (!cmd_args_common(&a, c, &lo))
				c = (cmd_usage_error("render", "%s: expected auto, always or never, not '%s'",
						     a.spelled, a.arg), -1);
		}
		if (c < 0)
			break;
	}
	/* `render GROUP` is `render --group GROUP`, as `compose GROUP`. */
	if (c >= 0 && a.noperands && group)
		c = (cmd_usage_error("render", "give GROUP or --group GROUP, not both ('%s')",
				     a.operands[0]), -1);
	else if (c >= 0 && a.noperands > 1)
		c = (cmd_usage_error("render", "one GROUP at a time ('%s' is a second)",
				     a.operands[1]), -1);
	else if (c >= 0 && a.noperands)
		group = a.operands[0];
	/* The container's user tier is what a mount shows at its home: the
	 * path is the container's, not the host's. */
	if (c >= 0 && group && home_set && o.home[0] != '/')
		c = (cmd_usage_error("render", "--home with --group is a container path, absolute, "
					       "not '%s'", o.home), -1);
	cmd_args_release(&a);
	if (c < 0)
		return !strcmp(format, "json") ? cmd_json_failure(2) : 2;
	if (o.target && o.runtime != CLAWMD_RUNTIME_CLAUDE)
		return cmd_usage_error("render", "--target: nested memory is Claude Code's alone, not %s's",
				       clawmd_runtime_name(o.runtime));
	if (strcmp(format, "text") && strcmp(format, "files") && strcmp(format, "json"))
		return cmd_usage_error("render", "--format: expected text, files or json, not '%s'", format);

	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_root root;
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	bool have_layout = false;
	bool json = !strcmp(format, "json");
	/*
	 * A directory inside a group (--cwd DIR, or where render runs) is
	 * read as the group's container reads it, as with --group: through
	 * its mount table, never the host's view of the agent's links (a
	 * CLAUDE.local.md, AGENTS.md or GEMINI.md the agent made a symlink to
	 * a host file).  The same path as check --cwd: the root DIR is in
	 * (cmd_tree_root), then clawmd_layout_group_of (issue 28 item 5).
	 */
	char *cwd_group = NULL, *cwd_ct = NULL;
	if (!group && !o.target) {
		const char *dir = o.cwd ? o.cwd : ".";
		if (cmd_tree_root(&root, &lo, dir)) {
			clawmd_layout_group_of(&cwd_group, &cwd_ct, &root.lay, dir);
			if (cwd_group) {
				group = cwd_group;
				o.cwd = cwd_ct;
				have_layout = true;
			} else {
				clawmd_root_release(&root);
			}
		}
		if (group && home_set && o.home[0] != '/') {
			clawmd_root_release(&root);
			free(cwd_group);
			free(cwd_ct);
			cmd_usage_error("render", "--home in a group is a container path, absolute, "
						  "not '%s'", o.home);
			return json ? cmd_json_failure(2) : 2;
		}
	}
	if (!home_set && !group)
		o.home = getenv("HOME");
	if (group) {
		int st = have_layout ? 0 : cmd_root_open(&root, &lo, cmd_quiet);
		if (st)
			return json ? cmd_json_failure(st) : st;
		have_layout = true;
		char *gv[] = {(char *)group};
		if ((st = cmd_groups_check(&root, gv, 1))) {
			clawmd_root_release(&root);
			free(cwd_group);
			free(cwd_ct);
			return json ? cmd_json_failure(st) : st;
		}
		struct clawmd_group *g;
		clawmd_runtimes set;
		enum clawmd_runtime first;
		if (clawmd_group_open(&g, &root, group, &err) < 0 ||
		    clawmd_group_mounts(&mounts, &nmounts, g, &err) < 0 ||
		    (!runtime_set && clawmd_group_runtimes(&set, &first, g, &err) < 0)) {
			clawmd_mounts_free(mounts, nmounts);
			clawmd_group_free(g);
			clawmd_root_release(&root);
			free(cwd_group);
			free(cwd_ct);
			st = cmd_fail(&err);
			return json ? cmd_json_failure(st) : st;
		}
		clawmd_group_free(g);
		/* nested memory is Claude Code's; a provider of clawmd.json's
		 * loads by the rules of the built-in one it is "like" */
		const struct clawmd_contract *fc = clawmd_layout_contract(&root.lay, first);
		if (!runtime_set && !o.target)
			o.runtime = fc ? fc->like : CLAWMD_RUNTIME_CLAUDE;
		o.mounts = mounts;
		o.nmounts = nmounts;
		if (!o.cwd)
			o.cwd = root.lay.ct_group;
		if (!version_set)
			o.release = root.lay.claude;
		/* clawmd.json's approval and setting sources, unless flags say. */
		o.approve_external |= root.lay.approve_external;
		if (!sources_set) {
			o.no_user = root.lay.no_user;
			o.no_project = root.lay.no_project;
			o.no_local = root.lay.no_local;
		}
	}
	/* The runtime is known now (a group's follows its provider). */
	if (knob && o.runtime != knob_runtime) {
		clawmd_mounts_free(mounts, nmounts);
		if (have_layout)
			clawmd_root_release(&root);
		free(cwd_group);
		free(cwd_ct);
		cmd_usage_error("render", "--%s is %s's: it needs --runtime %s (the runtime here is %s)",
				option_name(knob), clawmd_runtime_title(knob_runtime),
				clawmd_runtime_name(knob_runtime), clawmd_runtime_name(o.runtime));
		return json ? cmd_json_failure(2) : 2;
	}
	o.opencode_instructions = oc_instr.v;
	o.nopencode_instructions = oc_instr.n;
	o.gemini_names = gemini_names.v;
	o.ngemini_names = gemini_names.n;
	struct clawmd_memory m;
	clawmd_memory_init(&m);
	o.list_external = !strcmp(format, "json");
	int rc = clawmd_memory_load(&m, &o, &err);
	int status = 0;
	if (rc < 0) {
		status = cmd_fail(&err);
		if (json)
			cmd_json_failure(status);
	} else if (!strcmp(format, "json")) {
		status = print_json(&m, &o);
	} else if (!strcmp(format, "files")) {
		/* Paths the agent named are escaped: no row can be forged. */
		for (size_t i = 0; i < m.nfiles; i++) {
			printf("%s\t", clawmd_mem_type_name(m.files[i].type));
			cmd_put_field(stdout, m.files[i].path);
			putchar('\t');
			cmd_put_field(stdout, m.files[i].parent ? m.files[i].parent : "-");
			putchar('\n');
		}
	} else {
		struct clawmd_buf s = CLAWMD_BUF_INIT;
		clawmd_memory_text(&s, &m, &o);
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
	clawmd_mounts_free(mounts, nmounts);
	if (have_layout)
		clawmd_root_release(&root);
	free(cwd_group);
	free(cwd_ct);
	return status;
}
