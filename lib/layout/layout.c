/* layout.c - the layout: its defaults and presets, the one table of keys
 * that clawmd.json and the layout flags set (clawmd_layout_set) and the
 * digest made from it, loading (ROOT found by root.c, clawmd.json read by
 * json.c), and how paths are shown. */
#include "clawmd.h"
#include "layout/json.h"
#include "layout/keys.h"
#include "layout/providers.h"
#include "layout/root.h"
#include "base/util.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

char *clawmd_layout_host_path(const struct clawmd_layout *lay, const char *v)
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
	char *path = f->container ? clawmd_xstrdup(v) : clawmd_layout_host_path(lay, v);
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
	/* the first byte before the call: every load applies each key of
	 * clawmd.json through here, a no-op compose included */
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(layout_keys); i++)
		if (key[0] == layout_keys[i].key[0] && !strcmp(key, layout_keys[i].key))
			return &layout_keys[i];
	return NULL;
}

bool clawmd_layout_key_known(const char *k)
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
	else if (!(found = clawmd_layout_walk_up(cwd, err))) {
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
	return clawmd_layout_load_json(lay, err);
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
	    !(clawmd_path_below(path, lay->root) || !strcmp(path, lay->root)) ||
	    !(clawmd_path_below(from, lay->root) || !strcmp(from, lay->root)))
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