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
 * JSON is the library's (clawmd_json_text, lib/sys/jsondoc.c, which every
 * document goes through): every key and string value is made well-formed
 * UTF-8 by replacing each byte that is not part of a well-formed sequence
 * with U+FFFD.  The exact bytes stay recoverable: an object member "K"
 * whose value was replaced gets a sibling "K_base64" holding the original
 * bytes in base64 (RFC 4648); for an array member "K" holding replaced
 * strings, "K_base64" is an array of the same length with the base64 at
 * those positions and null elsewhere.  A SARIF log gets the U+FFFD
 * replacement only (its schema admits no extra properties); there the
 * exact path is the artifact's URI, whose bytes are percent-encoded
 * (cmd_uri_encode).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* ---- text ---------------------------------------------------------------- */

static void escape_into(struct clawmd_buf *out, const char *s, size_t len, bool reversible)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		size_t n;
		if (*p >= 0x20 && *p < 0x7f && !(reversible && *p == '\\')) {
			clawmd_buf_putc(out, (char)*p++);
		} else if (*p >= 0x80 && (n = clawmd_utf8_len((const char *)p, (size_t)(end - p))) &&
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
	char *out = clawmd_xmalloc(strlen(path) * 3 + 1), *o = out;
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
