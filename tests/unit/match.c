/* Unit tests for gitignore-style rule matching (lib/claude/match.c). */
#include "clawmd.h"
#include "claude/match.h"
#include "tap.h"

static const struct {
	const char *globs; /* separated by '|' */
	const char *path;
	bool want;
} cases[] = {
	{"*.ts", "main.ts", true},
	{"*.ts", "app/deep/main.ts", true},
	{"*.ts", "main.tsx", false},
	{"src", "src/a/b.c", true},
	{"src", "lib/src/b.c", true}, /* no slash: any depth */
	{"/src", "lib/src/b.c", false},
	{"src/*.c", "src/a.c", true},
	{"src/*.c", "src/x/a.c", false},
	{"src/*.c", "lib/src/a.c", false}, /* a slash anchors */
	{"src/**/*.c", "src/a.c", true},
	{"src/**/*.c", "src/x/y/a.c", true},
	{"**/test/*.js", "a/b/test/x.js", true},
	{"**/test/*.js", "test/x.js", true},
	{"docs/", "docs/a.md", true},
	{"docs/", "docs", false}, /* a trailing slash: directories only */
	{"*.md|!README.md", "README.md", false},
	{"*.md|!README.md", "a/README.md", false},
	{"*.md|!README.md", "NOTES.md", true},
	{"!x.md|x.md", "x.md", true}, /* the last match wins */
	{"build|!build/keep.c", "build/keep.c", true}, /* no re-include below an ignored dir */
	{"#comment", "#comment", false},
	{"\\#hash", "#hash", true},
	{"a.md   ", "a.md", true},
	{"?.c", "a.c", true},
	{"?.c", "ab.c", false},
	{"[ab].c", "b.c", true},
	{"*", ".hidden", true},
	{"*.ts", "", false},
	{"*.ts", "../x.ts", false},
	{"*.ts", "/abs/x.ts", false},
	{"**", "any/thing", true},
	{"*.TS", "app/main.ts", true}, /* ignore() defaults to ignorecase: true */
	{"SRC", "src/a.c", true},
	{"App/X/Main.ts", "app/x/main.TS", true},
	{"[A-C].c", "b.c", true},
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *g[8];
		size_t n = 0;
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", cases[i].globs);
		for (char *a = buf; a && n < 8;) {
			char *bar = strchr(a, '|');
			if (bar)
				*bar = '\0';
			g[n++] = a;
			a = bar ? bar + 1 : NULL;
		}
		ok(clawmd_globs_match(g, n, cases[i].path) == cases[i].want, "%s %s '%s'",
		   cases[i].globs, cases[i].want ? "matches" : "does not match", cases[i].path);
	}
	return done_testing();
}
