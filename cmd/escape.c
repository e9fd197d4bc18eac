/*
 * escape.c - the one rule for every string that leaves clawmd: text for
 * people and CI logs, JSON and SARIF for programs.  Names, paths, messages
 * and file content the agent controls may hold any byte; what clawmd
 * prints must neither forge a line or a terminal sequence (text) nor stop
 * a strict parser (JSON).
 *
 * Well-formed UTF-8 is Unicode's (Table 3-7): no overlong form, no
 * surrogate, nothing above U+10FFFF.
 *
 * Text (cmd_escaped, cmd_put_escaped, cmd_put_field, cmd_escape_lines):
 * printable ASCII and well-formed UTF-8 other than the C1 controls are
 * kept; newline, tab and CR become \n, \t and \r; every other control byte,
 * DEL and every byte outside well-formed UTF-8 becomes \xNN.  A backslash
 * is kept, or doubled in a field read back by programs (cmd_put_field).
 *
 * JSON (cmd_json_text, which every document goes through): every key and
 * string value is made well-formed UTF-8 by replacing each byte that is not
 * part of a well-formed sequence with U+FFFD.  The exact bytes stay
 * recoverable: an object member "K" whose value was replaced gets a sibling
 * "K_base64" holding the original bytes in base64 (RFC 4648); for an array
 * member "K" holding replaced strings, "K_base64" is an array of the same
 * length with the base64 at those positions and null elsewhere.  A SARIF
 * log gets the U+FFFD replacement only (its schema admits no extra
 * properties); there the exact path is the artifact's URI, whose bytes are
 * percent-encoded (cmd_uri_encode).
 */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

size_t cmd_utf8_len(const unsigned char *s, size_t n)
{
	if (n == 0)
		return 0;
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* ---- text ---------------------------------------------------------------- */

static void escape_into(struct clawmd_buf *out, const char *s, size_t len, bool reversible)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		size_t n;
		if (*p >= 0x20 && *p < 0x7f && !(reversible && *p == '\\')) {
			clawmd_buf_putc(out, (char)*p++);
		} else if (*p >= 0x80 && (n = cmd_utf8_len(p, (size_t)(end - p))) &&
			   !(p[0] == 0xc2 && p[1] < 0xa0)) { /* U+0080..U+009F: C1 (CSI is U+009B) */
			clawmd_buf_put(out, p, n);
			p += n;
		} else {
			char e[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
			if (*p == '\\' || *p == '\n' || *p == '\t' || *p == '\r') {
				e[1] = *p == '\\' ? '\\' : *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r';
				clawmd_buf_put(out, e, 2);
			} else {
				clawmd_buf_put(out, e, 4);
			}
			p++;
		}
	}
	clawmd_buf_put(out, "", 0); /* a string even when empty */
}

static char *escaped(const char *s, bool reversible)
{
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	escape_into(&b, s, strlen(s), reversible);
	return clawmd_buf_detach(&b);
}

char *cmd_escaped(const char *s)
{
	return escaped(s, false);
}

void cmd_put_field(FILE *f, const char *s)
{
	char *e = escaped(s, true);
	fputs(e, f);
	free(e);
}

void cmd_put_escaped(FILE *f, const char *s)
{
	char *e = cmd_escaped(s);
	fputs(e, f);
	free(e);
}

void cmd_escape_lines(struct clawmd_buf *out, const char *s, size_t len)
{
	while (len) {
		const char *nl = memchr(s, '\n', len);
		size_t n = nl ? (size_t)(nl - s) : len;
		escape_into(out, s, n, false);
		if (nl) {
			clawmd_buf_putc(out, '\n');
			n++;
		}
		s += n;
		len -= n;
	}
	clawmd_buf_put(out, "", 0);
}

/* ---- URIs ---------------------------------------------------------------- */

char *cmd_uri_encode(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(strlen(path) * 3 + 1), *o = out;
	if (!out)
		abort();
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~!$&'()*+,;=:@/", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

/* ---- JSON ---------------------------------------------------------------- */

/* `s` with each byte outside well-formed UTF-8 replaced by U+FFFD, in
 * cJSON's allocator; NULL when `s` is well-formed already. */
static char *utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), bad = 0;
	for (size_t i = 0, n; i < len; i += n ? n : 1)
		if (!(n = cmd_utf8_len(p + i, len - i)))
			bad++;
	if (!bad)
		return NULL;
	char *out = cJSON_malloc(len + 2 * bad + 1), *o = out;
	if (!out)
		abort();
	for (size_t i = 0, n; i < len; i += n ? n : 1) {
		if ((n = cmd_utf8_len(p + i, len - i))) {
			memcpy(o, p + i, n);
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
	char *out = malloc((len + 2) / 3 * 4 + 1);
	if (!out)
		abort();
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

static cJSON *base64(const char *s)
{
	return base64_of(s, strlen(s));
}

void cmd_json_add_bytes(cJSON *obj, const char *key, const char *data, size_t len)
{
	struct clawmd_buf lit = CLAWMD_BUF_INIT;
	const unsigned char *p = (const unsigned char *)data;
	bool replaced = false;
	clawmd_buf_putc(&lit, '"');
	for (size_t i = 0, n; i < len; i += n ? n : 1) {
		unsigned char c = p[i];
		n = cmd_utf8_len(p + i, len - i);
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
	cJSON_AddRawToObject(obj, key, lit.ptr);
	clawmd_buf_release(&lit);
	if (replaced) {
		char *k = clawmd_xasprintf("%s_base64", key);
		cJSON_AddItemToObject(obj, k, base64_of(data, len));
		free(k);
	}
}

/* Clean a string item; its original bytes as base64 when it changed. */
static cJSON *clean_string(cJSON *item, bool exact)
{
	char *c = utf8_clean(item->valuestring);
	if (!c)
		return NULL;
	cJSON *orig = exact ? base64(item->valuestring) : NULL;
	cJSON_free(item->valuestring);
	item->valuestring = c;
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

char *cmd_json_text(cJSON *doc, bool exact)
{
	clean_node(doc, exact);
	char *s = cJSON_Print(doc);
	if (!s)
		cmd_json_failed();
	return s;
}

void cmd_json_failed(void)
{
	const char *missing = clawmd_libraries_missing();
	if (!missing)
		abort(); /* out of memory */
	fprintf(stderr, "clawmd: could not load %s (install cJSON and md4c: libcjson1, libmd4c0)\n",
		missing);
	exit(cmd_exit_status(CLAWMD_EFS));
}
