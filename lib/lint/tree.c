/* tree.c - a directory tree linted as Claude Code started there would load it (check --cwd). */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a tree ------------------------------------------------------------- */

/* Every directory below `dir` that holds .claude/rules, for nested memory. */
static void lint_tree_rules(struct clawmd_findings *out, const char *dir, const char *root,
			    int depth)
{
	char *rules = clawmd_path_join(dir, ".claude/rules");
	struct stat st;
	static const struct clawmd_view host = {NULL, 0};
	if (stat(rules, &st) == 0 && S_ISDIR(st.st_mode))
		clawmd_lint_rules_dir(out, NULL, &host, dir, root);
	free(rules);
	DIR *d = depth < 12 ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
			continue;
		char *p = clawmd_path_join(dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			lint_tree_rules(out, p, root, depth + 1);
		free(p);
	}
	if (d)
		closedir(d);
}

int clawmd_lint_tree(struct clawmd_findings *out, const char *dir,
		     const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct stat st;
	char *real = realpath(dir, NULL);
	if (!real || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int e = errno;
		free(real);
		errno = real ? ENOTDIR : e;
		return clawmd_err_sys(err, CLAWMD_EINPUT, "could not open directory '%s'", dir);
	}
	/* The tree only: no user tier, and nothing above DIR is reported. */
	struct clawmd_lint_view V = {.out = out, .root = real, .limit = real};
	struct clawmd_memory_opts mo = {
		.cwd = real,
		.approve_external = opts && opts->approve_external,
	};
	size_t chars;
	int rc = clawmd_lint_loaded(&V, &mo, &chars, err);
	if (rc == 0) {
		lint_tree_rules(out, real, real, 0);
		char *local = clawmd_path_join(real, CLAWMD_LOCAL_NAME);
		if (lstat(local, &st) == 0)
			clawmd_lint_local_ignored(out, NULL, real, real, CLAWMD_LOCAL_NAME);
		free(local);
	}
	free(real);
	return rc;
}
