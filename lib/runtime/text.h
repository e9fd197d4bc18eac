/*
 * text.h - text as the runtimes read it (runtime/'s interface, for
 * compose, which writes what a runtime reads, and render, which reads it
 * as the runtime does; neither asks the other).
 *
 * Claude Code, Gemini CLI and nanoclaw are Node programs: a file is read
 * as a UTF-8 string, each ill-formed sequence made U+FFFD; nanoclaw trims
 * and sorts as JavaScript does.  Codex and caliban are Rust, chimera is
 * Python: their white space is Unicode's, with Python's four separators.
 */
#ifndef CLAWMD_RUNTIME_TEXT_H
#define CLAWMD_RUNTIME_TEXT_H

#include "clawmd.h"

/* Decode as a UTF-8 string the way Node's readFile(p, 'utf-8') does: every
 * maximal ill-formed subsequence becomes U+FFFD.  `in` is replaced when it
 * is not valid. */
void clawmd_utf8_sanitize(struct clawmd_buf *in);
/* The NUL-terminated `s` is valid UTF-8: Node decodes it to itself. */
bool clawmd_utf8_valid(const char *s);
/* The length of the white space character at s[i] (of valid UTF-8 s[0..n)),
 * or 0: Unicode's White_Space as Rust's char::is_whitespace has it, and with
 * `python` also U+001C..U+001F, as Python's str.isspace() and its re's \s. */
size_t clawmd_space_at(const char *s, size_t i, size_t n, bool python);
/* String.prototype.trim over valid UTF-8 str[0, n) (text Node decoded):
 * what is left is [*a, *b).  Over raw text, as Claude Code's scanner
 * decodes it, it is clawmd_js_trim() (claude/mdscan.h): the two differ on
 * ill-formed bytes, which this one never trims. */
void clawmd_js_trim_valid(const char *str, size_t n, size_t *a, size_t *b);
/* JavaScript's default sort (by UTF-16 code units), as a qsort comparator
 * over an array of valid UTF-8 strings (char *). */
int clawmd_js_cmp(const void *x, const void *y);

#endif
