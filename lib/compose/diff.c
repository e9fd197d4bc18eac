/* diff.c - describe a group's changes for people and CI: unified diffs of
 * file content (libgit2's buffer diff) and one line per other change. */
#include "clawmd.h"
#include "sys/git.h"
#include "base/util.h"

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

/* Names and link targets found on disk are the agent's: print them so that
 * no byte can forge a line or drive a terminal. */
static const char *safe(struct clawmd_buf *tmp, const char *s)
{
	clawmd_buf_clear(tmp);
	clawmd_buf_put(tmp, "", 0);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c < 0x7f && c != '\\')
			clawmd_buf_putc(tmp, (char)c);
		else
			clawmd_buf_printf(tmp, "\\x%02x", c);
	}
	return tmp->ptr;
}

int clawmd_change_diff(struct clawmd_buf *out, const struct clawmd_change *c, const char *dir,
		       struct clawmd_err *err)
{
	/* Content diffs: a file written over a file (whose content was read)
	 * or over nothing.  Everything else is described in one line. */
	bool old_known = c->old_type == CLAWMD_FT_NONE ||
			 (c->old_type == CLAWMD_FT_FILE && !c->old_unread);
	if (c->action != CLAWMD_WRITE || c->want->type != CLAWMD_FT_FILE || !old_known)
		return 0;
	const struct clawmd_git *git = clawmd_git(err);
	if (!git)
		return err->code;
	git_patch *patch = NULL;
	git_buf buf = {0};
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	char *a = clawmd_xasprintf("%s/%s", dir, c->name);
	bool had_old = c->old_type == CLAWMD_FT_FILE;
	int rc = 0;
	if (git->git_patch_from_buffers(&patch, had_old ? c->old.ptr : NULL, had_old ? c->old.len : 0,
				      a, c->want->data, c->want->len, a, &opts) < 0 ||
	    git->git_patch_to_buf(&buf, patch) < 0) {
		rc = clawmd_err_set(err, CLAWMD_EFS, "could not diff '%s': %s", a,
				    clawmd_git_errmsg(git));
	} else {
		clawmd_buf_put(out, buf.ptr, buf.size);
	}
	git->git_buf_dispose(&buf);
	git->git_patch_free(patch);
	free(a);
	return rc;
}

int clawmd_changes_format(struct clawmd_buf *out, const struct clawmd_changes *ch,
			  struct clawmd_err *err)
{
	struct clawmd_buf n = CLAWMD_BUF_INIT, t = CLAWMD_BUF_INIT, o = CLAWMD_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < ch->n && rc == 0; i++) {
		const struct clawmd_change *c = &ch->v[i];
		const char *p = ch->path, *name = safe(&n, c->name), *old = safe(&o, c->old.ptr);
		switch (c->action) {
		case CLAWMD_MKDIR:
			clawmd_buf_printf(out, "mkdir %s/%s\n", p, name);
			break;
		case CLAWMD_CREATE_LOCAL:
			clawmd_buf_printf(out, "create %s/%s (empty)\n", p, name);
			break;
		case CLAWMD_PRESERVE:
			if (c->into_local && !c->carry.len)
				clawmd_buf_printf(out, "replace %s/%s (edited, but only clawmd's own lines)\n",
						  p, name);
			else if (c->into_local)
				clawmd_buf_printf(out, "preserve %s/%s -> %s/%s (not written by clawmd)\n",
						  p, name, p, c->moved_to ? safe(&t, c->moved_to) : CLAWMD_LOCAL_NAME);
			else
				clawmd_buf_printf(out, "preserve %s/%s (%s) -> %s/%s%s\n", p, name,
						  type_word(c->old_type), p,
						  c->moved_to ? safe(&t, c->moved_to) : name,
						  c->moved_to ? "" : ".clawmd-preserved-<time>-<random>");
			break;
		case CLAWMD_REMOVE:
			if (c->old_type == CLAWMD_FT_DIR && strchr(c->name, '/'))
				clawmd_buf_printf(out, "remove %s/%s (a fragment directory no longer "
						  "composed)\n", p, name);
			else if (c->old_type == CLAWMD_FT_DIR)
				clawmd_buf_printf(out, "remove %s/%s (a killed run's staging directory)\n",
						  p, name);
			else if (c->old_type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink remove %s/%s -> %s\n", p, name, old);
			else
				clawmd_buf_printf(out, "remove %s/%s\n", p, name);
			break;
		case CLAWMD_WRITE:
			if (c->want->type == CLAWMD_FT_DIR) {
				/* A copied fragment with the files it imports. */
				clawmd_buf_printf(out, "%s %s/%s/ (the fragment and %zu file(s) it "
						  "imports)\n", c->old_type == CLAWMD_FT_DIR ? "rewrite"
											: "write",
						  p, name, c->want->nfiles - 1);
				for (size_t k = 0; k < c->want->nfiles; k++)
					clawmd_buf_printf(out, "  %s\n", safe(&t, c->want->files[k].name));
				break;
			}
			if (c->old_type == CLAWMD_FT_LINK && c->want->type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink retarget %s/%s: %s -> %s\n", p, name, old,
						  c->want->data);
			else if (c->want->type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink add %s/%s -> %s%s\n", p, name, c->want->data,
						  c->old_type == CLAWMD_FT_FILE ? " (replaces a file)" : "");
			else if (c->old_type == CLAWMD_FT_LINK)
				clawmd_buf_printf(out, "symlink remove %s/%s -> %s (replaced by a file)\n",
						  p, name, old);
			else if (c->old_unread)
				clawmd_buf_printf(out, "rewrite %s/%s (previous content larger, not shown)\n",
						  p, name);
			rc = clawmd_change_diff(out, c, p, err);
			break;
		}
	}
	clawmd_buf_release(&n);
	clawmd_buf_release(&t);
	clawmd_buf_release(&o);
	return rc;
}
