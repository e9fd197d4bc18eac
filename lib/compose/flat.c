/*
 * flat.c - the flat document (doc/compose.md, "The flat document"): each
 * provider's entry file as one document, no imports, no fragments, as
 * nanoclaw's composer writes it since its pull request 3536
 * (composeGroupProjectDoc; doc/nanoclaw.md).  With the nanoclaw preset the
 * bytes are that composer's on the same inputs:
 *
 *	HEADER
 *
 *	# Persona                      instructions.prepend.md, trimmed
 *	# NanoClaw Runtime Contract    the shared base, its memory note filled
 *	# Native Runtime Skills        from the contract's facts
 *	# NanoClaw Module: <m>         each *.instructions.md, sorted   (droppable)
 *	# NanoClaw Skill: <s>          each selected skill's instructions.md (droppable)
 *	# MCP Server: <name>           each valid server's instructions (droppable)
 *	# Omitted for size             what the cap ladder dropped
 *
 * Blocks are "# NAME\n\nBODY" with BODY trimmed as JavaScript trims, joined
 * by a blank line, and the file ends in one newline.  Directories are
 * listed in UTF-16 code unit order (JavaScript's sort), MCP servers in
 * JavaScript's object key order.  The host's install tree (base, modules,
 * skills) may be symlinked; the only file of the group read is the persona,
 * never through a symlink.  What the agent writes never fails the compose:
 * a corrupt skill selection widens to every skill, an invalid MCP server is
 * dropped, each with a warning.
 *
 * Whether a flat entry is clawmd's own output cannot be told from the file
 * (its header is nanoclaw's, byte for byte): clawmd keeps the digest of
 * what it wrote in the group's lock file (group/flatentry.c).
 */
#include "clawmd.h"
#include "compose/flat.h"
#include "compose/persona.h" /* the bounds of the import layout's persona */
#include "compose/pass.h"
#include "compose/twice.h"
#include "compose/seed.h"
#include "compose/words.h"
#include "group/group.h"
#include "group/entry.h"
#include "group/flatentry.h" /* the header, the cut marks */
#include "fs/fs.h"
#include "fs/inputs.h"
#include "runtime/text.h" /* Node's decoding, JavaScript's trim and sort */
#include "base/util.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOURCE_MAX (64u * 1024 * 1024) /* one install-tree file: past it, the host's mistake */
#define PERSONA_MAX (16u * 1024 * 1024)
#define MEMORY_NOTE "\n\n{{provider-memory-note}}"

struct section {
	char *name, *body;
	size_t len;  /* of body */
	size_t blen; /* of "# name\n\nbody" */
	bool droppable, dropped;
	bool cut; /* cut short to fit the cap (fit()) */
};

struct flat {
	struct clawmd_plan *plan;
	struct clawmd_group *g;
	struct section *v;
	size_t n, cap;
	size_t skills_cap; /* of plan->skills */
	/* caliban reads the document and never CLAUDE.local.md: the memory
	 * imported (compose/seed.h) */
	bool import_local;
};

#define SKILL_SECTION "NanoClaw Skill: "

/* ---- JavaScript's string semantics over UTF-8 ------------------------------ */

/* ---- sources -------------------------------------------------------------- */

static int read_file(struct clawmd_buf *out, struct clawmd_inputs *in, const char *path,
		     size_t base, struct clawmd_err *err);

/* A file of the host's install tree, symlinks followed (as readFileSync),
 * decoded as Node decodes UTF-8; read once a pass (compose/pass.h).  1:
 * absent.  path[0, base) is the source directory it lies in (the skills;
 * 0: none), which the record's check opens once for all its files
 * (struct clawmd_input's base): fifty skills are then fifty short
 * lookups, not fifty walks of the whole path. */
static int read_source(struct clawmd_buf *out, struct clawmd_group *g, const char *path,
		       size_t base, struct clawmd_err *err)
{
	struct clawmd_buf key = CLAWMD_BUF_INIT;
	const char *got;
	size_t len, from = g->inputs.n;
	clawmd_buf_put(&key, (char[]){CLAWMD_PASS_FLAT}, 1);
	clawmd_buf_puts(&key, path);
	int rc = 0;
	if (clawmd_pass_recall(g->pass, key.ptr, key.len, &got, &len, &g->inputs)) {
		clawmd_buf_clear(out);
		clawmd_buf_put(out, got, len);
	} else if ((rc = read_file(out, &g->inputs, path, base, err)) == 0) {
		clawmd_pass_remember(g->pass, key.ptr, key.len, out->ptr, out->len, &g->inputs, from);
	}
	clawmd_buf_release(&key);
	return rc;
}

/* Note what a look at host path `path` found, below its source directory
 * path[0, base) when base is not 0. */
static void note_source(struct clawmd_inputs *in, enum clawmd_input_kind kind, const char *path,
			size_t base, const struct stat *st)
{
	size_t n = in->n;
	clawmd_inputs_note(in, kind, CLAWMD_AT_HOST, path, st);
	if (in->n > n && base && base < UINT16_MAX && path[base] == '/')
		in->v[in->n - 1].base = (uint16_t)base;
}

static int read_file(struct clawmd_buf *out, struct clawmd_inputs *in, const char *path,
		     size_t base, struct clawmd_err *err)
{
	clawmd_buf_clear(out);
	clawmd_buf_put(out, "", 0);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		note_source(in, CLAWMD_INPUT_TYPE, path, base, NULL);
		return 1;
	}
	if (fd < 0)
		return clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
	struct stat st;
	int rc = 0;
	/* noted as opened, before it is read: a change from now on is seen */
	if (fstat(fd, &st) < 0) {
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
		goto out;
	}
	note_source(in, CLAWMD_INPUT_CONTENT, path, base, &st);
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s' (not a regular file)", path);
		goto out;
	}
	/* Sized from fstat, one byte over: a read that falls short of what
	 * it asked for met the end, so a file that did not change is read
	 * in one call. */
	size_t want = st.st_size < SOURCE_MAX ? (size_t)st.st_size + 1 : (size_t)SOURCE_MAX + 1;
	for (;;) {
		clawmd_buf_grow(out, want);
		size_t room = out->cap - out->len - 1;
		ssize_t k = read(fd, out->ptr + out->len, room);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", path);
			goto out;
		}
		out->len += (size_t)k;
		out->ptr[out->len] = '\0';
		if (out->len > SOURCE_MAX) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "'%s': larger than %u bytes", path,
					    SOURCE_MAX);
			goto out;
		}
		if (k == 0 || (size_t)k < room)
			break;
		want = 65536;
	}
	clawmd_utf8_sanitize(out);
out:
	close(fd);
	return rc;
}

/* The names of a directory of the install tree, in JavaScript's order;
 * NULL when it does not exist.  A name that is not UTF-8 would be a
 * different name once Node decoded it: left out, with a warning. */
static char **list_dir(struct flat *f, const char *dir, size_t *n, bool *warned)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cap = 0;
	struct stat st;
	*n = 0;
	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			clawmd_inputs_note(&f->g->inputs, CLAWMD_INPUT_TYPE, CLAWMD_AT_HOST, dir, NULL);
		else
			clawmd_inputs_lose(&f->g->inputs);
		return NULL;
	}
	/* a directory's identity vouches for its names */
	if (fstat(dirfd(d), &st) == 0)
		clawmd_inputs_note(&f->g->inputs, CLAWMD_INPUT_CONTENT, CLAWMD_AT_HOST, dir, &st);
	else
		clawmd_inputs_lose(&f->g->inputs);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!clawmd_utf8_valid(e->d_name)) {
			clawmd_plan_warn(f->plan, "%s: a name that is not UTF-8 is left out", dir);
			*warned = true;
			continue;
		}
		clawmd_xgrow(&v, &cap, *n + 1, sizeof(char *));
		v[(*n)++] = clawmd_xstrdup(e->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(char *), clawmd_js_cmp);
	return v;
}

/* list_dir(), once a pass: the sorted names, NUL after each, remembered
 * with the directory's identity (a listing that warned is not). */
static char **list_sorted(struct flat *f, const char *dir, size_t *n)
{
	struct clawmd_inputs *in = &f->g->inputs;
	struct clawmd_buf key = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	const char *got;
	size_t len, from = in->n, cap = 0;
	char **v = NULL;
	bool warned = false;
	clawmd_buf_put(&key, (char[]){CLAWMD_PASS_FLAT_NAMES}, 1);
	clawmd_buf_puts(&key, dir);
	*n = 0;
	if (clawmd_pass_recall(f->g->pass, key.ptr, key.len, &got, &len, in)) {
		for (const char *p = got; p < got + len; p += strlen(p) + 1) {
			clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
			v[(*n)++] = clawmd_xstrdup(p);
		}
	} else if ((v = list_dir(f, dir, n, &warned)) && !warned) {
		for (size_t i = 0; i < *n; i++)
			clawmd_buf_put(&all, v[i], strlen(v[i]) + 1);
		clawmd_pass_remember(f->g->pass, key.ptr, key.len, all.ptr ? all.ptr : "", all.len,
				     in, from);
	}
	clawmd_buf_release(&all);
	clawmd_buf_release(&key);
	return v;
}

/* The strings up to NULL, one after the other: the names of the hot paths,
 * without a format to parse. */
static char *cat(const char *s, ...)
{
	va_list ap;
	size_t len = 0;
	va_start(ap, s);
	for (const char *p = s; p; p = va_arg(ap, const char *))
		len += strlen(p);
	va_end(ap);
	char *out = clawmd_xmalloc(len + 1), *o = out; /* measured first: one allocation */
	va_start(ap, s);
	for (const char *p = s; p; p = va_arg(ap, const char *))
		o = stpcpy(o, p);
	va_end(ap);
	return out;
}

static void push(struct flat *f, const char *name, const char *body, size_t len, bool droppable)
{
	size_t a, b;
	clawmd_js_trim_valid(body, len, &a, &b);
	if (a == b)
		return;
	clawmd_xgrow(&f->v, &f->cap, f->n + 1, sizeof(*f->v));
	struct section *s = &f->v[f->n++];
	s->name = clawmd_xstrdup(name);
	/* by length: a NUL the agent wrote stays, as nanoclaw keeps it */
	s->body = clawmd_xmalloc(b - a + 1);
	memcpy(s->body, body + a, b - a);
	s->body[b - a] = '\0';
	s->len = b - a;
	s->blen = 2 + strlen(name) + 2 + (b - a);
	s->droppable = droppable;
	s->dropped = false;
	s->cut = false;
}

/* ---- the group's config, read as nanoclaw reads its row ------------------ */

struct row {
	bool all_skills;
	char **skills;
	size_t nskills;
	bool cli_disabled;
	char **mcp_names, **mcp_text; /* valid servers with instructions, in key order */
	size_t nmcp;
};

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

static void row_release(struct row *r)
{
	clawmd_strv_free(r->skills, r->nskills);
	clawmd_strv_free(r->mcp_names, r->nmcp);
	clawmd_strv_free(r->mcp_text, r->nmcp);
	memset(r, 0, sizeof(*r));
}

/* skills: "all", a list of strings, else every skill (with a warning). */
static void row_skills(struct row *r, struct flat *f, const cJSON *v, const char *cj)
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
		clawmd_plan_warn(f->plan, "%s: skills: the skill selection is not \"all\" or a list of names; "
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
static void row_mcp(struct row *r, struct flat *f, const cJSON *v, const char *cj)
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
			clawmd_plan_warn(f->plan, "%s: mcpServers.%s: dropping an invalid MCP server (%s)", cj, q, why);
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
		f->plan->ndefused += clawmd_defuse_imports(&text, ins->valuestring,
							   strlen(ins->valuestring));
		r->mcp_text[r->nmcp++] = clawmd_buf_detach(&text);
	}
	free(ord);
}

static void read_row(struct row *r, struct flat *f, const cJSON *doc, const char *cj)
{
	const cJSON *v;
	memset(r, 0, sizeof(*r));
	r->all_skills = true;
	if ((v = cJSON_GetObjectItemCaseSensitive(doc, "skills")))
		row_skills(r, f, v, cj);
	v = cJSON_GetObjectItemCaseSensitive(doc, "cli_scope");
	r->cli_disabled = cJSON_IsString(v) && !strcmp(v->valuestring, "disabled");
	v = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
	if (!v)
		return;
	if (!cJSON_IsObject(v)) {
		clawmd_plan_warn(f->plan, "%s: mcpServers: not an object; ignoring every server", cj);
		return;
	}
	row_mcp(r, f, v, cj);
}

/* ---- the document ----------------------------------------------------------- */

#define OMITTED "\n\n# Omitted for size\n\n"
#define NOTICE_HEAD "These instruction sections were omitted to fit the project-document size cap: "
#define NOTICE_TAIL ". Their tools still work; consult each tool's own description."
/* The end of a section cut short (fit(), lint's CM604 finds it). */
#define CUT_NOTE CLAWMD_FLAT_CUT_HEAD "%zu" CLAWMD_FLAT_CUT_TAIL
/* The most of the notice's list of names: past it, ", and N more" (the
 * agent can make any number of sections, and a notice naming them all
 * would outgrow the cap it is there to keep). */
#define NAMES_MAX(cap) ((cap) / 8 < 64 ? 64 : (cap) / 8 > 4096 ? 4096 : (cap) / 8)
#define MORE_MAX 40 /* ", and 18446744073709551615 more" */

static void render(struct clawmd_buf *out, const struct section *v, size_t n, const char *dropped)
{
	clawmd_buf_clear(out);
	clawmd_buf_puts(out, CLAWMD_FLAT_HEADER);
	for (size_t i = 0; i < n; i++) {
		clawmd_buf_puts(out, "\n\n# ");
		clawmd_buf_puts(out, v[i].name);
		clawmd_buf_puts(out, "\n\n");
		clawmd_buf_put(out, v[i].body, v[i].len);
	}
	if (dropped)
		clawmd_buf_printf(out, OMITTED NOTICE_HEAD "%s" NOTICE_TAIL, dropped);
	clawmd_buf_putc(out, '\n');
}

/* Largest block first; of equal ones, the first in the document. */
static int by_size(const void *x, const void *y)
{
	const struct section *a = *(struct section *const *)x, *b = *(struct section *const *)y;
	if (a->blen != b->blen)
		return a->blen > b->blen ? -1 : 1;
	return (a > b) - (a < b);
}

/* The bytes a list of `names` bytes takes in the notice once bounded. */
static size_t names_shown(size_t names, size_t cap)
{
	return names > NAMES_MAX(cap) ? NAMES_MAX(cap) + MORE_MAX : names;
}

/*
 * Past the cap with nothing left to drop: the non-droppable sections (the
 * persona, the base, the native skills) cut, the largest first, each at a
 * line (else a character) boundary and ended by a note of what it lost,
 * until the document fits; each cut is said in *cuts.  A runtime would
 * take no better: Claude Code skips a CLAUDE.md past its 4 MiB whole,
 * Codex cuts the end (the base and the notice) off.
 */
static void cut(struct section *v, size_t n, size_t *len, size_t cap, struct clawmd_buf *cuts)
{
	/* A cap not even the headings fit under (a cap of 1 byte): nothing
	 * is cut, the document is written whole, as nanoclaw writes it. */
	size_t floor = *len;
	for (size_t i = 0; i < n; i++)
		if (!v[i].dropped)
			floor = floor - v[i].len + strlen(CUT_NOTE) + 16;
	if (floor > cap)
		return;
	while (*len > cap) {
		struct section *big = NULL;
		for (size_t i = 0; i < n; i++)
			if (!v[i].dropped && !v[i].cut && (!big || v[i].blen > big->blen))
				big = &v[i];
		if (!big)
			return;
		size_t body = big->len, note = strlen(CUT_NOTE) + 16;
		size_t over = *len - cap, keep = body > over + note ? body - over - note : 0;
		/* at a line's end if one is near, never inside a character */
		const char *nl = keep ? memrchr(big->body, '\n', keep) : NULL;
		if (nl && (size_t)(nl - big->body) + 256 >= keep)
			keep = (size_t)(nl - big->body);
		while (keep && ((unsigned char)big->body[keep] & 0xc0) == 0x80)
			keep--;
		/* by length: a body may hold a NUL (a section's text is kept
		 * whole, as the adapter passes it) */
		struct clawmd_buf t = CLAWMD_BUF_INIT;
		clawmd_buf_put(&t, big->body, keep);
		clawmd_buf_printf(&t, CUT_NOTE, body - keep);
		clawmd_buf_printf(cuts, "%s%zu of the %zu bytes of '%s'", cuts->len ? ", " : "",
				  body - keep, body, big->name);
		*len = *len - big->blen;
		big->blen = big->blen - body + t.len;
		*len += big->blen;
		big->len = t.len;
		free(big->body);
		big->body = clawmd_buf_detach(&t);
		big->cut = true;
	}
}

/*
 * The drop-largest ladder (nanoclaw's fitToCap); cap 0: none, no warning.
 * nanoclaw renders the document again after each drop; its length is
 * known without that (a section is 2 + blen bytes of it, the notice
 * grows by each name dropped), so the sections go in one sorted pass and
 * the document is rendered once more: the agent decides how many
 * sections its MCP servers make.  Then what nanoclaw would write past
 * the cap is cut (cut()), and the notice names at most NAMES_MAX bytes
 * of sections: the document stays within its cap whatever the agent
 * grows.
 */
static void fit(struct clawmd_buf *out, struct flat *f, struct section *v, size_t *n, size_t cap,
		const char *shown)
{
	struct clawmd_buf dropped = CLAWMD_BUF_INIT, cuts = CLAWMD_BUF_INIT, all = CLAWMD_BUF_INIT;
	clawmd_buf_put(&dropped, "", 0);
	clawmd_buf_put(&all, "", 0);
	render(out, v, *n, NULL);
	if (cap && out->len > cap) {
		struct section **by = clawmd_xcalloc(*n + 1, sizeof(*by));
		size_t nd = 0, k = 0, len = out->len, names = 0;
		const size_t notice = strlen(OMITTED NOTICE_HEAD NOTICE_TAIL);
		for (size_t i = 0; i < *n; i++)
			if (v[i].droppable)
				by[nd++] = &v[i];
		qsort(by, nd, sizeof(*by), by_size);
		while (k < nd && (k ? len + notice + names_shown(names, cap) : len) > cap) {
			len -= 2 + by[k]->blen;
			names += (k ? 2 : 0) + strlen(by[k]->name);
			by[k++]->dropped = true;
		}
		/* the warning names every one: it is the host's log, and what
		 * the agent does not see, whole */
		for (size_t i = 0; i < k; i++)
			clawmd_buf_printf(&all, "%s%s", i ? ", " : "", by[i]->name);
		size_t listed = 0;
		for (listed = 0; listed < k; listed++) {
			size_t add = (listed ? 2 : 0) + strlen(by[listed]->name);
			if (names > NAMES_MAX(cap) && dropped.len + add > NAMES_MAX(cap))
				break;
			clawmd_buf_printf(&dropped, "%s%s", listed ? ", " : "", by[listed]->name);
		}
		if (listed < k)
			clawmd_buf_printf(&dropped, ", and %zu more", k - listed);
		if (k)
			len += notice + dropped.len;
		cut(v, *n, &len, cap, &cuts);
		size_t m = 0;
		for (size_t i = 0; i < *n; i++) {
			if (v[i].dropped) {
				free(v[i].name);
				free(v[i].body);
			} else {
				v[m++] = v[i];
			}
		}
		*n = m;
		free(by);
		if (k || cuts.len)
			render(out, v, *n, k ? dropped.ptr : NULL);
	}
	if (all.len)
		clawmd_plan_warn(f->plan, "%s: %zu bytes against its cap of %zu: dropped the largest instruction "
			      "sections: %s", shown, out->len, cap, all.ptr);
	else if (cap && out->len >= cap - (cap + 7) / 8 && !cuts.len) /* nanoclaw's Math.floor(cap - cap / 8) */
		clawmd_plan_warn(f->plan, "%s: %zu bytes, near its cap of %zu", shown, out->len, cap);
	if (cuts.len)
		clawmd_plan_warn(f->plan, "%s: past its cap of %zu with nothing left to drop: cut the last %s; the "
			      "agent does not see them", shown, cap, cuts.ptr);
	if (cap && out->len > cap)
		clawmd_plan_warn(f->plan, "%s: %zu bytes with nothing left to drop, past its cap of %zu: written "
			      "whole", shown, out->len, cap);
	clawmd_buf_release(&dropped);
	clawmd_buf_release(&all);
	clawmd_buf_release(&cuts);
}

/* "Do not use `A` or `B` for memory." in place of the first memory-note
 * paragraph of the base (nothing without override files). */
static void render_base(struct clawmd_buf *out, const char *t, size_t len,
			const struct clawmd_contract *c)
{
	const char *at = memmem(t, len, MEMORY_NOTE, strlen(MEMORY_NOTE));
	clawmd_buf_clear(out);
	if (!at) {
		clawmd_buf_put(out, t, len);
		return;
	}
	clawmd_buf_put(out, t, (size_t)(at - t));
	if (c->overrides && *c->overrides) {
		clawmd_buf_puts(out, "\n\nDo not use ");
		for (const char *p = c->overrides; *p;) {
			size_t l = strcspn(p, ",");
			clawmd_buf_printf(out, "%s`%.*s`", p == c->overrides ? "" : " or ", (int)l, p);
			p += l + (p[l] == ',');
		}
		clawmd_buf_puts(out, " for memory.");
	}
	const char *after = at + strlen(MEMORY_NOTE);
	clawmd_buf_put(out, after, len - (size_t)(after - t));
}

static void native_skills(struct clawmd_buf *out, const struct clawmd_contract *c)
{
	clawmd_buf_clear(out);
	clawmd_buf_printf(out, "Selected NanoClaw runtime skills are available as provider-native "
			  "skills at `%s`.\n\nEach skill directory contains a `SKILL.md` with its "
			  "trigger description plus any supporting files, and points to the read-only "
			  "shared skill source under `%s`.\n\nUse skill discovery to load these skills "
			  "only when their descriptions match the task.",
			  c->skills_discovery, c->skills_source ? c->skills_source : "");
	if (c->skills_inlined)
		clawmd_buf_puts(out, " A skill whose rules must hold before the task is recognised "
				     "ships an `instructions.md` instead, and those arrive inlined as "
				     "`NanoClaw Skill:` sections of this document.");
	clawmd_buf_printf(out, "\n\nSkills YOU author or install yourself go in `%s/<name>/SKILL.md` "
			  "\xe2\x80\x94 persistent across sessions and discovered automatically. Never "
			  "write skills elsewhere: paths outside ",
			  c->skills_home ? c->skills_home : "");
	const char *roots = c->skills_roots ? c->skills_roots : "";
	for (const char *p = roots; *p;) {
		size_t l = strcspn(p, ",");
		clawmd_buf_printf(out, "%s`%.*s`", p == roots ? "" : " and ", (int)l, p);
		p += l + (p[l] == ',');
	}
	clawmd_buf_puts(out, " are ephemeral or not discovered.");
}

static void sections_release(struct flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].body);
	}
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

/* The modules: every NAME.instructions.md, cli and scheduling out when
 * the group has no CLI.  `text` is scratch. */
static int push_modules(struct flat *f, const struct row *r, struct clawmd_buf *text,
			struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	size_t n = 0;
	int rc = 0;
	char **names = lay->modules ? list_sorted(f, lay->modules, &n) : NULL;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(names[i]), sl = strlen(".instructions.md");
		if (l <= sl || strcmp(names[i] + l - sl, ".instructions.md") || strchr(names[i], '\n'))
			continue;
		char *mod = clawmd_xstrndup(names[i], l - sl);
		if (!(r->cli_disabled && (!strcmp(mod, "cli") || !strcmp(mod, "scheduling")))) {
			char *p = clawmd_path_join(lay->modules, names[i]);
			/* a handful: their directory is not opened for them
			 * (an open and a close for three shorter lookups) */
			if ((rc = read_source(text, f->g, p, 0, err)) == 0) {
				char *h = cat("NanoClaw Module: ", mod, NULL);
				push(f, h, text->ptr, text->len, true);
				free(h);
			}
			rc = rc < 0 ? rc : 0;
			free(p);
		}
		free(mod);
	}
	clawmd_strv_free(names, n);
	return rc;
}

/* The skills: each selected one shipping an instructions.md.  `text` is scratch. */
static int push_skills(struct flat *f, const struct row *r, struct clawmd_buf *text,
		       struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	size_t n;
	int rc = 0;
	char **names = list_sorted(f, lay->skills, &n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		bool sel = r->all_skills;
		for (size_t k = 0; !sel && k < r->nskills; k++)
			sel = !strcmp(r->skills[k], names[i]);
		if (!sel)
			continue;
		char *p = cat(lay->skills, "/", names[i], "/instructions.md", NULL);
		if ((rc = read_source(text, f->g, p, strlen(lay->skills), err)) == 0) {
			char *h = cat(SKILL_SECTION, names[i], NULL);
			push(f, h, text->ptr, text->len, true);
			free(h);
		}
		rc = rc < 0 ? rc : 0;
		free(p);
	}
	clawmd_strv_free(names, n);
	return rc;
}

/* A legacy spec's own sections (nanoclaw's extraSections, checked when
 * the contract was made): each as it is named, never dropped. */
static void push_legacy_sections(struct flat *f, const struct clawmd_contract *c)
{
	cJSON *doc = c->sections ? cJSON_Parse(c->sections) : NULL;
	const cJSON *it;
	cJSON_ArrayForEach(it, doc)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
		const cJSON *body = cJSON_GetObjectItemCaseSensitive(it, "body");
		if (cJSON_IsString(name) && cJSON_IsString(body))
			push(f, name->valuestring, body->valuestring, strlen(body->valuestring), false);
	}
	cJSON_Delete(doc);
}

/* One provider's document into `out`. */
static int compose_one(struct clawmd_buf *out, struct flat *f, const struct row *r,
		       const struct clawmd_buf *persona, const struct clawmd_contract *c,
		       struct clawmd_err *err)
{
	const struct clawmd_layout *lay = f->g->lay;
	struct clawmd_buf text = CLAWMD_BUF_INIT, body = CLAWMD_BUF_INIT;
	char *shown = clawmd_path_join(f->g->shown, c->entry);
	int rc;
	if (persona->len)
		push(f, "Persona", persona->ptr, persona->len, false);
	/* a legacy spec's base is inlined as it is written */
	const char *base = c->base ? c->base : lay->base;
	if ((rc = read_source(&text, f->g, base, 0, err)) < 0)
		goto out;
	if (rc == 1) {
		char *b = clawmd_layout_shown(lay, base);
		clawmd_plan_warn(f->plan, "%s: composed without its base document ('%s' is missing)", shown, b);
		free(b);
	} else if (c->base) {
		push(f, "NanoClaw Runtime Contract", text.ptr, text.len, false);
	} else {
		render_base(&body, text.ptr, text.len, c);
		push(f, "NanoClaw Runtime Contract", body.ptr, body.len, false);
	}
	rc = 0;
	push_legacy_sections(f, c);
	if (c->skills_discovery && *c->skills_discovery) {
		native_skills(&body, c);
		push(f, "Native Runtime Skills", body.ptr, body.len, false);
	}
	if ((rc = push_modules(f, r, &text, err)) < 0 || (rc = push_skills(f, r, &text, err)) < 0)
		goto out;
	for (size_t i = 0; i < r->nmcp; i++) {
		char *h = cat("MCP Server: ", r->mcp_names[i], NULL);
		push(f, h, r->mcp_text[i], strlen(r->mcp_text[i]), true);
		free(h);
	}
	/* caliban never reads CLAUDE.local.md: an @ line of its own brings it */
	if (f->import_local)
		push(f, "Memory", "@./" CLAWMD_LOCAL_NAME, strlen("@./" CLAWMD_LOCAL_NAME), false);
	fit(out, f, f->v, &f->n, c->cap, shown);
	if (!f->plan->n) /* the first entry: the skills status names */
		for (size_t i = 0; i < f->n; i++)
			if (!strncmp(f->v[i].name, SKILL_SECTION, strlen(SKILL_SECTION))) {
				clawmd_xgrow(&f->plan->skills, &f->skills_cap, f->plan->nskills + 1,
					     sizeof(char *));
				f->plan->skills[f->plan->nskills++] =
					clawmd_xstrdup(f->v[i].name + strlen(SKILL_SECTION));
			}
out:
	sections_release(f);
	clawmd_buf_release(&text);
	clawmd_buf_release(&body);
	free(shown);
	return rc;
}

/* ---- the plan ---------------------------------------------------------------- */

static const struct clawmd_contract *first_contract(struct clawmd_group *g, const cJSON *doc)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "provider");
	if (cJSON_IsString(v)) {
		int rt = clawmd_layout_runtime(g->lay, v->valuestring);
		if (rt >= 0)
			return clawmd_layout_contract(g->lay, rt);
	}
	return NULL;
}

/* The agent's config, as nanoclaw reads its row (NULL: none, or not an
 * object); it never fails the compose here: what clawmd's reader refuses
 * (`*refused`) is read as nanoclaw reads it, with a warning.  The JSON is
 * the reader's own parse where it made one (the same bytes parse the
 * same), else parsed here into *owned. */
static const cJSON *flat_config(struct row *r, struct flat *f,
				const struct clawmd_group_config **cfg, bool *refused,
				struct clawmd_err *cerr, const char *cj, cJSON **owned)
{
	struct clawmd_group *g = f->g;
	const cJSON *json = NULL;
	*owned = NULL;
	*refused = clawmd_group_config(cfg, g, cerr) < 0;
	if (!g->config_absent && g->config_text.len) {
		json = g->config_doc;
		char *dup = NULL;
		if (!json)
			json = *owned = clawmd_config_json(g->config_text.ptr, g->config_text.len,
							   NULL, &dup);
		free(dup);
		if (!cJSON_IsObject(json))
			clawmd_plan_warn(f->plan, "%s: not a JSON object; composed with every default", cj);
	} else if (!g->config_absent) {
		clawmd_plan_warn(f->plan, "%s: unreadable (%s); composed with every default", cj, cerr->msg);
	}
	if (cJSON_IsObject(json))
		read_row(r, f, json, cj);
	return json;
}

/* The runtimes: those container.json names (unknown ones warned about, as
 * in the import layout), else the layout's. */
static clawmd_runtimes flat_runtimes(struct flat *f, const struct clawmd_group_config *cfg,
				     const cJSON *json, bool refused, struct clawmd_err *cerr,
				     const char *cj)
{
	struct clawmd_group *g = f->g;
	clawmd_runtimes set = 0;
	if (cfg && cfg->nruntime_names) {
		enum clawmd_runtime first;
		clawmd_group_runtimes(&set, &first, g, cerr);
		for (size_t i = 0; i < cfg->nruntime_names; i++) {
			char *m = clawmd_group_unknown_runtime(g, i);
			if (m)
				clawmd_plan_warn(f->plan, "%s", m);
			free(m);
		}
		return set;
	}
	if (cJSON_IsObject(json) && first_contract(g, json))
		return 1u << first_contract(g, json)->rt;
	/* A provider the reader refused (no string, a NUL in it) or that it
	 * never got to: the default surfaces, said. */
	const cJSON *p = cJSON_IsObject(json) ? cJSON_GetObjectItemCaseSensitive(json, "provider")
					      : NULL;
	if (refused && p && !cJSON_IsNull(p))
		clawmd_plan_warn(f->plan, "%s: provider: not the name of a provider clawmd knows; composing the "
			      "default (Claude Code) surfaces", cj);
	return g->lay->runtimes;
}

/* instructions.prepend.md first, then JavaScript's order. */
static int persona_order(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	bool fa = !strcmp(a, CLAWMD_PERSONA_NAME), fb = !strcmp(b, CLAWMD_PERSONA_NAME);
	return fa != fb ? (fa ? -1 : 1) : clawmd_js_cmp(x, y);
}

/*
 * The persona as nanoclaw's src/group-persona.ts reads it (nanocoai
 * nanoclaw 81524905; doc/nanoclaw.md says why that version):
 * instructions.prepend.md, then every other *.prepend.md of the group in
 * sorted order, each trimmed, the empty ones left out, joined by a blank
 * line.  Each is opened without following a symlink and taken only when
 * regular: a symlink is a warning, as nanoclaw's failed open is, another
 * file type is passed over quietly.  The directive the agent wrote in it
 * is defused (clawmd_defuse_imports): the flat document then differs from
 * nanoclaw's by that alone, and compose and check say so.  Bounded as the
 * import layout's persona is: CLAWMD_PERSONA_FILES_MAX files and
 * PERSONA_MAX bytes in all, past which the rest is left out with a
 * warning.  Empty when there is none.
 */
static void flat_persona(struct clawmd_buf *persona, struct flat *f, const struct clawmd_dir *gd)
{
	struct clawmd_group *g = f->g;
	struct clawmd_buf one = CLAWMD_BUF_INIT, text = CLAWMD_BUF_INIT;
	char **names = NULL;
	size_t n = 0, k = 0;
	clawmd_buf_clear(persona);
	if (clawmd_inputs_list(&names, &n, &g->inputs, gd->fd, CLAWMD_AT_GROUP, ".",
			       CLAWMD_PREPEND_SUFFIX) < 0) {
		clawmd_inputs_lose(&g->inputs);
		clawmd_plan_warn(f->plan, "%s: could not list the standing instructions (%s); omitting "
			      "the persona", g->shown, strerror(errno));
		return;
	}
	/* a name the host could not show or Node would not decode is one
	 * nanoclaw could not open either */
	for (size_t i = 0; i < n; i++)
		if (clawmd_utf8_valid(names[i]) && !strchr(names[i], '\n'))
			names[k++] = names[i];
		else
			free(names[i]);
	if (k > 1) /* qsort of NULL (no persona file) is undefined, UBSan says */
		qsort(names, k, sizeof(*names), persona_order);
	struct clawmd_dir shown = {gd->fd, g->shown};
	for (size_t i = 0; i < k; i++) {
		struct clawmd_err e = CLAWMD_ERR_INIT;
		struct stat st;
		size_t a, b;
		if (i == CLAWMD_PERSONA_FILES_MAX || text.len >= PERSONA_MAX) {
			clawmd_plan_warn(f->plan, "%s/%s: past the persona's bound (%d files, %u bytes); it and "
				      "the files after it are left out", g->shown, names[i],
				      CLAWMD_PERSONA_FILES_MAX, PERSONA_MAX);
			break;
		}
		int r = clawmd_fs_read_st(&one, &st, &shown, names[i], PERSONA_MAX - text.len, &e);
		clawmd_inputs_note(&g->inputs, CLAWMD_INPUT_CONTENT, CLAWMD_AT_GROUP, names[i],
				   st.st_mode ? &st : NULL);
		if (r == 1 || (r < 0 && st.st_mode && !S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode)))
			continue; /* gone since the listing, or not a file */
		if (r < 0) {
			clawmd_plan_warn(f->plan, "%s/%s: could not read the standing instructions; omitting "
				      "it (%s)", g->shown, names[i], e.msg);
			continue;
		}
		clawmd_utf8_sanitize(&one);
		clawmd_js_trim_valid(one.ptr, one.len, &a, &b);
		if (a == b)
			continue;
		if (text.len)
			clawmd_buf_puts(&text, "\n\n");
		clawmd_buf_put(&text, one.ptr + a, b - a);
	}
	if (text.len)
		f->plan->ndefused += clawmd_defuse_imports(persona, text.ptr, text.len);
	clawmd_strv_free(names, k);
	clawmd_buf_release(&one);
	clawmd_buf_release(&text);
}

int clawmd_flat_plan(struct clawmd_plan *out, struct clawmd_group *g, struct clawmd_err *err)
{
	struct flat f = {out, g, NULL, 0, 0};
	struct clawmd_buf persona = CLAWMD_BUF_INIT, doc = CLAWMD_BUF_INIT;
	struct clawmd_err cerr = CLAWMD_ERR_INIT;
	const struct clawmd_group_config *cfg;
	const struct clawmd_dir *gd;
	struct row r;
	const cJSON *json;
	cJSON *owned;
	size_t cap = 0;
	int rc;
	memset(&r, 0, sizeof(r));
	r.all_skills = true;
	out->flat = true;
	if ((rc = clawmd_group_dir(&gd, g, err)) < 0)
		return rc;
	char *cj = clawmd_group_config_shown(g, false);
	bool refused;
	json = flat_config(&r, &f, &cfg, &refused, &cerr, cj, &owned);
	clawmd_runtimes set = flat_runtimes(&f, cfg, json, refused, &cerr, cj);
	int nrt = clawmd_layout_nruntimes(g->lay);
	flat_persona(&persona, &f, gd);

	for (int rt = 0; rt < nrt && rc == 0; rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(g->lay, rt);
		if (!(set & (1u << rt)) || !c || !c->entry)
			continue;
		bool done = false;
		for (size_t i = 0; i < out->n && !done; i++)
			done = !strcmp(out->entries[i].name, c->entry);
		if (done)
			continue;
		f.import_local = clawmd_seed_caliban_reads(g->lay, set, c->entry);
		if ((rc = compose_one(&doc, &f, &r, &persona, c, err)) < 0)
			break;
		clawmd_xgrow(&out->entries, &cap, out->n + 1, sizeof(*out->entries));
		size_t len = doc.len;
		out->entries[out->n++] = (struct clawmd_entry){clawmd_xstrdup(c->entry), CLAWMD_FT_FILE,
							       clawmd_buf_detach(&doc), len};
	}
	/* Copilot CLI or Cursor beside another provider: two flat files in one
	 * directory, both read */
	if (rc == 0)
		clawmd_plan_warn_twice(out, g, set);
	row_release(&r);
	cJSON_Delete(owned);
	clawmd_buf_release(&persona);
	clawmd_buf_release(&doc);
	free(cj);
	return rc;
}
