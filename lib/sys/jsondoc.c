/*
 * jsondoc.c - the public JSON builder (clawmd/json.h) over cJSON, which
 * sys/dlload.c loads on first use.
 *
 * A struct clawmd_json is a cJSON item under another name: the public
 * header names no cJSON type, so a host compiles without cJSON's header
 * and the library stays free to build its documents otherwise.  The
 * printing rule (every string well-formed, the exact bytes beside it) is
 * here once, for the command and any binding alike.
 */
#include <cJSON.h>
#include <string.h>

#include "clawmd/base.h"
#include "clawmd/json.h"
#include "base/util.h"

static cJSON *item(struct clawmd_json *j)
{
	return (cJSON *)j;
}

static struct clawmd_json *handle(cJSON *c)
{
	return (struct clawmd_json *)c;
}

struct clawmd_json *clawmd_json_object(void)
{
	return handle(cJSON_CreateObject());
}

struct clawmd_json *clawmd_json_array(void)
{
	return handle(cJSON_CreateArray());
}

/* `v` into `to`: under `key`, or appended when key is NULL.  A value no
 * parent took (a NULL parent, or allocation failed) is freed here: every
 * add hands its value over, taken or not. */
static cJSON *put(struct clawmd_json *to, const char *key, cJSON *v)
{
	if (!v)
		return NULL;
	if (to && (key ? cJSON_AddItemToObject(item(to), key, v) : cJSON_AddItemToArray(item(to), v)))
		return v;
	cJSON_Delete(v);
	return NULL;
}

void clawmd_json_add(struct clawmd_json *to, const char *key, struct clawmd_json *value)
{
	put(to, key, item(value));
}

struct clawmd_json *clawmd_json_add_object(struct clawmd_json *to, const char *key)
{
	return handle(put(to, key, cJSON_CreateObject()));
}

struct clawmd_json *clawmd_json_add_array(struct clawmd_json *to, const char *key)
{
	return handle(put(to, key, cJSON_CreateArray()));
}

void clawmd_json_add_string(struct clawmd_json *to, const char *key, const char *s)
{
	put(to, key, cJSON_CreateString(s));
}

void clawmd_json_add_number(struct clawmd_json *to, const char *key, double n)
{
	put(to, key, cJSON_CreateNumber(n));
}

void clawmd_json_add_bool(struct clawmd_json *to, const char *key, bool b)
{
	put(to, key, cJSON_CreateBool(b));
}

void clawmd_json_add_null(struct clawmd_json *to, const char *key)
{
	put(to, key, cJSON_CreateNull());
}

void clawmd_json_add_strings(struct clawmd_json *to, const char *key, char *const *v, size_t n)
{
	struct clawmd_json *a = clawmd_json_add_array(to, key);
	for (size_t i = 0; i < n; i++)
		clawmd_json_add_string(a, NULL, v[i]);
}

void clawmd_json_free(struct clawmd_json *doc)
{
	cJSON_Delete(item(doc));
}

/* ---- well-formed strings ------------------------------------------------ */

/* `s` with each byte outside well-formed UTF-8 replaced by U+FFFD, in
 * cJSON's allocator; NULL when `s` is well-formed already. */
static char *utf8_clean(const char *s)
{
	size_t len = strlen(s), bad = 0;
	for (size_t i = 0, n; i < len; i += n ? n : 1)
		if (!(n = clawmd_utf8_len(s + i, len - i)))
			bad++;
	if (!bad)
		return NULL;
	char *out = cJSON_malloc(len + 2 * bad + 1), *o = out;
	if (!out)
		abort();
	for (size_t i = 0, n; i < len; i += n ? n : 1) {
		if ((n = clawmd_utf8_len(s + i, len - i))) {
			memcpy(o, s + i, n);
			o += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3); /* U+FFFD */
			o += 3;
		}
	}
	*o = '\0';
	return out;
}

static cJSON *base64_of(const char *s, size_t len)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	char *out = clawmd_xmalloc((len + 2) / 3 * 4 + 1);
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < len ? p[i + 2] : 0);
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o] = '\0';
	cJSON *j = cJSON_CreateString(out);
	free(out);
	return j;
}

void clawmd_json_add_bytes(struct clawmd_json *to, const char *key, const char *data, size_t len)
{
	struct clawmd_buf lit = CLAWMD_BUF_INIT;
	bool replaced = false;
	clawmd_buf_putc(&lit, '"');
	for (size_t i = 0, n; i < len; i += n ? n : 1) {
		unsigned char c = (unsigned char)data[i];
		n = clawmd_utf8_len(data + i, len - i);
		if (c == '"' || c == '\\')
			clawmd_buf_printf(&lit, "\\%c", c);
		else if (c == '\n')
			clawmd_buf_puts(&lit, "\\n");
		else if (c < 0x20) /* NUL included: \u0000 is JSON's */
			clawmd_buf_printf(&lit, "\\u%04x", c);
		else if (n)
			clawmd_buf_put(&lit, data + i, n);
		else
			clawmd_buf_puts(&lit, "\xef\xbf\xbd"), replaced = true; /* U+FFFD */
	}
	clawmd_buf_putc(&lit, '"');
	cJSON_AddRawToObject(item(to), key, lit.ptr);
	clawmd_buf_release(&lit);
	if (replaced) {
		char *k = clawmd_xasprintf("%s_base64", key);
		put(to, k, base64_of(data, len));
		free(k);
	}
}

/* Clean a string item; its original bytes as base64 when it changed. */
static cJSON *clean_string(cJSON *it, bool exact)
{
	char *c = utf8_clean(it->valuestring);
	if (!c)
		return NULL;
	cJSON *orig = exact ? base64_of(it->valuestring, strlen(it->valuestring)) : NULL;
	cJSON_free(it->valuestring);
	it->valuestring = c;
	return orig;
}

static void clean_node(cJSON *node, bool exact);

/* An array's elements; with `exact` and a key, the parallel "K_base64". */
static cJSON *clean_array(cJSON *arr, bool exact)
{
	cJSON *side = NULL;
	int i = 0;
	for (cJSON *e = arr->child; e; e = e->next, i++) {
		cJSON *orig = NULL;
		if (cJSON_IsString(e) && e->valuestring)
			orig = clean_string(e, exact);
		else
			clean_node(e, exact);
		if (orig && !side) {
			side = cJSON_CreateArray();
			for (int k = 0; k < i; k++)
				cJSON_AddItemToArray(side, cJSON_CreateNull());
		}
		if (side)
			cJSON_AddItemToArray(side, orig ? orig : cJSON_CreateNull());
	}
	return side;
}

static void clean_node(cJSON *node, bool exact)
{
	if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
		return;
	if (cJSON_IsArray(node)) {
		cJSON_Delete(clean_array(node, exact)); /* no key to hang it on */
		return;
	}
	/* Siblings are added at the end: the loop reaches them, and they are
	 * ASCII (base64 and null). */
	for (cJSON *c = node->child; c; c = c->next) {
		char *k = c->string ? utf8_clean(c->string) : NULL;
		if (k) {
			if (!(c->type & cJSON_StringIsConst))
				cJSON_free(c->string);
			c->string = k;
			c->type &= ~cJSON_StringIsConst;
		}
		cJSON *side = NULL;
		if (cJSON_IsString(c) && c->valuestring)
			side = clean_string(c, exact);
		else if (cJSON_IsArray(c))
			side = clean_array(c, exact);
		else
			clean_node(c, exact);
		if (side) {
			char *key = clawmd_xasprintf("%s_base64", c->string ? c->string : "");
			cJSON_AddItemToObject(node, key, side);
			free(key);
		}
	}
}

char *clawmd_json_text(struct clawmd_json *doc, enum clawmd_json_strings how)
{
	char *s = NULL;
	if (doc) {
		clean_node(item(doc), how == CLAWMD_JSON_EXACT);
		s = cJSON_Print(item(doc));
	}
	if (!s && !clawmd_libraries_missing())
		abort(); /* out of memory, as everywhere in the library */
	return s;
}
