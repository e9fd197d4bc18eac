/* root.c - finding ROOT from a directory, as git finds its work tree, and
 * never at a marker an agent planted inside a group. */
#include "sys/dl.h"
#include "clawmd.h"
#include "fs/fs.h"
#include "layout/json.h"
#include "layout/root.h"
#include "base/util.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- finding ROOT ------------------------------------------------------ */

/*
 * Without -C and $CLAWMD_ROOT, ROOT is found by walking up from the current
 * directory, as git finds its work tree, but without loading libgit2 (whose
 * dynamic loading alone would cost more than a no-op compose): the nearest
 * ancestor holding a clawmd.json, else the nearest one holding a .git.
 *
 * An agent can write anything in its group, including `git init` or a
 * clawmd.json that redirects "base", "groups" and "state".  When an operator
 * runs clawmd inside a group, that planted marker is nearer than the real
 * ROOT.  So every marker found on the way up is a candidate, and a candidate
 * inside the groups directory of a candidate further up is never ROOT.
 */
struct root_candidate {
	char *dir;
	bool json;  /* holds clawmd.json (else .git) */
	bool shape; /* neither, but shaped like a ROOT (container/, groups/) */
	bool out;   /* inside an outer candidate's groups directory */
};

/* The groups directory of a ROOT candidate: "groups" from its clawmd.json
 * (only that key: a preset does not move it), else DIR/groups. */
static char *candidate_groups(const struct root_candidate *c)
{
	struct clawmd_dir d = CLAWMD_DIR_INIT;
	struct clawmd_buf buf = CLAWMD_BUF_INIT;
	struct clawmd_err e = CLAWMD_ERR_INIT;
	char *groups = NULL;
	/* Without cJSON, DIR/groups: loading the layout then says why. */
	if (c->json && clawmd_dl_need_cjson(&e) == 0 && clawmd_dir_open(&d, c->dir, &e) == 0 &&
	    clawmd_fs_read(&buf, &d, "clawmd.json", CLAWMD_LAYOUT_JSON_MAX, &e) == 0) {
		cJSON *doc = cJSON_ParseWithLength(buf.ptr, buf.len);
		const cJSON *key = cJSON_GetObjectItemCaseSensitive(doc, "groups");
		if (cJSON_IsString(key) && key->valuestring[0])
			groups = key->valuestring[0] == '/' ? clawmd_xstrdup(key->valuestring)
							  : clawmd_path_join(c->dir, key->valuestring);
		cJSON_Delete(doc);
	}
	clawmd_buf_release(&buf);
	clawmd_dir_release(&d);
	if (!groups)
		groups = clawmd_path_join(c->dir, "groups");
	char *real = realpath(groups, NULL);
	if (real) {
		free(groups);
		groups = real;
	}
	return groups;
}


char *clawmd_layout_walk_up(const char *cwd, struct clawmd_err *err)
{
	struct root_candidate c[64];
	size_t n = 0;
	char *dir = clawmd_xstrdup(cwd);
	for (;;) {
		struct stat st;
		char *f = clawmd_path_join(dir, "clawmd.json");
		bool json = stat(f, &st) == 0 && S_ISREG(st.st_mode);
		free(f);
		f = clawmd_path_join(dir, ".git");
		bool git = !json && lstat(f, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
		free(f);
		/* A ROOT with neither marker still has the layout's shape: it is
		 * never chosen, but its groups directory disqualifies what an
		 * agent plants inside (its fragments removed first). */
		bool shape = false;
		if (!json && !git) {
			f = clawmd_path_join(dir, "groups");
			shape = stat(f, &st) == 0 && S_ISDIR(st.st_mode);
			free(f);
			if (shape) {
				f = clawmd_path_join(dir, "container");
				shape = stat(f, &st) == 0 && S_ISDIR(st.st_mode);
				free(f);
			}
		}
		/* A directory compose wrote fragments into is a group, whatever
		 * else its agent planted there. */
		if (json || git || shape) {
			f = clawmd_path_join(dir, CLAWMD_FRAGMENTS_DIR);
			bool group = lstat(f, &st) == 0;
			free(f);
			if (!group && n < CLAWMD_ARRAY_SIZE(c))
				c[n++] = (struct root_candidate){clawmd_xstrdup(dir), json, shape, false};
		}
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			if (dir[1] == '\0')
				break;
			dir[1] = '\0'; /* up to "/" itself, then stop */
			continue;
		}
		*slash = '\0';
	}
	free(dir);
	/* Outermost first: each candidate disqualifies those in its groups. */
	for (size_t i = n; n > 1 && i-- > 0;) {
		if (c[i].out)
			continue;
		char *groups = candidate_groups(&c[i]);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(c[k].dir, groups) || clawmd_path_below(c[k].dir, groups))
				c[k].out = true;
		free(groups);
	}
	char *root = NULL;
	for (int pass = 0; pass < 2 && !root; pass++)
		for (size_t i = 0; i < n && !root; i++)
			if (!c[i].out && !c[i].shape && c[i].json == (pass == 0))
				root = clawmd_xstrdup(c[i].dir);
	for (size_t i = 0; i < n; i++)
		free(c[i].dir);
	if (!root)
		clawmd_err_set(err, CLAWMD_EUSAGE,
			       "no root: pass -C DIR, set CLAWMD_ROOT, or run inside a directory "
			       "tree with a clawmd.json or a git work tree");
	return root;
}


char *clawmd_layout_find_root(const char *dir, struct clawmd_err *err)
{
	char *lex = clawmd_path_lexical(dir);
	char *root = lex ? clawmd_layout_walk_up(lex, err) : NULL;
	free(lex);
	return root;
}
