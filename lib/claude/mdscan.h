/*
 * mdscan.h - the Markdown side of Claude Code's memory loading, private to
 * the library (the public entry is clawmd_md_imports() in clawmd.h).
 *
 * Claude Code lexes every memory file with marked 15 (gfm: false) and takes
 * `@path` includes only from tokens of type text.  md4c is a CommonMark
 * parser with a callback interface, not a token stream, so mdscan.c
 * rebuilds marked's text tokens from md4c's callbacks (see the comment at
 * the top of mdscan.c for how each marked quirk is reproduced).
 *
 *	struct clawmd_md_scan s;
 *	clawmd_md_scan_init(&s);
 *	clawmd_md_scan(&s, text, len, true);     // true: also report code
 *	for (size_t i = 0; i < s.n; i++) ... s.v[i].path, s.v[i].in_code ...
 *	clawmd_md_scan_release(&s);
 *
 * Offsets are byte offsets into `text`.  Memory exhaustion aborts.
 */
#ifndef CLAWMD_MDSCAN_H
#define CLAWMD_MDSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "clawmd.h"

#include <md4c.h>

/* Larger inputs are not scanned (md4c sizes are 32-bit). */
#define CLAWMD_MD_MAX (64u * 1024 * 1024)

struct clawmd_md_import {
	size_t off;   /* the '@' */
	size_t len;   /* up to the end of the raw path, before the '#' cut */
	char *path;   /* cut at '#', backslash-space unescaped */
	bool in_code; /* only inside a code span or block: Claude Code skips it */
};

struct clawmd_md_scan {
	struct clawmd_md_import *v; /* in Claude Code's traversal order */
	size_t n, cap;
};

void clawmd_md_scan_init(struct clawmd_md_scan *s);
/*
 * Find the @-tokens of `text` in the order Claude Code visits them (which
 * is document order except in list items, where the raw line is scanned
 * before its inline tokens).  A token may be reported twice (raw and
 * inline); callers de-duplicate paths.  With `with_code`, tokens that only
 * occur inside code are reported too, flagged in_code.  Returns 0, or -1
 * when the input is over CLAWMD_MD_MAX.
 */
int clawmd_md_scan(struct clawmd_md_scan *out, const char *text, size_t len, bool with_code);
void clawmd_md_scan_release(struct clawmd_md_scan *s);

/*
 * Claude Code's stripHtmlComments: when `text` contains "<!--", every
 * top-level block HTML comment token is replaced by its residue (the token
 * minus its <!--...--> spans, kept only when not whitespace), and the whole
 * text has had CRLF and lone CR turned into LF.  Otherwise `text` is copied
 * unchanged.  `out` is cleared first.
 */
void clawmd_md_strip_comments(struct clawmd_buf *out, const char *text, size_t len);

/*
 * md_parse() on a NUL-terminated copy, without md4c's cost per NUL byte:
 * the same callbacks with pointers into `text`, except that a run of NULs
 * in inline text md4c would hand over as one MD_TEXT_NULLCHAR each comes
 * as one MD_TEXT_NULLCHAR of the run's length, and a NUL md4c leaves raw in
 * inline text (just inside a link's brackets) comes as one too.  Block and
 * span details point into the copy.
 */
int clawmd_md_parse(const char *text, size_t len, const MD_PARSER *parser, void *userdata);

/* JavaScript's String.prototype.trim() on UTF-8: the bounds of the result. */
void clawmd_js_trim(const char *s, size_t len, size_t *start, size_t *end);
/* Length in bytes of the JavaScript whitespace character at s[i], or 0. */
size_t clawmd_js_space(const char *s, size_t len, size_t i);

#endif
