/* Unit tests for defusing @ directives (issue 9, item 7): cases in
 * tests/unit/defuse.txt, and every scanner case of tests/unit/mdscan.txt
 * defused must leave no live import. */
#include "tap.h"
#include "testutil.h"
#include "clawmd.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static int count(size_t off, size_t len, const char *path, void *payload)
{
	(*(size_t *)payload)++;
	return 0;
}

static size_t live(const char *text, size_t len)
{
	size_t n = 0;
	clawmd_md_imports(text, len, count, &n);
	return n;
}

/* The case file's text between two markers, without the newline before
 * the next marker (a blank line keeps one). */
static void chop(struct clawmd_buf *b)
{
	if (b->len && b->ptr[b->len - 1] == '\n')
		b->ptr[--b->len] = '\0';
}

static void run_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *want)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	chop(in);
	chop(want);
	test_unescape(in);
	test_unescape(want);
	size_t before = live(in->ptr, in->len);
	size_t n = clawmd_defuse_imports(&out, in->ptr, in->len);
	is_str(out.ptr, want->ptr, "defuse: %s", name);
	is(live(out.ptr, out.len), 0, "no live import left: %s", name);
	is(n, before, "count is the imports found: %s", name);
	clawmd_buf_release(&out);
}

static int each_case(const char *file, const char *sep,
		     void (*fn)(const char *, struct clawmd_buf *, struct clawmd_buf *))
{
	const char *srcdir = getenv("CLAWMD_SRC");
	char *path = clawmd_xasprintf("%s/tests/unit/%s", srcdir ? srcdir : ".", file);
	size_t n, sl = strlen(sep);
	char *data = test_slurp(path, &n);
	int cases = 0, part = 0;
	char *name = NULL;
	struct clawmd_buf in = CLAWMD_BUF_INIT, want = CLAWMD_BUF_INIT;
	ok(data != NULL, "read %s", path);
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
	free(path);
	clawmd_buf_release(&in);
	clawmd_buf_release(&want);
	return cases;
}

/* Every scanner case's input: whatever it imports, defused, nothing. */
static void scanner_case(const char *name, struct clawmd_buf *in, struct clawmd_buf *unused)
{
	struct clawmd_buf out = CLAWMD_BUF_INIT;
	test_unescape(in);
	clawmd_defuse_imports(&out, in->ptr, in->len);
	is(live(out.ptr, out.len), 0, "scanner case defused: %s", name);
	clawmd_buf_release(&out);
}

int main(void)
{
	int n = each_case("defuse.txt", "--- defused", run_case);
	ok(n >= 10, "%d defuse cases", n);
	n = each_case("mdscan.txt", "--- imports", scanner_case);
	ok(n >= 30, "%d scanner cases defused", n);
	return done_testing();
}
