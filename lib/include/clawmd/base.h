/* clawmd/base.h - errors, buffers, names and the small things every part uses (part of clawmd.h, which includes every part). */
#ifndef CLAWMD_API_BASE_H
#define CLAWMD_API_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLAWMD_VERSION "0.1.0"

/* ---- errors ------------------------------------------------------------ */

/*
 * The library's error codes: every action returns 0 or one of them, and
 * the caller's struct clawmd_err holds it with the message.  They are the
 * library's own; the clawmd command maps them to its exit statuses in one
 * place (clawmd/exit.h).
 */
enum clawmd_code {
	CLAWMD_OK = 0,
	CLAWMD_EUSAGE = -1, /* a call or an option the library cannot take */
	CLAWMD_EINPUT = -2, /* invalid input: container.json, clawmd.json, a name */
	CLAWMD_EFS = -3,    /* the filesystem failed, or a safety refusal */
	CLAWMD_ELOCK = -4,  /* a lock stayed taken past its timeout */
};

#define CLAWMD_ERR_MSG_MAX 1024

struct clawmd_err {
	int code;	/* 0 until the first error */
	int sys_errno;	/* errno at the failure, 0 when not a system error */
	char msg[CLAWMD_ERR_MSG_MAX];
};

#define CLAWMD_ERR_INIT {0, 0, {0}}

/* Record an error unless one is already recorded; returns `code`. */
int clawmd_err_set(struct clawmd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, appending ": strerror(errno)" and saving errno. */
int clawmd_err_sys(struct clawmd_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void clawmd_err_clear(struct clawmd_err *err);
/* A code's stable name, for a host to branch on or show: "EUSAGE",
 * "EINPUT", "EFS", "ELOCK" ("OK" for 0; "EFS" for a code it does not know). */
const char *clawmd_code_name(int code);

/* The length of UTF-8 text in UTF-16 code units, as Claude Code and every
 * JavaScript runtime count a file's characters (a four-byte sequence is a
 * surrogate pair: two). */
size_t clawmd_utf16_len(const char *s, size_t len);
/* The length of the well-formed UTF-8 sequence at s (of at most n bytes),
 * or 0 when none starts there (a stray continuation byte, an overlong or
 * surrogate form, a sequence cut short). */
size_t clawmd_utf8_len(const char *s, size_t n);

/* ---- growable buffer --------------------------------------------------- */

/* Always NUL-terminated when ptr != NULL; len excludes the NUL. */
struct clawmd_buf {
	char *ptr;
	size_t len;
	size_t cap;
};

#define CLAWMD_BUF_INIT {NULL, 0, 0}

void clawmd_buf_grow(struct clawmd_buf *buf, size_t extra);
void clawmd_buf_put(struct clawmd_buf *buf, const void *data, size_t len);
void clawmd_buf_puts(struct clawmd_buf *buf, const char *s);
void clawmd_buf_putc(struct clawmd_buf *buf, char c);
void clawmd_buf_printf(struct clawmd_buf *buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void clawmd_buf_clear(struct clawmd_buf *buf);
/* Hand the string over to the caller (never NULL) and reset the buffer. */
char *clawmd_buf_detach(struct clawmd_buf *buf);
void clawmd_buf_release(struct clawmd_buf *buf);

/* The nearest spelling of `word` among `cands` (case-insensitive, a few
 * edits or a prefix), or NULL when none is close enough to be a typo. */
const char *clawmd_spell_nearest(const char *word, const char *const *cands, size_t n);

/* True for names matching [A-Za-z0-9][A-Za-z0-9._-]{0,63}. */
bool clawmd_name_valid(const char *name, size_t len);

/* Allocation that aborts when memory runs out, as the library does
 * (clawmd.h), so that the command and a binding need no helpers of their
 * own: malloc, calloc and realloc; a copy of `s` (NULL for NULL), of at
 * most its first n bytes; a formatted string.  Caller frees. */
void *clawmd_xmalloc(size_t n);
void *clawmd_xcalloc(size_t nmemb, size_t size);
void *clawmd_xrealloc(void *p, size_t n);
char *clawmd_xstrdup(const char *s);
char *clawmd_xstrndup(const char *s, size_t n);
char *clawmd_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grow the array *v (of *cap elements of `size` bytes) to hold at least
 * `need` elements: a vector's push is
 * clawmd_xgrow(&v, &cap, n + 1, sizeof(*v)); v[n++] = x; */
void clawmd_xgrow(void *v, size_t *cap, size_t need, size_t size);

/* Free an array of n strings and the array (NULL: no-op). */
void clawmd_strv_free(char **v, size_t n);

/* cJSON and md4c are loaded on first use; an action that needs one that
 * cannot be loaded fails with CLAWMD_EFS saying which and why.  A host may
 * ask at its start instead: the name of the first that cannot be loaded,
 * or NULL. */
const char *clawmd_libraries_missing(void);

#ifdef __cplusplus
}
#endif
#endif
