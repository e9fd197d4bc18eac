/* Unit tests for the container view (lib/fs/view.c): a mount table over a temp
 * tree, symlinks resolved in the container, and reads that refuse what is
 * not a regular file. */
#include "clawmd.h"
#include "tap.h"
#include "base/util.h"
#include "fs/view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[] = "/tmp/clawmd-view.XXXXXX";

static void put(const char *rel, const char *text)
{
	char *p = clawmd_xasprintf("%s/%s", base, rel);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void mk(const char *rel)
{
	char *p = clawmd_xasprintf("%s/%s", base, rel);
	mkdir(p, 0755);
	free(p);
}

static void link_(const char *target, const char *rel)
{
	char *p = clawmd_xasprintf("%s/%s", base, rel);
	if (symlink(target, p) < 0)
		perror(p);
	free(p);
}

static void is_real(const struct clawmd_view *v, const char *path, const char *want)
{
	char *r = clawmd_view_realpath(v, path);
	is_str(r ? r : "(none)", want, "realpath %s", path);
	free(r);
}

int main(void)
{
	if (!mkdtemp(base))
		return 1;
	/* host: g/ (the group), app/ (read-only app), secret/ (host only) */
	mk("g");
	mk("g/d");
	mk("app");
	mk("app/skills");
	mk("secret");
	put("secret/x.md", "HOST\n");
	put("app/CLAUDE.md", "base\n");
	put("app/skills/s.md", "skill\n");
	put("g/d/y.md", "y\n");
	link_("/app/skills/s.md", "g/frag.md");	 /* absolute: in the container */
	link_("../app/CLAUDE.md", "g/rel.md");	 /* relative: leaves the mount */
	char *abs_secret = clawmd_xasprintf("%s/secret", base);
	link_(abs_secret, "g/host");		 /* a host path: unmapped there */
	link_("d/../d/y.md", "g/dots.md");
	link_("loop", "g/loop");
	char *fifo = clawmd_xasprintf("%s/g/fifo.md", base);
	mkfifo(fifo, 0644);
	free(fifo);

	char *hg = clawmd_xasprintf("%s/g", base), *ha = clawmd_xasprintf("%s/app", base);
	struct clawmd_mount m[] = {
		{(char *)"/workspace/agent", hg},
		{(char *)"/app", ha},
	};
	struct clawmd_view v = {m, 2, NULL};

	is_real(&v, "/workspace/agent/frag.md", "/app/skills/s.md");
	is_real(&v, "/workspace/agent/rel.md", "(none)"); /* /workspace/app/CLAUDE.md */
	is_real(&v, "/workspace/agent/host/x.md", "(none)");
	is_real(&v, "/workspace/agent/dots.md", "/workspace/agent/d/y.md");
	is_real(&v, "/workspace", "/workspace"); /* above a mount: virtual */
	is_real(&v, "/workspace/agent/..", "/workspace");
	is_real(&v, "/nowhere", "(none)");
	is(clawmd_view_kind(&v, "/workspace"), 'd', "a mount's parent is a directory");

	struct clawmd_view_node nd;
	is(clawmd_view_resolve(&nd, &v, "/workspace/agent/loop", true), -ELOOP, "a link loop: ELOOP");
	size_t budget = 3;
	struct clawmd_view vb = {m, 2, &budget};
	is(clawmd_view_resolve(&nd, &vb, "/workspace/agent/d/y.md", true), -E2BIG,
	   "a spent budget stops the walk");

	struct clawmd_buf b = CLAWMD_BUF_INIT;
	clawmd_buf_put(&b, "", 0);
	is(clawmd_view_read(&v, "/workspace/agent/frag.md", &b, 100, NULL), 0, "read through a link");
	is_str(b.ptr, "skill\n", "the skill, as the container sees it");
	clawmd_buf_clear(&b);
	is(clawmd_view_read(&v, "/workspace/agent/fifo.md", &b, 100, NULL), -ENODEV,
	   "a FIFO is refused, not opened");
	is(clawmd_view_read(&v, "/workspace/agent/d", &b, 100, NULL), -EISDIR, "a directory");
	is(clawmd_view_read(&v, "/app/CLAUDE.md", &b, 3, NULL), -EFBIG, "over the size: not read");
	is(b.len, (size_t)0, "nothing read");

	/* a file that grows between its stat and its read (the agent writes
	 * while clawmd reads): read whole while within the bound, refused past
	 * it; what a buffer held before stays in front */
	is(clawmd_view_resolve(&nd, &v, "/workspace/agent/d/y.md", true), 0, "stat y.md");
	put("g/d/y.md", "y grown to many more bytes than fstat said\n");
	clawmd_buf_put(&b, "held:", 5);
	is(clawmd_view_read_node(&nd, &b, 100), 0, "grown within the bound: read");
	is_str(b.ptr, "held:y grown to many more bytes than fstat said\n",
	       "read whole, after what the buffer held");
	clawmd_buf_clear(&b);
	is(clawmd_view_read_node(&nd, &b, 10), -EFBIG, "grown past the bound: refused");
	clawmd_view_node_release(&nd);
	clawmd_buf_clear(&b);

	/* the host view: identity, the kernel's semantics */
	struct clawmd_view host = {NULL, 0, NULL};
	char *want = realpath(hg, NULL);
	char *got = clawmd_view_realpath(&host, hg);
	is_str(got ? got : "(none)", want ? want : "?", "host view: realpath");
	free(got);
	free(want);

	char **names;
	size_t n;
	bool trunc;
	dev_t dev;
	ino_t ino;
	is(clawmd_view_list(&v, "/workspace/agent", 2, &names, &n, &trunc, &dev, &ino), 0,
	   "list a directory");
	ok(n == 2 && trunc, "the listing stops at the bound (%zu)", n);
	clawmd_strv_free(names, n);

	clawmd_buf_release(&b);
	char *cmd = clawmd_xasprintf("rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", base);
	free(cmd);
	free(hg);
	free(ha);
	free(abs_secret);
	return done_testing();
}
