/* mounts.c - clawmd mounts: the mounts a container runner needs for a group
 * (clawmd_group_binds), as docker -v arguments, JSON or a Kubernetes
 * volumeMounts fragment. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const char help_head[] =
	"usage: clawmd mounts [options] GROUP\n"
	"\n"
	"Print the mounts a container runner needs for GROUP and its provider: the\n"
	"group read-write at /workspace/agent; read-only over it, everything compose\n"
	"writes there that the agent must not change during its session (each\n"
	"composed entry file, copy mode's .claude-shared.md, .claude-fragments/); and\n"
	"the layout's sources read-only under /app (the base, skills, modules and the\n"
	"extra mounts, which symlink mode's links point at).  Parents come before\n"
	"what is mounted inside them.  The memory, CLAUDE.local.md, stays writable.\n"
	"Run it after 'clawmd compose GROUP' (as a runner spawns); reads only.\n"
	"\n"
	"  docker      two lines a mount, '-v' and HOST:CONTAINER[:ro], one argument\n"
	"              a line (bash: mapfile -t v < <(clawmd mounts G); docker run \"${v[@]}\")\n"
	"  json        every mount with its host and container path, readonly, type,\n"
	"              what it is and its path inside its volume (sub)\n"
	"  kubernetes  the agent container's volumeMounts (YAML): the group's volume\n"
	"              and the layout's, read-only, by subPath (contrib/kubernetes/)\n";

static const char help_foot[] =
	"Exit status: 0 success, 2 usage, 3 invalid input (a group name, clawmd.json,\n"
	"container.json; a path docker's -v cannot carry, a ':' or ','; for\n"
	"kubernetes, a source outside ROOT), 4 a missing or symlinked group, or,\n"
	"with docker, a file compose writes that is not there yet (docker would make\n"
	"a directory in its place: compose first).\n";

enum { O_FORMAT = OPT_CMD, O_JSON, O_GROUP_VOLUME, O_LAYOUT_VOLUME };

static const struct cmd_opt options[] = {
	{"format", O_FORMAT, "F", "docker, json or kubernetes (default: docker)"},
	{"json", O_JSON, NULL, "the same as --format json"},
	{"group-volume", O_GROUP_VOLUME, "NAME", "kubernetes: the volume holding the group\n"
						 "directory (default: clawmd-group)"},
	{"layout-volume", O_LAYOUT_VOLUME, "NAME", "kubernetes: the volume holding ROOT\n"
						   "(default: clawmd-layout)"},
	CMD_OPT_END,
};

enum format { F_DOCKER, F_JSON, F_KUBE };

/* A DNS-1123 label, as Kubernetes names volumes. */
static bool volume_name(const char *s)
{
	size_t n = strlen(s);
	return n && n <= 63 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == n &&
	       s[0] != '-' && s[n - 1] != '-';
}

/* No character the text formats cannot carry: a control byte, DEL, one
 * outside UTF-8 (JSON carries them, clawmd_json_text), a C1 control
 * (U+0080-U+009F: U+0085 is a line break to YAML 1.1), U+2028 and U+2029
 * (line and paragraph separators, breaks to YAML 1.1 and to some line
 * readers), the byte order mark and U+FFFE/U+FFFF (not YAML's
 * printable): a YAML parser (libyaml, go-yaml) or a line reader would
 * take another path than the one printed. */
static bool printable(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t k = *p < 0x80 ? (*p >= 0x20 && *p != 0x7f)
				     : clawmd_utf8_len((const char *)p, strlen((const char *)p));
		if (!k || (p[0] == 0xc2 && p[1] < 0xa0) ||
		    (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) ||
		    (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) ||
		    (p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)))
			return false;
		p += k;
	}
	return true;
}

/* "clawmd mounts: 'PATH': WHY" (PATH as messages show it, or whole
 * without a layout: what docker is given); returns `st`. */
static int refuse(const struct clawmd_layout *lay, const char *path, const char *why, int st)
{
	char *shown = lay ? clawmd_layout_shown(lay, path) : clawmd_xstrdup(path);
	char *e = cmd_escaped(shown);
	fprintf(stderr, "clawmd mounts: '%s': %s\n", e, why);
	free(e);
	free(shown);
	return st;
}

static int check_paths(const struct clawmd_layout *lay, const struct clawmd_bind *v, size_t n,
		       enum format f)
{
	for (size_t i = 0; i < n; i++) {
		const char *p[2] = {v[i].host, v[i].container};
		for (int k = 0; k < 2; k++) {
			if (f != F_JSON && !printable(p[k]))
				return refuse(lay, p[k], "a control character, a line separator or "
							 "invalid UTF-8 in the path: use --format json", 3);
			if (f == F_DOCKER && strpbrk(p[k], ":,"))
				return refuse(NULL, p[k], "docker's -v cannot carry a ':' or ',' in "
							 "a path: use --format json and docker's --mount", 3);
		}
		if (f == F_DOCKER && !v[i].present)
			return refuse(lay, v[i].host, "not there yet (docker would make a directory "
						      "in its place); run 'clawmd compose' first", 4);
		if (f == F_KUBE && !v[i].sub)
			return refuse(lay, v[i].host, "outside ROOT: no subPath of the layout volume "
						      "holds it", 3);
	}
	return 0;
}

/* A YAML double-quoted scalar (the path was checked printable). */
static void put_yaml(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void print_kube(const struct clawmd_bind *v, size_t n, const char *group, const char *gvol,
		       const char *lvol)
{
	printf("# clawmd mounts %s --format kubernetes: the agent container's volumeMounts.\n"
	       "# %s holds the group directory, %s the layout ROOT (read-only);\n"
	       "# the pod declares both (contrib/kubernetes/pod.yaml).\n"
	       "volumeMounts:\n",
	       group, gvol, lvol);
	for (size_t i = 0; i < n; i++) {
		bool in_group = v[i].what != CLAWMD_BIND_SOURCE;
		printf("  - name: %s\n    mountPath: ", in_group ? gvol : lvol);
		put_yaml(v[i].container);
		if (*v[i].sub && strcmp(v[i].sub, ".")) {
			printf("\n    subPath: ");
			put_yaml(v[i].sub);
		}
		printf("\n");
		if (v[i].readonly)
			printf("    readOnly: true\n");
	}
}

static void print_json(const struct clawmd_bind *v, size_t n, const struct clawmd_layout *lay,
		       const char *group, clawmd_runtimes rts)
{
	struct clawmd_json *doc = cmd_json_doc();
	clawmd_json_add_string(doc, "group", group);
	clawmd_json_add_string(doc, "mode", lay->mode == CLAWMD_MODE_COPY ? "copy" : "symlink");
	struct clawmd_json *a = clawmd_json_add_array(doc, "runtimes");
	for (int rt = 0; rt < CLAWMD_RUNTIME_N; rt++)
		if (rts & (1u << rt))
			clawmd_json_add_string(a, NULL, clawmd_runtime_name(rt));
	a = clawmd_json_add_array(doc, "mounts");
	for (size_t i = 0; i < n; i++) {
		struct clawmd_json *o = clawmd_json_object();
		clawmd_json_add_string(o, "what", clawmd_bind_what_name(v[i].what));
		clawmd_json_add_string(o, "host", v[i].host);
		clawmd_json_add_string(o, "container", v[i].container);
		clawmd_json_add_bool(o, "readonly", v[i].readonly);
		clawmd_json_add_string(o, "type", v[i].dir ? "directory" : "file");
		if (v[i].sub)
			clawmd_json_add_string(o, "sub", v[i].sub);
		else
			clawmd_json_add_null(o, "sub");
		clawmd_json_add_bool(o, "present", v[i].present);
		clawmd_json_add_bool(o, "short_form", v[i].short_form);
		clawmd_json_add(a, NULL, o);
	}
	cmd_json_print(doc);
}

/* What mounts prints and how: the format and the Kubernetes volume names. */
struct mounts_run {
	enum format f;
	const char *gvol, *lvol;
};

/* The options into `m` and `lo`: -1 to go on, else the exit status (0
 * after --help, 2 on a usage error, said). */
static int mounts_parse(struct mounts_run *m, struct cmd_layout_opts *lo, struct cmd_args *a)
{
	int c;
	while ((c = cmd_args_next(a)) > 0) {
		switch (c) {
		case O_JSON: m->f = F_JSON; break;
		case O_FORMAT:
			if (!strcmp(a->arg, "docker"))
				m->f = F_DOCKER;
			else if (!strcmp(a->arg, "json"))
				m->f = F_JSON;
			else if (!strcmp(a->arg, "kubernetes") || !strcmp(a->arg, "k8s"))
				m->f = F_KUBE;
			else
				c = (cmd_usage_error("mounts", "--format: unknown format '%s' "
							       "(docker, json, kubernetes)", a->arg), -1);
			break;
		case O_GROUP_VOLUME:
		case O_LAYOUT_VOLUME:
			/* a DNS-1123 label, as Kubernetes names volumes */
			if (!volume_name(a->arg))
				c = (cmd_usage_error("mounts", "%s: '%s' is not a volume name (lowercase "
							       "letters, digits and '-', at most 63)",
						     a->spelled, a->arg), -1);
			else if (c == O_GROUP_VOLUME)
				m->gvol = a->arg;
			else
				m->lvol = a->arg;
			break;
		case 'h': cmd_help(help_head, options, help_foot); return 0;
		default:
			c = cmd_args_common(a, c, lo);
		}
		if (c < 0)
			break;
	}
	if (c >= 0 && a->noperands != 1)
		c = (cmd_usage_error("mounts", a->noperands ? "one GROUP at a time" : "no GROUP given"), -1);
	return c < 0 ? 2 : -1;
}

/* The group's mounts, checked, in the format asked: the exit status. */
static int mounts_print(const struct mounts_run *m, const struct clawmd_root *root,
			const char *group)
{
	struct clawmd_err err = CLAWMD_ERR_INIT;
	struct clawmd_group *g = NULL;
	struct clawmd_bind *v = NULL;
	size_t n = 0;
	clawmd_runtimes rts = 0;
	enum clawmd_runtime first;
	int status;
	if (clawmd_group_open(&g, root, group, &err) < 0 ||
	    clawmd_group_runtimes(&rts, &first, g, &err) < 0 ||
	    clawmd_group_binds(&v, &n, g, &err) < 0) {
		status = cmd_fail(&err);
		if (m->f == F_JSON)
			cmd_json_failure(status);
	} else if (!(status = check_paths(&root->lay, v, n, m->f))) {
		if (m->f == F_JSON)
			print_json(v, n, &root->lay, group, rts);
		else if (m->f == F_KUBE)
			print_kube(v, n, group, m->gvol, m->lvol);
		else
			for (size_t i = 0; i < n; i++)
				printf("-v\n%s:%s%s\n", v[i].host, v[i].container, v[i].readonly ? ":ro" : "");
	} else if (m->f == F_JSON) {
		cmd_json_failure(status);
	}
	clawmd_binds_free(v, n);
	clawmd_group_free(g);
	return status;
}

int cmd_mounts(int argc, char **argv)
{
	struct cmd_layout_opts lo = cmd_layout_global;
	struct mounts_run m = {F_DOCKER, "clawmd-group", "clawmd-layout"};
	struct cmd_args a;
	cmd_args_init(&a, "mounts", options, true, argc, argv);
	int status = mounts_parse(&m, &lo, &a);
	if (status >= 0) {
		cmd_args_release(&a);
		return status == 2 && m.f == F_JSON ? cmd_json_failure(2) : status;
	}
	struct clawmd_root root;
	status = cmd_root_open(&root, &lo, m.f != F_DOCKER || cmd_quiet);
	if (!status && (status = cmd_groups_check(&root, a.operands, 1)))
		clawmd_root_release(&root);
	if (status) {
		cmd_args_release(&a);
		return m.f == F_JSON ? cmd_json_failure(status) : status;
	}
	status = mounts_print(&m, &root, a.operands[0]);
	clawmd_root_release(&root);
	cmd_args_release(&a);
	return status;
}
