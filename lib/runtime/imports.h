/*
 * imports.h - what each runtime that follows imports takes for one
 * (runtime/'s interface): Gemini CLI, caliban and chimera.  Claude Code's
 * rule is clawmd_md_imports() (clawmd/claude.h).  render's loaders follow
 * the imports these find; compose makes every one of them inert in the
 * text the agent wrote (clawmd_defuse_imports), so both stand on this
 * one reading of the syntax and neither on the other.
 *
 * Each *_imports() calls fn(offset of the '@', length of the import, NULL,
 * payload) for each import in `text`, in order; a nonzero return stops.
 */
#ifndef CLAWMD_RUNTIME_IMPORTS_H
#define CLAWMD_RUNTIME_IMPORTS_H

#include "clawmd.h"

/* Gemini CLI: '@' at the start or after white space, outside a backtick
 * region, whatever the Markdown around it (a ~~~ fence, an HTML block or
 * comment, an indented block). */
void clawmd_gemini_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload);

/* Its parts, for render/gemini.c, which expands them: the backtick code
 * regions of a text (what /(`+)([\s\S]*?)\1/g matches, left to right;
 * free r), whether `at` lies in one (*cur, from 0, moves forward only:
 * ask in increasing order), and the next import at or after *pos, [*a, *e)
 * spanning "@path". */
struct clawmd_gemini_regions {
	size_t (*r)[2];
	size_t n, cap;
};
void clawmd_gemini_code_regions(struct clawmd_gemini_regions *out, const char *s, size_t len);
bool clawmd_gemini_in_code(const struct clawmd_gemini_regions *rg, size_t *cur, size_t at);
bool clawmd_gemini_next_import(const char *s, size_t len, size_t *pos, size_t *a, size_t *e);

/* caliban: whether the line ln[0..l) (no newline) is an import: its first
 * non-blank character '@', and the word after it holding '/' or '.' or
 * starting with '~'; [*a, *b) is that word.  compose puts every import
 * caliban must follow on a line of its own. */
bool clawmd_caliban_directive(const char *ln, size_t l, size_t *a, size_t *b);
/* caliban's imports: each @ line's '@' to the end of its word. */
void clawmd_caliban_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload);

/* chimera: whether its pattern (?:^|(?<=\s))@([~./A-Za-z0-9_\-][^\s]*)
 * matches at text[i]; *e is then the end of the match. */
bool clawmd_chimera_import_at(const char *text, size_t len, size_t i, size_t *e);
/* chimera's imports: each match of its pattern, in code too. */
void clawmd_chimera_imports(const char *text, size_t len, clawmd_import_fn fn, void *payload);

#endif
