/*
 * match.h - gitignore-style matching of nested-memory targets against the
 * globs of conditional rules, as the `ignore` package (7.0.5) that Claude
 * Code uses does it (private to the library).
 */
#ifndef CLAWMD_MATCH_H
#define CLAWMD_MATCH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when `rel` (a path relative to the rule's base directory, '/'
 * separated) is ignored by the gitignore patterns `globs`.  An empty path,
 * one starting with "..", or an absolute one never matches.
 */
bool clawmd_globs_match(char *const *globs, size_t n, const char *rel);

#endif
