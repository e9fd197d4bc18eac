/* render.c - clawmd render: print exactly the memory Claude Code will load. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const char usage_text[] =
	"usage: clawmd render [options]\n"
	"       clawmd render --group GROUP [layout options] [options]\n"
	"\n"
	"Print the memory string Claude Code builds at session start, byte for byte:\n"
	"managed, user, project and local CLAUDE.md files, .claude/rules, and their\n"
	"@-imports, as the current release (2.1.330) loads them.\n"
	"\n"
	"Options:\n"
	"      --cwd DIR             the directory Claude Code starts in (default: .)\n"
	"      --home DIR            the user tier is DIR/.claude (default: $HOME)\n"
	"      --managed-dir DIR     the managed tier (default /etc/claude-code)\n"
	"      --approve-external    the project approved external includes (with\n"
	"                            --group also when clawmd.json's approve_external)\n"
	"      --setting-sources L   comma list of user,project,local (default: all;\n"
	"                            with --group, setting_sources from clawmd.json)\n"
	"      --target FILE         instead: the nested memory a first read of FILE adds\n"
	"      --format F            text (default), files (TYPE<TAB>PATH<TAB>PARENT) or json\n"
	"      --claude-version V    2.1.330 (default) or 2.1.88\n"
	"  -g, --group GROUP         render inside GROUP's container: cwd is the\n"
	"                            container's group directory, paths are container\n"
	"                            paths, files are reached through the mount table\n"
	"\n" CMD_LAYOUT_HELP "\n"
	"Exit status: 0 success (also when nothing loads), 2 usage, 3 invalid input\n"
	"(a group name, clawmd.json), 4 the working directory cannot be opened.\n";

enum {
	O_CWD = 0x200,
	O_HOME,
	O_MANAGED,
	O_APPROVE,
	O_SOURCES,
	O_TARGET,
	O_FORMAT,
	O_VERSION,
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
			cJSON_AddStringToObject(o, "text", f->content);
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
	cJSON *root;
	if (o->target) {
		root = json_files(m, true);
	} else {
		root = cJSON_CreateObject();
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
	}
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		abort();
	fputs(s, stdout);
	fputc('\n', stdout);
	free(s);
	return 0;
}

int cmd_render(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"cwd", required_argument, NULL, O_CWD},
		{"home", required_argument, NULL, O_HOME},
		{"managed-dir", required_argument, NULL, O_MANAGED},
		{"approve-external", no_argument, NULL, O_APPROVE},
		{"setting-sources", required_argument, NULL, O_SOURCES},
		{"target", required_argument, NULL, O_TARGET},
		{"format", required_argument, NULL, O_FORMAT},
		{"claude-version", required_argument, NULL, O_VERSION},
		{"group", required_argument, NULL, 'g'},
		CMD_LAYOUT_LONGOPTS,
		{NULL, 0, NULL, 0},
	};
	struct clawmd_memory_opts o = {0};
	struct cmd_layout_opts lo = {0};
	const char *format = "text", *group = NULL;
	bool home_set = false, sources_set = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hC:g:", longopts, NULL)) != -1) {
		switch (c) {
		case O_CWD: o.cwd = optarg; break;
		case O_HOME: o.home = optarg; home_set = true; break;
		case O_MANAGED: o.managed_dir = optarg; break;
		case O_APPROVE: o.approve_external = true; break;
		case O_TARGET: o.target = optarg; break;
		case O_FORMAT: format = optarg; break;
		case 'g': group = optarg; break;
		case O_VERSION:
			if (!strcmp(optarg, "2.1.88"))
				o.legacy_2_1_88 = true;
			else if (strcmp(optarg, "2.1.330"))
				return cmd_usage_error("render", "unknown --claude-version '%s' (2.1.330 or 2.1.88)", optarg);
			break;
		case O_SOURCES: {
			sources_set = true;
			o.no_user = !strstr(optarg, "user");
			o.no_project = !strstr(optarg, "project");
			o.no_local = !strstr(optarg, "local");
			char *copy = strdup(optarg);
			if (!copy)
				abort();
			for (char *a = copy, *e; a; a = e) {
				e = strchr(a, ',');
				if (e)
					*e++ = '\0';
				if (strcmp(a, "user") && strcmp(a, "project") && strcmp(a, "local")) {
					free(copy);
					return cmd_usage_error("render", "unknown setting source '%s'", a);
				}
			}
			free(copy);
			break;
		}
		case 'h': fputs(usage_text, stdout); return 0;
		default:
			if (cmd_layout_opt(&lo, c, optarg))
				break;
			return cmd_usage_error("render", "unknown option");
		}
	}
	if (optind < argc)
		return cmd_usage_error("render", "unexpected argument '%s'", argv[optind]);
	if (strcmp(format, "text") && strcmp(format, "files") && strcmp(format, "json"))
		return cmd_usage_error("render", "unknown --format '%s' (text, files or json)", format);
	if (!home_set && !group)
		o.home = getenv("HOME");

	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_layout lay;
	struct clawmd_mount *mounts = NULL;
	size_t nmounts = 0;
	bool have_layout = false;
	if (group) {
		int st = cmd_layout_open(&lay, &lo);
		if (st)
			return st;
		have_layout = true;
		if (clawmd_layout_mounts(&mounts, &nmounts, &lay, group, &err) < 0) {
			clawmd_layout_release(&lay);
			return cmd_fail(&err);
		}
		o.mounts = mounts;
		o.nmounts = nmounts;
		if (!o.cwd)
			o.cwd = lay.ct_group;
		/* clawmd.json's approval and setting sources, unless flags say. */
		o.approve_external |= lay.approve_external;
		if (!sources_set) {
			o.no_user = lay.no_user;
			o.no_project = lay.no_project;
			o.no_local = lay.no_local;
		}
	}
	struct clawmd_memory m;
	clawmd_memory_init(&m);
	o.list_external = !strcmp(format, "json");
	int rc = clawmd_memory_load(&m, &o, &err);
	int status = 0;
	if (rc < 0) {
		status = cmd_fail(&err);
	} else if (!strcmp(format, "json")) {
		status = print_json(&m, &o);
	} else if (!strcmp(format, "files")) {
		for (size_t i = 0; i < m.nfiles; i++)
			printf("%s\t%s\t%s\n", clawmd_mem_type_name(m.files[i].type), m.files[i].path,
			       m.files[i].parent ? m.files[i].parent : "-");
	} else {
		struct clawmd_buf s = CLAWMD_BUF_INIT;
		clawmd_memory_text(&s, &m, &o);
		fwrite(s.ptr, 1, s.len, stdout);
		clawmd_buf_release(&s);
	}
	if (fflush(stdout) != 0 && !status)
		status = 4;
	clawmd_memory_release(&m);
	clawmd_mounts_free(mounts, nmounts);
	if (have_layout)
		clawmd_layout_release(&lay);
	return status;
}
