/*
 * libFuzzer target: the one escaping rule of every output, fed hostile
 * names and text (any bytes but NUL, which no C string holds).
 *
 * JSON: a document shaped like clawmd's (members, arrays of strings,
 * objects in arrays, a hostile key) goes through clawmd_json_text(), as every
 * document clawmd prints does, with and without the exact-bytes siblings
 * (JSON and SARIF).  The text must be one document under a strict RFC 8259
 * parser written here (not cJSON, which checks no UTF-8): well-formed
 * UTF-8 by its own decoder (no overlong form, no surrogate, nothing past
 * U+10FFFF), no raw control byte in a string, \u escapes paired, nothing
 * after the value.  Then each string must read back as the input with each
 * bad byte as U+FFFD, and its "K_base64" must give the input's exact bytes
 * (present only when something was replaced; never in SARIF mode).
 *
 * Text: cmd_escaped() and cmd_escape_lines() leave no control byte (C1
 * included; only the line ends of cmd_escape_lines), and well-formed
 * UTF-8.  URIs: cmd_uri_encode() leaves only URI characters and
 * percent-decodes back to the input.
 */
#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define check(c) ((c) ? (void)0 : (fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c), abort()))

/* ---- a strict UTF-8 decoder, written apart from clawmd_utf8_len ---------- */

/* The code point at s (length in *len), or -1 when the bytes are not the
 * shortest form of a scalar value. */
static long decode(const unsigned char *s, size_t n, size_t *len)
{
	unsigned c = s[0];
	size_t l = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (!l || l > n)
		return -1;
	long cp = l == 1 ? c : l == 2 ? c & 0x1f : l == 3 ? c & 0x0f : c & 0x07;
	for (size_t k = 1; k < l; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	static const long min[] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < min[l] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return -1;
	*len = l;
	return cp;
}

static bool utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0, l; i < n; i += l)
		if (decode(s + i, n - i, &l) < 0)
			return false;
	return true;
}

/* ---- a strict JSON parser (validity only) -------------------------------- */

struct jp {
	const unsigned char *s, *end;
	int depth;
};

static void ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool lit(struct jp *p, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
		return false;
	p->s += n;
	return true;
}

static long hex4(struct jp *p)
{
	long v = 0;
	if (p->end - p->s < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		int c = *p->s++;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static bool string(struct jp *p)
{
	if (p->s >= p->end || *p->s++ != '"')
		return false;
	while (p->s < p->end) {
		unsigned c = *p->s;
		if (c == '"') {
			p->s++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\') {
			p->s++;
			if (p->s >= p->end)
				return false;
			c = *p->s++;
			if (c == 'u') {
				long u = hex4(p);
				if (u < 0 || (u >= 0xdc00 && u <= 0xdfff))
					return false; /* a lone low surrogate */
				if (u >= 0xd800 && u <= 0xdbff) {
					if (!lit(p, "\\u"))
						return false;
					long lo = hex4(p);
					if (lo < 0xdc00 || lo > 0xdfff)
						return false;
				}
			} else if (!strchr("\"\\/bfnrt", (int)c) || !c) {
				return false;
			}
			continue;
		}
		size_t l;
		if (decode(p->s, (size_t)(p->end - p->s), &l) < 0)
			return false;
		p->s += l;
	}
	return false;
}

static bool digits(struct jp *p)
{
	const unsigned char *b = p->s;
	while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
		p->s++;
	return p->s > b;
}

static bool number(struct jp *p)
{
	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s < p->end && *p->s == '0')
		p->s++;
	else if (!(p->s < p->end && *p->s >= '1' && *p->s <= '9' && digits(p)))
		return false;
	if (p->s < p->end && *p->s == '.' && (p->s++, !digits(p)))
		return false;
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		if (!digits(p))
			return false;
	}
	return true;
}

static bool value(struct jp *p);

static bool container(struct jp *p, char open, char close, bool object)
{
	if (++p->depth > 64 || *p->s++ != open)
		return false;
	ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return true;
	}
	for (;;) {
		if (object) {
			if (!string(p))
				return false;
			ws(p);
			if (!lit(p, ":"))
				return false;
		}
		if (!value(p))
			return false;
		if (p->s >= p->end)
			return false;
		char c = (char)*p->s++;
		if (c == close)
			break;
		if (c != ',')
			return false;
		ws(p);
	}
	p->depth--;
	return true;
}

static bool value(struct jp *p)
{
	ws(p);
	if (p->s >= p->end)
		return false;
	bool ok;
	switch (*p->s) {
	case '{': ok = container(p, '{', '}', true); break;
	case '[': ok = container(p, '[', ']', false); break;
	case '"': ok = string(p); break;
	case 't': ok = lit(p, "true"); break;
	case 'f': ok = lit(p, "false"); break;
	case 'n': ok = lit(p, "null"); break;
	default: ok = number(p);
	}
	ws(p);
	return ok;
}

static bool json_strict(const char *text)
{
	struct jp p = {(const unsigned char *)text, (const unsigned char *)text + strlen(text), 0};
	return value(&p) && p.s == p.end;
}

/* ---- what each string must read back as ---------------------------------- */

static char *replaced(const char *s)
{
	size_t n = strlen(s), o = 0, l;
	char *out = malloc(3 * n + 1);
	for (size_t i = 0; i < n; i += l) {
		if (decode((const unsigned char *)s + i, n - i, &l) < 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			l = 1;
		} else {
			memcpy(out + o, s + i, l);
			o += l;
		}
	}
	out[o] = '\0';
	return out;
}

static char *unbase64(const char *s)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(s), o = 0;
	check(n % 4 == 0);
	char *out = malloc(n / 4 * 3 + 1);
	for (size_t i = 0; i < n; i += 4) {
		unsigned v = 0;
		int pad = 0;
		for (int k = 0; k < 4; k++) {
			const char *q = s[i + k] == '=' ? NULL : strchr(b64, s[i + k]);
			check(q || (s[i + k] == '=' && i + 4 == n && k >= 2));
			pad += !q;
			v = v << 6 | (q ? (unsigned)(q - b64) : 0);
		}
		out[o++] = (char)(v >> 16);
		if (pad < 2)
			out[o++] = (char)(v >> 8 & 255);
		if (pad < 1)
			out[o++] = (char)(v & 255);
	}
	out[o] = '\0';
	return out;
}

/* The member `key` of `o` reads back as `want`; "key_base64" as it must. */
static void member_ok(const cJSON *o, const char *key, const char *want, bool exact)
{
	char side[64];
	snprintf(side, sizeof(side), "%s_base64", key);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, side);
	char *r = replaced(want);
	check(cJSON_IsString(v) && !strcmp(v->valuestring, r));
	if (exact && strcmp(r, want)) {
		check(cJSON_IsString(b));
		char *raw = unbase64(b->valuestring);
		check(!strcmp(raw, want));
		free(raw);
	} else {
		check(!b);
	}
	free(r);
}

/* ---- text and URIs ------------------------------------------------------- */

static void text_ok(const char *e, bool lines)
{
	size_t n = strlen(e), l;
	for (size_t i = 0; i < n; i += l) {
		long cp = decode((const unsigned char *)e + i, n - i, &l);
		check(cp >= 0);
		check((cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp <= 0x9f)) || (lines && cp == '\n'));
	}
}

static void uri_ok(const char *s)
{
	char *u = cmd_uri_encode(s), *d = malloc(strlen(u) + 1);
	size_t o = 0;
	for (const char *p = u; *p; p++) {
		check((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("-._~!$&'()*+,;=:@/%", *p));
		if (*p == '%') {
			unsigned v;
			check(sscanf(p + 1, "%2X", &v) == 1 && p[1] && p[2]);
			d[o++] = (char)v;
			p += 2;
		} else {
			d[o++] = *p;
		}
	}
	d[o] = '\0';
	check(!strcmp(d, s));
	free(u);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 16)
		return 0;
	bool exact = data[0] & 1;
	/* The rest: up to 8 strings, split at NUL. */
	char *buf = malloc(size), *str[8];
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	size_t ns = 0;
	for (char *p = buf; ns < 8 && p < buf + size; p += strlen(p) + 1)
		str[ns++] = p;
	for (size_t given = ns; ns < 8; ns++) /* every slot used: the same strings again */
		str[ns] = str[ns % given];

	/* {"file": s0, "message": s1, "files": [s2, s3], "items": [{"path": s4}],
	 *  "nested": [[s5]], "k": {s6: s7}} */
	struct clawmd_json *doc = clawmd_json_object();
	clawmd_json_add_string(doc, "file", str[0]);
	clawmd_json_add_string(doc, "message", str[1]);
	struct clawmd_json *files = clawmd_json_add_array(doc, "files");
	clawmd_json_add_string(files, NULL, str[2]);
	clawmd_json_add_string(files, NULL, str[3]);
	struct clawmd_json *item = clawmd_json_object();
	clawmd_json_add_string(item, "path", str[4]);
	clawmd_json_add(clawmd_json_add_array(doc, "items"), NULL, item);
	struct clawmd_json *inner = clawmd_json_array();
	clawmd_json_add_string(inner, NULL, str[5]);
	clawmd_json_add(clawmd_json_add_array(doc, "nested"), NULL, inner);
	clawmd_json_add_string(clawmd_json_add_object(doc, "k"), str[6], str[7]);

	char *text = clawmd_json_text(doc, exact ? CLAWMD_JSON_EXACT : CLAWMD_JSON_REPLACE);
	clawmd_json_free(doc);
	if (!json_strict(text)) {
		fprintf(stderr, "not strict JSON:\n%s\n", text);
		abort();
	}
	cJSON *back = cJSON_Parse(text);
	check(back);
	member_ok(back, "file", str[0], exact);
	member_ok(back, "message", str[1], exact);
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(back, "files");
	const cJSON *fb = cJSON_GetObjectItemCaseSensitive(back, "files_base64");
	check(cJSON_GetArraySize(f) == 2);
	bool any = false;
	for (int i = 0; i < 2; i++) {
		char *r = replaced(str[2 + i]);
		check(!strcmp(cJSON_GetArrayItem(f, i)->valuestring, r));
		if (strcmp(r, str[2 + i]) && exact) {
			char *raw = unbase64(cJSON_GetArrayItem(fb, i)->valuestring);
			check(!strcmp(raw, str[2 + i]));
			free(raw);
			any = true;
		} else if (fb) {
			check(cJSON_IsNull(cJSON_GetArrayItem(fb, i)));
		}
		free(r);
	}
	check(any == (fb != NULL) && (!fb || cJSON_GetArraySize(fb) == 2));
	member_ok(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(back, "items"), 0), "path",
		  str[4], exact);
	char *r5 = replaced(str[5]);
	check(!strcmp(cJSON_GetArrayItem(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(back,
			"nested"), 0), 0)->valuestring, r5));
	free(r5);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(back, "k")->child;
	char *r6 = replaced(str[6]), *r7 = replaced(str[7]);
	check(k && !strcmp(k->string, r6) && !strcmp(k->valuestring, r7));
	free(r6);
	free(r7);
	cJSON_Delete(back);
	free(text);

	for (size_t i = 0; i < 8; i++) {
		char *e = cmd_escaped(str[i]);
		text_ok(e, false);
		free(e);
		uri_ok(str[i]);
	}
	struct clawmd_buf lines = CLAWMD_BUF_INIT;
	cmd_escape_lines(&lines, (const char *)data, size); /* NUL bytes too */
	text_ok(lines.ptr, true);
	size_t nl = 0, nl2 = 0;
	for (size_t i = 0; i < size; i++)
		nl += data[i] == '\n';
	for (size_t i = 0; i < lines.len; i++)
		nl2 += lines.ptr[i] == '\n';
	check(nl == nl2 && strlen(lines.ptr) == lines.len);
	clawmd_buf_release(&lines);
	free(buf);
	return 0;
}
