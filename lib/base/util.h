/*
 * util.h - private helpers shared by the library: allocation that aborts on
 * exhaustion (see clawmd.h), string helpers and the banned-function list.
 */
#ifndef CLAWMD_UTIL_H
#define CLAWMD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clawmd/base.h"

/* clawmd_xmalloc(), clawmd_xcalloc(), clawmd_xrealloc(), clawmd_xstrdup(),
 * clawmd_xstrndup(), clawmd_xasprintf() and clawmd_xgrow() are public
 * (clawmd/base.h). */
/* a/b, with exactly one slash between them. */
char *clawmd_path_join(const char *a, const char *b);
/* Absolute paths: POSIX path.normalize (no ".", "..", "//" or trailing
 * /), `rel` resolved against `base`, the parent, and whether p is dir or
 * beneath it. */
char *clawmd_path_norm(const char *p);
char *clawmd_path_resolve(const char *base, const char *rel);
char *clawmd_path_dir(const char *p);
bool clawmd_path_under(const char *p, const char *dir);
/* p is strictly beneath dir (dir itself is not; trailing slashes of dir
 * ignored). */
bool clawmd_path_below(const char *p, const char *dir);
/* dir made absolute (against the current directory) and normalized, as
 * written: no link followed.  NULL when the current directory is gone. */
char *clawmd_path_lexical(const char *dir);
/* p has a "." or ".." component: a container path the runner would
 * mount somewhere else than it reads (/app/../etc is /etc). */
bool clawmd_path_dotted(const char *p);
int clawmd_strcmp_ptr(const void *a, const void *b); /* qsort on char* */
/* FNV-1a, 64 bits: the composed header's content digest (not a MAC). */
uint64_t clawmd_fnv1a64(const void *data, size_t len);
/* A fast 64-bit hash, sixteen bytes a multiply in four independent lanes: for
 * digests compared within one version (the record, the layout, a host's
 * config), never for a format written into a group (those stay FNV-1a). */
uint64_t clawmd_hash64(const void *data, size_t len);

#define CLAWMD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* An options struct from a caller: 0, or EUSAGE when its version is not
 * `want` (0: not started from its _INIT; more: a newer header). */
int clawmd_opts_version(unsigned int got, unsigned int want, const char *type,
			struct clawmd_err *err);

/* A blank inside a line: space, tab, carriage return. */
bool clawmd_is_blank(char c);
/* [*s, *e) without its leading and trailing blanks. */
void clawmd_trim(const char **s, const char **e);

#endif
