/*
 * testutil.h - what the C unit tests share besides TAP: reading a case
 * file and running its cases, writing a file (making its directories), and the escapes case
 * files use for bytes an editor would lose (<CR>, <NBSP>, <NUL>).
 */
#ifndef CLAWMD_TESTUTIL_H
#define CLAWMD_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clawmd.h"
#include "base/util.h"

/* A setup step that must work (symlink, link, ...): else the test stops
 * with a TAP "Bail out!" naming it, rather than test something else. */
#include <errno.h>
static inline void test_must(int rc, const char *what)
{
	if (rc != 0) {
		printf("Bail out! setup failed: %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

/* The whole file, NUL-terminated, or NULL. */
static inline char *test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	char chunk[4096];
	size_t n;
	clawmd_buf_put(&b, "", 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		clawmd_buf_put(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return clawmd_buf_detach(&b);
}

/* Write `content` to dir/rel, making the directories on the way. */
static inline void test_put(const char *dir, const char *rel, const char *content)
{
	char p[1024], cmd[2200];
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	if (system(cmd) != 0)
		abort();
	FILE *f = fopen(p, "w");
	if (!f)
		abort();
	fputs(content, f);
	fclose(f);
}

/* Replace <CR> with a carriage return, <NBSP> with U+00A0, <NUL> with a NUL. */
static inline void test_unescape(struct clawmd_buf *b)
{
	struct clawmd_buf o = CLAWMD_BUF_INIT;
	clawmd_buf_put(&o, "", 0);
	for (size_t i = 0; i < b->len; i++) {
		if (!strncmp(b->ptr + i, "<CR>", 4)) {
			clawmd_buf_putc(&o, '\r');
			i += 3;
		} else if (!strncmp(b->ptr + i, "<NUL>", 5)) {
			clawmd_buf_putc(&o, '\0');
			i += 4;
		} else if (!strncmp(b->ptr + i, "<NBSP>", 6)) {
			clawmd_buf_puts(&o, "\xc2\xa0");
			i += 5;
		} else {
			clawmd_buf_putc(&o, b->ptr[i]);
		}
	}
	clawmd_buf_release(b);
	*b = o;
}

/*
 * Run `fn` on every case of tests/unit/FILE: "=== name" starts a case, its
 * input runs to the line starting with `sep`, the expected output from
 * there to the next case (both with their newlines).  Returns the number
 * of cases, -1 when the file cannot be read.
 */
static inline int test_each_case(const char *file, const char *sep,
				 void (*fn)(const char *, struct clawmd_buf *, struct clawmd_buf *))
{
	const char *srcdir = getenv("CLAWMD_SRC");
	char *path = clawmd_xasprintf("%s/tests/unit/%s", srcdir ? srcdir : ".", file);
	size_t n, sl = strlen(sep);
	char *data = test_slurp(path, &n);
	int cases = 0, part = 0;
	char *name = NULL;
	struct clawmd_buf in = CLAWMD_BUF_INIT, want = CLAWMD_BUF_INIT;
	free(path);
	if (!data)
		return -1;
	for (char *line = data; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t ll = nl ? (size_t)(nl - line) : strlen(line);
		if (!strncmp(line, "=== ", 4)) {
			if (name && ++cases)
				fn(name, &in, &want);
			free(name);
			name = clawmd_xstrndup(line + 4, ll - 4);
			clawmd_buf_clear(&in);
			clawmd_buf_put(&in, "", 0);
			clawmd_buf_clear(&want);
			clawmd_buf_put(&want, "", 0);
			part = 1;
		} else if (part == 1 && !strncmp(line, sep, sl)) {
			part = 2;
		} else if (part) {
			clawmd_buf_put(part == 1 ? &in : &want, line, ll + (nl ? 1 : 0));
		}
		line = nl ? nl + 1 : NULL;
	}
	if (name && ++cases)
		fn(name, &in, &want);
	free(name);
	free(data);
	clawmd_buf_release(&in);
	clawmd_buf_release(&want);
	return cases;
}

#endif
