/* config.c - read and validate a group's container.json, which the agent
 * can write: every value is hostile until it passes here. */
#include "sys/dl.h"
#include "clawmd.h"
#include "base/util.h"
#include "base/jsondiag.h"
#include "group/group.h"

#include <cJSON.h>
#include <stdio.h>
#include <strings.h>

void clawmd_config_init(struct clawmd_group_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->all_skills = true;
	cfg->all_modules = true;
}

void clawmd_config_release(struct clawmd_group_config *cfg)
{
	if (!cfg)
		return;
	clawmd_strv_free(cfg->skills, cfg->nskills);
	clawmd_strv_free(cfg->modules, cfg->nmodules);
	clawmd_strv_free(cfg->runtime_names, cfg->nruntime_names);
	clawmd_strv_free(cfg->unknown_keys, cfg->nunknown);
	clawmd_strv_free(cfg->warnings, cfg->nunknown);
	free(cfg->dup_warning);
	for (size_t i = 0; i < cfg->nmcp; i++) {
		free(cfg->mcp[i].name);
		free(cfg->mcp[i].instructions);
	}
	free(cfg->mcp);
	clawmd_config_init(cfg);
}

/* Quote a hostile value for a message: printable ASCII kept, the rest escaped,
 * cut at 80 bytes, so a newline or an escape sequence cannot forge output. */
static const char *quote(char *out, size_t size, const char *s, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 8 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		if (i == 80) {
			o += (size_t)snprintf(out + o, size - o, "...");
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

/* Length of the valid UTF-8 prefix of s: len when all of it is valid. */
static size_t utf8_valid_prefix(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return i;
		}
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates and values past U+10FFFF. */
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return i;
		i += n + 1;
	}
	return len;
}

static bool utf8_valid(const unsigned char *s, size_t len)
{
	return utf8_valid_prefix(s, len) == len;
}

/* "path:LINE:COL" of byte `off`, for errors that come before any key. */
static int err_at(struct clawmd_err *err, const char *path, const char *json, size_t off,
		  const char *what)
{
	size_t line = 1, col = 1;
	for (size_t i = 0; i < off; i++, col++)
		if (json[i] == '\n')
			line++, col = 0;
	return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu:%zu: %s", path, line, col, what);
}

static int mcp_cmp(const void *a, const void *b)
{
	return strcmp(((const struct clawmd_mcp *)a)->name, ((const struct clawmd_mcp *)b)->name);
}

/*
 * A selection: "all", or an array of names ("skills", and "modules" as
 * nanoclaw's per-group module gating proposes it): one rule for both.
 */
static int parse_selection(bool *all, char ***names, size_t *n, const char *key,
			   const cJSON *v, const char *path, struct clawmd_err *err)
{
	char q[400];
	if (cJSON_IsString(v)) {
		if (strcmp(v->valuestring, "all"))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: %s: expected \"all\" or an array of names, not '%s'",
					      path, key, quote(q, sizeof(q), v->valuestring, strlen(v->valuestring)));
		*all = true;
		return 0;
	}
	if (!cJSON_IsArray(v))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "%s: %s: expected \"all\" or an array of names", path, key);
	int size = cJSON_GetArraySize(v);
	if (size > 4096)
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s: more than 4096 entries", path, key);
	*all = false;
	*names = clawmd_xcalloc((size_t)size + 1, sizeof(char *));
	int i = 0;
	const cJSON *item;
	cJSON_ArrayForEach(item, v)
	{
		if (!cJSON_IsString(item))
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s[%d]: expected a string",
					      path, key, i);
		const char *s = item->valuestring;
		if (!clawmd_name_valid(s, strlen(s)))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: %s[%d]: invalid name '%s' (names match "
					      "[A-Za-z0-9][A-Za-z0-9._-]{0,63})",
					      path, key, i, quote(q, sizeof(q), s, strlen(s)));
		bool dup = false;
		for (size_t k = 0; k < *n; k++)
			dup |= !strcmp((*names)[k], s);
		if (!dup)
			(*names)[(*n)++] = clawmd_xstrdup(s);
		i++;
	}
	return 0;
}

static int parse_mcp(struct clawmd_group_config *cfg, const cJSON *v, const char *path,
		     struct clawmd_err *err)
{
	char q[400];
	if (!cJSON_IsObject(v))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: mcpServers: expected an object", path);
	int n = cJSON_GetArraySize(v);
	if (n > 1024)
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: mcpServers: more than 1024 servers",
				      path);
	cfg->mcp = clawmd_xcalloc((size_t)n, sizeof(*cfg->mcp));
	const cJSON *srv;
	cJSON_ArrayForEach(srv, v)
	{
		const char *name = srv->string;
		if (!clawmd_name_valid(name, strlen(name)))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mcpServers: invalid server name '%s' (names match "
					      "[A-Za-z0-9][A-Za-z0-9._-]{0,63})",
					      path, quote(q, sizeof(q), name, strlen(name)));
		for (size_t k = 0; k < cfg->nmcp; k++)
			if (!strcmp(cfg->mcp[k].name, name))
				return clawmd_err_set(err, CLAWMD_EINPUT,
						      "%s: mcpServers.%s: defined twice", path, name);
		if (!cJSON_IsObject(srv))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mcpServers.%s: expected an object", path, name);
		const cJSON *ins = cJSON_GetObjectItemCaseSensitive(srv, "instructions");
		struct clawmd_mcp *m = &cfg->mcp[cfg->nmcp++];
		m->name = clawmd_xstrdup(name);
		if (!ins || cJSON_IsNull(ins))
			continue;
		if (!cJSON_IsString(ins))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mcpServers.%s.instructions: expected a string",
					      path, name);
		size_t len = strlen(ins->valuestring);
		if (len > CLAWMD_INSTRUCTIONS_MAX)
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mcpServers.%s.instructions: %zu bytes, more than "
					      "the %d allowed", path, name, len, CLAWMD_INSTRUCTIONS_MAX);
		if (!utf8_valid((const unsigned char *)ins->valuestring, len))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mcpServers.%s.instructions: not valid UTF-8", path,
					      name);
		/* "" is no instructions, as nanoclaw's composer reads it: no
		 * fragment, rather than an empty file imported for nothing. */
		if (len)
			m->instructions = clawmd_xstrdup(ins->valuestring);
	}
	if (cfg->nmcp > 1)
		qsort(cfg->mcp, cfg->nmcp, sizeof(*cfg->mcp), mcp_cmp);
	return 0;
}

/*
 * One runtime name ("provider", "runtimes[i]"), kept as written: the
 * layout's contracts decide what it means (clawmd_group_runtimes()), and a
 * name none of them knows is a warning, not a failed spawn (nanoclaw
 * spawns an unknown provider with the default surfaces).
 */
#define RUNTIME_NAMES_MAX 32
static int parse_runtime(struct clawmd_group_config *cfg, const cJSON *v, const char *key,
			 const char *path, struct clawmd_err *err)
{
	if (!cJSON_IsString(v))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s: expected a runtime name (a "
				      "provider of doc/runtimes.md)", path, key);
	if (cfg->nruntime_names == RUNTIME_NAMES_MAX)
		return 0;
	cfg->runtime_names = clawmd_xrealloc(cfg->runtime_names,
					     (cfg->nruntime_names + 1) * sizeof(char *));
	cfg->runtime_names[cfg->nruntime_names++] = clawmd_xstrdup(v->valuestring);
	return 0;
}

/*
 * Top-level keys that are a typo of one clawmd reads ("skils" silently meant
 * every skill).  container.json is shared with the host's other tools, so a
 * key far from all of clawmd's is theirs and passes silently.
 */
static void note_unknown_keys(struct clawmd_group_config *cfg, const cJSON *doc, const char *path)
{
	static const char *const known[] = {"skills", "mcpServers", "cli_scope", "modules", "provider",
					    "runtimes"};
	const cJSON *item;
	size_t cap = 0, n = 0;
	char q[400];
	cJSON_ArrayForEach(item, doc)
	{
		const char *k = item->string, *near;
		bool ours = false;
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(known); i++)
			ours |= !strcmp(k, known[i]);
		if (ours || !(near = clawmd_spell_nearest(k, known, CLAWMD_ARRAY_SIZE(known))))
			continue;
		if (n == 64)
			break;
		clawmd_xgrow(&cfg->unknown_keys, &cap, n + 1, sizeof(char *));
		cfg->warnings = clawmd_xrealloc(cfg->warnings, cap * sizeof(char *));
		cfg->unknown_keys[n] = clawmd_xstrdup(k);
		cfg->warnings[n] = clawmd_xasprintf("%s: unknown key '%s' (did you mean '%s'?); "
						    "it is ignored",
						    path, quote(q, sizeof(q), k, strlen(k)), near);
		cfg->nunknown = ++n;
	}
}

/*
 * container.json as nanoclaw's runner reads it (JSON.parse), so that what
 * clawmd composes for is what the runner starts.  cJSON differs from
 * JSON.parse in three ways an agent can use, each undone here:
 *
 * 1. A key given twice: cJSON's lookups find the first, JSON.parse keeps
 *    the last (at the first one's place).  last_wins() removes all but
 *    the last, moved to the first one's place.
 * 2. "\u0000" and a lone surrogate escape: cJSON cuts the string at the
 *    NUL ("codex\u0000x" would read as "codex") or refuses the whole text
 *    over the surrogate; JSON.parse keeps both.  Each becomes "\ufffd"
 *    (six bytes for six): a string holding one is still no name nor
 *    provider, and U+FFFD is what Node writes for a lone surrogate.
 * 3. Nesting: cJSON refuses the whole text past 1000 levels, JSON.parse
 *    takes any.  No value clawmd reads is deeper than a few levels, so a
 *    value opened deeper than CONFIG_DEPTH is replaced by 0 and spaces
 *    (the same length, so offsets in messages stay true).
 *
 * The copy is made only when the text needs one.
 */
#define CONFIG_DEPTH 64

static int hex4(const char *s)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i], d = c >= '0' && c <= '9'	? c - '0'
						: c >= 'a' && c <= 'f' ? c - 'a' + 10
						: c >= 'A' && c <= 'F' ? c - 'A' + 10
								       : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* The text made safe for cJSON as point 2 and 3 say, or NULL when it is
 * already. */
static char *runner_text(const char *json, size_t len)
{
	char *t = NULL;
	size_t depth = 0;
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		char c = json[i];
		if (in_str) {
			if (c == '"') {
				in_str = false;
			} else if (c == '\\' && i + 1 < len && json[i + 1] == 'u' && i + 6 <= len) {
				int u = hex4(json + i + 2), lo = -1;
				if (u >= 0xd800 && u <= 0xdbff && i + 12 <= len && json[i + 6] == '\\' &&
				    json[i + 7] == 'u')
					lo = hex4(json + i + 8);
				bool pair = u >= 0xd800 && u <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
				if (u == 0 || (u >= 0xd800 && u <= 0xdfff && !pair)) {
					if (!t)
						t = clawmd_xmalloc(len), memcpy(t, json, len);
					memcpy(t + i, "\\ufffd", 6);
				}
				i += pair ? 11 : 5;
			} else if (c == '\\') {
				i++;
			}
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if (c == ']' || c == '}') {
			depth -= depth > 0;
		} else if ((c == '[' || c == '{') && ++depth > CONFIG_DEPTH) {
			/* to the matching close (or the end), strings skipped */
			size_t j = i, d = 0;
			bool s = false;
			for (; j < len; j++) {
				if (s) {
					if (json[j] == '\\')
						j++;
					else if (json[j] == '"')
						s = false;
				} else if (json[j] == '"') {
					s = true;
				} else if (json[j] == '[' || json[j] == '{') {
					d++;
				} else if ((json[j] == ']' || json[j] == '}') && !--d) {
					break;
				}
			}
			if (j == len)
				j = len - 1; /* unclosed: cJSON refuses it anyway */
			if (!t)
				t = clawmd_xmalloc(len), memcpy(t, json, len);
			t[i] = '0';
			memset(t + i + 1, ' ', j - i);
			depth--;
			i = j;
		}
	}
	return t;
}

struct member {
	cJSON *item;
	size_t at;
};

static int member_cmp(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->item->string, y->item->string);
	return c ? c : x->at < y->at ? -1 : x->at > y->at;
}

/* Point 1 in `v` and every value under it; the dotted path of the first
 * key found twice goes to *dup (when still NULL). */
static void last_wins(cJSON *v, const char *path, char **dup)
{
	cJSON *c;
	if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(c, v)
		last_wins(c, path, dup);
		return;
	}
	if (!cJSON_IsObject(v))
		return;
	size_t n = 0;
	cJSON_ArrayForEach(c, v)
	n++;
	if (n > 1) {
		struct member *m = clawmd_xcalloc(n, sizeof(*m));
		size_t k = 0;
		cJSON_ArrayForEach(c, v)
		m[k] = (struct member){c, k}, k++;
		qsort(m, n, sizeof(*m), member_cmp);
		for (size_t i = 0; i < n;) {
			size_t j = i + 1;
			while (j < n && !strcmp(m[j].item->string, m[i].item->string))
				j++;
			if (j - i > 1) {
				if (!*dup)
					*dup = *path ? clawmd_xasprintf("%s.%s", path, m[i].item->string)
						     : clawmd_xstrdup(m[i].item->string);
				for (size_t k2 = i + 1; k2 + 1 < j; k2++)
					cJSON_Delete(cJSON_DetachItemViaPointer(v, m[k2].item));
				cJSON *last = cJSON_DetachItemViaPointer(v, m[j - 1].item);
				cJSON_ReplaceItemViaPointer(v, m[i].item, last);
			}
			i = j;
		}
		free(m);
	}
	cJSON_ArrayForEach(c, v)
	{
		char *sub = *path ? clawmd_xasprintf("%s.%s", path, c->string) : clawmd_xstrdup(c->string);
		last_wins(c, sub, dup);
		free(sub);
	}
}

cJSON *clawmd_config_json(const char *json, size_t len, const char **end, char **dup)
{
	char *t = runner_text(json, len);
	const char *e = NULL;
	*dup = NULL;
	cJSON *doc = cJSON_ParseWithLengthOpts(t ? t : json, len, &e, false);
	if (e)
		e = json + (e - (t ? t : json));
	free(t);
	if (end)
		*end = e;
	if (doc)
		last_wins(doc, "", dup);
	return doc;
}

/* The text as one JSON value, or an error that says what was expected and
 * what was found, where (line and column). */
static int config_doc(cJSON **out, char **dup, const char *json, size_t len, const char *path,
		      struct clawmd_err *err)
{
	int rc;
	*out = NULL;
	*dup = NULL;
	if (len > CLAWMD_CONFIG_MAX)
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: larger than %d bytes", path,
				      CLAWMD_CONFIG_MAX);
	size_t at = clawmd_json_nul_at(json, len);
	if (at < len)
		return err_at(err, path, json, at, "contains a NUL character");
	if ((at = utf8_valid_prefix((const unsigned char *)json, len)) < len)
		return err_at(err, path, json, at, "not valid UTF-8");
	const char *end = NULL;
	if ((rc = clawmd_dl_need_cjson(err)) < 0)
		return rc;
	cJSON *doc = clawmd_config_json(json, len, &end, dup);
	/* Trailing bytes after the value are malformed too. */
	while (doc && end < json + len && strchr(" \t\r\n", *end))
		end++;
	if (doc && end < json + len) {
		cJSON_Delete(doc);
		doc = NULL;
	}
	if (!doc) {
		char what[256];
		size_t off = clawmd_json_diagnose(what, sizeof(what), json, len);
		if (off > len)
			off = end ? (size_t)(end - json) : 0, snprintf(what, sizeof(what), "malformed JSON");
		size_t line = 1, col = 1;
		for (size_t i = 0; i < off && i < len; i++, col++)
			if (json[i] == '\n')
				line++, col = 0;
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu:%zu: %s", path, line, col, what);
	}
	*out = doc;
	return 0;
}

/* cli_scope, nanoclaw's values: "disabled" drops the cli module's
 * instructions; "group" (its default) and "global" keep them.  Anything
 * else is refused, not read as "keep": "off" meant to drop them, and
 * silently keeping them is the wrong guess. */
static int parse_cli_scope(struct clawmd_group_config *out, const cJSON *v, const char *path,
			   struct clawmd_err *err)
{
	if (!cJSON_IsString(v))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: cli_scope: expected a string", path);
	static const char *const scopes[] = {"disabled", "group", "global"};
	const char *sv = v->valuestring, *near;
	bool known = false;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(scopes); i++)
		known |= !strcmp(sv, scopes[i]);
	if (!known) {
		char q[400];
		quote(q, sizeof(q), sv, strlen(sv));
		near = clawmd_spell_nearest(sv, scopes, CLAWMD_ARRAY_SIZE(scopes));
		if (!near && (!strcasecmp(sv, "off") || !strcasecmp(sv, "none") ||
			      !strcasecmp(sv, "false") || !strcasecmp(sv, "no")))
			near = "disabled";
		if (!near && (!strcasecmp(sv, "on") || !strcasecmp(sv, "enabled") ||
			      !strcasecmp(sv, "true") || !strcasecmp(sv, "yes")))
			near = "group";
		if (near)
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: cli_scope: unknown value '%s' "
					      "(did you mean '%s'? expected disabled, group or "
					      "global)", path, q, near);
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: cli_scope: unknown value '%s' "
				      "(expected disabled, group or global)", path, q);
	}
	out->cli_disabled = !strcmp(sv, "disabled");
	return 0;
}

/* runtimes: a non-empty array of runtime names. */
static int parse_runtimes(struct clawmd_group_config *out, const cJSON *v, const char *path,
			  struct clawmd_err *err)
{
	const cJSON *item;
	int i = 0, rc;
	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: runtimes: expected a non-empty array of "
				      "runtime names (providers of doc/runtimes.md)", path);
	cJSON_ArrayForEach(item, v)
	{
		char key[32];
		snprintf(key, sizeof(key), "runtimes[%d]", i++);
		if ((rc = parse_runtime(out, item, key, path, err)) < 0)
			return rc;
	}
	return 0;
}

/* The value of `key`, NULL when it is missing or null. */
static const cJSON *config_key(const cJSON *doc, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
	return v && !cJSON_IsNull(v) ? v : NULL;
}

int clawmd_config_parse(struct clawmd_group_config *out, const char *json, size_t len,
			const char *path, struct clawmd_err *err)
{
	return clawmd_config_parse_doc(out, json, len, path, err, NULL);
}

int clawmd_config_parse_doc(struct clawmd_group_config *out, const char *json, size_t len,
			    const char *path, struct clawmd_err *err, struct cJSON **keep)
{
	cJSON *doc;
	char *dup;
	clawmd_config_init(out);
	if (keep)
		*keep = NULL;
	int rc = config_doc(&doc, &dup, json, len, path, err);
	if (rc < 0)
		return rc;
	if (dup) {
		char q[400];
		out->dup_warning = clawmd_xasprintf("%s: key '%s' given more than once; the last one "
						    "is read, as nanoclaw's runner reads it",
						    path, quote(q, sizeof(q), dup, strlen(dup)));
		free(dup);
	}
	if (!cJSON_IsObject(doc)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: expected a JSON object at the top", path);
		goto out;
	}
	const cJSON *v;
	if ((v = config_key(doc, "skills")) &&
	    (rc = parse_selection(&out->all_skills, &out->skills, &out->nskills, "skills", v, path,
				  err)) < 0)
		goto out;
	if ((v = config_key(doc, "modules")) &&
	    (rc = parse_selection(&out->all_modules, &out->modules, &out->nmodules, "modules", v,
				  path, err)) < 0)
		goto out;
	if ((v = config_key(doc, "mcpServers")) && (rc = parse_mcp(out, v, path, err)) < 0)
		goto out;
	if ((v = config_key(doc, "cli_scope")) && (rc = parse_cli_scope(out, v, path, err)) < 0)
		goto out;
	if ((v = config_key(doc, "provider")) &&
	    (rc = parse_runtime(out, v, "provider", path, err)) < 0)
		goto out;
	out->provider_given = out->nruntime_names > 0;
	if ((v = config_key(doc, "runtimes")) && (rc = parse_runtimes(out, v, path, err)) < 0)
		goto out;
	note_unknown_keys(out, doc, path);
out:
	if (keep)
		*keep = doc;
	else
		cJSON_Delete(doc);
	if (rc < 0)
		clawmd_config_release(out);
	return rc;
}
