/* layout.c - find ROOT, apply presets, clawmd.json and flags, and build the
 * container's mount table. */
#include "sys/dl.h"
#include "clawmd.h"
#include "fs/fs.h"
#include "fs/stamp.h"
#include "base/jsondiag.h"
#include "layout/groups.h"
#include "layout/providers.h"
#include "base/util.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define LAYOUT_JSON_MAX (256 * 1024)

void clawmd_layout_init(struct clawmd_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	lay->token_budget = 20000;
	lay->lock_timeout = 30;
	lay->claude = clawmd_release_default;
	lay->mode = CLAWMD_MODE_COPY; /* loads in every release, no approval needed */
}

static void set_str(char **slot, char *value)
{
	free(*slot);
	*slot = value;
}

static char *host_path(const struct clawmd_layout *lay, const char *v)
{
	return v[0] == '/' ? clawmd_xstrdup(v) : clawmd_path_join(lay->root, v);
}

/* Drop the mounts the previous preset added (clawmd.json's stay). */
static void drop_preset_mounts(struct clawmd_layout *lay)
{
	size_t k = lay->npreset_mounts;
	if (!k)
		return;
	for (size_t i = 0; i < k; i++) {
		free(lay->mounts[i].container);
		free(lay->mounts[i].host);
	}
	memmove(lay->mounts, lay->mounts + k, (lay->nmounts - k) * sizeof(*lay->mounts));
	lay->nmounts -= k;
	lay->npreset_mounts = 0;
}

/* Replace the optional imports with `names` (n of them, already valid). */
static void set_optional(struct clawmd_layout *lay, const char *const *names, size_t n)
{
	clawmd_strv_free(lay->optional, lay->noptional);
	lay->optional = n ? clawmd_xcalloc(n, sizeof(char *)) : NULL;
	for (size_t i = 0; i < n; i++)
		lay->optional[i] = clawmd_xstrdup(names[i]);
	lay->noptional = n;
}

static void apply_preset_default(struct clawmd_layout *lay)
{
	static const char *const role[] = {CLAWMD_ROLE_NAME};
	drop_preset_mounts(lay);
	lay->import_local = false;
	lay->persona = false;
	set_optional(lay, role, 1);
	lay->runtimes = 1u << CLAWMD_RUNTIME_CLAUDE;
	lay->runtime = CLAWMD_RUNTIME_CLAUDE;
	lay->no_user = lay->no_project = lay->no_local = false;
	lay->nanoclaw = false;
	set_str(&lay->base, clawmd_path_join(lay->root, "container/CLAUDE.md"));
	set_str(&lay->skills, clawmd_path_join(lay->root, "skills"));
	set_str(&lay->groups, clawmd_path_join(lay->root, "groups"));
	set_str(&lay->modules, NULL);
	set_str(&lay->state, clawmd_path_join(lay->root, ".clawmd"));
	set_str(&lay->ct_base, clawmd_xstrdup("/app/CLAUDE.md"));
	set_str(&lay->ct_skills, clawmd_xstrdup("/app/skills"));
	set_str(&lay->ct_modules, clawmd_xstrdup("/app/src/mcp-tools"));
	set_str(&lay->ct_group, clawmd_xstrdup("/workspace/agent"));
}

/*
 * nanoclaw as it runs (its src/container-runner.ts and agent runner):
 *  - skills in container/skills, mounted at /app/skills;
 *  - the agent runner's sources, container/agent-runner/src, mounted at
 *    /app/src, so its MCP tool modules (with their <name>.instructions.md)
 *    are seen at /app/src/mcp-tools: the mount table carries that mount;
 *  - the runner starts the SDK with settingSources ['project', 'user'], so
 *    Claude Code does not read CLAUDE.local.md by itself: the composed
 *    entry imports it (import_local), and render and check load without
 *    the local source.
 */
static void apply_preset_nanoclaw(struct clawmd_layout *lay)
{
	apply_preset_default(lay);
	lay->nanoclaw = true;
	set_str(&lay->skills, clawmd_path_join(lay->root, "container/skills"));
	set_str(&lay->modules, clawmd_path_join(lay->root, "container/agent-runner/src/mcp-tools"));
	lay->import_local = true;
	lay->no_local = true;
	/* Its composer inlines the group's *.prepend.md files first (nanocoai
	 * nanoclaw, src/group-persona.ts); the role file is imported when
	 * present (qwibitai/nanoclaw pull request 2345). */
	lay->persona = true;
	/* OpenCode (as Ollama) on Claude's document: nanoclaw's contract
	 * (src/provider-contracts/opencode.ts) inherits Claude's
	 * projectDocument, and its runner's opencode config lists
	 * /workspace/agent/CLAUDE.md and CLAUDE.local.md as instructions,
	 * each read as text (OpenCode follows no import): the entry stays
	 * inlined in the import layout, the memory beside it its own. */
	static const char *const opencode[][2] = {
		{"providers.opencode.entry", "CLAUDE.md"},
		{"providers.opencode.container_path", "/workspace/agent/CLAUDE.md"},
		{"providers.opencode.cap", "4194304"},
		{"providers.opencode.reads", "CLAUDE.local.md"},
	};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(opencode); i++) {
		struct clawmd_err scratch = CLAWMD_ERR_INIT; /* fixed, valid keys */
		clawmd_layout_provider_set(lay, opencode[i][0], opencode[i][1], &scratch);
	}
	lay->mounts = clawmd_xrealloc(lay->mounts, (lay->nmounts + 1) * sizeof(*lay->mounts));
	memmove(lay->mounts + 1, lay->mounts, lay->nmounts * sizeof(*lay->mounts));
	lay->mounts[0].container = clawmd_xstrdup("/app/src");
	lay->mounts[0].host = clawmd_path_join(lay->root, "container/agent-runner/src");
	lay->nmounts++;
	lay->npreset_mounts = 1;
}

/* "project,user" (any order, any subset of user, project, local). */
static int parse_sources(struct clawmd_layout *lay, const char *v, struct clawmd_err *err)
{
	bool user = false, project = false, local = false;
	const char *p = v;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n == 4 && !strncmp(p, "user", 4))
			user = true;
		else if (n == 7 && !strncmp(p, "project", 7))
			project = true;
		else if (n == 5 && !strncmp(p, "local", 5))
			local = true;
		else
			return clawmd_err_set(err, CLAWMD_EUSAGE,
					      "setting_sources: expected a list of user, project, "
					      "local, not '%s'", v);
		p += n + (p[n] == ',');
	}
	lay->no_user = !user;
	lay->no_project = !project;
	lay->no_local = !local;
	return 0;
}

/*
 * "CLAUDE.role.md,facts.md" (clawmd.json's array arrives joined by commas,
 * which no valid name holds): the files of the group the entry imports when
 * present, in this order.  Each a valid name ([A-Za-z0-9][A-Za-z0-9._-]
 * {0,63}: nothing outside the group, no hidden file), none of the names
 * clawmd writes or reads for itself, none a persona file, no repeats.
 */
static int parse_optional(struct clawmd_layout *lay, const char *v, struct clawmd_err *err)
{
	static const char *const reserved[] = {CLAWMD_ENTRY_NAME, CLAWMD_LOCAL_NAME,
					       CLAWMD_CONFIG_NAME};
	const char *names[CLAWMD_OPTIONAL_MAX];
	char *copy = clawmd_xstrdup(v);
	size_t n = 0;
	int rc = 0;
	for (char *p = copy; *p;) {
		size_t len = strcspn(p, ",");
		bool last = !p[len];
		p[len] = '\0';
		const char *why = NULL;
		size_t sl = strlen(CLAWMD_PREPEND_SUFFIX);
		if (!clawmd_name_valid(p, len))
			why = "not a valid file name ([A-Za-z0-9][A-Za-z0-9._-]{0,63})";
		for (size_t i = 0; !why && i < CLAWMD_ARRAY_SIZE(reserved); i++)
			if (!strcmp(p, reserved[i]))
				why = "a name clawmd owns";
		if (!why && len >= sl && !strcmp(p + len - sl, CLAWMD_PREPEND_SUFFIX))
			why = "a persona file (see \"persona\")";
		for (size_t i = 0; !why && i < n; i++)
			if (!strcmp(names[i], p))
				why = "listed twice";
		if (!why && n == CLAWMD_OPTIONAL_MAX)
			why = "past the 32 names allowed";
		if (why) {
			rc = clawmd_err_set(err, CLAWMD_EUSAGE, "optional_imports: '%s' is %s", p, why);
			goto out;
		}
		names[n++] = p;
		p += len + !last;
	}
	set_optional(lay, names, n);
out:
	free(copy);
	return rc;
}

static int parse_bool(bool *out, const char *key, const char *v, struct clawmd_err *err)
{
	if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
		*out = true;
	else if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
		*out = false;
	else
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected true or false, not '%s'",
				      key, v);
	return 0;
}

/* ---- the one table of layout keys ---------------------------------------- */

struct layout_field;
typedef int (*layout_setter)(struct clawmd_layout *lay, const struct layout_field *f,
			     const char *v, struct clawmd_err *err);

/* How a field enters the layout's digest (clawmd_layout_digest). */
enum field_kind {
	FIELD_NONE,	/* the plan does not depend on it */
	FIELD_STR,	/* char * (NULL: none) */
	FIELD_STRV,	/* char **, its count at `count` */
	FIELD_BOOL,	/* `count` bools from `off` */
	FIELD_INT,	/* an int-sized enum or set, `count` of them */
	FIELD_RELEASE,	/* struct clawmd_release */
};

/*
 * Every key clawmd.json and the layout flags may set: how a value is set,
 * the field it sets, and whether the plan depends on that field.  The
 * no-op record is trusted only under the layout it was made under, and its
 * digest is made from this table, so a key the plan reads is a row here
 * and nothing else.  A row without a setter is a key of clawmd.json read
 * apart ("container" holds the container.* keys, "mounts" the mounts).
 */
struct layout_field {
	const char *key;
	layout_setter set;
	enum field_kind kind;
	size_t off, count;
	bool container; /* a path in the container: absolute */
};

static int set_path(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		    struct clawmd_err *err)
{
	char **slot = (char **)(void *)((char *)lay + f->off);
	if (!*v && !strcmp(f->key, "modules")) {
		set_str(slot, NULL); /* "" turns module fragments off */
		return 0;
	}
	if (!*v || (f->container && v[0] != '/'))
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected %s path, not '%s'", f->key,
				      f->container ? "an absolute" : "a", v);
	if (f->container && clawmd_path_dotted(v))
		return clawmd_err_set(err, CLAWMD_EUSAGE,
				      "%s: expected an absolute path with no '.' or '..' component, "
				      "not '%s'", f->key, v);
	char *path = f->container ? clawmd_xstrdup(v) : host_path(lay, v);
	/* A groups directory holds group directories: ROOT itself would make
	 * ROOT's own directories groups, "/" every directory of the machine.
	 * One above ROOT is the host's choice (nanoclaw's tests keep their
	 * groups beside the project they run in): the one of its directories
	 * that holds ROOT is then never a group (clawmd_layout_holds_root). */
	if (!strcmp(f->key, "groups") && lay->root) {
		char *norm = clawmd_path_norm(path);
		bool bad = !strcmp(norm, "/") || !strcmp(norm, lay->root);
		free(norm);
		if (bad) {
			free(path);
			return clawmd_err_set(err, CLAWMD_EUSAGE,
					      "groups: expected a directory of group directories, not ROOT "
					      "or / ('%s')", v);
		}
	}
	set_str(slot, path);
	return 0;
}

static int set_bool(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		    struct clawmd_err *err)
{
	return parse_bool((bool *)(void *)((char *)lay + f->off), f->key, v, err);
}

static int set_preset(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		      struct clawmd_err *err)
{
	if (!strcmp(v, "default"))
		apply_preset_default(lay);
	else if (!strcmp(v, "nanoclaw"))
		apply_preset_nanoclaw(lay);
	else
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: unknown preset '%s' (default, nanoclaw)",
				      f->key, v);
	return 0;
}

static int set_mode(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		    struct clawmd_err *err)
{
	if (!strcmp(v, "symlink"))
		lay->mode = CLAWMD_MODE_SYMLINK;
	else if (!strcmp(v, "copy"))
		lay->mode = CLAWMD_MODE_COPY;
	else
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected 'symlink' or 'copy', not '%s'",
				      f->key, v);
	return 0;
}

static int set_sources(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		       struct clawmd_err *err)
{
	(void)f;
	lay->sources_set = true;
	return parse_sources(lay, v, err);
}

static int set_optional_key(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
			struct clawmd_err *err)
{
	(void)f;
	return parse_optional(lay, v, err);
}

static int set_release(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		       struct clawmd_err *err)
{
	(void)f;
	lay->claude_set = true;
	return clawmd_release_parse(&lay->claude, v, err);
}

static int set_runtimes(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
			struct clawmd_err *err)
{
	char *copy = clawmd_xstrdup(v);
	clawmd_runtimes set = 0;
	enum clawmd_runtime first = CLAWMD_RUNTIME_CLAUDE;
	int rc = 0;
	for (char *p = copy, *tok; rc == 0 && (tok = strsep(&p, ","));) {
		/* the host's own list: a name it misspelt is its error */
		int rt = clawmd_layout_runtime(lay, tok);
		if (rt < 0) {
			const char *near = clawmd_layout_suggest(lay, tok);
			rc = clawmd_err_set(err, CLAWMD_EUSAGE,
					    "%s: unknown runtime '%s'%s%s%s (a provider of doc/runtimes.md, "
					    "or one \"providers\" adds)", f->key, tok,
					    near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
		} else {
			if (!set)
				first = (enum clawmd_runtime)rt;
			set |= 1u << rt;
		}
	}
	free(copy);
	if (rc == 0 && !set)
		rc = clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected at least one runtime", f->key);
	if (rc == 0)
		lay->runtimes = set, lay->runtime = first;
	return rc;
}

/* "flat" or "imports" (doc/compose.md, "The flat document"). */
static int set_document(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
			struct clawmd_err *err)
{
	if (strcmp(v, "flat") && strcmp(v, "imports"))
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected 'flat' or 'imports', not '%s'",
				      f->key, v);
	lay->flat = !strcmp(v, "flat");
	return 0;
}

static int set_number(struct clawmd_layout *lay, const struct layout_field *f, const char *v,
		      struct clawmd_err *err)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	/* written so that "nan" fails it too: (long)NaN is undefined */
	if (errno || end == v || *end || !(d >= 0 && d <= 1e9))
		return clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected a number, not '%s'", f->key, v);
	if (!strcmp(f->key, "token_budget"))
		lay->token_budget = (long)d;
	else
		lay->lock_timeout = d;
	return 0;
}

#define FIELD(key, set, kind, member, count) \
	{key, set, kind, offsetof(struct clawmd_layout, member), count, false}
#define CT_PATH(key, member) \
	{key, set_path, FIELD_STR, offsetof(struct clawmd_layout, member), 0, true}

static const struct layout_field layout_keys[] = {
	FIELD("preset", set_preset, FIELD_NONE, root, 0), /* it sets the keys below */
	FIELD("base", set_path, FIELD_STR, base, 0),
	FIELD("skills", set_path, FIELD_STR, skills, 0),
	FIELD("groups", set_path, FIELD_STR, groups, 0),
	FIELD("modules", set_path, FIELD_STR, modules, 0),
	FIELD("state", set_path, FIELD_NONE, state, 0),
	FIELD("mode", set_mode, FIELD_INT, mode, 1),
	FIELD("import_local", set_bool, FIELD_BOOL, import_local, 1),
	FIELD("claude_version", set_release, FIELD_RELEASE, claude, 0),
	FIELD("approve_external", set_bool, FIELD_BOOL, approve_external, 1),
	FIELD("setting_sources", set_sources, FIELD_BOOL, no_user, 3), /* no_user, no_project, no_local */
	FIELD("lock_timeout", set_number, FIELD_NONE, lock_timeout, 0),
	FIELD("token_budget", set_number, FIELD_NONE, token_budget, 0),
	FIELD("container", NULL, FIELD_NONE, root, 0),
	FIELD("mounts", NULL, FIELD_NONE, root, 0),
	FIELD("optional_imports", set_optional_key, FIELD_STRV, optional,
	      offsetof(struct clawmd_layout, noptional)),
	FIELD("persona", set_bool, FIELD_BOOL, persona, 1),
	FIELD("runtimes", set_runtimes, FIELD_INT, runtimes, 1),
	/* its fields are "providers.NAME.FIELD" keys; in the digest through
	 * clawmd_layout_providers_digest() */
	FIELD("providers", NULL, FIELD_NONE, root, 0),
	FIELD("document", set_document, FIELD_BOOL, flat, 1),
	CT_PATH("container.base", ct_base),
	CT_PATH("container.skills", ct_skills),
	CT_PATH("container.modules", ct_modules),
	CT_PATH("container.group", ct_group),
};

_Static_assert(offsetof(struct clawmd_layout, no_local) ==
		       offsetof(struct clawmd_layout, no_user) + 2 * sizeof(bool),
	       "setting_sources: three bools in a row");

/* The memo is read and written whole (relaxed atomics): threads composing
 * groups of one layout may ask at once, and each computes the same value. */
static void forget_digest(struct clawmd_layout *lay)
{
	__atomic_store_n(&lay->digest_memo, 0, __ATOMIC_RELAXED);
}

uint64_t clawmd_layout_digest(const struct clawmd_layout *lay)
{
	uint64_t memo = __atomic_load_n(&lay->digest_memo, __ATOMIC_RELAXED);
	if (memo)
		return memo;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_grow(&b, 4096); /* one allocation for a layout's keys */
	const char *base = (const char *)lay;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(layout_keys); i++) {
		const struct layout_field *f = &layout_keys[i];
		const char *at = base + f->off;
		if (f->kind == FIELD_NONE)
			continue;
		clawmd_buf_put(&b, f->key, strlen(f->key) + 1);
		if (f->kind == FIELD_STR) {
			const char *v = *(char *const *)(const void *)at;
			clawmd_buf_put(&b, v ? v : "\x01", strlen(v ? v : "\x01") + 1);
		} else if (f->kind == FIELD_STRV) {
			char *const *v = *(char *const *const *)(const void *)at;
			size_t n = *(const size_t *)(const void *)(base + f->count);
			clawmd_buf_put(&b, &n, sizeof(n));
			for (size_t k = 0; k < n; k++)
				clawmd_buf_put(&b, v[k], strlen(v[k]) + 1);
		} else if (f->kind == FIELD_BOOL) {
			clawmd_buf_put(&b, at, f->count * sizeof(bool));
		} else if (f->kind == FIELD_INT) {
			clawmd_buf_put(&b, at, f->count * sizeof(int));
		} else {
			clawmd_buf_put(&b, at, sizeof(lay->claude));
		}
	}
	clawmd_layout_providers_digest(&b, lay);
	uint64_t d = clawmd_hash64(b.ptr, b.len);
	clawmd_buf_release(&b);
	/* the layout is the caller's, not const (clawmd_layout_init) */
	__atomic_store_n(&((struct clawmd_layout *)(void *)lay)->digest_memo, d, __ATOMIC_RELAXED);
	return d;
}

static const struct layout_field *layout_field(const char *key)
{
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(layout_keys); i++)
		if (!strcmp(key, layout_keys[i].key))
			return &layout_keys[i];
	return NULL;
}

static bool layout_key_known(const char *k)
{
	return layout_field(k) != NULL;
}

int clawmd_layout_set(struct clawmd_layout *lay, const char *key, const char *v,
		      struct clawmd_err *err)
{
	forget_digest(lay);
	/* "providers.NAME.FIELD": a provider contract's field (providers.c) */
	if (!strncmp(key, "providers.", 10))
		return clawmd_layout_provider_set(lay, key, v, err);
	const struct layout_field *f = layout_field(key);
	if (!f || !f->set)
		return clawmd_err_set(err, CLAWMD_EUSAGE, "unknown layout key '%s'", key);
	return f->set(lay, f, v, err);
}

/* ---- finding ROOT ------------------------------------------------------ */

/*
 * Without -C and $CLAWMD_ROOT, ROOT is found by walking up from the current
 * directory, as git finds its work tree, but without loading libgit2 (whose
 * dynamic loading alone would cost more than a no-op compose): the nearest
 * ancestor holding a clawmd.json, else the nearest one holding a .git.
 *
 * An agent can write anything in its group, including `git init` or a
 * clawmd.json that redirects "base", "groups" and "state".  When an operator
 * runs clawmd inside a group, that planted marker is nearer than the real
 * ROOT.  So every marker found on the way up is a candidate, and a candidate
 * inside the groups directory of a candidate further up is never ROOT.
 */
struct root_candidate {
	char *dir;
	bool json;  /* holds clawmd.json (else .git) */
	bool shape; /* neither, but shaped like a ROOT (container/, groups/) */
	bool out;   /* inside an outer candidate's groups directory */
};

/* The groups directory of a ROOT candidate: "groups" from its clawmd.json
 * (only that key: a preset does not move it), else DIR/groups. */
static char *candidate_groups(const struct root_candidate *c)
{
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	char *groups = NULL;
	/* Without cJSON, DIR/groups: loading the layout then says why. */
	if (c->json && clawmd_dl_need_cjson(&e) == 0 && clawmd_dir_open(&d, c->dir, &e) == 0 &&
	    clawmd_fs_read(&buf, &d, "clawmd.json", LAYOUT_JSON_MAX, &e) == 0) {
		cJSON *doc = cJSON_ParseWithLength(buf.ptr, buf.len);
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(doc, "groups");
		if (cJSON_IsString(g) && g->valuestring[0])
			groups = g->valuestring[0] == '/' ? clawmd_xstrdup(g->valuestring)
							  : clawmd_path_join(c->dir, g->valuestring);
		cJSON_Delete(doc);
	}
	clawmd_buf_release(&buf);
	clawmd_dir_release(&d);
	if (!groups)
		groups = clawmd_path_join(c->dir, "groups");
	char *real = realpath(groups, NULL);
	if (real) {
		free(groups);
		groups = real;
	}
	return groups;
}

/* `path` is strictly below `dir`. */
static bool strictly_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && path[n] == '/' && path[n + 1];
}

static char *root_walk_up(const char *cwd, struct clawmd_err *err)
{
	struct root_candidate c[64];
	size_t n = 0;
	char *dir = clawmd_xstrdup(cwd);
	for (;;) {
		struct stat st;
		char *f = clawmd_path_join(dir, "clawmd.json");
		bool json = stat(f, &st) == 0 && S_ISREG(st.st_mode);
		free(f);
		f = clawmd_path_join(dir, ".git");
		bool git = !json && lstat(f, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
		free(f);
		/* A ROOT with neither marker still has the layout's shape: it is
		 * never chosen, but its groups directory disqualifies what an
		 * agent plants inside (its fragments removed first). */
		bool shape = false;
		if (!json && !git) {
			f = clawmd_path_join(dir, "groups");
			shape = stat(f, &st) == 0 && S_ISDIR(st.st_mode);
			free(f);
			if (shape) {
				f = clawmd_path_join(dir, "container");
				shape = stat(f, &st) == 0 && S_ISDIR(st.st_mode);
				free(f);
			}
		}
		/* A directory compose wrote fragments into is a group, whatever
		 * else its agent planted there. */
		if (json || git || shape) {
			f = clawmd_path_join(dir, CLAWMD_FRAGMENTS_DIR);
			bool group = lstat(f, &st) == 0;
			free(f);
			if (!group && n < CLAWMD_ARRAY_SIZE(c))
				c[n++] = (struct root_candidate){clawmd_xstrdup(dir), json, shape, false};
		}
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			if (dir[1] == '\0')
				break;
			dir[1] = '\0'; /* up to "/" itself, then stop */
			continue;
		}
		*slash = '\0';
	}
	free(dir);
	/* Outermost first: each candidate disqualifies those in its groups. */
	for (size_t i = n; n > 1 && i-- > 0;) {
		if (c[i].out)
			continue;
		char *groups = candidate_groups(&c[i]);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(c[k].dir, groups) || strictly_under(c[k].dir, groups))
				c[k].out = true;
		free(groups);
	}
	char *root = NULL;
	for (int pass = 0; pass < 2 && !root; pass++)
		for (size_t i = 0; i < n && !root; i++)
			if (!c[i].out && !c[i].shape && c[i].json == (pass == 0))
				root = clawmd_xstrdup(c[i].dir);
	for (size_t i = 0; i < n; i++)
		free(c[i].dir);
	if (!root)
		clawmd_err_set(err, CLAWMD_EUSAGE,
			       "no root: pass -C DIR, set CLAWMD_ROOT, or run inside a directory "
			       "tree with a clawmd.json or a git work tree");
	return root;
}

/* A JSON value as the string clawmd_layout_set() takes. */
static int json_scalar(char *out, size_t size, const cJSON *v)
{
	if (cJSON_IsString(v))
		return snprintf(out, size, "%s", v->valuestring) < (int)size ? 0 : -1;
	if (cJSON_IsBool(v))
		return snprintf(out, size, "%s", cJSON_IsTrue(v) ? "true" : "false"), 0;
	if (cJSON_IsNumber(v))
		return snprintf(out, size, "%.17g", v->valuedouble), 0;
	return -1;
}

static void note_unknown(struct clawmd_layout *lay, const char *key)
{
	if (lay->nunknown_keys == 64)
		return;
	lay->unknown_keys = clawmd_xrealloc(lay->unknown_keys,
					    (lay->nunknown_keys + 1) * sizeof(char *));
	lay->unknown_keys[lay->nunknown_keys++] = clawmd_xstrdup(key);
}

/*
 * clawmd.json is read in two steps: flattened into the (key, value) pairs
 * it sets, in the order they apply (the preset first, so that the other
 * keys refine it), then applied with clawmd_layout_set(), the one setter
 * the command-line flags use too.  Pairs are NUL-terminated strings:
 *	key value		a layout key ("container.base" for nested ones)
 *	"mount" container host	one entry of "mounts"
 *	"?" key			a key clawmd does not know (warned about)
 * Flattening needs cJSON, and loading cJSON costs a per-spawn compose more
 * than the rest of its work, so the pairs are cached (layout_cache_*).
 */
static void put_str(struct clawmd_buf *b, const char *s)
{
	clawmd_buf_put(b, s, strlen(s) + 1);
}

static int put_scalar(struct clawmd_buf *b, const char *key, const cJSON *v, const char *file,
		      struct clawmd_err *err)
{
	char val[4096];
	if (json_scalar(val, sizeof(val), v) < 0)
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "%s: %s: expected a string, a number or a boolean (under 4096 bytes)",
				      file, key);
	put_str(b, key);
	put_str(b, val);
	return 0;
}

/* The names of one list key of clawmd.json: what each must be. */
static bool file_name_ok(const char *s)
{
	return clawmd_name_valid(s, strlen(s));
}

static bool runtime_name_ok(const char *s)
{
	return *s; /* clawmd_layout_set() names an unknown one, with the nearest */
}

static const struct list_key {
	const char *key;
	bool (*ok)(const char *name);
	const char *what; /* "expected an array of WHATs" and "expected a WHAT" */
} list_keys[] = {
	{"optional_imports", file_name_ok, "file name of the group ([A-Za-z0-9][A-Za-z0-9._-]{0,63})"},
	{"runtimes", runtime_name_ok, "runtime name (a provider of doc/runtimes.md)"},
};

/* An array of names as the one string "a,b" (no valid name holds a
 * comma), each checked, the bad one named by its index. */
static int put_list(struct clawmd_buf *pairs, const struct list_key *lk, const cJSON *v,
		    const char *file, struct clawmd_err *err)
{
	struct clawmd_buf list = CLAWMD_BUF_INIT;
	const cJSON *sub;
	int i = 0, rc = 0;
	clawmd_buf_put(&list, "", 0);
	if (!cJSON_IsArray(v))
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s: expected an array, each a %s", file,
				    lk->key, lk->what);
	cJSON_ArrayForEach(sub, v)
	{
		if (rc < 0)
			break;
		if (!cJSON_IsString(sub) || strchr(sub->valuestring, ',') || !lk->ok(sub->valuestring))
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s[%d]: expected a %s", file, lk->key,
					    i, lk->what);
		else
			clawmd_buf_printf(&list, "%s%s", i ? "," : "", sub->valuestring);
		i++;
	}
	if (rc == 0) {
		put_str(pairs, lk->key);
		put_str(pairs, list.ptr);
	}
	clawmd_buf_release(&list);
	return rc;
}

/*
 * "providers": {"NAME": {"like": "codex", "cap": 65536, "reads": [...],
 * "skills": {"discovery": ...}}}, as pairs "providers.NAME.FIELD" VALUE:
 * "like" first (a new provider starts from the one it names), lists
 * joined by commas, "skills" one level down.  Types are checked here,
 * values by clawmd_layout_set().
 */
static int put_provider_field(struct clawmd_buf *pairs, const char *key, const cJSON *v,
			      const char *file, struct clawmd_err *err)
{
	if (cJSON_IsArray(v)) {
		struct clawmd_buf list = CLAWMD_BUF_INIT;
		const cJSON *sub;
		int i = 0, rc = 0;
		clawmd_buf_put(&list, "", 0);
		cJSON_ArrayForEach(sub, v)
		{
			if (!cJSON_IsString(sub) || !sub->valuestring[0] || strchr(sub->valuestring, ',')) {
				rc = clawmd_err_set(err, CLAWMD_EINPUT,
						    "%s: %s[%d]: expected a file name (no comma)", file,
						    key, i);
				break;
			}
			clawmd_buf_printf(&list, "%s%s", i++ ? "," : "", sub->valuestring);
		}
		if (rc == 0) {
			put_str(pairs, key);
			put_str(pairs, list.ptr);
		}
		clawmd_buf_release(&list);
		return rc;
	}
	if (cJSON_IsNull(v)) {
		put_str(pairs, key);
		put_str(pairs, "");
		return 0;
	}
	return put_scalar(pairs, key, v, file, err);
}

static int put_providers(struct clawmd_buf *pairs, const cJSON *prov, const char *file,
			 struct clawmd_err *err)
{
	const cJSON *p, *f, *s;
	char key[256];
	int rc = 0;
	if (!cJSON_IsObject(prov))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "%s: providers: expected an object of providers by name", file);
	cJSON_ArrayForEach(p, prov)
	{
		if (strlen(p->string) > 64 || !clawmd_name_valid(p->string, strlen(p->string)) ||
		    strchr(p->string, '.'))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: providers: '%s' is not a provider name "
					      "([A-Za-z0-9][A-Za-z0-9_-]{0,63})", file, p->string);
		if (!cJSON_IsObject(p))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: providers.%s: expected an object (its contract)", file,
					      p->string);
		const cJSON *like = cJSON_GetObjectItemCaseSensitive(p, "like");
		if (like) {
			snprintf(key, sizeof(key), "providers.%s.like", p->string);
			if ((rc = put_scalar(pairs, key, like, file, err)) < 0)
				return rc;
		}
		cJSON_ArrayForEach(f, p)
		{
			if (!strcmp(f->string, "like") || strlen(f->string) > 64)
				continue;
			if (!strcmp(f->string, "skills") && cJSON_IsObject(f)) {
				cJSON_ArrayForEach(s, f)
				{
					snprintf(key, sizeof(key), "providers.%s.skills.%.64s", p->string,
						 s->string);
					if ((rc = put_provider_field(pairs, key, s, file, err)) < 0)
						return rc;
				}
				continue;
			}
			snprintf(key, sizeof(key), "providers.%s.%s", p->string, f->string);
			/* a legacy spec's sections go as their JSON text, checked
			 * by the contract's reader (providers.c) */
			if (!strcmp(f->string, "sections")) {
				char *t = cJSON_PrintUnformatted(f);
				put_str(pairs, key);
				put_str(pairs, t ? t : "-"); /* out of memory: refused by the reader */
				cJSON_free(t);
				continue;
			}
			if ((rc = put_provider_field(pairs, key, f, file, err)) < 0)
				return rc;
		}
	}
	return 0;
}

/* Text that is no JSON: say what was expected and what was found, where. */
static int json_error(const struct clawmd_buf *text, const char *file, struct clawmd_err *err)
{
	char what[256];
	size_t off = clawmd_json_diagnose(what, sizeof(what), text->ptr, text->len);
	if (off > text->len)
		off = 0, snprintf(what, sizeof(what), "malformed JSON");
	size_t line = 1, col = 1;
	for (size_t i = 0; i < off; i++, col++)
		if (text->ptr[i] == '\n')
			line++, col = 0;
	return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu:%zu: %s", file, line, col, what);
}

/* "mounts": [{"container": "/abs", "host": "path"}, ...], a "mount" pair each. */
static int put_mounts(struct clawmd_buf *pairs, const cJSON *item, const char *file,
		      struct clawmd_err *err)
{
	const cJSON *sub;
	int i = 0;
	cJSON_ArrayForEach(sub, item)
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(sub, "container");
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(sub, "host");
		if (!cJSON_IsString(c) || c->valuestring[0] != '/' || !cJSON_IsString(h) ||
		    !h->valuestring[0])
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mounts[%d]: expected {\"container\": \"/abs\", "
					      "\"host\": \"path\"}", file, i);
		if (clawmd_path_dotted(c->valuestring))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mounts[%d].container: expected an absolute path with "
					      "no '.' or '..' component, not '%s'", file, i,
					      c->valuestring);
		put_str(pairs, "mount");
		put_str(pairs, c->valuestring);
		put_str(pairs, h->valuestring);
		i++;
	}
	return 0;
}

/* "container": {...}, each key as "container.KEY". */
static int put_container(struct clawmd_buf *pairs, const cJSON *item, const char *file,
			 struct clawmd_err *err)
{
	const cJSON *sub;
	int rc;
	if (!cJSON_IsObject(item))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: container: expected an object", file);
	cJSON_ArrayForEach(sub, item)
	{
		char key[64];
		snprintf(key, sizeof(key), "container.%s", sub->string);
		if (!layout_key_known(key)) {
			put_str(pairs, "?");
			put_str(pairs, key);
		} else if ((rc = put_scalar(pairs, key, sub, file, err)) < 0) {
			return rc;
		}
	}
	return 0;
}

/* Any other top-level key: a list of names, setting_sources as an array,
 * a scalar, or an unknown key ("?"). */
static int put_key(struct clawmd_buf *pairs, const char *k, const cJSON *item, const char *file,
		   struct clawmd_err *err)
{
	/* A list of names, kept as "a,b"; clawmd_layout_set() checks
	 * each name, as it checks the same list given as a string. */
	const struct list_key *lk = NULL;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(list_keys); i++)
		if (!strcmp(k, list_keys[i].key))
			lk = &list_keys[i];
	if (lk)
		return put_list(pairs, lk, item, file, err);
	if (!strcmp(k, "setting_sources") && cJSON_IsArray(item)) {
		/* ["project", "user"], as the SDK's settingSources is written */
		const cJSON *sub;
		struct clawmd_buf list = CLAWMD_BUF_INIT;
		clawmd_buf_put(&list, "", 0);
		cJSON_ArrayForEach(sub, item)
			clawmd_buf_printf(&list, "%s%s", list.len ? "," : "",
					  cJSON_IsString(sub) ? sub->valuestring : "?");
		put_str(pairs, k);
		put_str(pairs, list.ptr);
		clawmd_buf_release(&list);
		return 0;
	}
	if (!layout_key_known(k)) {
		put_str(pairs, "?");
		put_str(pairs, k);
		return 0;
	}
	return put_scalar(pairs, k, item, file, err);
}

static int flatten_json(struct clawmd_buf *pairs, const struct clawmd_buf *text, const char *file,
			struct clawmd_err *err)
{
	int need = clawmd_dl_need_cjson(err);
	if (need < 0)
		return need;
	size_t nul = clawmd_json_nul_at(text->ptr, text->len);
	if (nul < text->len) {
		size_t line = 1;
		for (size_t i = 0; i < nul; i++)
			line += text->ptr[i] == '\n';
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu: a NUL character (\\u0000): "
				      "cJSON would cut the name or value it is in short", file, line);
	}
	cJSON *doc = cJSON_ParseWithLength(text->ptr, text->len);
	const cJSON *item;
	int rc = 0, nmounts = 0;
	clawmd_buf_clear(pairs);
	if (!doc) {
		rc = json_error(text, file, err);
		goto out;
	}
	if (!cJSON_IsObject(doc)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: expected a JSON object at the top", file);
		goto out;
	}
	const cJSON *preset = cJSON_GetObjectItemCaseSensitive(doc, "preset");
	if (preset && (rc = put_scalar(pairs, "preset", preset, file, err)) < 0)
		goto out;
	/* The providers next: "runtimes" may name one of them. */
	const cJSON *prov = cJSON_GetObjectItemCaseSensitive(doc, "providers");
	if (prov && (rc = put_providers(pairs, prov, file, err)) < 0)
		goto out;
	cJSON_ArrayForEach(item, doc)
	{
		const char *k = item->string;
		if (!strcmp(k, "preset") || !strcmp(k, "providers") || k[0] == '$' ||
		    !strcmp(k, "comment"))
			continue; /* the preset and providers came first; "$schema", comments */
		if (!strcmp(k, "mounts") && (!cJSON_IsArray(item) || nmounts++)) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, nmounts > 1
				? "%s: mounts: given twice" : "%s: mounts: expected an array", file);
			goto out;
		}
		if (!strcmp(k, "mounts"))
			rc = put_mounts(pairs, item, file, err);
		else if (!strcmp(k, "container"))
			rc = put_container(pairs, item, file, err);
		else
			rc = put_key(pairs, k, item, file, err);
		if (rc < 0)
			goto out;
	}
out:
	cJSON_Delete(doc);
	return rc;
}

/* The next NUL-terminated string of `pairs` at *at, or NULL past the end. */
static const char *next_str(const struct clawmd_buf *pairs, size_t *at)
{
	if (*at >= pairs->len)
		return NULL;
	const char *s = pairs->ptr + *at, *nul = memchr(s, '\0', pairs->len - *at);
	if (!nul)
		return NULL;
	*at += (size_t)(nul - s) + 1;
	return s;
}

static int apply_pairs(struct clawmd_layout *lay, const struct clawmd_buf *pairs, const char *file,
		       struct clawmd_err *err)
{
	size_t at = 0;
	const char *k, *v;
	while ((k = next_str(pairs, &at))) {
		if (!(v = next_str(pairs, &at)))
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: unreadable", file);
		if (!strcmp(k, "?")) {
			note_unknown(lay, v);
			continue;
		}
		if (!strcmp(k, "mount")) {
			const char *h = next_str(pairs, &at);
			if (!h)
				return clawmd_err_set(err, CLAWMD_EINPUT, "%s: unreadable", file);
			lay->mounts = clawmd_xrealloc(lay->mounts, (lay->nmounts + 1) * sizeof(*lay->mounts));
			lay->mounts[lay->nmounts].container = clawmd_xstrdup(v);
			lay->mounts[lay->nmounts].host = host_path(lay, h);
			lay->nmounts++;
			continue;
		}
		struct clawmd_err e2 = CLAWMD_ERR_INIT;
		if (clawmd_layout_set(lay, k, v, &e2) < 0)
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s", file, e2.msg[0] ? e2.msg : k);
	}
	return 0;
}

/*
 * The cache of clawmd.json's pairs, ROOT/.clawmd/layout (only when
 * ROOT/.clawmd exists: a layout that keeps its state elsewhere parses
 * clawmd.json every time).  It is trusted while clawmd.json's identity
 * (device, inode, mode, size, mtime, ctime) is the one it was made from,
 * under this version of clawmd; it is made only from a clawmd.json that
 * was last changed clearly before it was read (clawmd_stamp_racy), as
 * the no-op record is.  A torn or foreign cache fails its checksum and
 * only costs the parse:
 *	magic[16] ident:{mode dev ino size mtime.s mtime.ns ctime.s ctime.ns}:u64
 *	version NUL pairs checksum:u64
 */
#define LAYOUT_CACHE_MAGIC "clawmd-layout\x01\n\n"

static void layout_ident(uint64_t id[8], const struct stat *st)
{
	id[0] = st->st_mode, id[1] = st->st_dev, id[2] = st->st_ino, id[3] = (uint64_t)st->st_size;
	id[4] = (uint64_t)st->st_mtim.tv_sec, id[5] = (uint64_t)st->st_mtim.tv_nsec;
	id[6] = (uint64_t)st->st_ctim.tv_sec, id[7] = (uint64_t)st->st_ctim.tv_nsec;
}

/*
 * The kept copy, read whole in one read: ROOT/.clawmd is the host's own
 * state directory, never mounted into a container, so its files need not
 * go through the one open for what an agent may have planted (fs.h), which
 * costs a no-op compose four more system calls.  Still: no symlink
 * followed, nothing but a regular file read, and never a wait on a FIFO.
 */
static int read_kept(struct clawmd_buf *out, const struct clawmd_dir *root, size_t max)
{
	struct stat st;
	int fd = openat(root->fd, ".clawmd/layout", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int rc = -1;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= max) {
		clawmd_buf_clear(out);
		clawmd_buf_grow(out, (size_t)st.st_size + 1);
		ssize_t n = pread(fd, out->ptr, (size_t)st.st_size + 1, 0);
		if (n == st.st_size) { /* all of it: one byte more was asked for */
			out->len = (size_t)n;
			out->ptr[n] = '\0';
			rc = 0;
		}
	}
	close(fd);
	return rc;
}

static bool layout_cache_get(struct clawmd_buf *pairs, const struct clawmd_dir *root,
			     const struct stat *json)
{
	struct clawmd_buf c = CLAWMD_BUF_INIT;
	uint64_t id[8], sum;
	const size_t head = 16 + sizeof(id), vl = strlen(CLAWMD_VERSION) + 1;
	bool ok = false;
	layout_ident(id, json);
	if (read_kept(&c, root, LAYOUT_JSON_MAX * 2) != 0 ||
	    c.len < head + vl + 8 || memcmp(c.ptr, LAYOUT_CACHE_MAGIC, 16) ||
	    memcmp(c.ptr + 16, id, sizeof(id)) || memcmp(c.ptr + head, CLAWMD_VERSION, vl))
		goto out;
	memcpy(&sum, c.ptr + c.len - 8, 8);
	if (sum != clawmd_fnv1a64(c.ptr, c.len - 8))
		goto out;
	clawmd_buf_clear(pairs);
	clawmd_buf_put(pairs, c.ptr + head + vl, c.len - 8 - head - vl);
	ok = true;
out:
	clawmd_buf_release(&c);
	return ok;
}

/* What layout_cache_get() accepts, for clawmd_layout_keep() to write. */
static void layout_cache_make(struct clawmd_buf *out, const struct clawmd_buf *pairs,
			      const struct stat *json)
{
	uint64_t id[8], sum;
	clawmd_buf_clear(out);
	layout_ident(id, json);
	clawmd_buf_put(out, LAYOUT_CACHE_MAGIC, 16);
	clawmd_buf_put(out, id, sizeof(id));
	put_str(out, CLAWMD_VERSION);
	clawmd_buf_put(out, pairs->ptr, pairs->len);
	sum = clawmd_fnv1a64(out->ptr, out->len);
	clawmd_buf_put(out, &sum, 8);
}

void clawmd_layout_keep(const struct clawmd_layout *lay)
{
	struct clawmd_dir root = CLAWMD_DIR_INIT, state = CLAWMD_DIR_INIT;
	struct clawmd_stage st = {0};
	struct clawmd_err e = CLAWMD_ERR_INIT;
	if (!lay->json_cache.len || clawmd_dir_open(&root, lay->root, &e) < 0 ||
	    clawmd_dir_openat(&state, &root, ".clawmd", true, &e) != 0)
		goto out;
	/* Unsynced: a crash can only leave a cache that fails its checksum. */
	if (clawmd_fs_stage_file_unsynced(&st, &state, "layout", lay->json_cache.ptr,
					  lay->json_cache.len, &e) == 0)
		(void)clawmd_fs_commit(&st, &e);
	clawmd_fs_stage_release(&st);
out:
	clawmd_dir_release(&state);
	clawmd_dir_release(&root);
}

static int load_json(struct clawmd_layout *lay, struct clawmd_err *err)
{
	struct clawmd_dir root = CLAWMD_DIR_INIT;
	struct clawmd_buf text = CLAWMD_BUF_INIT, pairs = CLAWMD_BUF_INIT;
	struct timespec since = clawmd_stamp_now();
	struct stat st;
	char *file = NULL;
	int rc = clawmd_dir_open(&root, lay->root, err);
	if (rc < 0)
		return rc;
	/* Named as every other file is (clawmd_layout_shown): from where
	 * the command ran, so an editor opens it from there. */
	char *abs = clawmd_path_join(lay->root, "clawmd.json");
	file = clawmd_layout_shown(lay, abs);
	free(abs);
	if (fstatat(root.fd, "clawmd.json", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) /* else no file: the defaults stand */
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", file);
		goto out;
	}
	bool cached = S_ISREG(st.st_mode) && layout_cache_get(&pairs, &root, &st);
	if (!cached) {
		rc = clawmd_fs_read(&text, &root, "clawmd.json", LAYOUT_JSON_MAX, err);
		if (rc != 0)
			goto out; /* 1: gone since */
		if ((rc = flatten_json(&pairs, &text, file, err)) < 0)
			goto out;
	}
	if ((rc = apply_pairs(lay, &pairs, file, err)) < 0)
		goto out;
	struct clawmd_err e2 = CLAWMD_ERR_INIT;
	if (clawmd_layout_providers_check(lay, &e2) < 0) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s", file, e2.msg);
		goto out;
	}
	/* Kept only when the identity stat'ed is surely the content read: a
	 * file edited or replaced after `since` has a newer identity, which
	 * the next load will not find in the cache. */
	if (!cached && !clawmd_stamp_racy(&st, since))
		layout_cache_make(&lay->json_cache, &pairs, &st);
out:
	free(file);
	clawmd_buf_release(&text);
	clawmd_buf_release(&pairs);
	clawmd_dir_release(&root);
	return rc < 0 ? rc : 0;
}

int clawmd_layout_load(struct clawmd_layout *lay, const char *root, struct clawmd_err *err)
{
	/* The current directory is only needed to walk up from, and to show
	 * paths from when ROOT is not given (a spawn gives it: no getcwd). */
	const char *env = getenv("CLAWMD_ROOT");
	bool given = root && *root;
	forget_digest(lay);
	char *found = NULL, *cwd = given ? NULL : realpath(".", NULL);
	if (given)
		found = clawmd_xstrdup(root);
	else if (env && *env)
		found = clawmd_xstrdup(env);
	else if (!cwd)
		return clawmd_err_sys(err, CLAWMD_EUSAGE, "no root: the current directory");
	else if (!(found = root_walk_up(cwd, err))) {
		free(cwd);
		return err->code ? err->code : CLAWMD_EUSAGE;
	}
	char *real = realpath(found, NULL);
	if (!real) {
		int rc = clawmd_err_sys(err, CLAWMD_EUSAGE, "root '%s'", found);
		free(found);
		free(cwd);
		return rc;
	}
	free(found);
	set_str(&lay->root, real);
	/* As git -C: a given ROOT is where paths are shown from. */
	set_str(&lay->shown_from, cwd ? cwd : clawmd_xstrdup(real));
	apply_preset_default(lay);
	return load_json(lay, err);
}

void clawmd_layout_release(struct clawmd_layout *lay)
{
	if (!lay)
		return;
	forget_digest(lay);
	char **strs[] = {&lay->root,	  &lay->base,	    &lay->skills,     &lay->groups,
			 &lay->modules,	  &lay->state,	    &lay->ct_base,    &lay->ct_skills,
			 &lay->ct_modules, &lay->ct_group};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(strs); i++)
		set_str(strs[i], NULL);
	set_str(&lay->shown_from, NULL);
	clawmd_strv_free(lay->optional, lay->noptional);
	lay->optional = NULL;
	lay->noptional = 0;
	clawmd_strv_free(lay->unknown_keys, lay->nunknown_keys);
	lay->unknown_keys = NULL;
	lay->nunknown_keys = 0;
	clawmd_mounts_free(lay->mounts, lay->nmounts);
	lay->mounts = NULL;
	lay->nmounts = lay->npreset_mounts = 0;
	clawmd_layout_providers_release(lay);
	clawmd_buf_release(&lay->json_cache);
}

/*
 * Paths inside ROOT are shown relative to shown_from (the current directory,
 * or ROOT when given), with "../" as needed, so an editor or a CI problem
 * matcher opens them from where the command ran.  From outside ROOT, and for
 * paths outside it, they are shown absolute.
 */
char *clawmd_layout_shown(const struct clawmd_layout *lay, const char *path)
{
	const char *from = lay->shown_from ? lay->shown_from : lay->root;
	if (!from || !lay->root || path[0] != '/' ||
	    !(strictly_under(path, lay->root) || !strcmp(path, lay->root)) ||
	    !(strictly_under(from, lay->root) || !strcmp(from, lay->root)))
		return clawmd_xstrdup(path);
	/* The common directory prefix, by components. */
	size_t i = 0, common = 0;
	while (from[i] && from[i] == path[i]) {
		if (from[i] == '/')
			common = i;
		i++;
	}
	if (!from[i] && (path[i] == '/' || !path[i]))
		common = i;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	for (const char *p = from + common; *p; p++)
		if (*p == '/' && p[1])
			clawmd_buf_puts(&b, "../");
	const char *rest = path + common;
	while (*rest == '/')
		rest++;
	clawmd_buf_puts(&b, rest);
	if (!b.len)
		clawmd_buf_puts(&b, ".");
	else if (b.ptr[b.len - 1] == '/')
		b.ptr[--b.len] = '\0';
	return b.ptr;
}

char *clawmd_layout_unknown_message(const struct clawmd_layout *lay, size_t i)
{
	const char *key = lay->unknown_keys[i];
	const char *keys[CLAWMD_ARRAY_SIZE(layout_keys)];
	for (size_t k = 0; k < CLAWMD_ARRAY_SIZE(layout_keys); k++)
		keys[k] = layout_keys[k].key;
	const char *near = clawmd_spell_nearest(key, keys, CLAWMD_ARRAY_SIZE(keys));
	char *file = clawmd_path_join(lay->root, "clawmd.json");
	char *shown = clawmd_layout_shown(lay, file);
	char *msg = clawmd_xasprintf("%s: unknown key '%s'%s%s%s; it is ignored", shown, key,
				     near ? " (did you mean '" : "", near ? near : "",
				     near ? "'?)" : "");
	free(file);
	free(shown);
	return msg;
}

/* ---- mount table -------------------------------------------------------- */

static int mount_cmp(const void *a, const void *b)
{
	const struct clawmd_mount *x = a, *y = b;
	size_t lx = strlen(x->container), ly = strlen(y->container);
	return lx != ly ? (lx > ly ? -1 : 1) : strcmp(x->container, y->container);
}

/* `dir` absolute and normalized, as written (no link followed). */
static char *lexical(const char *dir)
{
	if (dir[0] == '/')
		return clawmd_path_norm(dir);
	char *cwd = getcwd(NULL, 0);
	char *p = cwd ? clawmd_path_resolve(cwd, dir) : NULL;
	free(cwd);
	return p;
}

char *clawmd_layout_find_root(const char *dir, struct clawmd_err *err)
{
	char *lex = lexical(dir);
	char *root = lex ? root_walk_up(lex, err) : NULL;
	free(lex);
	return root;
}

void clawmd_layout_group_of(char **group, char **ct, const struct clawmd_layout *lay,
			    const char *dir)
{
	*group = *ct = NULL;
	char *groups = lay && lay->groups ? realpath(lay->groups, NULL) : NULL;
	char *lex = groups ? lexical(dir) : NULL, *real = NULL;
	const char *rest = NULL;
	/* 1. As written: the shortest prefix that is the groups directory
	 *    (the prefixes above it are the host's; below it, the agent's,
	 *    whose links are never followed here). */
	for (char *p = lex ? lex + 1 : NULL; p && !rest; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = '\0';
		char *r = realpath(lex, NULL);
		if (r && !strcmp(r, groups))
			rest = p;
		free(r);
		*p = c;
		if (!c)
			break;
	}
	/* 2. Its realpath: a host link into a group. */
	if (!rest && groups && (real = realpath(dir, NULL)) && strictly_under(real, groups))
		rest = real + strlen(groups);
	if (rest && rest[0] == '/' && rest[1]) {
		const char *name = rest + 1, *slash = strchr(name, '/');
		*group = slash ? clawmd_xstrndup(name, (size_t)(slash - name)) : clawmd_xstrdup(name);
		*ct = clawmd_xasprintf("%s%s", lay->ct_group, slash ? slash : "");
	}
	free(real);
	free(lex);
	free(groups);
}

int clawmd_layout_mounts(struct clawmd_mount **out, size_t *n, const struct clawmd_layout *lay,
			 const char *group, struct clawmd_err *err)
{
	if (!clawmd_name_valid(group, strlen(group)))
		return clawmd_err_set(err, CLAWMD_EINPUT, "invalid group name '%s'", group);
	struct clawmd_mount *m = clawmd_xcalloc(5 + lay->nmounts, sizeof(*m));
	size_t k = 0;
	m[k].container = clawmd_xstrdup(lay->ct_group);
	m[k++].host = clawmd_path_join(lay->groups, group);
	m[k].container = clawmd_xstrdup(lay->ct_base);
	m[k++].host = clawmd_xstrdup(lay->base);
	m[k].container = clawmd_xstrdup(lay->ct_skills);
	m[k++].host = clawmd_xstrdup(lay->skills);
	if (lay->modules) {
		m[k].container = clawmd_xstrdup(lay->ct_modules);
		m[k++].host = clawmd_xstrdup(lay->modules);
	}
	for (size_t i = 0; i < lay->nmounts; i++) {
		m[k].container = clawmd_xstrdup(lay->mounts[i].container);
		m[k++].host = clawmd_xstrdup(lay->mounts[i].host);
	}
	/* Most specific (longest) container path first, as the kernel's mount
	 * lookup resolves nested bind mounts. */
	if (k > 1)
		qsort(m, k, sizeof(*m), mount_cmp);
	*out = m;
	*n = k;
	return 0;
}

void clawmd_mounts_free(struct clawmd_mount *mounts, size_t n)
{
	if (!mounts)
		return;
	for (size_t i = 0; i < n; i++) {
		free(mounts[i].container);
		free(mounts[i].host);
	}
	free(mounts);
}

/* `path` equals `prefix` or continues it with a '/': the rest, else NULL. */
static const char *under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (strncmp(path, prefix, n))
		return NULL;
	if (path[n] == '\0' || path[n] == '/')
		return path + n;
	return n == 1 && prefix[0] == '/' ? path + 1 : NULL;
}

static char *map_path(const struct clawmd_mount *m, size_t n, const char *path, bool to_host)
{
	for (size_t i = 0; i < n; i++) {
		const char *from = to_host ? m[i].container : m[i].host;
		const char *to = to_host ? m[i].host : m[i].container;
		const char *rest = under(path, from);
		if (rest)
			return *rest ? clawmd_path_join(to, rest) : clawmd_xstrdup(to);
	}
	return NULL;
}

char *clawmd_mounts_to_host(const struct clawmd_mount *mounts, size_t n, const char *ct_path)
{
	return map_path(mounts, n, ct_path, true);
}

char *clawmd_mounts_to_container(const struct clawmd_mount *mounts, size_t n,
				 const char *host_path)
{
	return map_path(mounts, n, host_path, false);
}

/* ---- groups ------------------------------------------------------------- */

int clawmd_groups_open(struct clawmd_dir *out, const struct clawmd_layout *lay,
		       struct clawmd_err *err)
{
	struct clawmd_err oe = CLAWMD_ERR_INIT;
	int rc = clawmd_dir_open(out, lay->groups, &oe);
	if (rc < 0 && oe.sys_errno == ENOENT) {
		char *shown = clawmd_layout_shown(lay, lay->groups);
		rc = clawmd_err_set(err, CLAWMD_EFS,
				    "no groups directory '%s': create it (clawmd init does), or name "
				    "the groups directory with --groups DIR or \"groups\" in clawmd.json",
				    shown);
		free(shown);
	} else if (rc < 0 && err && !err->code) {
		*err = oe;
	}
	return rc;
}

bool clawmd_layout_holds_root(const struct clawmd_layout *lay, const char *name)
{
	if (!lay->root || !lay->groups)
		return false;
	/* at every open of a group: ROOT/groups, or one beside ROOT, is told
	 * without a copy when its text has nothing to normalize */
	size_t gl = strlen(lay->groups);
	if (!strstr(lay->groups, "/.") && !strstr(lay->groups, "//") && gl && lay->groups[gl - 1] != '/' &&
	    !clawmd_path_under(lay->root, lay->groups))
		return false;
	char *p = clawmd_path_join(lay->groups, name), *norm = clawmd_path_norm(p);
	bool holds = clawmd_path_under(lay->root, norm);
	free(p);
	free(norm);
	return holds;
}

int clawmd_groups_list(char ***out, size_t *n, const struct clawmd_layout *lay,
		       struct clawmd_err *err)
{
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	char **v = NULL;
	size_t cap = 0, k = 0;
	*out = NULL;
	*n = 0;
	/* Above ROOT, the groups directory's other directories are ROOT's
	 * neighbours (other projects): a group there is acted on when named,
	 * never found by a walk that would compose into every one of them. */
	if (lay->root && lay->groups) {
		char *norm = clawmd_path_norm(lay->groups);
		bool above = clawmd_path_under(lay->root, norm);
		free(norm);
		if (above) {
			char *shown = clawmd_layout_shown(lay, lay->groups);
			int r = clawmd_err_set(err, CLAWMD_EUSAGE,
					       "groups: '%s' is above ROOT, so its directories are ROOT's "
					       "neighbours: name the groups to act on (none is found by "
					       "listing it)", shown);
			free(shown);
			return r;
		}
	}
	int rc = clawmd_groups_open(&d, lay, err);
	if (rc < 0)
		return rc;
	DIR *dir = clawmd_fs_list(d.fd);
	if (!dir) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not list '%s'", lay->groups);
		goto out;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		struct stat st;
		size_t len = strlen(e->d_name);
		/* Symlinks are not groups: fstatat without following them. */
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "global") ||
		    !clawmd_name_valid(e->d_name, len) ||
		    fstatat(d.fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
			continue;
		clawmd_xgrow(&v, &cap, k + 1, sizeof(*v));
		v[k++] = clawmd_xstrdup(e->d_name);
	}
	closedir(dir);
	if (k)
		qsort(v, k, sizeof(*v), clawmd_strcmp_ptr);
	*out = v;
	*n = k;
out:
	clawmd_dir_release(&d);
	return rc;
}
