/* providers.c - the contracts in force for a layout: the built-in table
 * (runtime/runtime.c) with clawmd.json's "providers" added or laid over it
 * by name, so that a new provider needs no release of clawmd. */
#include "layout/providers.h"
#include "base/util.h"

#include <cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

/* Every string of a layout's own contract is its own copy. */
static char *dup_or_null(const char *s)
{
	return s ? clawmd_xstrdup(s) : NULL;
}

static void contract_strs(struct clawmd_contract *c, void (*fn)(const char **slot))
{
	const char **slots[] = {&c->name,	      &c->title,	 &c->entry,
				&c->container_path,   &c->overrides,	 &c->reads,
				&c->skills_discovery, &c->skills_source, &c->skills_home,
				&c->skills_roots,     &c->document,	 &c->source,
				&c->base,	      &c->sections};
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(slots); i++)
		fn(slots[i]);
}

static void slot_dup(const char **slot)
{
	*slot = dup_or_null(*slot);
}

static void slot_free(const char **slot)
{
	free((char *)*slot);
	*slot = NULL;
}

static void contract_copy(struct clawmd_contract *dst, const struct clawmd_contract *src)
{
	*dst = *src;
	contract_strs(dst, slot_dup);
}

static void set_slot(const char **slot, const char *v)
{
	free((char *)*slot);
	*slot = *v ? clawmd_xstrdup(v) : NULL;
}

void clawmd_layout_providers_release(struct clawmd_layout *lay)
{
	for (size_t i = 0; i < lay->nproviders; i++)
		contract_strs(&lay->providers[i], slot_free);
	free(lay->providers);
	lay->providers = NULL;
	lay->nproviders = 0;
}

const struct clawmd_contract *clawmd_layout_contract(const struct clawmd_layout *lay, int rt)
{
	for (size_t i = 0; lay && i < lay->nproviders; i++)
		if (lay->providers[i].rt == rt)
			return &lay->providers[i];
	return clawmd_runtime_contract((enum clawmd_runtime)rt);
}

int clawmd_layout_runtime(const struct clawmd_layout *lay, const char *name)
{
	for (size_t i = 0; lay && i < lay->nproviders; i++)
		if (!strcasecmp(lay->providers[i].name, name))
			return lay->providers[i].rt;
	const struct clawmd_contract *c = clawmd_runtime_find(name);
	return c ? c->rt : -1;
}

int clawmd_layout_nruntimes(const struct clawmd_layout *lay)
{
	int n = CLAWMD_RUNTIME_N;
	for (size_t i = 0; lay && i < lay->nproviders; i++)
		if (lay->providers[i].rt >= n)
			n = lay->providers[i].rt + 1;
	return n;
}

const char *clawmd_layout_suggest(const struct clawmd_layout *lay, const char *name)
{
	const char *names[CLAWMD_RUNTIME_MAX];
	int n = 0;
	for (int rt = 0; rt < clawmd_layout_nruntimes(lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(lay, rt);
		if (c)
			names[n++] = c->name;
	}
	return clawmd_spell_nearest(name, names, (size_t)n);
}

/* The layout's own contract named `name`, made on first use: a copy of
 * the built-in one of that name, else a new provider (Claude's surfaces
 * until its keys say otherwise). */
static struct clawmd_contract *own(struct clawmd_layout *lay, const char *name, bool *fresh,
				   struct clawmd_err *err)
{
	for (size_t i = 0; i < lay->nproviders; i++)
		if (!strcasecmp(lay->providers[i].name, name))
			return *fresh = false, &lay->providers[i];
	const struct clawmd_contract *b = clawmd_runtime_find(name);
	int rt = b ? b->rt : clawmd_layout_nruntimes(lay);
	if (rt >= CLAWMD_RUNTIME_MAX) {
		clawmd_err_set(err, CLAWMD_EUSAGE, "providers.%s: more than %d providers", name,
			       CLAWMD_RUNTIME_MAX);
		return NULL;
	}
	lay->providers = clawmd_xrealloc(lay->providers, (lay->nproviders + 1) * sizeof(*lay->providers));
	struct clawmd_contract *c = &lay->providers[lay->nproviders++];
	contract_copy(c, b ? b : clawmd_runtime_contract(CLAWMD_RUNTIME_CLAUDE));
	c->rt = rt;
	if (!b) {
		set_slot(&c->name, name);
		set_slot(&c->title, name);
		set_slot(&c->source, "clawmd.json");
	}
	*fresh = true;
	return c;
}

/* A comma-separated list of the group's files: for `reads`, paths inside
 * the group (none absolute, none leading out of it); for `overrides`, file
 * names, which only the memory note shows: a dot-file (Cursor's
 * .cursorrules) is one, '.' and '..' and a name with a '/' or a control
 * character are not. */
static bool list_ok(const char *v, bool paths)
{
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, ",");
		if (!len || p[0] == '/')
			return false;
		for (const char *q = p; q < p + len; q++) {
			if ((unsigned char)*q < 0x20 || *q == 0x7f || (!paths && *q == '/'))
				return false;
			if (*q == '/' && q + 1 < p + len && q[1] == '.' &&
			    (q + 2 == p + len || q[2] == '/' || q[2] == '.'))
				return false;
		}
		if (p[0] == '.' && (len == 1 || p[1] == '.' || (paths && p[1] == '/')))
			return false;
		p += len + (p[len] == ',');
	}
	return true;
}

/* nanoclaw's extraSections as JSON: a list of objects with a text "name"
 * and "body" (its composer fails the spawn on a body that is not text;
 * the host hears it here, once, instead). */
static bool sections_ok(const char *v)
{
	cJSON *doc = cJSON_Parse(v);
	bool ok = cJSON_IsArray(doc);
	const cJSON *it, *list = ok ? doc : NULL;
	cJSON_ArrayForEach(it, list)
		ok = ok && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "name")) &&
		     cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "body"));
	cJSON_Delete(doc);
	return ok;
}

static int parse_bool(bool *out, const char *v)
{
	if (!strcmp(v, "true"))
		*out = true;
	else if (!strcmp(v, "false"))
		*out = false;
	else
		return -1;
	return 0;
}

/* "like": the built-in provider whose rules render follows; a new
 * provider starts from its fields (clawmd.json's reader puts "like"
 * first), a built-in one only changes the rules it is rendered by. */
static int provider_like(struct clawmd_contract *c, const char *nm, const char *key,
			 const char *v, struct clawmd_err *err)
{
	const struct clawmd_contract *b = clawmd_runtime_find(v);
	if (!b)
		return clawmd_err_set(err, CLAWMD_EUSAGE,
				      "%s: expected a built-in provider (claude, codex, gemini, "
				      "opencode, cursor, copilot, ollama, pi, qwen, mock, caliban, "
				      "chimera), not '%s'",
				      key, v);
	if (clawmd_runtime_find(nm)) {
		c->like = b->rt;
		return 0;
	}
	int rt = c->rt;
	const char *keep_name = c->name, *keep_title = c->title, *keep_src = c->source;
	c->name = c->title = c->source = NULL;
	contract_strs(c, slot_free);
	contract_copy(c, b);
	slot_free(&c->name), slot_free(&c->title), slot_free(&c->source);
	c->name = keep_name, c->title = keep_title, c->source = keep_src;
	c->rt = rt;
	return 0;
}

/* A provider's "cap" into `*cap`: NULL, or what was expected (and `*cap`
 * left as it was). */
static const char *cap_parse(size_t *cap, const char *v)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	/* NaN fails the range before the cast: (size_t)NaN is undefined */
	if (errno || end == v || *end || !(d >= 0 && d <= (double)(1u << 30)) || d != (size_t)d)
		return "a whole number of bytes, 0 to 1073741824 (0: no cap)";
	*cap = (size_t)d;
	return NULL;
}

/* Any other field of a provider, FIELD "skills.x" for the skills':
 * NULL when `v` was set, else what was expected; `*known` false for a
 * field no provider has. */
static const char *provider_field(struct clawmd_contract *c, const char *field, const char *v,
				  bool *known)
{
	const char *want = NULL;
	*known = true;
	if (!strcmp(field, "title")) {
		if (!*v || strlen(v) > 64)
			want = "a name of at most 64 bytes";
		else
			set_slot(&c->title, v);
	} else if (!strcmp(field, "entry")) {
		/* compose owns these names in every group; a name of its own
		 * would be a file compose writes but does not know to remove */
		if (*v && !clawmd_runtime_entry_name(v))
			want = "one of the entry files clawmd writes: CLAUDE.md, AGENTS.md, GEMINI.md, "
			       "QWEN.md (or \"\" for none)";
		else if (c->rt == CLAWMD_RUNTIME_CLAUDE && strcmp(v, "CLAUDE.md"))
			want = "CLAUDE.md (Claude Code's entry is always CLAUDE.md)";
		else
			set_slot(&c->entry, v);
	} else if (!strcmp(field, "container_path")) {
		if (v[0] != '/')
			want = "an absolute path in the container";
		else if (clawmd_path_dotted(v))
			want = "an absolute path in the container with no '.' or '..' component";
		else
			set_slot(&c->container_path, v);
	} else if (!strcmp(field, "cap")) {
		want = cap_parse(&c->cap, v);
	} else if (!strcmp(field, "imports") || !strcmp(field, "inside") ||
		   !strcmp(field, "skills.inlined")) {
		bool *b = field[0] == 'i' ? (field[1] == 'm' ? &c->imports : &c->inside)
					  : &c->skills_inlined;
		if (parse_bool(b, v) < 0)
			want = "true or false";
	} else if (!strcmp(field, "overrides") || !strcmp(field, "reads")) {
		bool reads = field[0] == 'r';
		if (!list_ok(v, reads))
			want = reads ? "an array of paths inside the group"
				     : "an array of file names (none empty, '.' or '..', none with a '/', "
				       "',' or control character)";
		else
			set_slot(reads ? &c->reads : &c->overrides, v);
	} else if (!strcmp(field, "document")) {
		if (strcmp(v, "flat") && strcmp(v, "imports"))
			want = "\"flat\" or \"imports\"";
		else
			set_slot(&c->document, v);
	} else if (!strcmp(field, "skills.discovery") || !strcmp(field, "skills.source") ||
		   !strcmp(field, "skills.home")) {
		const char **slot = field[7] == 'd' ? &c->skills_discovery
				    : field[7] == 's' ? &c->skills_source : &c->skills_home;
		if (*v && v[0] != '/' && v[0] != '~')
			want = "an absolute path (or one under ~)";
		else
			set_slot(slot, v);
	} else if (!strcmp(field, "skills.roots")) {
		set_slot(&c->skills_roots, v);
	} else if (!strcmp(field, "base")) {
		/* the host's own file (nanoclaw's baseDocPath): made absolute
		 * by the caller, clawmd_layout_provider_set() */
		if (*v && v[0] != '/')
			want = "an absolute path (or one relative to ROOT)";
		else
			set_slot(&c->base, v);
	} else if (!strcmp(field, "sections")) {
		if (*v && !sections_ok(v))
			want = "a JSON list of {\"name\": text, \"body\": text}";
		else
			set_slot(&c->sections, v);
	} else {
		*known = false;
	}
	return want;
}

int clawmd_layout_provider_set(struct clawmd_layout *lay, const char *key, const char *v,
			       struct clawmd_err *err)
{
	/* key is "providers.NAME.FIELD" (FIELD may be "skills.x") */
	const char *name = key + strlen("providers."), *dot = strchr(name, '.');
	char nm[72];
	if (!dot || dot == name || (size_t)(dot - name) >= sizeof(nm) ||
	    !clawmd_name_valid(name, (size_t)(dot - name)) || memchr(name, '.', (size_t)(dot - name)))
		return clawmd_err_set(err, CLAWMD_EUSAGE,
				      "%s: a provider's name is [A-Za-z0-9][A-Za-z0-9_-]{0,63}", key);
	memcpy(nm, name, (size_t)(dot - name));
	nm[dot - name] = '\0';
	const char *field = dot + 1;
	bool fresh;
	struct clawmd_contract *c = own(lay, nm, &fresh, err);
	if (!c)
		return err->code;
	if (!strcmp(field, "like"))
		return provider_like(c, nm, key, v, err);
	bool known;
	char *abs = NULL;
	if (!strcmp(field, "base") && *v && v[0] != '/' && lay->root)
		v = abs = clawmd_path_join(lay->root, v);
	const char *want = provider_field(c, field, v, &known);
	int rc = 0;
	if (!known)
		rc = clawmd_err_set(err, CLAWMD_EUSAGE,
				      "%s: unknown key (like, title, entry, container_path, cap, imports, "
				      "inside, overrides, reads, document, skills.discovery, "
				      "skills.source, skills.home, skills.roots, skills.inlined, base, "
				      "sections)", key);
	else if (want)
		rc = clawmd_err_set(err, CLAWMD_EUSAGE, "%s: expected %s, not '%s'", key, want, v);
	free(abs);
	(void)fresh;
	return rc;
}

int clawmd_layout_providers_check(const struct clawmd_layout *lay, struct clawmd_err *err)
{
	for (size_t i = 0; i < lay->nproviders; i++) {
		const struct clawmd_contract *c = &lay->providers[i];
		const char *p = c->container_path;
		if (!p || !c->entry || !*c->entry)
			continue;
		char *own = clawmd_path_join(lay->ct_group, c->entry);
		bool ok = !strcmp(p, own);
		free(own);
		/* or another entry file's place in the group: a file compose
		 * owns, not the agent's (a provider "like" Claude that names
		 * AGENTS.md keeps Claude's path unless it gives its own) */
		size_t gl = strlen(lay->ct_group);
		ok |= clawmd_path_under(p, lay->ct_group) && p[gl] == '/' && !strchr(p + gl + 1, '/') &&
		      clawmd_runtime_entry_name(p + gl + 1);
		if (ok)
			continue;
		const char *at[5 + 64] = {lay->ct_group, lay->ct_base, lay->ct_skills,
					  lay->modules ? lay->ct_modules : NULL};
		const char *what[] = {"the group's directory", "the shared base", "the skills",
				      "the modules"};
		size_t n = 4;
		for (size_t k = 0; k < lay->nmounts && n < CLAWMD_ARRAY_SIZE(at); k++)
			at[n++] = lay->mounts[k].container;
		for (size_t k = 0; k < n; k++) {
			if (!at[k] || !(clawmd_path_under(p, at[k]) || clawmd_path_under(at[k], p)))
				continue;
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "providers.%s.container_path: '%s' is %s %s ('%s'): a "
					      "read-only mount of %s there would %s; expected the "
					      "entry's own path in the group ('%s/%s') or a path no "
					      "mount holds", c->name, p,
					      !strcmp(p, at[k]) ? "the mount point of"
					      : clawmd_path_under(p, at[k]) ? "inside" : "above",
					      k < 4 ? what[k] : "a mount of clawmd.json", at[k], c->entry,
					      clawmd_path_under(p, at[k]) ? "cover a file the container "
					      "reads or writes" : "hide everything beneath it",
					      lay->ct_group, c->entry);
		}
		for (size_t j = 0; j < i; j++) {
			const struct clawmd_contract *o = &lay->providers[j];
			if (o->container_path && o->entry && *o->entry && strcmp(o->entry, c->entry) &&
			    (clawmd_path_under(p, o->container_path) ||
			     clawmd_path_under(o->container_path, p)))
				return clawmd_err_set(err, CLAWMD_EINPUT,
						      "providers.%s.container_path: '%s' collides with "
						      "providers.%s.container_path '%s' (a mount of %s "
						      "there, of %s here)", c->name, p, o->name,
						      o->container_path, o->entry, c->entry);
		}
	}
	return 0;
}

/* Every field of every contract of the layout: the plan renders the
 * skills prose, the memory note and warnings from any of them, and a
 * field left out here is a change the no-op record would not see. */
void clawmd_layout_providers_digest(struct clawmd_buf *b, const struct clawmd_layout *lay)
{
	for (size_t i = 0; i < lay->nproviders; i++) {
		const struct clawmd_contract *c = &lay->providers[i];
		const char *s[] = {c->name,	       c->title,	 c->entry,
				   c->container_path,  c->overrides,	 c->reads,
				   c->skills_discovery, c->skills_source, c->skills_home,
				   c->skills_roots,    c->document,	 c->source,
				   c->base,	       c->sections};
		/* fixed-size fields as bytes: the digest runs at every
		 * watched no-op, where printf's parse would be most of it */
		const long long num[] = {c->rt, (long long)c->cap, c->imports, c->inside,
					 c->skills_inlined, c->like};
		clawmd_buf_put(b, "p", 1);
		clawmd_buf_put(b, num, sizeof(num));
		for (size_t k = 0; k < CLAWMD_ARRAY_SIZE(s); k++)
			if (s[k])
				clawmd_buf_put(b, s[k], strlen(s[k]) + 1);
			else
				clawmd_buf_put(b, "\x01", 2); /* none differs from "" */
	}
}

/* Whether any group of the layout may compose the flat document (the
 * layout's "document", or one provider's): the group handle keeps a
 * host-given config the reader refuses only then (group.c). */
bool clawmd_layout_flat_possible(const struct clawmd_layout *lay)
{
	bool any = lay->flat;
	for (size_t i = 0; i < lay->nproviders && !any; i++)
		any = lay->providers[i].document && !strcmp(lay->providers[i].document, "flat");
	return any;
}
