/*
 * flatrow.c - the group's container.json as nanoclaw reads its row for the
 * flat document (compose/flatrow.h): the skill selection, whether the CLI
 * is off, and each MCP server's instructions, a server kept only where
 * nanoclaw's parseMcpServerConfig would keep it, in JavaScript's key
 * order.  What the agent wrote never fails the compose: a corrupt skill
 * selection widens to every skill, an invalid server is dropped, each with
 * a warning.
 */
#include "compose/flatrow.h"
#include "compose/words.h"
#include "runtime/text.h" /* JavaScript's trim */
#include "base/util.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool name_char_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 64 || !strcmp(s, "__proto__"))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

static bool js_blank(const char *s)
{
	size_t a, b;
	clawmd_js_trim_valid(s, strlen(s), &a, &b);
	return a == b;
}

static bool string_record(const cJSON *v)
{
	const cJSON *e;
	if (!cJSON_IsObject(v))
		return false;
	cJSON_ArrayForEach(e, v) if (!cJSON_IsString(e)) return false;
	return true;
}

/* A query key that names a credential (nanoclaw's list: auth, token,
 * secret, password, key, credential, bearer, jwt, signature words). */
static bool secret_key(const char *k, size_t n)
{
	static const char *const words[] = {"auth", "oauth", "authorization", "token", "secret",
					    "password", "passwd", "pwd", "apikey", "api_key",
					    "api-key", "privatekey", "private_key", "private-key",
					    "credential", "credentials", "bearer", "jwt", "sig",
					    "signature", "accesstoken", "access_token", "authtoken",
					    "auth_token", "idtoken", "id_token", "sessiontoken",
					    "session_token"};
	char w[256];
	size_t o = 0;
	/* camelCase to snake_case, lowercased, then split on _ . - */
	for (size_t i = 0; i < n && o + 2 < sizeof(w); i++) {
		char c = k[i];
		if (i && c >= 'A' && c <= 'Z' && ((k[i - 1] >= 'a' && k[i - 1] <= 'z') ||
						  (k[i - 1] >= '0' && k[i - 1] <= '9')))
			w[o++] = '_';
		w[o++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	w[o] = '\0';
	for (char *p = w; *p;) {
		size_t l = strcspn(p, "_.-");
		for (size_t a = 0; a < l; a++)
			for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(words); i++) {
				size_t wl = strlen(words[i]);
				if (a + wl <= strlen(p) && !strncmp(p + a, words[i], wl) &&
				    (a == 0 || strchr("_.-", p[a - 1])) &&
				    (!p[a + wl] || strchr("_.-", p[a + wl])))
					return true;
			}
		p += l + (p[l] != '\0');
	}
	return false;
}

/* nanoclaw's check of an http server's url: https, or http to a loopback
 * host; no credentials, no fragment, no query key naming a credential. */
static const char *url_bad(const char *url)
{
	const char *rest;
	bool https = !strncmp(url, "https://", 8);
	if (!https && strncmp(url, "http://", 7))
		return "url must be a valid HTTP(S) URL";
	rest = url + (https ? 8 : 7);
	size_t al = strcspn(rest, "/?#");
	if (memchr(rest, '@', al))
		return "url must not contain credentials or fragments";
	if (strchr(url, '#'))
		return "url must not contain credentials or fragments";
	if (!https) {
		size_t hl = al;
		const char *colon = rest[0] == '[' ? memchr(rest, ']', al) : memchr(rest, ':', al);
		if (colon)
			hl = (size_t)(colon - rest) + (rest[0] == '[');
		static const char *const loop[] = {"localhost", "127.0.0.1", "[::1]",
						   "host.docker.internal"};
		bool ok = false;
		for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(loop); i++)
			ok |= hl == strlen(loop[i]) && !strncasecmp(rest, loop[i], hl);
		if (!ok)
			return "url must use HTTPS";
	}
	const char *q = strchr(rest, '?');
	for (const char *p = q ? q + 1 : NULL; p && *p;) {
		size_t l = strcspn(p, "&"), kl = strcspn(p, "=&");
		if (kl && secret_key(p, kl))
			return "url query parameter looks like a credential";
		p += l + (p[l] == '&');
	}
	return NULL;
}

/* A url server: nothing that only a command takes, an https url without
 * a credential in it, headers of strings. */
static const char *mcp_url_bad(const cJSON *s, const cJSON *url, bool has_cmd)
{
	if (has_cmd)
		return "Provide exactly one of command or url";
	if (cJSON_GetObjectItemCaseSensitive(s, "args") ||
	    cJSON_GetObjectItemCaseSensitive(s, "env") || cJSON_GetObjectItemCaseSensitive(s, "cwd"))
		return "args, env, and cwd are only valid with command";
	size_t a, b;
	clawmd_js_trim_valid(url->valuestring, strlen(url->valuestring), &a, &b);
	char *u = clawmd_xstrndup(url->valuestring + a, b - a);
	const char *why = url_bad(u);
	free(u);
	if (why)
		return why;
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(s, "headers");
	if (h && !string_record(h))
		return "headers must be a JSON object with string values";
	return NULL;
}

/* A command server's env: string values under environment variable names. */
static const char *mcp_env_bad(const cJSON *env)
{
	const cJSON *e;
	if (!string_record(env))
		return "env must be a JSON object with string values";
	cJSON_ArrayForEach(e, env)
	{
		const char *k = e->string;
		bool ok = *k && !(k[0] >= '0' && k[0] <= '9');
		for (const char *p = k; ok && *p; p++)
			ok = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			     (*p >= '0' && *p <= '9') || *p == '_';
		if (!ok)
			return "env key must be a valid environment variable name";
	}
	return NULL;
}

/* A command server's cwd: a path that stays inside the plugin root. */
static const char *mcp_cwd_bad(const cJSON *cwd)
{
	const char *v = cJSON_IsString(cwd) ? cwd->valuestring : NULL, *rest = NULL;
	if (v && !strncmp(v, "./", 2))
		rest = v + 2;
	else if (v && !strncmp(v, "${PLUGIN_ROOT}", 14) && (!v[14] || v[14] == '/'))
		rest = v + 14 + (v[14] == '/');
	else if (v && !strncmp(v, "${PLUGIN_DATA}", 14) && (!v[14] || v[14] == '/'))
		rest = v + 14 + (v[14] == '/');
	if (!rest)
		return "cwd must be ./path, ${PLUGIN_ROOT}[/path], or ${PLUGIN_DATA}[/path]";
	if (strstr(rest, "${") || strchr(rest, '\\'))
		return "cwd escapes the plugin root";
	for (const char *p = rest; *rest && p;) {
		size_t l = strcspn(p, "/");
		if (!l || (l == 2 && !strncmp(p, "..", 2)))
			return "cwd escapes the plugin root";
		p = p[l] ? p + l + 1 : NULL;
	}
	return NULL;
}

/* nanoclaw's parseMcpServerConfig, as far as it decides whether a stored
 * server is kept: the reason it is not, or NULL. */
static const char *mcp_bad(const cJSON *s)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(s, "command");
	const cJSON *url = cJSON_GetObjectItemCaseSensitive(s, "url");
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(s, "type");
	const cJSON *ins = cJSON_GetObjectItemCaseSensitive(s, "instructions");
	bool has_cmd = cJSON_IsString(cmd) && !js_blank(cmd->valuestring);
	bool has_url = cJSON_IsString(url) && !js_blank(url->valuestring);
	const char *t = NULL;
	if (type) {
		if (!cJSON_IsString(type))
			return "type must be \"stdio\", \"http\", or \"streamable-http\"";
		t = type->valuestring;
		if (!strcmp(t, "streamable-http"))
			t = "http";
		if (!strcmp(t, "sse"))
			return "unsupported transport \"sse\"";
		if (strcmp(t, "stdio") && strcmp(t, "http"))
			return "type must be \"stdio\", \"http\", or \"streamable-http\"";
	}
	if (t && !strcmp(t, "stdio") && !has_cmd)
		return "type \"stdio\" requires command";
	if (t && !strcmp(t, "http") && !has_url)
		return "type \"http\" requires url";
	if (ins && !cJSON_IsString(ins))
		return "MCP instructions must be a string";
	if (has_url)
		return mcp_url_bad(s, url, has_cmd);
	if (!has_cmd)
		return "Provide exactly one of command or url";
	if (cJSON_GetObjectItemCaseSensitive(s, "headers"))
		return "headers is only valid with url";
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(s, "args"), *e;
	if (args) {
		if (!cJSON_IsArray(args))
			return "args must be a JSON array of strings";
		cJSON_ArrayForEach(e, args) if (!cJSON_IsString(e)) return "args must be a JSON array of strings";
	}
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(s, "env");
	const char *why;
	if (env && (why = mcp_env_bad(env)))
		return why;
	const cJSON *cwd = cJSON_GetObjectItemCaseSensitive(s, "cwd");
	return cwd ? mcp_cwd_bad(cwd) : NULL;
}

/* An array index as JavaScript orders keys ("0".."4294967294"). */
static bool index_key(const char *k, unsigned long long *v)
{
	if (!*k || (k[0] == '0' && k[1]) || strlen(k) > 10)
		return false;
	*v = 0;
	for (const char *p = k; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		*v = *v * 10 + (unsigned)(*p - '0');
	}
	return *v < 4294967295ull;
}

void clawmd_flat_row_release(struct clawmd_flat_row *r)
{
	clawmd_strv_free(r->skills, r->nskills);
	clawmd_strv_free(r->mcp_names, r->nmcp);
	clawmd_strv_free(r->mcp_text, r->nmcp);
	memset(r, 0, sizeof(*r));
}

/* skills: "all", a list of strings, else every skill (with a warning). */
static void row_skills(struct clawmd_flat_row *r, struct clawmd_plan *plan, const cJSON *v, const char *cj)
{
	const cJSON *e;
	bool list = cJSON_IsArray(v);
	cJSON_ArrayForEach(e, v) list &= cJSON_IsString(e) != 0;
	if (cJSON_IsString(v) && !strcmp(v->valuestring, "all")) {
	} else if (list) {
		r->all_skills = false;
		size_t cap = 0;
		cJSON_ArrayForEach(e, v)
		{
			clawmd_xgrow(&r->skills, &cap, r->nskills + 1, sizeof(char *));
			r->skills[r->nskills++] = clawmd_xstrdup(e->valuestring);
		}
	} else {
		clawmd_plan_warn(plan, "%s: skills: the skill selection is not \"all\" or a list of names; "
			      "inlining every skill", cj);
	}
}

/* A server's key, where it first came in the row and where JavaScript
 * orders it. */
struct key_at {
	const cJSON *e;
	size_t pos;
	bool idx;
	unsigned long long v;
};

static int by_name(const void *x, const void *y)
{
	const struct key_at *a = x, *b = y;
	int c = strcmp(a->e->string, b->e->string);
	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* Array indexes first, ascending, then the other keys as they came. */
static int by_js_order(const void *x, const void *y)
{
	const struct key_at *a = x, *b = y;
	if (a->idx != b->idx)
		return a->idx ? -1 : 1;
	if (a->idx)
		return (a->v > b->v) - (a->v < b->v);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

/* The servers of mcpServers in JavaScript's key order: array indexes
 * ascending, then the rest as written; a key written twice keeps its first
 * place, its last value.  `*k` of them.  By sorting, not by comparing
 * every pair: the agent decides how many servers its row has, a million
 * in a config at its bound. */
static const cJSON **mcp_order(const cJSON *v, size_t *k)
{
	const cJSON *e;
	size_t n = 0;
	cJSON_ArrayForEach(e, v) n++;
	struct key_at *a = clawmd_xcalloc(n + 1, sizeof(*a));
	const cJSON **ord = clawmd_xcalloc(n + 1, sizeof(*ord));
	n = 0;
	cJSON_ArrayForEach(e, v)
	{
		a[n].e = e;
		a[n].pos = n;
		n++;
	}
	qsort(a, n, sizeof(*a), by_name);
	*k = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(a[j].e->string, a[i].e->string); j++)
			;
		struct key_at *x = &a[(*k)++];
		*x = (struct key_at){.e = a[j - 1].e, .pos = a[i].pos};
		x->idx = index_key(x->e->string, &x->v);
	}
	qsort(a, *k, sizeof(*a), by_js_order);
	for (size_t i = 0; i < *k; i++)
		ord[i] = a[i].e;
	free(a);
	return ord;
}

/* mcpServers: each valid server's instructions, in order; an invalid one
 * is dropped with a warning that names it (escaped). */
static void row_mcp(struct clawmd_flat_row *r, struct clawmd_plan *plan, const cJSON *v, const char *cj)
{
	size_t k, cap = 0;
	const cJSON **ord = mcp_order(v, &k);
	for (size_t i = 0; i < k; i++) {
		const cJSON *s = ord[i];
		const char *why = !cJSON_IsObject(s) ? "not an object"
				  : !name_char_ok(s->string)
					  ? "server name must be 1-64 characters of letters, digits, \"_\" or \"-\""
					  : mcp_bad(s);
		if (why) {
			char q[200];
			size_t o = 0;
			for (const unsigned char *p = (const unsigned char *)s->string;
			     *p && o + 5 < sizeof(q); p++)
				o += (size_t)snprintf(q + o, sizeof(q) - o,
						      *p >= 0x20 && *p < 0x7f && *p != '\\' ? "%c" : "\\x%02x", *p);
			q[o] = '\0';
			clawmd_plan_warn(plan, "%s: mcpServers.%s: dropping an invalid MCP server (%s)", cj, q, why);
			continue;
		}
		const cJSON *ins = cJSON_GetObjectItemCaseSensitive(s, "instructions");
		if (!cJSON_IsString(ins) || !ins->valuestring[0])
			continue;
		clawmd_xgrow(&r->mcp_names, &cap, r->nmcp + 1, sizeof(char *));
		r->mcp_text = clawmd_xrealloc(r->mcp_text, cap * sizeof(char *));
		r->mcp_names[r->nmcp] = clawmd_xstrdup(s->string);
		/* the agent writes container.json: its @ directives made inert,
		 * as in the import layout's MCP fragments */
		struct clawmd_buf text = CLAWMD_BUF_INIT;
		plan->ndefused += clawmd_defuse_imports(&text, ins->valuestring,
							   strlen(ins->valuestring));
		r->mcp_text[r->nmcp++] = clawmd_buf_detach(&text);
	}
	free(ord);
}

void clawmd_flat_row_read(struct clawmd_flat_row *r, struct clawmd_plan *plan, const cJSON *doc, const char *cj)
{
	const cJSON *v;
	memset(r, 0, sizeof(*r));
	r->all_skills = true;
	if ((v = cJSON_GetObjectItemCaseSensitive(doc, "skills")))
		row_skills(r, plan, v, cj);
	v = cJSON_GetObjectItemCaseSensitive(doc, "cli_scope");
	r->cli_disabled = cJSON_IsString(v) && !strcmp(v->valuestring, "disabled");
	v = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
	if (!v)
		return;
	if (!cJSON_IsObject(v)) {
		clawmd_plan_warn(plan, "%s: mcpServers: not an object; ignoring every server", cj);
		return;
	}
	row_mcp(r, plan, v, cj);
}
