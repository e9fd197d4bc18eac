/* diff.c - describe a group's changes for people and CI: unified diffs of
 * file content (libgit2's buffer diff) and one line per other change. */
#include "clawmd.h"
#include "git.h"
#include "util.h"

#include <stdio.h>

static const char *type_word(enum clawmd_ftype t)
{
	switch (t) {
	case CLAWMD_FT_FILE:
		return "file";
	case CLAWMD_FT_LINK:
		return "symlink";
	case CLAWMD_FT_DIR:
		return "directory";
	case CLAWMD_FT_OTHER:
		return "special file";
	default:
		return "nothing";
	}
}

int clawmd_change_diff(struct clawmd_buf *out, const struct clawmd_change *c, const char *dir,
		       struct clawmd_err *err)
{
	/* Content diffs: a file written over a file or nothing, or a file
	 * removed.  Symlink changes are described in one line instead. */
	bool old_file = c->old_type == CLAWMD_FT_FILE || c->old_type == CLAWMD_FT_NONE;
	const char *new_data = NULL;
	size_t new_len = 0;
	if (c->action == CLAWMD_WRITE && c->want->type == CLAWMD_FT_FILE && old_file) {
		new_data = c->want->data;
		new_len = c->want->len;
	} else if (!(c->action == CLAWMD_REMOVE && c->old_type == CLAWMD_FT_FILE)) {
		return 0;
	}
	const struct clawmd_git *g = clawmd_git(err);
	if (!g)
		return err->code;
	git_patch *patch = NULL;
	git_buf buf = {0};
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	char *a = clawmd_xasprintf("%s/%s", dir, c->name);
	bool had_old = c->old_type == CLAWMD_FT_FILE;
	int rc = 0;
	if (g->git_patch_from_buffers(&patch, had_old ? c->old.ptr : NULL, had_old ? c->old.len : 0,
				      a, new_data, new_len, new_data ? a : NULL, &opts) < 0 ||
	    g->git_patch_to_buf(&buf, patch) < 0) {
		rc = clawmd_err_set(err, CLAWMD_EFS, "could not diff '%s': %s", a,
				    clawmd_git_errmsg(g));
	} else {
		clawmd_buf_put(out, buf.ptr, buf.size);
	}
	g->git_buf_dispose(&buf);
	g->git_patch_free(patch);
	free(a);
	return rc;
}

int clawmd_changes_format(struct clawmd_buf *out, const struct clawmd_changes *ch,
			  struct clawmd_err *err)
{
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		const char *p = ch->path;
		switch (c->action) {
		case CLAWMD_MKDIR:
			clawmd_buf_printf(out, "mkdir %s/%s\n", p, c->name);
			break;
		case CLAWMD_CREATE_LOCAL:
			clawmd_buf_printf(out, "create %s/%s (empty)\n", p, c->name);
			break;
		case CLAWMD_PRESERVE:
			if (c->into_local)
				clawmd_buf_printf(out, "preserve %s/%s -> %s/%s (not written by clawmd)\n",
						  p, c->name, p, c->moved_to ? c->moved_to : CLAWMD_LOCAL_NAME);
			else
				clawmd_buf_printf(out, "preserve %s/%s (%s) -> %s/%s\n", p, c->name,
						  type_word(c->old_type), p,
						  c->moved_to ? c->moved_to : "<name>.clawmd-preserved-*");
			break;
		case CLAWMD_REMOVE:
			if (c->old_type == CLAWMD_FT_DIR)
				clawmd_buf_printf(out, "remove %s/%s (a killed run's staging directory)\n",
						  p, c->name);
			if (c->old_type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink remove %s/%s -> %s\n", p, c->name,
						  c->old.ptr ? c->old.ptr : "");
			break;
		case CLAWMD_WRITE:
			if (c->want->type != CLAWMD_FT_LINK && c->old_type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink remove %s/%s -> %s (replaced by a file)\n",
						  p, c->name, c->old.ptr);
			if (c->want->type != CLAWMD_FT_LINK)
				break;
			if (c->old_type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink retarget %s/%s: %s -> %s\n", p, c->name,
						  c->old.ptr, c->want->data);
			else
				clawmd_buf_printf(out, "symlink add %s/%s -> %s%s\n", p, c->name,
						  c->want->data,
						  c->old_type == CLAWMD_FT_FILE ? " (replaces a file)" : "");
			break;
		}
		int rc = clawmd_change_diff(out, c, p, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}
