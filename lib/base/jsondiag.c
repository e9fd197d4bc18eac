/*
 * jsondiag.c - what is wrong with a JSON text, said as a person would
 * (jsondiag.h).
 *
 * cJSON says only where it stopped.  When it refuses a document, this
 * scanner walks the same text by RFC 8259 and stops at the first byte that
 * cannot continue it, naming what was expected there and what was found:
 * "expected a key (a string in double quotes) after ',' but found '}'".
 * It runs only on failure, never on the hot path.  Nesting is tracked in a
 * bounded array, not by recursion, so hostile input cannot exhaust the
 * stack.
 */
#include "base/jsondiag.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define DEPTH_MAX 1000 /* cJSON's own nesting limit */

struct scan {
	const char *s;
	size_t len, i;
	char *msg;
	size_t cap;
};

static void skip_ws(struct scan *c)
{
	while (c->i < c->len && strchr(" \t\r\n", c->s[c->i]) && c->s[c->i])
		c->i++;
}

/* What is at i, for "but found ...". */
static void found(char *out, size_t cap, const struct scan *c, size_t i)
{
	if (i >= c->len) {
		snprintf(out, cap, "the end of the file");
		return;
	}
	unsigned char ch = (unsigned char)c->s[i];
	size_t n = 0;
	while (i + n < c->len && n < 24 &&
	       (((c->s[i + n] | 0x20) >= 'a' && (c->s[i + n] | 0x20) <= 'z') ||
		(c->s[i + n] >= '0' && c->s[i + n] <= '9') || strchr("_+-.", c->s[i + n])) &&
	       c->s[i + n])
		n++;
	if (n > 1)
		snprintf(out, cap, "'%.*s%s'", (int)n, c->s + i, n == 24 ? "..." : "");
	else if (ch == '\n' || ch == '\r')
		snprintf(out, cap, "a line break");
	else if (ch == '\'')
		snprintf(out, cap, "\"'\" (JSON strings take double quotes)");
	else if (ch < 0x20 || ch >= 0x7f)
		snprintf(out, cap, "the byte \\x%02X", ch);
	else
		snprintf(out, cap, "'%c'", ch);
}

static size_t fail(struct scan *c, size_t at, const char *expected)
{
	char f[64];
	found(f, sizeof(f), c, at);
	snprintf(c->msg, c->cap, "expected %s but found %s", expected, f);
	return at;
}

/* A string at i (the opening quote); 0 with c->i past it, or the error's
 * offset + 1. */
static size_t string(struct scan *c)
{
	size_t start = c->i++;
	while (c->i < c->len) {
		unsigned char ch = (unsigned char)c->s[c->i];
		if (ch == '"') {
			c->i++;
			return 0;
		}
		if (ch == '\\') {
			char e = c->i + 1 < c->len ? c->s[c->i + 1] : 0;
			if (e == 'u') {
				for (int k = 2; k < 6; k++) {
					char h = c->i + (size_t)k < c->len ? c->s[c->i + (size_t)k] : 0;
					if (!((h >= '0' && h <= '9') || ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')))
						return fail(c, c->i + (size_t)k,
							    "four hex digits after '\\u'") + 1;
				}
				c->i += 6;
				continue;
			}
			if (!e || !strchr("\"\\/bfnrt", e))
				return fail(c, c->i + 1,
					    "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX) after '\\'") + 1;
			c->i += 2;
			continue;
		}
		if (ch < 0x20) {
			if (ch == '\n') {
				/* The usual cause: a string never closed on its line. */
				snprintf(c->msg, c->cap, "expected '\"' to end the string begun at byte %zu "
					 "but found a line break (write \\n inside a string)", start + 1);
				return c->i + 1;
			}
			return fail(c, c->i, "text or '\"' in a string (control bytes are written as \\uXXXX)") + 1;
		}
		c->i++;
	}
	snprintf(c->msg, c->cap, "expected '\"' to end the string begun at byte %zu but found the "
		 "end of the file", start + 1);
	return c->len + 1;
}

static bool digit(const struct scan *c, size_t i)
{
	return i < c->len && c->s[i] >= '0' && c->s[i] <= '9';
}

static size_t number(struct scan *c)
{
	size_t i = c->i;
	if (c->s[i] == '-')
		i++;
	if (!digit(c, i))
		return fail(c, c->i, "a value") + 1;
	if (c->s[i] == '0' && digit(c, i + 1))
		return fail(c, c->i, "a number without leading zeros") + 1;
	while (digit(c, i))
		i++;
	if (i < c->len && c->s[i] == '.') {
		if (!digit(c, ++i))
			return fail(c, i, "a digit after the decimal point") + 1;
		while (digit(c, i))
			i++;
	}
	if (i < c->len && (c->s[i] | 0x20) == 'e') {
		i++;
		if (i < c->len && (c->s[i] == '+' || c->s[i] == '-'))
			i++;
		if (!digit(c, i))
			return fail(c, i, "a digit in the exponent") + 1;
		while (digit(c, i))
			i++;
	}
	c->i = i;
	return 0;
}

/* A scalar, or the start of a container (pushed).  `expected`: what the
 * message says was expected here ("a value after ','"). */
static size_t value(struct scan *c, char *stack, size_t *depth, const char *expected)
{
	if (c->i >= c->len)
		return fail(c, c->i, expected) + 1;
	char ch = c->s[c->i];
	if (ch == '{' || ch == '[') {
		if (*depth >= DEPTH_MAX) {
			snprintf(c->msg, c->cap, "nested deeper than %d levels", DEPTH_MAX);
			return c->i + 1;
		}
		stack[(*depth)++] = ch;
		c->i++;
		return 0;
	}
	if (ch == '"')
		return string(c);
	if (ch == '-' || (ch >= '0' && ch <= '9'))
		return number(c);
	static const char *const words[] = {"true", "false", "null"};
	for (size_t k = 0; k < 3; k++) {
		size_t n = strlen(words[k]);
		if (c->len - c->i >= n && !memcmp(c->s + c->i, words[k], n) &&
		    !(c->i + n < c->len && ((c->s[c->i + n] | 0x20) >= 'a' && (c->s[c->i + n] | 0x20) <= 'z'))) {
			c->i += n;
			return 0;
		}
	}
	fail(c, c->i, expected);
	/* A bare word: the usual slips are True, None, or an unquoted string. */
	size_t used = strlen(c->msg);
	if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z')
		snprintf(c->msg + used, c->cap - used,
			 " (the literals are true, false and null; strings take double quotes)");
	return c->i + 1;
}

size_t clawmd_json_diagnose(char *msg, size_t cap, const char *text, size_t len)
{
	char stack[DEPTH_MAX]; /* '{' or '[' per open container */
	struct scan c = {text, len, 0, msg, cap};
	size_t depth = 0, r;
	msg[0] = '\0';
	skip_ws(&c);
	if (c.i >= len) {
		snprintf(msg, cap, "expected a JSON value but the file is %s",
			 len ? "only white space" : "empty");
		return c.i;
	}
	if ((r = value(&c, stack, &depth, "a value")))
		return r - 1;
	/* After a value, or just inside a container. */
	bool opened = depth > 0, just_opened;
	while (depth) {
		char top = stack[depth - 1];
		skip_ws(&c);
		just_opened = opened;
		if (opened) {
			opened = false;
			if (c.i < len && c.s[c.i] == (top == '{' ? '}' : ']')) {
				c.i++;
				depth--;
				continue;
			}
		} else {
			/* after a member or element: ',' or the close */
			if (c.i < len && c.s[c.i] == (top == '{' ? '}' : ']')) {
				c.i++;
				depth--;
				continue;
			}
			if (c.i >= len || c.s[c.i] != ',')
				return fail(&c, c.i, top == '{' ? "',' or '}' after a member of an object"
								: "',' or ']' after an element of an array");
			c.i++;
			skip_ws(&c);
		}
		const char *after = c.i && c.s[c.i - 1] == ',' ? "','" : NULL;
		/* A value may sit right after ',' even past white space. */
		if (!after) {
			size_t k = c.i;
			while (k && strchr(" \t\r\n", c.s[k - 1]))
				k--;
			if (k && c.s[k - 1] == ',')
				after = "','";
		}
		if (top == '{') {
			if (c.i >= len || c.s[c.i] != '"')
				return fail(&c, c.i, after ? "a key (a string in double quotes) after ','"
							   : "a key (a string in double quotes) or '}'");
			size_t key = c.i;
			if ((r = string(&c)))
				return r - 1;
			size_t klen = c.i - key;
			skip_ws(&c);
			if (c.i >= len || c.s[c.i] != ':') {
				char e[96];
				snprintf(e, sizeof(e), "':' after the key %.*s%s", (int)(klen > 40 ? 40 : klen),
					 c.s + key, klen > 40 ? "..." : "");
				return fail(&c, c.i, e);
			}
			c.i++;
			skip_ws(&c);
		}
		size_t before = depth;
		if ((r = value(&c, stack, &depth,
			       top == '{' ? "a value after ':'"
			       : after	  ? "a value after ','"
			       : just_opened ? "a value or ']'" : "a value")))
			return r - 1;
		opened = depth > before;
	}
	skip_ws(&c);
	if (c.i < len)
		return fail(&c, c.i, "the end of the file after the top-level value");
	return len + 1; /* no error found: the caller says what cJSON said */
}

size_t clawmd_json_nul_at(const char *json, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (json[i] == '\0')
			return i;
		if (json[i] == '\\') {
			if (i + 5 < len && !memcmp(json + i + 1, "u0000", 5))
				return i;
			i++; /* skip the escaped character (e.g. "\\\\u0000") */
		}
	}
	return len;
}
